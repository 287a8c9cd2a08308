// Eight int32 and float lanes in AVX2 registers, the operations
// psnr_hvs_simd.hpp asks of V: the AVX2 twin's lanes, and the AVX-512 twin's
// for the ends of rows. In an anonymous namespace, so that each ISA file
// compiles its own copy with its own flags.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "dispatch/x86_lanes.hpp"

namespace vmafpp::psnr_hvs::simd {
namespace {

struct Avx2 {
    VMAFPP_X86_FLOAT_LANES(8, __m256, _mm256, )
    VMAFPP_X86_INT_LANES(__m256i, _mm256, si256)
    VMAFPP_X86_INT_FLOAT(_mm256)
    using M = __m256;
    static M gt(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
    static M lt(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
    static F select(M m, F a, F b) { return _mm256_blendv_ps(b, a, m); }
    static F zero_where(M m, F a) { return _mm256_andnot_ps(m, a); }
    // One row of eight blocks kStep samples apart: out[j] holds sample j of
    // the row of each block (block k's row is row[7k .. 7k + 7]). Each
    // block's eight samples are loaded whole (never past its own last one)
    // and the 8 x 8 samples transposed by unpacks, then widened to int32.
    static void block_row(const std::uint8_t* row, I out[8]) {
        // The row's next groups, ahead of their loads (the picture streams
        // from memory, eight rows at once).
        _mm_prefetch(reinterpret_cast<const char*>(row) + 2 * 8 * 7, _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char*>(row) + 2 * 8 * 7 + 56, _MM_HINT_T0);
        __m128i q[8];
        for (int k = 0; k < 8; ++k)
            q[k] = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(row + 7 * k));
        // Bytes of blocks (0, 1), (2, 3), ... interleaved, then words, then
        // dwords: c[m] holds sample 2m of blocks 0..7, then sample 2m + 1.
        const __m128i a0 = _mm_unpacklo_epi8(q[0], q[1]), a1 = _mm_unpacklo_epi8(q[2], q[3]);
        const __m128i a2 = _mm_unpacklo_epi8(q[4], q[5]), a3 = _mm_unpacklo_epi8(q[6], q[7]);
        const __m128i b0 = _mm_unpacklo_epi16(a0, a1), b1 = _mm_unpackhi_epi16(a0, a1);
        const __m128i b2 = _mm_unpacklo_epi16(a2, a3), b3 = _mm_unpackhi_epi16(a2, a3);
        const __m128i c[4] = {_mm_unpacklo_epi32(b0, b2), _mm_unpackhi_epi32(b0, b2),
                              _mm_unpacklo_epi32(b1, b3), _mm_unpackhi_epi32(b1, b3)};
        for (int m = 0; m < 4; ++m) {
            out[2 * m] = _mm256_cvtepu8_epi32(c[m]);
            out[2 * m + 1] = _mm256_cvtepu8_epi32(_mm_srli_si128(c[m], 8));
        }
    }
    static void block_row(const std::uint16_t* row, I out[8]) {
        const char* ahead = reinterpret_cast<const char*>(row + 2 * 8 * 7);
        for (int line = 0; line < 2 * 8 * 7 * 2; line += 64) _mm_prefetch(ahead + line, _MM_HINT_T0);
        __m128i q[8];
        for (int k = 0; k < 8; ++k)
            q[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + 7 * k));
        // Words of blocks (0, 1), (2, 3), ... interleaved, then dwords, then
        // qwords: c[j] holds sample j of blocks 0..7.
        __m128i a[8], b[8];
        for (int k = 0; k < 4; ++k) {
            a[2 * k] = _mm_unpacklo_epi16(q[2 * k], q[2 * k + 1]);      // samples 0..3
            a[2 * k + 1] = _mm_unpackhi_epi16(q[2 * k], q[2 * k + 1]);  // samples 4..7
        }
        for (int h = 0; h < 2; ++h)      // blocks 0..3, 4..7
            for (int s = 0; s < 2; ++s) {  // samples 0..3, 4..7
                const __m128i lo = a[4 * h + s], hi = a[4 * h + 2 + s];
                b[4 * h + 2 * s] = _mm_unpacklo_epi32(lo, hi);      // samples 4s, 4s + 1
                b[4 * h + 2 * s + 1] = _mm_unpackhi_epi32(lo, hi);  // samples 4s + 2, 4s + 3
            }
        for (int m = 0; m < 4; ++m) {
            out[2 * m] = _mm256_cvtepu16_epi32(_mm_unpacklo_epi64(b[m], b[4 + m]));
            out[2 * m + 1] = _mm256_cvtepu16_epi32(_mm_unpackhi_epi64(b[m], b[4 + m]));
        }
    }
    static F sqrt_div32(F x) {
        const __m256d k32 = _mm256_set1_pd(32.0);
        const __m256d lo = _mm256_sqrt_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(x)));
        const __m256d hi = _mm256_sqrt_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)));
        return _mm256_set_m128(_mm256_cvtpd_ps(_mm256_div_pd(hi, k32)),
                               _mm256_cvtpd_ps(_mm256_div_pd(lo, k32)));
    }
};

}  // namespace
}  // namespace vmafpp::psnr_hvs::simd
