// vmafpp_thread_tests: the unit tests that run threads, which
// scripts/test-tsan runs under ThreadSanitizer. Their filter is kept here,
// once: the binary applies it unless given --gtest_filter, and prints it for
// thread_tests_complete.sh, which checks that vmafpp_tests has no test it
// matches that this binary lacks (a threaded test in a file that
// tests/CMakeLists.txt does not list for this binary).
#include <cstdio>
#include <cstring>

#include <gtest/gtest.h>

namespace {

// CliError's NonNumericThreads matches *Thread* but runs no thread (a
// malformed --threads value refused).
constexpr const char* kThreadedTests =
    "Pipeline*:*Thread*:ComputeSeam.*:VifShared.*-Cli/CliError.*";

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::strcmp(argv[1], "--print-filter") == 0) {
        std::puts(kThreadedTests);
        return 0;
    }
    GTEST_FLAG_SET(filter, kThreadedTests);
    ::testing::InitGoogleTest(&argc, argv);  // a --gtest_filter given still wins
    return RUN_ALL_TESTS();
}
