// vmafpp_checkasm: every SIMD kernel against its scalar reference, in the
// spirit of dav1d's checkasm.
//
// A module (one file per library module: vif.cpp, motion.cpp, ...) registers
// itself with CHECKASM_MODULE(name) { ... } and, for every kernel and every
// SIMD level it ships, runs
//
//     for (const Level& level : levels) {
//         if (!ctx.check("vif_stat_vertical_u8", level)) continue;
//         Rng rng = ctx.rng();
//         for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
//             ... fill inputs, call both kernels ...
//             ctx.band();
//             if (differs) ctx.fail(band) << "w=" << w << ": mu1[3] 5 != 6";
//         }
//         if (ctx.benching()) ctx.bench(scalar_call, simd_call);
//         ctx.done();
//     }
//
// check() answers false for a kernel the --function glob excludes and for a
// level the machine (or VMAFPP_CPUMASK) lacks, which is reported as skipped.
// The random sequence of a kernel depends only on --seed and the kernel's
// name, so `--seed N --function NAME` replays a failure alone.
//
// Input rows live in page-guarded memory (GuardedRows: a read before or past
// a row faults, and the fault is reported with the kernel, band and seed);
// outputs carry canary elements on both sides (Canaried) so that a write
// outside [0, n) is reported.
#pragma once

#include <sys/mman.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "vmafpp/cpu.hpp"

namespace vmafpp::checkasm {

// A SIMD level, its name and the cpu flags (vmafpp::CpuFlag) it needs.
struct Level {
    const char* name;
    unsigned flag;
};

using Rng = std::mt19937_64;

class Context {
public:
    struct Options {
        std::uint64_t seed = 0;
        int bands = 1000;
        bool bench = false;
        std::string function_glob = "*";
        bool verbose = false;
    };
    explicit Context(Options o);

    // Whether `level` runs here; if not, says so once (SKIPPED line).
    bool level_runs(const Level& level);
    // Starts `kernel` at `level`; false if filtered out or not available.
    bool check(const std::string& kernel, const Level& level);
    // This kernel's generator: seeded from --seed and the kernel's name.
    Rng rng() const;
    int bands() const { return opts_.bands; }
    bool benching() const { return opts_.bench; }
    // No failure yet for the current kernel.
    bool ok() const { return !failed_; }
    // Counts one compared call.
    void band() { ++bands_done_; }
    // Names the band about to run for the crash handler.
    void at_band(int band, const std::string& what);
    // Records a failure of the current kernel at `band` and returns a stream
    // for its description (the first differing position and values).
    std::ostream& fail(int band);
    // Times both calls (median over batches) and reports the ratio.
    void bench(const std::function<void()>& scalar, const std::function<void()>& simd);
    // Ends the current kernel and prints its line.
    void done();

    int failures() const { return failures_; }
    int kernels_checked() const { return kernels_; }
    long long total_bands() const { return total_bands_; }
    const Options& options() const { return opts_; }

private:
    void flush_failure();

    Options opts_;
    std::string kernel_, level_;
    bool failed_ = false;
    long long bands_done_ = 0;
    std::ostringstream failure_;
    int failures_ = 0;
    int kernels_ = 0;
    long long total_bands_ = 0;
    std::vector<std::string> skipped_levels_;
};

// One SIMD level of a feature's kernel table (<feature>_kernels_for): its
// table and the table of the level below, which it starts from. A kernel the
// two share is checked once, at the lower level.
template <class Table>
struct TableLevel {
    Level level;
    const Table* kernels;
    const Table* below;
    // Whether `member` is this level's own twin (not inherited from below).
    template <class Member>
    bool owns(Member Table::*member) const {
        return kernels->*member != below->*member;
    }
};

// Every level above scalar (vmafpp::kSimdLevels, the list dispatch uses)
// that this machine (and VMAFPP_CPUMASK) has, lowest first, each with the
// table below it; the first level it lacks, and those above, are reported
// as skipped.
template <class Table>
std::vector<TableLevel<Table>> simd_tables(Context& ctx, const Table& (*kernels_for)(SimdLevel)) {
    std::vector<TableLevel<Table>> out;
    for (std::size_t i = 1; i < kSimdLevelCount; ++i) {
        const Level level{simd_level_name(kSimdLevels[i]), simd_level_flags(kSimdLevels[i])};
        if (!ctx.level_runs(level)) break;
        out.push_back({level, &kernels_for(kSimdLevels[i]), &kernels_for(kSimdLevels[i - 1])});
    }
    return out;
}

using ModuleFn = void (*)(Context&);
struct Module {
    const char* name;
    ModuleFn run;
};
std::vector<Module>& modules();
struct Registrar {
    Registrar(const char* name, ModuleFn fn) { modules().push_back({name, fn}); }
};

#define CHECKASM_MODULE(name)                                                       \
    static void checkasm_module_##name(::vmafpp::checkasm::Context&);              \
    static const ::vmafpp::checkasm::Registrar checkasm_registrar_##name(#name,    \
                                                                     &checkasm_module_##name); \
    static void checkasm_module_##name(::vmafpp::checkasm::Context& ctx)

// What the crash handler (SIGSEGV, SIGBUS, SIGILL) prints as the place of
// a crash; check() sets it to the kernel and seed, modules may add the band.
void set_crash_context(const std::string& text);
void install_crash_handler();
// The detected instruction sets, e.g. "sse2 ssse3 sse4.1 avx2".
std::string describe_cpu();

// ---------------------------------------------------------------------------
// Memory with guard pages. Each slot is [no access][data pages][no access];
// row<T>(slot, n, at_end) returns n elements placed flush against the
// trailing guard page (at_end) or the leading one, so that reading one
// element too far on that side faults.
class GuardedRows {
public:
    GuardedRows(int slots, std::size_t max_bytes);
    ~GuardedRows();
    GuardedRows(const GuardedRows&) = delete;
    GuardedRows& operator=(const GuardedRows&) = delete;

    template <class T>
    T* row(int slot, std::size_t n, bool at_end) {
        std::uint8_t* data = base_ + slot * slot_bytes_ + page_;
        if (!at_end) return reinterpret_cast<T*>(data);
        return reinterpret_cast<T*>(data + data_bytes_ - n * sizeof(T));
    }

private:
    std::size_t page_ = 0, data_bytes_ = 0, slot_bytes_ = 0, total_ = 0;
    std::uint8_t* base_ = nullptr;
};

// An output array with kGuard canary elements on each side.
template <class T>
class Canaried {
public:
    static constexpr int kGuard = 32;
    explicit Canaried(std::size_t n, std::uint8_t pattern = 0xA5)
        : n_(n), pattern_(pattern), buf_(n + 2 * kGuard) {
        poison();
    }
    T* data() { return buf_.data() + kGuard; }
    const T* data() const { return buf_.data() + kGuard; }
    std::size_t size() const { return n_; }
    T& operator[](std::size_t i) { return data()[i]; }
    const T& operator[](std::size_t i) const { return data()[i]; }
    // Refills everything, canaries included, with the pattern.
    void poison() {
        auto* b = reinterpret_cast<std::uint8_t*>(buf_.data());
        for (std::size_t i = 0; i < buf_.size() * sizeof(T); ++i) b[i] = pattern_;
    }
    // Index (relative to data(), so negative before it) of the first canary
    // element that changed, or 0 with ok = true.
    bool canaries_intact(long long* where, std::size_t n_used) const {
        T canary;
        auto* c = reinterpret_cast<std::uint8_t*>(&canary);
        for (std::size_t i = 0; i < sizeof(T); ++i) c[i] = pattern_;
        for (int i = 0; i < kGuard; ++i)
            if (!same(buf_[i], canary)) {
                *where = i - kGuard;
                return false;
            }
        for (std::size_t i = kGuard + n_used; i < buf_.size(); ++i)
            if (!same(buf_[i], canary)) {
                *where = static_cast<long long>(i) - kGuard;
                return false;
            }
        return true;
    }

private:
    static bool same(const T& a, const T& b) {
        return std::memcmp(&a, &b, sizeof(T)) == 0;
    }
    std::size_t n_;
    std::uint8_t pattern_;
    std::vector<T> buf_;
};

// ---------------------------------------------------------------------------
// Comparison helpers. first_difference() returns -1 when equal.
template <class T>
long long first_difference(const T* a, const T* b, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        if (!(a[i] == b[i])) return static_cast<long long>(i);
    return -1;
}

// Compares the first n elements of two outputs (scalar, simd) and both
// outputs' canaries; on a difference, fails the band with
// "<what>[i]: scalar X, <level> Y". Returns true when all is equal.
template <class T>
bool compare_output(Context& ctx, int band, const std::string& context, const char* what,
                    const Canaried<T>& ref, const Canaried<T>& got, std::size_t n,
                    const char* level) {
    long long where = 0;
    if (!ref.canaries_intact(&where, n)) {
        ctx.fail(band) << context << ": the SCALAR kernel wrote " << what << "[" << where
                       << "] outside [0, " << n << ")";
        return false;
    }
    if (!got.canaries_intact(&where, n)) {
        ctx.fail(band) << context << ": wrote " << what << "[" << where << "] outside [0, "
                       << n << ") (value " << +got.data()[where] << ")";
        return false;
    }
    const long long i = first_difference(ref.data(), got.data(), n);
    if (i < 0) return true;
    ctx.fail(band) << context << ": " << what << "[" << i << "] scalar " << +ref[i] << ", "
                   << level << " " << +got[i];
    return false;
}

// Hostile and ordinary ways of filling a row of samples in [0, max].
enum class Fill { random, zero, max, alternate, extremes, near_max, ramp, smooth_noise, count };
const char* fill_name(Fill f);
Fill random_fill(Rng& rng);
// Fills n samples (any unsigned integer type) in [0, max].
void fill_samples(Rng& rng, Fill f, std::uint64_t max, std::size_t n,
                  const std::function<void(std::size_t, std::uint64_t)>& set);

// Every width 1..64 first (all residues of any vector length up to 64, and
// every tail), then random widths, mostly small, some past several blocks.
int band_width(Rng& rng, int band, int max_width);

}  // namespace vmafpp::checkasm
