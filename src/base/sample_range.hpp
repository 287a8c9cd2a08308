// The bit-depth check of 16-bit pictures that enter the library (the readers,
// Scorer::push): a sample above the declared depth would break the integer
// kernels' range proofs, so it is an input error.
#pragma once

#include <cstdint>

#include "vmafpp/picture.hpp"

namespace vmafpp {

// Whether every sample of a 16-bit `plane` fits in `bpc` bits. The OR of
// all samples is branch-free, so the compiler vectorises it.
inline bool samples_fit(const Plane& plane, int bpc) {
    std::uint16_t any = 0;
    for (int y = 0; y < plane.height(); ++y) {
        const std::uint16_t* row = plane.row<std::uint16_t>(y);
        for (int x = 0; x < plane.width(); ++x) any |= row[x];
    }
    return (any >> bpc) == 0;
}

}  // namespace vmafpp
