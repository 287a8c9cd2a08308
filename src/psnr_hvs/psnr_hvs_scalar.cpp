// Scalar psnr_hvs kernels: the reference arithmetic (types and order of
// libvmaf's calc_psnrhvs).
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "psnr_hvs/psnr_hvs_kernels.hpp"

namespace vmafpp::psnr_hvs {


// Double literals narrowed to float, as libvmaf's float tables are.
const Table8x8 kCsfLuma = {
    {1.6193873005, 2.2901594831, 2.08509755623, 1.48366094411, 1.00227514334, 0.678296995242,
     0.466224900598, 0.3265091542},
    {2.2901594831, 1.94321815382, 2.04793073064, 1.68731108984, 1.2305666963, 0.868920337363,
     0.61280991668, 0.436405793551},
    {2.08509755623, 2.04793073064, 1.34329019223, 1.09205635862, 0.875748795257, 0.670882927016,
     0.501731932449, 0.372504254596},
    {1.48366094411, 1.68731108984, 1.09205635862, 0.772819797575, 0.605636379554, 0.48309405692,
     0.380429446972, 0.295774038565},
    {1.00227514334, 1.2305666963, 0.875748795257, 0.605636379554, 0.448996256676, 0.352889268808,
     0.283006984131, 0.226951348204},
    {0.678296995242, 0.868920337363, 0.670882927016, 0.48309405692, 0.352889268808, 0.27032073436,
     0.215017739696, 0.17408067321},
    {0.466224900598, 0.61280991668, 0.501731932449, 0.380429446972, 0.283006984131, 0.215017739696,
     0.168869545842, 0.136153931001},
    {0.3265091542, 0.436405793551, 0.372504254596, 0.295774038565, 0.226951348204, 0.17408067321,
     0.136153931001, 0.109083846276},
};

const Table8x8 kCsfCb = {
    {1.91113096927, 2.46074210438, 1.18284184739, 1.14982565193, 1.05017074788, 0.898018824055,
     0.74725392039, 0.615105596242},
    {2.46074210438, 1.58529308355, 1.21363250036, 1.38190029285, 1.33100189972, 1.17428548929,
     0.996404342439, 0.830890433625},
    {1.18284184739, 1.21363250036, 0.978712413627, 1.02624506078, 1.03145147362, 0.960060382087,
     0.849823426169, 0.731221236837},
    {1.14982565193, 1.38190029285, 1.02624506078, 0.861317501629, 0.801821139099, 0.751437590932,
     0.685398513368, 0.608694761374},
    {1.05017074788, 1.33100189972, 1.03145147362, 0.801821139099, 0.676555426187, 0.605503172737,
     0.55002013668, 0.495804539034},
    {0.898018824055, 1.17428548929, 0.960060382087, 0.751437590932, 0.605503172737, 0.514674450957,
     0.454353482512, 0.407050308965},
    {0.74725392039, 0.996404342439, 0.849823426169, 0.685398513368, 0.55002013668, 0.454353482512,
     0.389234902883, 0.342353999733},
    {0.615105596242, 0.830890433625, 0.731221236837, 0.608694761374, 0.495804539034, 0.407050308965,
     0.342353999733, 0.295530605237},
};

const Table8x8 kCsfCr = {
    {2.03871978502, 2.62502345193, 1.26180942886, 1.11019789803, 1.01397751469, 0.867069376285,
     0.721500455585, 0.593906509971},
    {2.62502345193, 1.69112867013, 1.17180569821, 1.3342742857, 1.28513006198, 1.13381474809,
     0.962064122248, 0.802254508198},
    {1.26180942886, 1.17180569821, 0.944981930573, 0.990876405848, 0.995903384143, 0.926972725286,
     0.820534991409, 0.706020324706},
    {1.11019789803, 1.3342742857, 0.990876405848, 0.831632933426, 0.77418706195, 0.725539939514,
     0.661776842059, 0.587716619023},
    {1.01397751469, 1.28513006198, 0.995903384143, 0.77418706195, 0.653238524286, 0.584635025748,
     0.531064164893, 0.478717061273},
    {0.867069376285, 1.13381474809, 0.926972725286, 0.725539939514, 0.584635025748, 0.496936637883,
     0.438694579826, 0.393021669543},
    {0.721500455585, 0.962064122248, 0.820534991409, 0.661776842059, 0.531064164893, 0.438694579826,
     0.375820256136, 0.330555063063},
    {0.593906509971, 0.802254508198, 0.706020324706, 0.587716619023, 0.478717061273, 0.393021669543,
     0.330555063063, 0.285345396658},
};

void fdct8x8(std::int32_t block[64]) { fdct8x8_lifting<ScalarDctOps>(block); }

void mask_table(const Table8x8& csf, Table8x8& mask) {
    constexpr double k = 0.3885746225901003;
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
            mask[i][j] = static_cast<float>((csf[i][j] * k) * (csf[i][j] * k));
}


namespace {

using psnr_hvs::Table8x8;

// Block statistics of one picture's 8x8 block: the ratio of the sum of the
// four 4x4 quadrant variances to the block variance (0 for a flat block),
// and then the masking strength.
struct BlockStats {
    std::int32_t coef[64];
    float var_ratio = 0.0f;
};

template <class T>
void load_block(const std::uint8_t* base, std::ptrdiff_t stride, int x, int y, BlockStats& b) {
    float gmean = 0.0f;
    float qmean[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int i = 0; i < 8; ++i) {
        const T* row = reinterpret_cast<const T*>(base + (y + i) * stride) + x;
        for (int j = 0; j < 8; ++j) {
            const int q = ((i & 4) >> 2) + ((j & 4) >> 1);  // quadrant 0..3
            const std::int32_t v = row[j];
            b.coef[i * 8 + j] = v;
            gmean += static_cast<float>(v);
            qmean[q] += static_cast<float>(v);
        }
    }
    gmean /= 64.f;
    for (float& m : qmean) m /= 16.f;
    float gvar = 0.0f;
    float qvar[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
            const int q = ((i & 4) >> 2) + ((j & 4) >> 1);
            const float v = static_cast<float>(b.coef[i * 8 + j]);
            gvar += (v - gmean) * (v - gmean);
            qvar[q] += (v - qmean[q]) * (v - qmean[q]);
        }
    // Unbiased variances: n / (n - 1) as one float factor each.
    gvar *= 1 / 63.f * 64;
    for (float& v : qvar) v *= 1 / 15.f * 16;
    if (gvar > 0) gvar = (qvar[0] + qvar[1] + qvar[2] + qvar[3]) / gvar;
    b.var_ratio = gvar;
}

// sqrt(sum of the AC coefficients' c^2 * mask, times the variance ratio) / 32.
float masking(const BlockStats& b, const Table8x8& mask) {
    float m = 0.0f;
    for (int i = 0; i < 8; ++i)
        for (int j = (i == 0 ? 1 : 0); j < 8; ++j) {
            const std::int32_t c = b.coef[i * 8 + j];
            // c * c is an int product in libvmaf (|c| < 2^15.5 for 12 bits).
            m += static_cast<float>(c * c) * mask[i][j];
        }
    return static_cast<float>(std::sqrt(static_cast<double>(m * b.var_ratio)) / 32.f);
}

// The errors of the block at (x, y), added to sum coefficient by coefficient.
template <class T>
void add_block(const std::uint8_t* ref, std::ptrdiff_t ref_stride, const std::uint8_t* dis,
               std::ptrdiff_t dis_stride, int x, int y, const Table8x8& mask,
               const Table8x8& csf, float& sum) {
    BlockStats s, d;
    load_block<T>(ref, ref_stride, x, y, s);
    load_block<T>(dis, dis_stride, x, y, d);
    psnr_hvs::fdct8x8(s.coef);
    psnr_hvs::fdct8x8(d.coef);
    float threshold = masking(s, mask);
    const float d_mask = masking(d, mask);
    if (d_mask > threshold) threshold = d_mask;
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
            float err = static_cast<float>(std::abs(s.coef[i * 8 + j] - d.coef[i * 8 + j]));
            if (i != 0 || j != 0) {
                const float t = threshold / mask[i][j];
                err = err < t ? 0 : err - t;
            }
            sum += (err * csf[i][j]) * (err * csf[i][j]);
        }
}

template <class T>
float plane_error(const std::uint8_t* ref, std::ptrdiff_t ref_stride, const std::uint8_t* dis,
                  std::ptrdiff_t dis_stride, int w, int h, int bpc, const Table8x8& csf) {
    Table8x8 mask;
    psnr_hvs::mask_table(csf, mask);
    float sum = 0.0f;
    int blocks = 0;
    for (int y = 0; y < h - 7; y += psnr_hvs::kStep)
        for (int x = 0; x < w - 7; x += psnr_hvs::kStep, ++blocks)
            add_block<T>(ref, ref_stride, dis, dis_stride, x, y, mask, csf, sum);
    return psnr_hvs::normalised_error(sum, blocks, bpc);
}

float plane_scalar(const std::uint8_t* ref, std::ptrdiff_t ref_stride, const std::uint8_t* dis,
                   std::ptrdiff_t dis_stride, int w, int h, int bpc, const Table8x8& csf) {
    return bpc > 8 ? plane_error<std::uint16_t>(ref, ref_stride, dis, dis_stride, w, h, bpc, csf)
                   : plane_error<std::uint8_t>(ref, ref_stride, dis, dis_stride, w, h, bpc, csf);
}

}  // namespace


void add_block_error(const std::uint8_t* ref, std::ptrdiff_t ref_stride, const std::uint8_t* dis,
                     std::ptrdiff_t dis_stride, int x, int y, int bpc, const Table8x8& mask,
                     const Table8x8& csf, float& sum) {
    if (bpc > 8)
        add_block<std::uint16_t>(ref, ref_stride, dis, dis_stride, x, y, mask, csf, sum);
    else
        add_block<std::uint8_t>(ref, ref_stride, dis, dis_stride, x, y, mask, csf, sum);
}

float normalised_error(float sum, int blocks, int bpc) {
    // libvmaf counts coefficients in an int and divides in float.
    sum /= static_cast<float>(blocks * 64);
    const std::int32_t peak = (std::int32_t{1} << bpc) - 1;
    sum /= static_cast<float>(peak * peak);
    return sum;
}


const PsnrHvsKernels& psnr_hvs_kernels_scalar() {
    static const PsnrHvsKernels k{&plane_scalar};
    return k;
}

}  // namespace vmafpp::psnr_hvs
