// The cambi kernel tables of every level (dispatch/kernel_table.hpp).
#include "cambi/cambi_kernels.hpp"
#include "dispatch/kernel_table.hpp"

namespace vmafpp::cambi {

const CambiKernels& cambi_kernels_for(SimdLevel level) {
    static const KernelTables<CambiKernels> tables(cambi_kernels_scalar(),
                                                   {nullptr, nullptr, nullptr});
    return tables[level];
}

}  // namespace vmafpp::cambi
