// The one way a feature builds its kernel tables (dav1d's *_dsp_init order):
// the scalar table is the reference, and each SIMD level's table is the table
// of the level below with the entries that level's ISA files have twins of
// replaced. A feature declares its table functions in <name>_kernels.hpp,
// one line each,
//
//     const VifKernels& vif_kernels_scalar();
//     KernelInit<VifKernels> vif_init_avx2, vif_init_avx512, vif_init_avx512icl, vif_init_neon;
//     extern KernelsFor<VifKernels>& vif_kernels_for;
//
// and <name>_dispatch.cpp binds the lookup to its ladder:
//
//     KernelsFor<VifKernels>& vif_kernels_for =
//         kernel_table<VifKernels, vif_kernels_scalar, VMAFPP_X86_INIT(vif_init_avx2),
//                      VMAFPP_X86_INIT(vif_init_avx512), VMAFPP_X86_INIT(vif_init_avx512icl),
//                      VMAFPP_ARM_INIT(vif_init_neon)>;
//
// where vif_init_avx2(VifKernels&) (in vif_avx2.cpp, compiled with that
// level's flags) assigns its twins. The inits are listed in SimdLevel's
// order, every architecture's (a feature with no twins at the last levels
// may leave them out: they are nullptr); the ladder climbs only this
// architecture's kSimdLevels, so NEON's table starts from the scalar one. An init is compiled with
// its level's flags, so even its pointer stores may use that level's instructions (GCC stores a
// dozen pointers with one zmm move): it runs only where the CPU has the level, and a level the CPU
// lacks gets the table below it (never used: simd_level() does not return such a level).
// kernel_table<> is instantiated only in the dispatch file, compiled with the baseline flags.
#pragma once

#include <array>
#include <cstddef>

#include "dispatch/kernel_decl.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp {

// An init function in a build with x86 (AArch64) kernels, nullptr elsewhere
// (where that file is not compiled, and the level not climbed).
#if VMAFPP_X86_KERNELS
#define VMAFPP_X86_INIT(fn) (&(fn))
#else
#define VMAFPP_X86_INIT(fn) nullptr
#endif
#if VMAFPP_ARM_KERNELS
#define VMAFPP_ARM_INIT(fn) (&(fn))
#else
#define VMAFPP_ARM_INIT(fn) nullptr
#endif

template <class Table>
class KernelTables {
public:
    using Init = void (*)(Table&);

    // `inits` holds the init of every SimdLevel above scalar, in the enum's
    // order (nullptr: the level has no twins of its own, or is another
    // architecture's).
    KernelTables(const Table& scalar, const std::array<Init, kSimdLevelKinds - 1>& inits) {
        Table t = scalar;
        tables_[0] = t;
        for (std::size_t i = 1; i < kSimdLevelCount; ++i) {
            const unsigned need = simd_level_flags(kSimdLevels[i]);
            const Init init = inits[static_cast<std::size_t>(kSimdLevels[i]) - 1];
            if (init != nullptr && (detected_cpu_flags() & need) == need) init(t);
            tables_[i] = t;
        }
    }

    const Table& operator[](SimdLevel level) const { return tables_[level_index(level)]; }

private:
    std::array<Table, kSimdLevelCount> tables_{};
};

// The table of `level` from a ladder built once, on first use, from the
// scalar table and the inits of the levels above it in SimdLevel's order
// (nullptr, or left out at the end: none), so that a feature's
// <name>_dispatch.cpp names only what differs.
template <class Table, const Table& (*Scalar)(), auto... Inits>
const Table& kernel_table(SimdLevel level) {
    static const KernelTables<Table> tables(Scalar(), {Inits...});
    return tables[level];
}

}  // namespace vmafpp
