// The walk over a vertical filter's tap pairs that the x86 statistics twins
// share (vif_avx2.cpp, vif_stats_avx512.cpp): ISA-neutral, so each file
// compiles it with its own flags; in an anonymous namespace, so that no
// instance is shared between files built for different instruction sets.
#pragma once

namespace vmafpp::vif {
namespace {

// pair(t, u) for t = 0, 2, 4, ... below the tap count, u = t + 1, or t for
// an odd count's last row (which the caller pairs with a zero tap).
// kTaps > 0 is a tap count known when compiling (the extractor's 17, 9, 5,
// 3), whose loop is unrolled: a runtime loop spent about as many scalar
// instructions (row pointers, the odd count's test, the counter) per pair
// as vector ones. kTaps == 0 reads `taps`.
template <int kTaps, class Pair>
[[gnu::always_inline]] inline void for_each_tap_pair(int taps, Pair pair) {
    if constexpr (kTaps > 0) {
#pragma GCC unroll 9
        for (int t = 0; t < kTaps; t += 2) pair(t, t + 1 < kTaps ? t + 1 : t);
    } else {
        for (int t = 0; t < taps; t += 2) pair(t, t + 1 < taps ? t + 1 : t);
    }
}

}  // namespace
}  // namespace vmafpp::vif
