// The 3x3 mode filter of cambi (FilterModeFn), written once and compiled
// once per instruction set (as cambi_c_values_loop.hpp): the SIMD twins
// instantiate filter_mode_loop with cambi_lanes_loop.hpp's ModeLanes<U>, an
// `Isa` policy that filters kLanes columns at once:
//   Isa::kLanes
//   Isa::mode3(out, a, b, c)   out[i] = mode3(a[i], b[i], c[i]), i < kLanes
// Columns past the last whole vector take the scalar mode3. Integers only:
// every instance returns the scalar's values.
#pragma once

#include <cstddef>
#include <cstdint>

namespace vmafpp::cambi {
namespace {

// The value two of three share, else the smallest.
inline std::uint16_t mode3_scalar(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
    if (a == b || a == c) return a;
    if (b == c) return b;
    if (a <= b && a <= c) return a;
    return b <= c ? b : c;
}

// Rows are filtered across into a ring of three lines; once three are
// there, the middle picture row gets the mode down the ring (mode3 does not
// depend on the order of its arguments).
template <class Isa>
void filter_mode_loop(std::uint16_t* image, std::ptrdiff_t stride, int w, int h,
                      std::uint16_t* buffer) {
    constexpr int n = Isa::kLanes;
    int line = 0;
    for (int y = 0; y < h; ++y) {
        const std::uint16_t* row = image + y * stride;
        std::uint16_t* out = buffer + line * w;
        out[0] = row[0];
        int x = 1;
        for (; x + n <= w - 1; x += n) Isa::mode3(out + x, row + x - 1, row + x, row + x + 1);
        for (; x < w - 1; ++x) out[x] = mode3_scalar(row[x - 1], row[x], row[x + 1]);
        out[w - 1] = row[w - 1];
        if (y > 1) {
            std::uint16_t* dst = image + (y - 1) * stride;
            const std::uint16_t* b0 = buffer;
            const std::uint16_t* b1 = buffer + w;
            const std::uint16_t* b2 = buffer + 2 * w;
            x = 0;
            for (; x + n <= w; x += n) Isa::mode3(dst + x, b0 + x, b1 + x, b2 + x);
            for (; x < w; ++x) dst[x] = mode3_scalar(b0[x], b1[x], b2[x]);
        }
        line = line == 2 ? 0 : line + 1;
    }
}

}  // namespace
}  // namespace vmafpp::cambi
