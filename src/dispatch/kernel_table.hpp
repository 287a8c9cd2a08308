// The one way a feature builds its kernel tables (dav1d's *_dsp_init order):
// the scalar table is the reference, and each SIMD level's table is the table
// of the level below with the entries that level's ISA files have twins of
// replaced. A feature writes
//
//     const VifKernels& vif_kernels_for(SimdLevel level) {
//         return kernel_table<VifKernels, vif_kernels_scalar,
//                             VMAFPP_X86_INIT(vif_init_avx2), VMAFPP_X86_INIT(vif_init_avx512),
//                             VMAFPP_X86_INIT(vif_init_avx512icl)>(level);
//     }
//
// where vif_init_avx2(VifKernels&) (in vif_avx2.cpp, compiled with that
// level's flags) assigns its twins. An init is compiled with its level's
// flags, so even its pointer stores may use that level's instructions (GCC
// stores a dozen pointers with one zmm move): it runs only where the CPU has
// the level, and a level the CPU lacks gets the table below it (never used:
// simd_level() does not return such a level).
#pragma once

#include <array>
#include <cstddef>

#include "vmafpp/cpu.hpp"

namespace vmafpp {

// An init function in a build with x86 kernels, nullptr elsewhere (the
// level's table is then the level below's).
#if VMAFPP_X86_KERNELS
#define VMAFPP_X86_INIT(fn) (&(fn))
#else
#define VMAFPP_X86_INIT(fn) nullptr
#endif

template <class Table>
class KernelTables {
public:
    using Init = void (*)(Table&);

    // `inits` holds the init of every level above scalar, in kSimdLevels
    // order (nullptr: the level has no twins of its own).
    KernelTables(const Table& scalar, const std::array<Init, kSimdLevelCount - 1>& inits) {
        Table t = scalar;
        tables_[0] = t;
        for (std::size_t i = 1; i < kSimdLevelCount; ++i) {
            const unsigned need = simd_level_flags(kSimdLevels[i]);
            if (inits[i - 1] != nullptr && (detected_cpu_flags() & need) == need) inits[i - 1](t);
            tables_[i] = t;
        }
    }

    const Table& operator[](SimdLevel level) const { return tables_[level_index(level)]; }

private:
    std::array<Table, kSimdLevelCount> tables_{};
};

// The table of `level` from a ladder built once, on first use, from the
// scalar table and the inits of the levels above it in kSimdLevels order
// (nullptr, or left out at the end: none), so that a feature's
// <name>_dispatch.cpp names only what differs.
template <class Table, const Table& (*Scalar)(), auto... Inits>
const Table& kernel_table(SimdLevel level) {
    static const KernelTables<Table> tables(Scalar(), {Inits...});
    return tables[level];
}

}  // namespace vmafpp
