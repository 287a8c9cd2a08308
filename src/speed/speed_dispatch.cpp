// The SpEED kernel tables of every level (dispatch/kernel_table.hpp).
#include "dispatch/kernel_table.hpp"
#include "speed/speed_kernels.hpp"

namespace vmafpp {

const SpeedKernels& speed_kernels_for(SimdLevel level) {
    static const KernelTables<SpeedKernels> tables(speed_kernels_scalar(),
                                                   {nullptr, nullptr, nullptr});
    return tables[level];
}

}  // namespace vmafpp
