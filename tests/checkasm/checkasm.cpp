// vmafpp_checkasm driver: options, per-kernel bookkeeping, guard pages, the
// crash handler and the sample fills shared by the modules.
#include "checkasm/checkasm.hpp"

#include <fnmatch.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <stdexcept>

#include "vmafpp/cpu.hpp"

namespace vmafpp::checkasm {

namespace {

// Text the crash handler prints: async-signal-safe, so a fixed buffer.
char g_crash_context[512] = "(no kernel running)";

void crash_handler(int sig) {
    const char* name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : "SIGILL";
    char msg[700];
    const int len = std::snprintf(msg, sizeof msg,
                                  "checkasm: %s (an access outside the rows, or an instruction "
                                  "this CPU lacks) in %s\n",
                                  name, g_crash_context);
    if (len > 0) (void)!write(2, msg, static_cast<std::size_t>(std::min<int>(len, sizeof msg - 1)));
    _exit(3);
}

}  // namespace

void install_crash_handler() {
    struct sigaction sa {};
    sa.sa_handler = crash_handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, nullptr);
    sigaction(SIGBUS, &sa, nullptr);
    sigaction(SIGILL, &sa, nullptr);
}

std::string describe_cpu() {
    const unsigned f = detected_cpu_flags();
    std::string s;
    // The bits mean what they mean on this build's architecture (cpu.hpp).
#if defined(__aarch64__)
    for (auto [bit, name] : {std::pair{kCpuNeon, "neon"}})
#else
    for (auto [bit, name] : {std::pair{kCpuSse2, "sse2"}, {kCpuSsse3, "ssse3"}, {kCpuSse41, "sse4.1"},
                             {kCpuAvx2, "avx2"}, {kCpuAvx512, "avx512"}, {kCpuAvx512Icl, "avx512icl"}})
#endif
        if (f & bit) {
            if (!s.empty()) s += ' ';
            s += name;
        }
    return s.empty() ? "baseline" : s;
}

namespace {

std::uint64_t fnv1a(const std::string& s) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

bool glob_match(const std::string& glob, const std::string& name) {
    return fnmatch(glob.c_str(), name.c_str(), 0) == 0;
}

}  // namespace

void set_crash_context(const std::string& text) {
    const std::size_t n = std::min(text.size(), sizeof g_crash_context - 1);
    std::memcpy(g_crash_context, text.data(), n);
    g_crash_context[n] = '\0';
}

std::vector<Module>& modules() {
    static std::vector<Module> m;
    return m;
}

Context::Context(Options o) : opts_(std::move(o)) {}

bool Context::level_runs(const Level& level) {
    if ((cpu_flags() & level.flag) == level.flag) return true;
    if (std::find(skipped_levels_.begin(), skipped_levels_.end(), level.name) ==
        skipped_levels_.end()) {
        skipped_levels_.push_back(level.name);
        std::printf("  %-34s SKIPPED: this machine (or VMAFPP_CPUMASK) has no %s\n", "",
                    level.name);
    }
    return false;
}

bool Context::check(const std::string& kernel, const Level& level) {
    const std::string full = kernel + "_" + level.name;
    if (!glob_match(opts_.function_glob, full) && !glob_match(opts_.function_glob, kernel))
        return false;
    if (!level_runs(level)) return false;
    kernel_ = kernel;
    level_ = level.name;
    failed_ = false;
    bands_done_ = 0;
    failure_.str("");
    set_crash_context(full + " (seed " + std::to_string(opts_.seed) + ")");
    return true;
}

void Context::at_band(int band, const std::string& what) {
    set_crash_context(kernel_ + "_" + level_ + " band " + std::to_string(band) + " (replay: --seed " +
                      std::to_string(opts_.seed) + " --function " + kernel_ + "_" + level_ + "): " + what);
}

Rng Context::rng() const { return Rng(opts_.seed ^ fnv1a(kernel_)); }

std::ostream& Context::fail(int band) {
    failed_ = true;
    failure_.str("");
    failure_ << "    first failure at band " << band << " (replay: --seed " << opts_.seed
             << " --function " << kernel_ << "_" << level_ << "): ";
    return failure_;
}

namespace {
// This thread's CPU time: on a machine shared with other jobs it counts only
// the time this thread ran, unlike a wall clock.
struct thread_clock {
    using duration = std::chrono::nanoseconds;
    using time_point = std::chrono::time_point<thread_clock>;
    static time_point now() {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return time_point(duration(static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec));
    }
};
}  // namespace

void Context::bench(const std::function<void()>& scalar, const std::function<void()>& simd) {
    using clock = thread_clock;
    // Calls per batch such that a batch takes about 2 ms, then the median
    // batch of 15 for each, interleaved so that clock changes hit both.
    auto calls_for = [&](const std::function<void()>& f) {
        int calls = 1;
        for (;;) {
            const auto t0 = clock::now();
            for (int i = 0; i < calls; ++i) f();
            const auto dt = clock::now() - t0;
            if (dt > std::chrono::milliseconds(2) || calls > (1 << 24)) return calls;
            calls *= 2;
        }
    };
    const int calls = calls_for(scalar);
    std::vector<double> a, b;
    for (int rep = 0; rep < 15; ++rep) {
        for (int which = 0; which < 2; ++which) {
            const auto& f = which == 0 ? scalar : simd;
            const auto t0 = clock::now();
            for (int i = 0; i < calls; ++i) f();
            const double ns = std::chrono::duration<double, std::nano>(clock::now() - t0).count();
            (which == 0 ? a : b).push_back(ns / calls);
        }
    }
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    const double ma = a[a.size() / 2], mb = b[b.size() / 2];
    std::printf("  %-34s bench: scalar %10.0f ns, %-6s %10.0f ns, x%.2f (thread CPU time, median)\n",
                (kernel_ + "_" + level_).c_str(), ma, level_.c_str(), mb, ma / mb);
}

void Context::done() {
    ++kernels_;
    total_bands_ += bands_done_;
    const std::string full = kernel_ + "_" + level_;
    if (failed_) {
        ++failures_;
        std::printf("  %-34s FAILED after %lld bands\n%s\n", full.c_str(), bands_done_,
                    failure_.str().c_str());
    } else {
        std::printf("  %-34s OK (%lld bands)\n", full.c_str(), bands_done_);
    }
    std::fflush(stdout);
    set_crash_context("(no kernel running)");
}

// ---------------------------------------------------------------------------

GuardedRows::GuardedRows(int slots, std::size_t max_bytes) {
    page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    data_bytes_ = (max_bytes + page_ - 1) / page_ * page_;
    slot_bytes_ = data_bytes_ + page_;  // the next slot's leading guard ends this one
    total_ = slots * slot_bytes_ + page_;
    void* p = mmap(nullptr, total_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("checkasm: mmap failed");
    base_ = static_cast<std::uint8_t*>(p);
    for (int s = 0; s <= slots; ++s)
        if (mprotect(base_ + s * slot_bytes_, page_, PROT_NONE) != 0)
            throw std::runtime_error("checkasm: mprotect failed");
}

GuardedRows::~GuardedRows() { munmap(base_, total_); }

// ---------------------------------------------------------------------------

const char* fill_name(Fill f) {
    switch (f) {
        case Fill::random: return "random";
        case Fill::zero: return "zero";
        case Fill::max: return "max";
        case Fill::alternate: return "alternate";
        case Fill::extremes: return "extremes";
        case Fill::near_max: return "near_max";
        case Fill::ramp: return "ramp";
        case Fill::smooth_noise: return "smooth_noise";
        case Fill::count: break;
    }
    return "?";
}

Fill random_fill(Rng& rng) {
    return static_cast<Fill>(rng() % static_cast<unsigned>(Fill::count));
}

void fill_samples(Rng& rng, Fill f, std::uint64_t max, std::size_t n,
                  const std::function<void(std::size_t, std::uint64_t)>& set) {
    std::uniform_int_distribution<std::uint64_t> any(0, max);
    const std::uint64_t phase = rng() & 1;
    const std::uint64_t base = any(rng);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t v = 0;
        switch (f) {
            case Fill::random: v = any(rng); break;
            case Fill::zero: v = 0; break;
            case Fill::max: v = max; break;
            case Fill::alternate: v = ((i + phase) & 1) ? max : 0; break;
            case Fill::extremes: v = (rng() & 1) ? max : 0; break;
            case Fill::near_max: v = max - std::min<std::uint64_t>(max, rng() % 4); break;
            case Fill::ramp: v = (base + i * 37) % (max + 1); break;
            case Fill::smooth_noise: {
                const std::uint64_t spread = std::max<std::uint64_t>(1, max / 64);
                const std::uint64_t noise = rng() % (2 * spread + 1);
                const std::uint64_t lo = base > spread ? base - spread : 0;
                v = std::min(max, lo + noise);
                break;
            }
            case Fill::count: break;
        }
        set(i, v);
    }
}

int band_width(Rng& rng, int band, int max_width) {
    if (band < 64) return std::min(band + 1, max_width);
    const unsigned r = static_cast<unsigned>(rng() % 10);
    if (r < 7) return 1 + static_cast<int>(rng() % std::min(300, max_width));
    return 1 + static_cast<int>(rng() % max_width);
}

}  // namespace vmafpp::checkasm

// ---------------------------------------------------------------------------

namespace {

void usage() {
    std::puts(
        "usage: vmafpp_checkasm [--function GLOB] [--seed N] [--iterations N] [--bench] [--list]\n"
        "  Checks every SIMD kernel against its scalar reference on generated bands.\n"
        "  --function GLOB  only kernels whose name (e.g. vif_stat_vertical_u8, or with the\n"
        "                   level: vif_stat_vertical_u8_avx2) matches GLOB\n"
        "  --seed N         random seed (default: time based; printed)\n"
        "  --iterations N   bands per kernel and level (default 1000)\n"
        "  --bench          also time each kernel against the scalar one\n"
        "  --list           list the modules and exit");
}

}  // namespace

int main(int argc, char** argv) {
    using namespace vmafpp::checkasm;
    Context::Options o;
    o.seed = static_cast<std::uint64_t>(
        std::chrono::steady_clock::now().time_since_epoch().count() % 4294967291ull);
    bool list = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "checkasm: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        try {
            if (a == "--function") o.function_glob = value();
            else if (a == "--seed") o.seed = std::stoull(value());
            else if (a == "--iterations") o.bands = std::stoi(value());
            else if (a == "--bench") o.bench = true;
            else if (a == "--list") list = true;
            else if (a == "--help" || a == "-h") { usage(); return 0; }
            else {
                std::fprintf(stderr, "checkasm: unknown option %s\n", a.c_str());
                usage();
                return 2;
            }
        } catch (const std::exception&) {
            std::fprintf(stderr, "checkasm: bad value for %s\n", a.c_str());
            return 2;
        }
    }
    if (list) {
        for (const auto& m : modules()) std::puts(m.name);
        return 0;
    }
    install_crash_handler();
    std::printf("checkasm: seed %llu, %d bands per kernel, cpu %s (SIMD level in use: %s)\n",
                static_cast<unsigned long long>(o.seed), o.bands,
                describe_cpu().c_str(), vmafpp::simd_level_name(vmafpp::simd_level()));
    Context ctx(o);
    for (const auto& m : modules()) {
        std::printf("%s:\n", m.name);
        std::fflush(stdout);
        m.run(ctx);
    }
    if (ctx.kernels_checked() == 0) {
        std::printf("checkasm: no kernel checked (filter %s, or no SIMD level here)\n",
                    o.function_glob.c_str());
        return 0;
    }
    if (ctx.failures() > 0) {
        std::printf("checkasm: %d of %d kernels FAILED (seed %llu)\n", ctx.failures(),
                    ctx.kernels_checked(), static_cast<unsigned long long>(o.seed));
        return 1;
    }
    std::printf("checkasm: all %d kernels OK, %lld bands (seed %llu)\n", ctx.kernels_checked(),
                ctx.total_bands(), static_cast<unsigned long long>(o.seed));
    return 0;
}
