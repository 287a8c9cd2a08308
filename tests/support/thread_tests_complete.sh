#!/usr/bin/env bash
# thread_tests_complete.sh VMAFPP_TESTS VMAFPP_THREAD_TESTS: fails unless the
# whole suite and the threaded-tests binary list the same tests under the
# threaded-tests filter (see thread_tests_main.cpp).
set -euo pipefail
filter=$("$2" --print-filter)
list() { "$@" --gtest_list_tests | grep -v '^Running main'; }
if ! diff <(list "$1" --gtest_filter="$filter") <(list "$2" --gtest_filter="$filter"); then
    echo "thread_tests_complete: tests matching '$filter' are missing from vmafpp_thread_tests" \
         "(< lines); add their file to VMAFPP_THREAD_TEST_FILES in tests/CMakeLists.txt" >&2
    exit 1
fi
echo "thread_tests_complete: $(list "$2" --gtest_filter="$filter" | grep -c '^  ') threaded tests, all in vmafpp_thread_tests"
