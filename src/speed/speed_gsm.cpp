// SpEED's picture preparation, model fit and score, following libvmaf's
// speed.c and vif_tools.c operation by operation (each comment that says
// "double" or "float" names the type libvmaf's C evaluates in).
#include "speed/speed_gsm.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

#include "vif/float_vif_kernels.hpp"
#include "vif/float_vif_scale.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp::speed {

namespace {

using float_vif::mirror_f;

constexpr double kEigenEps = 1e-6;
constexpr int kEigenMaxIters = 500;

// log2(2 pi e) in double, as libvmaf adds it to every entropy term.
double log2_two_pi_e() { return std::log2(2 * M_PI * M_E); }

// Samples as libvmaf's picture_copy makes them floats: 8 bits
// float(v) + -128, more bits float(v) / 2^(bpc-8) + -128 (float), and the
// temporal difference of two such floats. add(mid, y, j0, j1, c) adds
// c * sample(y, j) to mid[j] for j in [j0, j1); value(y, j) is the sample.
struct FloatRows {
    const float* p;
    std::ptrdiff_t stride;
    float value(int y, int j) const { return p[y * stride + j]; }
    void add(float* mid, int y, int j0, int j1, float c) const {
        const float* s = p + y * stride;
        for (int j = j0; j < j1; ++j) mid[j] += c * s[j];
    }
};

// Integer planes (b, when not null, subtracted: the temporal difference),
// whose vertical pass is the kernel table's.
struct PlaneRows {
    const std::uint8_t* a;
    std::ptrdiff_t a_stride;  // bytes
    const std::uint8_t* b;
    std::ptrdiff_t b_stride;
    int bpc;
    const SpeedKernels* k;
    float conv(const std::uint8_t* p, std::ptrdiff_t stride, int y, int j) const {
        if (bpc == 8) return static_cast<float>(p[y * stride + j]) + -128.0f;
        const auto v = reinterpret_cast<const std::uint16_t*>(p + y * stride)[j];
        return static_cast<float>(v) / static_cast<float>(1 << (bpc - 8)) + -128.0f;
    }
    float value(int y, int j) const {
        const float v = conv(a, a_stride, y, j);
        return b ? v - conv(b, b_stride, y, j) : v;
    }
};

// vif_filter1d_s followed by vif_dec16_s: only the samples at (16i, 16j)
// are computed (the same floats), and the vertical pass only in the columns
// the horizontal taps of those samples read (`runs`, half-open ranges).
// `row` holds w + fw floats.
// The vertical pass of output row 16i into mid[] over the runs.
void vertical(const FloatRows& src, const float* f, int fw, int i, int h,
              const std::vector<std::pair<int, int>>& runs, float* mid) {
    const int r = fw / 2;
    for (const auto& [j0, j1] : runs)
        for (int j = j0; j < j1; ++j) mid[j] = 0;
    for (int k = 0; k < fw; ++k) {
        const int y = float_vif::reflect(16 * i - r + k, h);
        for (const auto& [j0, j1] : runs) src.add(mid, y, j0, j1, f[k]);
    }
}

void vertical(const PlaneRows& src, const float* f, int fw, int i, int h,
              const std::vector<std::pair<int, int>>& runs, float* mid) {
    const int r = fw / 2;
    const std::uint8_t* a[128];
    const std::uint8_t* b[128];
    for (int k = 0; k < fw; ++k) {
        const int y = float_vif::reflect(16 * i - r + k, h);
        a[k] = src.a + y * src.a_stride;
        b[k] = src.b ? src.b + y * src.b_stride : nullptr;
    }
    for (const auto& [j0, j1] : runs)
        src.k->vertical(f, fw, a, src.b ? b : nullptr, src.bpc, j0, j1, mid);
}

template <class Rows>
void blur_decimate16(const float* f, int fw, const Rows& src, int w, int h,
                     const std::vector<std::pair<int, int>>& runs, float* dst,
                     std::ptrdiff_t dst_stride, float* row) {
    const int r = fw / 2;
    float* mid = row + r;
    for (int i = 0; i < h / 16; ++i) {
        vertical(src, f, fw, i, h, runs, mid);
        for (int m = 1; m <= r; ++m) {
            row[r - m] = mid[m];
            mid[w - 1 + m] = mid[w - 1 - m];
        }
        for (int o = 0; o < w / 16; ++o) {
            float acc = 0;
            for (int k = 0; k < fw; ++k) acc += f[k] * row[16 * o + k];
            dst[i * dst_stride + o] = acc;
        }
    }
}

// The columns the horizontal pass of blur_decimate16 reads, as runs; runs
// less than 16 columns apart are joined (computing a few unread columns
// costs less than splitting the vector loops of the vertical pass).
std::vector<std::pair<int, int>> needed_columns(int w, int fw) {
    const int r = fw / 2;
    std::vector<char> need(static_cast<std::size_t>(w), 0);
    for (int o = 0; o < w / 16; ++o)
        for (int k = 0; k < fw; ++k) need[static_cast<std::size_t>(float_vif::reflect(16 * o - r + k, w))] = 1;
    std::vector<std::pair<int, int>> runs;
    for (int j = 0; j < w;) {
        if (!need[static_cast<std::size_t>(j)]) {
            ++j;
            continue;
        }
        int e = j;
        while (e < w && need[static_cast<std::size_t>(e)]) ++e;
        if (!runs.empty() && j - runs.back().second < 16)
            runs.back().second = e;
        else
            runs.push_back({j, e});
        j = e;
    }
    return runs;
}

float bicubic_weight(float t) {
    const float a = -0.75f;
    if (t < 0) t = -t;
    if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
    return 0;
}

float bicubic_at(const float* src, std::ptrdiff_t stride, int w, int h, float x, float y) {
    const int x0 = static_cast<int>(std::floor(x));
    const int y0 = static_cast<int>(std::floor(y));
    const float dx = x - x0;
    const float dy = y - y0;
    float wx[4], wy[4];
    for (int i = -1; i <= 2; ++i) {
        wx[i + 1] = bicubic_weight(i - dx);
        wy[i + 1] = bicubic_weight(i - dy);
    }
    float v = 0;
    for (int j = -1; j <= 2; ++j)
        for (int i = -1; i <= 2; ++i) {
            const int xi = static_cast<int>(mirror_f(static_cast<float>(x0 + i), 0, w - 1));
            const int yi = static_cast<int>(mirror_f(static_cast<float>(y0 + j), 0, h - 1));
            const float weight = wx[i + 1] * wy[j + 1];
            v += src[yi * stride + xi] * weight;
        }
    return v;
}

float lanczos_weight(float x, float a) {
    if (x == 0.0) return 1.0f;
    if (x > -a && x < a)
        return static_cast<float>(a * std::sin(M_PI * x) * std::sin(M_PI * x / a) /
                                  (M_PI * M_PI * x * x));
    return 0.0f;
}

float lanczos_at(const float* src, std::ptrdiff_t stride, int w, int h, float x, float y) {
    constexpr int a = 4;
    const int x0 = static_cast<int>(std::floor(x));
    const int y0 = static_cast<int>(std::floor(y));
    const float dx = x - x0;
    const float dy = y - y0;
    float wx[9], wy[9];
    for (int i = -a; i <= a; ++i) {
        wx[i + a] = lanczos_weight(i - dx, static_cast<float>(a));
        wy[i + a] = lanczos_weight(i - dy, static_cast<float>(a));
    }
    float value = 0, weight_sum = 0;
    for (int iy = -a; iy <= a; ++iy)
        for (int ix = -a; ix <= a; ++ix) {
            const float weight = wx[ix + a] * wy[iy + a];
            weight_sum += weight;
            const int xi = static_cast<int>(mirror_f(static_cast<float>(x0 + ix), 0, w - 1));
            const int yi = static_cast<int>(mirror_f(static_cast<float>(y0 + iy), 0, h - 1));
            value += src[yi * stride + xi] * weight;
        }
    return value / weight_sum;
}

int sign_of(float x) { return x >= 0 ? 1 : -1; }

// sqrt(x * x + y * y): float sum, double sqrt, float result.
float hypot_f(float x, float y) { return static_cast<float>(std::sqrt(x * x + y * y)); }

// ---- eigenvalues of a symmetric matrix (gsl symmtd + symm, in float) ----

float householder(float* A, int col, int start, int n) {
    if (n - start == 1) return 0.0f;
    float xnorm = 0;
    for (int i = start + 1; i < n; ++i) xnorm += A[i * n + col] * A[i * n + col];
    xnorm = static_cast<float>(std::sqrt(xnorm));
    if (xnorm == 0.0f) return 0.0f;
    const float alpha = A[start * n + col];
    const float beta = -sign_of(alpha) * hypot_f(alpha, xnorm);
    const float tau = (beta - alpha) / beta;
    const float s = alpha - beta;
    if (s != 0.0f) {
        for (int i = start; i < n; ++i) A[i * n + col] /= s;
        A[start * n + col] = beta;
    }
    return tau;
}

void tridiagonalize(float* A, int n, float* d, float* sd, float* v, float* x) {
    for (int i = 0; i < n - 2; ++i) {
        const float tau = householder(A, i, i + 1, n);
        for (int j = i + 1; j < n; ++j) v[j] = A[j * n + i];
        if (tau != 0.0f) {
            A[(i + 1) * n + i] = v[i + 1];
            v[i + 1] = 1.0f;
            const int s = i + 1;
            // Each x[r] summed in a local (x may alias A for the compiler,
            // which then stored x[r] at every step), the same operations.
            for (int r = s; r < n; ++r) {
                float xr = 0.0f;
                for (int c = s; c < n; ++c) xr += tau * A[r * n + c] * v[c];
                x[r] = xr;
            }
            float xv = 0;
            for (int r = s; r < n; ++r) xv += x[r] * v[r];
            const float alpha = static_cast<float>(-0.5 * tau * xv);
            for (int r = s; r < n; ++r) x[r] += alpha * v[r];
            for (int r = s; r < n; ++r)
                for (int c = s; c < n; ++c) A[r * n + c] -= x[r] * v[c] + v[r] * x[c];
        }
    }
    for (int i = 0; i < n; ++i) d[i] = A[i * n + i];
    for (int i = 0; i < n - 1; ++i) sd[i] = A[(i + 1) * n + i];
}

void chop_small(float* d, float* sd, int n) {
    for (int i = 0; i < n - 1; ++i)
        if (std::fabs(sd[i]) < kEigenEps * (std::fabs(d[i]) + std::fabs(d[i + 1]))) sd[i] = 0.0f;
}

float trailing_eigenvalue(const float* d, const float* sd, int n) {
    const float ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
    const float dt = static_cast<float>((ta - tb) / 2.0);
    if (dt > 0) return tb - tab * (tab / (dt + hypot_f(dt, tab)));
    if (dt == 0) return tb - std::fabs(tab);
    return tb + tab * (tab / (-dt + hypot_f(dt, tab)));
}

void givens(float a, float b, float& c, float& s) {
    if (b == 0) {
        c = 1;
        s = 0;
    } else if (std::fabs(b) > std::fabs(a)) {
        const float t = -a / b;
        const float s1 = static_cast<float>(1.0 / std::sqrt(static_cast<double>(1 + t * t)));
        s = s1;
        c = s1 * t;
    } else {
        const float t = -b / a;
        const float c1 = static_cast<float>(1.0 / std::sqrt(static_cast<double>(1 + t * t)));
        c = c1;
        s = c1 * t;
    }
}

void qr_step(float* d, float* sd, int n) {
    float mu = trailing_eigenvalue(d, sd, n);
    if (kEigenEps * std::fabs(mu) > std::fabs(d[0]) + std::fabs(sd[0])) mu = 0;
    float x = d[0] - mu;
    float z = sd[0];
    float ak = 0, bk = 0, zk = 0;
    float ap = d[0], bp = sd[0], aq = d[1];
    if (n == 2) {
        float c, s;
        givens(x, z, c, s);
        const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        d[0] = ap1;
        sd[0] = bp1;
        d[1] = aq1;
        return;
    }
    float bq = sd[1];
    for (int k = 0; k < n - 1; ++k) {
        float c, s;
        givens(x, z, c, s);
        const float bk1 = c * bk - s * zk;
        const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        const float zp1 = -s * bq;
        const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        const float bq1 = c * bq;
        ak = ap1;
        bk = bp1;
        zk = zp1;
        ap = aq1;
        bp = bq1;
        if (k < n - 2) aq = d[k + 2];
        if (k < n - 3) bq = sd[k + 2];
        d[k] = ak;
        if (k > 0) sd[k - 1] = bk1;
        if (k < n - 2) sd[k + 1] = bp;
        x = bk;
        z = zk;
    }
    d[n - 1] = ap;
    sd[n - 2] = bk;
}

// compute_eigenvalues (n >= 2): work holds n * n + 4 * n floats.
void eigenvalues(const float* M, int n, float* eig, float* work) {
    float* A = work;
    float* d = A + n * n;
    float* sd = d + n;
    float* v = sd + n;
    float* x = v + n;
    std::memcpy(A, M, sizeof(float) * n * n);
    tridiagonalize(A, n, d, sd, v, x);
    chop_small(d, sd, n);
    int b = n - 1;
    int iter = 0;
    while (b > 0 && iter < kEigenMaxIters) {
        if (sd[b - 1] == 0.0f) {
            --b;
            continue;
        }
        int a = b - 1;
        while (a > 0 && sd[a - 1] != 0.0f) --a;
        qr_step(d + a, sd + a, b - a + 1);
        chop_small(d + a, sd + a, b - a + 1);
        ++iter;
    }
    for (int i = 0; i < n; ++i) eig[i] = d[i];
}

// ---- linear solve K X = B by Householder QR (float) ----

float norm_f(const float* v, int n) {
    float s = 0;
    for (int i = 0; i < n; ++i) s += v[i] * v[i];
    return static_cast<float>(std::sqrt(s));
}

// matrix_qr_decomposition, keeping H = H_{n-1} .. H_1 (libvmaf's Q before
// its final transpose, which solve_linear_system transposes back) and R = H A.
void qr(const float* A, int n, float* H, float* R, float* q, float* z, float* tmp,
        SpeedMatmulFn matmul) {
    std::memcpy(z, A, sizeof(float) * n * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) H[i * n + j] = i == j ? 1.0f : 0.0f;
    float* vec = R;  // libvmaf uses R's storage for the reflector vector
    for (int k = 0; k < n - 1; ++k) {
        // The entries with i < k or j < k made the identity's: the rows
        // above k whole, the first k columns of the others (a loop over
        // all n * n testing the condition was a quarter of estimate()).
        for (int i = 0; i < n; ++i) {
            const int end = i < k ? n : k;
            for (int j = 0; j < end; ++j) z[i * n + j] = i == j ? 1.0f : 0.0f;
        }
        for (int i = 0; i < n; ++i) vec[i] = z[i * n + k];
        const float norm = norm_f(vec, n);
        const int sign = sign_of(A[k * n + k]);
        vec[k] += sign * norm;
        const float len = norm_f(vec, n);
        for (int i = 0; i < n; ++i) vec[i] = vec[i] / len;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) q[i * n + j] = -2 * vec[i] * vec[j];
        for (int i = 0; i < n; ++i) q[i * n + i] += 1;
        matmul(tmp, q, z, n, n, n);
        std::memcpy(z, tmp, sizeof(float) * n * n);
        matmul(tmp, q, H, n, n, n);
        std::memcpy(H, tmp, sizeof(float) * n * n);
    }
    matmul(R, H, A, n, n, n);
}

// solve_linear_system: false where libvmaf returns -EINVAL (|R_ii| < 1e-6).
// work holds 5 * n * n + n * c floats.
bool solve(const float* K, int n, const float* B, int c, float* X, float* work,
           SpeedMatmulFn matmul) {
    float* H = work;
    float* R = H + n * n;
    float* q = R + n * n;
    float* z = q + n * n;
    float* tmp = z + n * n;
    float* rhs = tmp + n * n;
    qr(K, n, H, R, q, z, tmp, matmul);
    matmul(rhs, H, B, n, n, c);
    // Back substitution, row i of X at once: each X[i][j] is rhs[i][j]
    // minus X[k][j] * R[i][k] for k ascending, then divided, libvmaf's
    // order for every element; running j innermost only interleaves the
    // independent columns (a contiguous, vectorisable loop instead of a
    // stride-c walk per element).
    for (int i = n - 1; i >= 0; --i) {
        const float den = R[i * n + i];
        if (std::fabs(den) < kEigenEps) return false;
        float* x = X + i * c;
        std::memcpy(x, rhs + i * c, sizeof(float) * static_cast<std::size_t>(c));
        for (int k = i + 1; k < n; ++k) {
            const float r = R[i * n + k];
            const float* xk = X + k * c;
            for (int j = 0; j < c; ++j) x[j] -= xk[j] * r;
        }
        for (int j = 0; j < c; ++j) x[j] = x[j] / den;
    }
    return true;
}

}  // namespace

bool prescale_is_identity(double prescale) { return std::fabs(prescale - 1.0) < 1.0e-3; }

bool prescale_resizes(const Dimensions& d, double prescale) {
    return !prescale_is_identity(prescale) && (d.scaled_w != d.width || d.scaled_h != d.height);
}

// float_vif::scale_nearest's source index: (int)(i * ratio), float.
ScaleTap nearest_tap(int i, int src_n, int dst_n) {
    const float ratio = static_cast<float>(src_n) / dst_n;
    ScaleTap t;
    t.i1 = t.i2 = static_cast<int>(i * ratio);
    return t;
}

namespace {

// The source coordinate of output sample i (float_vif::scale_bilinear and
// scale_with alike): a float ratio, the expression in double, narrowed.
float source_coordinate(int i, int src_n, int dst_n) {
    const float ratio = static_cast<float>(src_n) / dst_n;
    return static_cast<float>((i + 0.5) * ratio - 0.5);
}

// bicubic_at's and lanczos_at's taps along one dimension: floor, fraction
// and mirror as they compute them, and the weight of each k in [-a, b].
template <class Weight>
KernelTaps kernel_taps(int i, int src_n, int dst_n, int first, int last, Weight weight) {
    const float s = source_coordinate(i, src_n, dst_n);
    const int s0 = static_cast<int>(std::floor(s));
    const float ds = s - s0;
    KernelTaps t;
    t.n = last - first + 1;
    for (int k = first; k <= last; ++k) {
        const int m = static_cast<int>(mirror_f(static_cast<float>(s0 + k), 0, src_n - 1));
        // Where the scalar would read outside the plane (no accepted size
        // does: a plane is at least 20 samples, see speed.cpp's check_plane).
        if (m < 0 || m >= src_n) throw Error("internal error: a speed prescale tap outside the plane");
        t.index[k - first] = m;
        t.weight[k - first] = weight(k - ds);
    }
    return t;
}

}  // namespace

KernelTaps bicubic_taps(int i, int src_n, int dst_n) {
    return kernel_taps(i, src_n, dst_n, -1, 2, [](float x) { return bicubic_weight(x); });
}

KernelTaps lanczos_taps(int i, int src_n, int dst_n) {
    return kernel_taps(i, src_n, dst_n, -4, 4,
                       [](float x) { return lanczos_weight(x, 4.0f); });
}

// float_vif::scale_bilinear's coordinate and bilinear_at's indices and
// fraction (the fraction from the mirrored first index, as the scalar).
ScaleTap bilinear_tap(int i, int src_n, int dst_n) {
    const float s = source_coordinate(i, src_n, dst_n);
    const float last = static_cast<float>(src_n - 1);
    ScaleTap t;
    t.i1 = static_cast<int>(mirror_f(std::floor(s), 0, last));
    t.i2 = static_cast<int>(mirror_f(std::ceil(s), 0, last));
    t.frac = s - t.i1;
    return t;
}

Gsm::Gsm(const Dimensions& dims, const Params& params, const SpeedKernels& kernels)
    : dims_(dims), p_(params), k_(kernels) {
    aa_width_ = float_vif::filter_width(1, p_.kernelscale);
    float_vif::gaussian(aa_filter_, aa_width_,
                        static_cast<float>(std::sqrt(kScales) * (aa_width_ / 5.0f)));
    dc_width_ = float_vif::filter_width(kScales, p_.kernelscale);
    float_vif::gaussian_filter(dc_filter_, kScales, p_.kernelscale);
    if (!prescale_is_identity(p_.prescale)) {
        full_ = FloatImage(dims_.width, dims_.height);
        scaled_ = FloatImage(dims_.scaled_w, dims_.scaled_h);
    }
    runs_ = needed_columns(dims_.scaled_w, aa_width_);
    // Eight floats of slack after each row: the vector kernels load 8
    // consecutive samples from the last columns.
    low_ = FloatImage(dims_.op_w + 8, dims_.op_h);
    low_blur_ = FloatImage(dims_.op_w, dims_.op_h);
    row_.assign(static_cast<std::size_t>(dims_.scaled_w + aa_width_ + dc_width_), 0.0f);
    const std::size_t n = kBlockElems, nb = static_cast<std::size_t>(dims_.blocks());
    mean_.assign(n, 0.0f);
    cov_.assign(n * n, 0.0f);
    eig_.assign(n, 0.0f);
    indep_.assign(n * nb, 0.0f);
    sol_.assign(n * nb, 0.0f);
    work_.assign(5 * n * n + n * nb + 4 * n, 0.0f);
}

template <class Rows>
void Gsm::prepare(const Rows& src) {
    const int sw = dims_.scaled_w, sh = dims_.scaled_h;
    if (prescale_is_identity(p_.prescale)) {
        blur_decimate16(aa_filter_, aa_width_, src, sw, sh, runs_, low_.data(), low_.stride(),
                        row_.data());
    } else {
        // libvmaf scales the whole float picture first.
        const int w = dims_.width, h = dims_.height;
        for (int y = 0; y < h; ++y) {
            float* out = full_.row(y);
            for (int j = 0; j < w; ++j) out[j] = src.value(y, j);
        }
        const float* in = full_.data();
        const std::ptrdiff_t is = full_.stride();
        float* dst = scaled_.data();
        const std::ptrdiff_t ds = scaled_.stride();
        if (w == sw && h == sh) {
            for (int y = 0; y < h; ++y) std::memcpy(dst + y * ds, in + y * is, sizeof(float) * w);
        } else {
            switch (p_.method) {
                case ScaleMethod::nearest:
                    float_vif::scale_nearest(in, is, w, h, dst, ds, sw, sh);
                    break;
                case ScaleMethod::bilinear:
                    float_vif::scale_bilinear(in, is, w, h, dst, ds, sw, sh);
                    break;
                case ScaleMethod::bicubic:
                    float_vif::resample(in, is, w, h, dst, ds, sw, sh, bicubic_at);
                    break;
                case ScaleMethod::lanczos4:
                    float_vif::resample(in, is, w, h, dst, ds, sw, sh, lanczos_at);
                    break;
            }
        }
        blur_decimate16(aa_filter_, aa_width_, FloatRows{dst, ds}, sw, sh, runs_, low_.data(),
                        low_.stride(), row_.data());
    }
    const int ow = dims_.op_w, oh = dims_.op_h;
    float_vif::blur(dc_filter_, dc_width_, low_.data(), low_.stride(), low_blur_.data(),
                    low_blur_.stride(), ow, oh, row_.data());
    for (int y = 0; y < oh; ++y) {
        float* d = low_.row(y);
        const float* b = low_blur_.row(y);
        for (int x = 0; x < ow; ++x) d[x] -= b[x];
    }
}

void Gsm::estimate(BlockStats& out) {
    const Dimensions& d = dims_;
    const int n = kBlockElems;
    const int nb = d.blocks();
    const float* low = low_.data();
    const std::ptrdiff_t stride = low_.stride();

    k_.covariance(low, stride, d.sub_w, d.sub_h, mean_.data(), cov_.data());
    eigenvalues(cov_.data(), n, eig_.data(), work_.data());

    // The independent term: row (si, sj) holds that position of every block.
    for (int si = 0; si < kBlock; ++si)
        for (int sj = 0; sj < kBlock; ++sj)
            for (int by = 0; by < d.blocks_y; ++by)
                for (int bx = 0; bx < d.blocks_x; ++bx)
                    indep_[(si * kBlock + sj) * nb + by * d.blocks_x + bx] =
                        low[(by * kBlock + si) * stride + bx * kBlock + sj];

    bool regular = true;
    for (int i = 0; i < n; ++i)
        if (eig_[i] < kEigenEps) regular = false;
    bool solved = false;
    if (regular)
        solved = solve(cov_.data(), n, indep_.data(), nb, sol_.data(), work_.data(), k_.matmul);
    out.singular = !regular || !solved;
    if (out.singular) std::fill(sol_.begin(), sol_.end(), 0.0f);

    // (X * Y) / 25 pointwise, then the 25 rows summed into row 0.
    const float den = static_cast<float>(n);
    for (int i = 0; i < n * nb; ++i) sol_[i] = (sol_[i] * indep_[i]) / den;
    for (int i = 1; i < n; ++i)
        for (int j = 0; j < nb; ++j) sol_[j] += sol_[i * nb + j];

    out.entropy.assign(static_cast<std::size_t>(nb), 0.0f);
    const double c = log2_two_pi_e();
    for (int k = 0; k < n; ++k) {
        const float L = eig_[k] < 0 ? 0 : eig_[k];
        for (int j = 0; j < nb; ++j) {
            const double term = std::log2(static_cast<double>(L * sol_[j] + p_.sigma_nn)) + c;
            out.entropy[j] = static_cast<float>(out.entropy[j] + term);
        }
    }
    out.variance.assign(sol_.begin(), sol_.begin() + nb);
}

void Gsm::analyse(const Samples& s, BlockStats& out) {
    if (twin_)
        twin_->prepare(s, low_.data(), low_.stride());
    else
        prepare(PlaneRows{s.a, s.a_stride, s.b, s.b_stride, s.bpc, &k_});
    estimate(out);
}

float Gsm::score(const BlockStats& ref, const BlockStats& dis) const {
    const int nb = dims_.blocks();
    const float base = static_cast<float>(
        kBlockElems * (std::log2(static_cast<double>((1 + p_.nn_floor) * p_.sigma_nn)) +
                       log2_two_pi_e()));
    float score = 0;
    for (int i = 0; i < nb; ++i) {
        const float re = ref.entropy[i], de = dis.entropy[i];
        if (re < base && de < base) continue;
        const float rv = ref.variance[i], dv = dis.variance[i];
        // log2 of a float argument is taken in double; the products with the
        // float entropies are double, narrowed to float.
        const auto lg = [](double v) { return std::log2(v); };
        float sr = 0, sd = 0;
        switch (p_.weight_var_mode) {
            case 0:
                sr = static_cast<float>(re * lg(1 + rv));
                sd = static_cast<float>(de * lg(1 + dv));
                break;
            case 1:
                sr = static_cast<float>(re * lg(1 + rv));
                sd = static_cast<float>(de * lg(1 + rv));
                break;
            case 2:
                sr = static_cast<float>(re * lg(1 + dv));
                sd = static_cast<float>(de * lg(1 + dv));
                break;
            case 3:
                sr = static_cast<float>(re * lg(1 + (rv + dv) / 2.0));
                sd = static_cast<float>(de * lg(1 + (rv + dv) / 2.0));
                break;
            case 4:
                sr = static_cast<float>(re * lg(1 + rv));
                sd = static_cast<float>(de * lg(1 + (rv + dv) / 2.0));
                break;
            case 5:
                sr = static_cast<float>(re * lg(1 + rv));
                sd = static_cast<float>(de * lg(1 + (0.75 * rv + 0.25 * dv)));
                break;
            default:  // 6
                sr = static_cast<float>(re * lg(1 + rv));
                sd = static_cast<float>(de * lg(1 + (0.25 * rv + 0.75 * dv)));
                break;
        }
        score += std::fabs(sr - sd);
    }
    return score / static_cast<float>(nb);
}

}  // namespace vmafpp::speed
