// The ciede kernel tables of every level (dispatch/kernel_table.hpp). There
// are no SIMD twins yet: every level has the scalar kernel.
#include "ciede/ciede_kernels.hpp"
#include "dispatch/kernel_table.hpp"

namespace vmafpp {

const CiedeKernels& ciede_kernels_for(SimdLevel level) {
    static const KernelTables<CiedeKernels> tables(ciede_kernels_scalar(),
                                                   {nullptr, nullptr, nullptr});
    return tables[level];
}

}  // namespace vmafpp
