// libvmaf's "cambi" extractor (Contrast Aware Multiscale Banding Index):
// the luma converted to 10 bits (resized to the encoding or source size),
// a mask of flat areas, then at five scales a 3x3 mode filter, the c-values
// of the masked pixels from windowed histograms, and the mean of their top
// k; the scales weighted 16, 8, 4, 2, 1. Not temporal: each frame is scored
// on its own. With full_ref the reference is scored too (cambi_source) and
// cambi_full_reference = max(0, cambi - cambi_source).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/extractor_info.hpp"
#include "base/option_table.hpp"
#include "base/frame_scratch.hpp"
#include "cambi/cambi_kernels.hpp"
#include "cambi/cambi_twin.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp::cambi {

// The error of a sample above the bit depth's maximum, the scalar's and the
// twins' (throw_if_bad_sample).
[[noreturn]] void throw_bad_sample(int value, int bpc) {
    throw Error("cambi: the input has the value " + std::to_string(value) +
                ", above the maximum of " + std::to_string((1 << bpc) - 1) + " for " +
                std::to_string(bpc) + " bits");
}

}  // namespace vmafpp::cambi

namespace vmafpp {

namespace {

using cambi::kScales;

constexpr int kMinSide = 216;  // CAMBI_MIN_WIDTH_HEIGHT
constexpr double kDefaultTopk = 0.6;
constexpr int kScaleWeights[kScales] = {16, 8, 4, 2, 1};
constexpr int kContrastWeights[32] = {1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
                                      8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
// 10-bit limited range, where libvmaf evaluates the EOTF.
constexpr int kFoot = 64, kHead = 940;

using Eotf = double (*)(double);

double bt1886_eotf(double v) {
    constexpr double gamma = 2.4, lw = 300.0, lb = 0.01;
    const double a = std::pow(std::pow(lw, 1.0 / gamma) - std::pow(lb, 1.0 / gamma), gamma);
    const double b = std::pow(lb, 1.0 / gamma) /
                     (std::pow(lw, 1.0 / gamma) - std::pow(lb, 1.0 / gamma));
    const double x = v + b;
    return a * std::pow(x > 0 ? x : 0, gamma);
}

double pq_eotf(double v) {
    const double m1 = 0.1593017578125, m2 = 78.84375;
    const double c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
    const double num = std::pow(v, 1.0 / m2) - c1;
    const double den = c2 - c3 * std::pow(v, 1.0 / m2);
    return 10000 * std::pow((num > 0 ? num : 0) / den, 1.0 / m1);
}

double luminance(int sample, Eotf eotf) {
    const int c = sample < kFoot ? kFoot : (sample > kHead ? kHead : sample);
    return eotf(static_cast<double>(c - kFoot) / (kHead - kFoot));
}

// Whether a step of `diff` above `sample` is visible.
bool visible(int sample, int diff, double tvi, Eotf eotf) {
    const double mean = luminance(sample, eotf);
    return luminance(sample + diff, eotf) - mean > tvi * mean;
}

enum class Bisect { too_small, correct, too_big };

Bisect tvi_bisect(int sample, int diff, double tvi, Eotf eotf) {
    if (!visible(sample, diff, tvi, eotf)) return Bisect::too_big;
    if (visible(sample + 1, diff, tvi, eotf)) return Bisect::too_small;
    return Bisect::correct;
}

// The highest 10-bit value at which a step of `diff` is still visible
// (libvmaf's bisection, its answers at the ends included).
int tvi_for_diff(int diff, double tvi, Eotf eotf) {
    int foot = kFoot, head = kHead - diff - 1;
    Bisect b = tvi_bisect(foot, diff, tvi, eotf);
    if (b == Bisect::too_big) return 0;
    if (b == Bisect::correct) return foot;
    b = tvi_bisect(head, diff, tvi, eotf);
    if (b == Bisect::too_small) return 1023;
    if (b == Bisect::correct) return head;
    for (;;) {
        const int mid = foot + (head - foot) / 2;
        b = tvi_bisect(mid, diff, tvi, eotf);
        if (b == Bisect::too_big)
            head = mid;
        else if (b == Bisect::too_small)
            foot = mid;
        else
            return mid;
    }
}

// The window after libvmaf's scaling by (w + h) / (3840 + 2160), halved with
// the high-resolution speed-up, made odd.
int scaled_window(int window, int w, int h, bool speedup) {
    unsigned ws = (static_cast<unsigned>(window) * static_cast<unsigned>(w + h) / 375u) >> 4;
    ws &= 0xffffu;  // a uint16_t in libvmaf
    if (speedup) ws = (ws + 1) >> 1;
    return static_cast<int>(ws | 1u);
}

int ceil_log2(std::uint32_t n) {
    if (n == 0) return 0;
    int shift = 0;
    for (std::uint32_t t = n - 1; t > 0; t >>= 1) ++shift;
    return shift;
}

// How many of the 7x7 window's pixels must be flat for the mask: more for
// larger pictures.
int mask_threshold(int w, int h) {
    const std::uint32_t blocks = static_cast<std::uint32_t>(w >> 6) * static_cast<std::uint32_t>(h >> 6);
    constexpr int f = cambi::kMaskFilterSize;
    return ((f * f + 3 * (ceil_log2(blocks) - 11) - 1) >> 1) & 0xffff;
}

// The five heatmap files of one path, shared by every instance that writes
// there (the engine runs several instances at once): each frame's rows go
// to their own offset, so the order of the writes does not matter.
class HeatmapFiles {
public:
    static std::shared_ptr<HeatmapFiles> open(const std::string& dir, int w, int h) {
        static std::mutex registry_mu;
        static std::map<std::string, std::weak_ptr<HeatmapFiles>> registry;
        std::lock_guard<std::mutex> lock(registry_mu);
        const std::string key = dir + "|" + std::to_string(w) + "x" + std::to_string(h);
        if (auto live = registry[key].lock()) return live;
        auto files = std::shared_ptr<HeatmapFiles>(new HeatmapFiles(dir, w, h));
        registry[key] = files;
        return files;
    }
    ~HeatmapFiles() {
        for (std::FILE* f : files_)
            if (f) std::fclose(f);
    }
    HeatmapFiles(const HeatmapFiles&) = delete;
    HeatmapFiles& operator=(const HeatmapFiles&) = delete;

    // Row y of frame `frame` at `scale`: 16-bit samples (host order, as
    // libvmaf writes them) at ((frame * h + y) * w) samples.
    void write(int scale, unsigned frame, int w, int h, const std::uint16_t* rows) {
        std::lock_guard<std::mutex> lock(mu_);
        std::FILE* f = files_[scale];
        const long long offset = (static_cast<long long>(frame) * h) * w * 2;
        if (std::fseek(f, static_cast<long>(offset), SEEK_SET) != 0 ||
            std::fwrite(rows, sizeof(std::uint16_t), static_cast<std::size_t>(w) * h, f) !=
                static_cast<std::size_t>(w) * h ||
            std::fflush(f) != 0)
            throw Error("cambi: could not write the heatmap of scale " + std::to_string(scale) +
                        " under " + dir_);
    }

private:
    HeatmapFiles(const std::string& dir, int w, int h) : dir_(dir) {
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (ec) throw Error("cambi: could not create heatmaps_path " + dir + ": " + ec.message());
        for (int s = 0; s < kScales; ++s) {
            const std::string path = dir + "/cambi_heatmap_scale_" + std::to_string(s) + "_" +
                                     std::to_string(w) + "x" + std::to_string(h) + "_16b.gray";
            files_[s] = std::fopen(path.c_str(), "wb");
            if (!files_[s]) throw Error("cambi: could not open heatmap file " + path);
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
    }
    std::string dir_;
    std::FILE* files_[kScales] = {};
    std::mutex mu_;
};

// libvmaf's default eotf, of both eotf options.
const std::string kDefaultEotf = "bt1886";

// What a cambi instance reads from its options (cambi_table()).
struct CambiParams {
    double max_val;
    int enc_width, enc_height, enc_bitdepth;  // 0: the input's
    int src_width, src_height;                // 0: the input's
    int window_size;
    double topk, cambi_topk;
    double tvi_threshold;
    double vis_lum_threshold;
    int max_log_contrast;
    std::string heatmaps_path;
    bool full_ref;
    std::string eotf, cambi_eotf;
    int high_res_speedup;
};

// libvmaf's options, in its order, each with the field it fills.
const OptionTable<CambiParams>& cambi_table() {
    using T = OptionType;
    using P = CambiParams;
    static const OptionTable<CambiParams> table = [] {
        OptionSpec eotf{"eotf", "", T::text, 0, 0, 0, true,
                        "Determines the EOTF used to compute the visibility thresholds: bt1886 "
                        "or pq"};
        OptionSpec cambi_eotf{"cambi_eotf", "ceot", T::text, 0, 0, 0, true,
                              "The EOTF, as eotf; takes precedence when not bt1886"};
        eotf.default_text = cambi_eotf.default_text = kDefaultEotf;
        OptionTable<CambiParams> t;
        t.add({"cambi_max_val", "cmxv", T::number, 1000.0, 0.0, 1000.0, true,
               "maximum value allowed; larger values will be clipped to this value"},
              &P::max_val)
            .add({"enc_width", "encw", T::integer, 0, 180, 7680, true, "Encoding width"},
                 &P::enc_width)
            .add({"enc_height", "ench", T::integer, 0, 150, 7680, true, "Encoding height"},
                 &P::enc_height)
            .add({"enc_bitdepth", "encbd", T::integer, 0, 6, 16, true, "Encoding bitdepth"},
                 &P::enc_bitdepth)
            .add({"src_width", "srcw", T::integer, 0, 320, 7680, true,
                  "Source width. Only used when full_ref=true."},
                 &P::src_width)
            .add({"src_height", "srch", T::integer, 0, 200, 4320, true,
                  "Source height. Only used when full_ref=true."},
                 &P::src_height)
            .add({"window_size", "ws", T::integer, 65, 15, 127, true,
                  "Window size to compute CAMBI: 65 corresponds to ~1 degree at 4k"},
                 &P::window_size)
            .add({"topk", "", T::number, kDefaultTopk, 0.0001, 1.0, true,
                  "Ratio of pixels for the spatial pooling computation, must be 0 < topk <= 1.0"},
                 &P::topk)
            .add({"cambi_topk", "ctpk", T::number, kDefaultTopk, 0.0001, 1.0, true,
                  "Ratio of pixels for the spatial pooling computation, must be 0 < cambi_topk "
                  "<= 1.0"},
                 &P::cambi_topk)
            .add({"tvi_threshold", "tvit", T::number, 0.019, 0.0001, 1.0, true,
                  "Visibilty threshold for luminance ΔL < tvi_threshold*L_mean"},
                 &P::tvi_threshold)
            .add({"cambi_vis_lum_threshold", "vlt", T::number, 0.0, 0.0, 300.0, true,
                  "Luminance value below which we assume any banding is not visible"},
                 &P::vis_lum_threshold)
            .add({"max_log_contrast", "mlc", T::integer, 2, 0, 5, true,
                  "Maximum contrast in log luma level (2^max_log_contrast) at 10-bits"},
                 &P::max_log_contrast)
            .add({"heatmaps_path", "", T::text, 0, 0, 0, false,
                  "Path where heatmaps will be dumped."},
                 &P::heatmaps_path)
            .add({"full_ref", "", T::boolean, 0, 0, 1, false,
                  "If true, CAMBI will be run in full-reference mode and will be computed on "
                  "both the reference and distorted inputs"},
                 &P::full_ref)
            .add(eotf, &P::eotf)
            .add(cambi_eotf, &P::cambi_eotf)
            .add({"cambi_high_res_speedup", "hrs", T::integer, 0, 0, 2160, true,
                  "Speed up by downsampling after the spatial mask from this resolution on: "
                  "1080, 1440, 2160 or 0 (not applied)"},
                 &P::high_res_speedup);
        return t;
    }();
    return table;
}

// What init() derives from the options and the picture size.
struct Plan {
    int enc_w = 0, enc_h = 0, src_w = 0, src_h = 0, enc_bitdepth = 8;
    bool speedup = false;
    int window = 0, src_window = 0;
    int alloc_w = 0, alloc_h = 0;
    int num_diffs = 4;
    Eotf eotf = bt1886_eotf;
    double topk = kDefaultTopk;
};

// The picture sizes each scale works on, for a w x h input.
void scale_sizes(int w, int h, bool speedup, int sw[kScales], int sh[kScales]) {
    for (int s = 0; s < kScales; ++s) {
        if (s > 0 || speedup) {
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
        sw[s] = w;
        sh[s] = h;
    }
}

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

Plan make_plan(const CambiParams& o, const ExtractorSetup& setup) {
    const int w = setup.geometry.width, h = setup.geometry.height;
    Plan p;
    p.enc_bitdepth = o.enc_bitdepth ? o.enc_bitdepth : setup.geometry.bpc;
    p.enc_w = o.enc_width;
    p.enc_h = o.enc_height;
    if (p.enc_w == 0 || p.enc_h == 0) p.enc_w = w, p.enc_h = h;
    p.src_w = o.src_width;
    p.src_h = o.src_height;
    if (p.src_w == 0 || p.src_h == 0) p.src_w = w, p.src_h = h;
    // A downscaled encode is not scaled back up.
    if (p.enc_h > h || p.enc_w > w) p.enc_w = w, p.enc_h = h;
    if (p.enc_w < kMinSide && p.enc_h < kMinSide)
        throw Error("cambi needs a minimum of " + std::to_string(kMinSide) +
                    " luma samples in width or height (encoding size " +
                    size_text(p.enc_w, p.enc_h) + ")");
    if (p.src_w < kMinSide && p.src_h < kMinSide)
        throw Error("cambi needs a minimum of " + std::to_string(kMinSide) +
                    " luma samples in width or height (source size " +
                    size_text(p.src_w, p.src_h) + ")");
    if ((p.src_w > p.enc_w && p.src_h < p.enc_h) || (p.src_w < p.enc_w && p.src_h > p.enc_h))
        throw Error("cambi: the source size " + size_text(p.src_w, p.src_h) +
                    " and the encoding size " + size_text(p.enc_w, p.enc_h) +
                    " must not be larger in different dimensions");

    const long long enc_pix = static_cast<long long>(p.enc_w) * p.enc_h;
    switch (o.high_res_speedup) {
        case 1080: p.speedup = enc_pix >= 1920LL * 1080; break;
        case 1440: p.speedup = enc_pix >= 2560LL * 1440; break;
        case 2160: p.speedup = enc_pix >= 3840LL * 2160; break;
        default: p.speedup = false;
    }
    const bool full_ref = o.full_ref;
    p.alloc_w = full_ref ? std::max(p.src_w, p.enc_w) : p.enc_w;
    p.alloc_h = full_ref ? std::max(p.src_h, p.enc_h) : p.enc_h;
    p.num_diffs = 1 << o.max_log_contrast;

    const std::string& eotf = o.cambi_eotf == kDefaultEotf ? o.eotf : o.cambi_eotf;
    if (eotf == "bt1886")
        p.eotf = bt1886_eotf;
    else if (eotf == "pq")
        p.eotf = pq_eotf;
    else
        throw Error("cambi: unknown eotf \"" + eotf + "\" (bt1886 or pq)");

    const int window = o.window_size;
    p.window = scaled_window(window, p.enc_w, p.enc_h, p.speedup);
    p.src_window = scaled_window(window, p.src_w, p.src_h, p.speedup);
    const int max_window = std::max(p.window, p.src_window);
    if (max_window * max_window >= cambi::kReciprocalCount)
        throw Error("cambi: window_size " + std::to_string(window) + " scales to " +
                    std::to_string(max_window) + " at this size, above the maximum of 65");
    p.topk = o.topk != kDefaultTopk ? o.topk : o.cambi_topk;

    // libvmaf reads its histogram window past a scale's picture when the
    // picture is not wider and taller than half the window (memory left by
    // the scale before, or outside its buffer): refuse those sizes.
    auto check_scales = [&](int sw0, int sh0, int win, const char* what) {
        int sw[kScales], sh[kScales];
        scale_sizes(sw0, sh0, p.speedup, sw, sh);
        const int pad = win >> 1;
        if (sw[kScales - 1] <= pad || sh[kScales - 1] <= pad)
            throw Error("cambi: the " + std::string(what) + " size " + size_text(sw0, sh0) +
                        " is " + size_text(sw[kScales - 1], sh[kScales - 1]) +
                        " at its coarsest scale, below the minimum of " +
                        std::to_string(pad + 1) + " per side for its window of " +
                        std::to_string(win));
    };
    check_scales(p.enc_w, p.enc_h, p.window, "encoding");
    if (full_ref) check_scales(p.src_w, p.src_h, p.src_window, "source");
    return p;
}

class Cambi final : public FeatureExtractor, public detail::SharesFrameScratch {
public:
    static void check(const ExtractorSetup& s) { make_plan(cambi_table().read(s.options), s); }

    explicit Cambi(const ExtractorSetup& s) : Cambi(s, cambi_table().read(s.options)) {}

    Cambi(const ExtractorSetup& s, const CambiParams& o)
        : key_(s.keys[0]),
          k_(cambi::cambi_kernels_for(s.compute.simd)),
          plan_(make_plan(o, s)),
          in_w_(s.geometry.width),
          in_h_(s.geometry.height),
          bpc_(s.geometry.bpc),
          full_ref_(o.full_ref),
          max_val_(o.max_val),
          stride_((plan_.alloc_w + 31) & ~31),
          // The c-values, every one written by c_values at each scale before
          // pooling reads it: shared with the other extractors of this
          // worker (meet()).
          frame_scratch_(sizeof(float) * static_cast<std::size_t>(plan_.alloc_w) *
                         static_cast<std::size_t>(plan_.alloc_h)) {
        const int nd = plan_.num_diffs;
        tvi_.resize(static_cast<std::size_t>(nd));
        weights_.resize(static_cast<std::size_t>(nd));
        const double tvi = o.tvi_threshold;
        for (int d = 0; d < nd; ++d) {
            tvi_[static_cast<std::size_t>(d)] =
                static_cast<std::uint16_t>(tvi_for_diff(d + 1, tvi, plan_.eotf) + nd);
            weights_[static_cast<std::size_t>(d)] = kContrastWeights[d];
        }
        setup_.num_diffs = nd;
        setup_.tvi = tvi_.data();
        setup_.weights = weights_.data();
        setup_.vlt_luma = vlt_luma(o.vis_lum_threshold, plan_.eotf);
        const int lo = setup_.vlt_luma - 3 * nd + 1;
        setup_.band_base = lo > 0 ? lo : 0;
        // An empty band (every tvi below the visibility threshold) leaves
        // every c-value 0, as libvmaf's wrapped uint16 size does.
        setup_.band_size = std::max(0, tvi_.back() + 1 - setup_.band_base);

        if (!o.heatmaps_path.empty()) {
            heatmaps_ = HeatmapFiles::open(o.heatmaps_path, plan_.enc_w, plan_.enc_h);
            // The largest c-value, 16 bits in the files: max weight * window^2 / 4.
            int max_weight = weights_[0];
            for (int wgt : weights_) max_weight = std::max(max_weight, wgt);
            const int max_c = max_weight * plan_.window * plan_.window / 4;
            heatmap_scale_ = static_cast<double>((1 << 16) - 1) / max_c;
        }
        twin_ = device::make_twin<cambi::CambiTwin>(s.compute, plan_.alloc_w, plan_.alloc_h, setup_);
    }

    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        const double dist = score(dis.luma(), plan_.enc_w, plan_.enc_h, plan_.window,
                                  heatmaps_ != nullptr, frame);
        sink.append(key_, frame, std::min(dist, max_val_));
        if (!full_ref_) return;
        const double src = score(ref.luma(), plan_.src_w, plan_.src_h, plan_.src_window, false,
                                 frame);
        sink.append("cambi_source", frame, std::min(src, max_val_));
        sink.append("cambi_full_reference", frame, std::min(std::max(0.0, dist - src), max_val_));
    }

    void meet(FeatureExtractor& earlier) override {
        if (!twin_) share_frame_scratch(earlier);
    }
    detail::FrameScratch& frame_scratch() override { return frame_scratch_; }

private:
    // The lowest 10-bit value whose luminance reaches the threshold (0 when
    // the foot already does).
    static int vlt_luma(double threshold, Eotf eotf) {
        int sample = kFoot;
        while (luminance(sample, eotf) < threshold) {
            if (++sample > 1023)
                throw Error("cambi: cambi_vis_lum_threshold " + std::to_string(threshold) +
                            " is above the peak luminance of the eotf");
        }
        return sample == kFoot ? 0 : sample;
    }

    template <class T>
    void to_10_bits(const Plane& luma, int w, int h) {
        const int peak = (1 << bpc_) - 1;
        if (bpc_ != 8 && bpc_ != 16)
            for (int y = 0; y < in_h_; ++y) {
                const T* row = luma.row<T>(y);
                for (int x = 0; x < in_w_; ++x)
                    if (row[x] > peak) cambi::throw_bad_sample(row[x], bpc_);
            }
        const int down = bpc_ > 10 ? bpc_ - 10 : 0;
        const int up = bpc_ < 10 ? 10 - bpc_ : 0;
        const int round = down ? 1 << (down - 1) : 0;
        auto convert = [&](T v) {
            return static_cast<std::uint16_t>(down ? (v + round) >> down : v << up);
        };
        std::uint16_t* out = image_.get();
        if (w == in_w_ && h == in_h_) {
            for (int y = 0; y < h; ++y) {
                const T* row = luma.row<T>(y);
                std::uint16_t* o = out + static_cast<std::ptrdiff_t>(y) * stride_;
                for (int x = 0; x < w; ++x) o[x] = convert(row[x]);
            }
            return;
        }
        // Nearest neighbour, the positions stepped in float as libvmaf does.
        const float rx = static_cast<float>(in_w_) / static_cast<float>(w);
        const float ry = static_cast<float>(in_h_) / static_cast<float>(h);
        const float start_x = static_cast<float>(rx / 2 - 0.5);
        float fy = static_cast<float>(ry / 2 - 0.5);
        for (int y = 0; y < h; ++y) {
            const T* row = luma.row<T>(static_cast<int>(fy + 0.5));
            std::uint16_t* o = out + static_cast<std::ptrdiff_t>(y) * stride_;
            float fx = start_x;
            for (int x = 0; x < w; ++x) {
                o[x] = convert(row[static_cast<int>(fx + 0.5)]);
                fx += rx;
            }
            fy += ry;
        }
    }

    // The working buffers, made on the first frame: an instance that only
    // proves the input scorable (the session's probe of each --feature)
    // never allocates or touches them.
    void allocate_buffers() {
        const std::size_t pixels = static_cast<std::size_t>(stride_) * plan_.alloc_h;
        image_ = detail::make_large_array<std::uint16_t>(pixels);
        mask_ = detail::make_large_array<std::uint16_t>(pixels);
        std::memset(image_.get(), 0, pixels * sizeof(std::uint16_t));
        std::memset(mask_.get(), 0, pixels * sizeof(std::uint16_t));
        // Both pictures' windows fit (the scratch rows grow with the window);
        // every scale's narrower w needs fewer cells.
        const std::size_t cells = cambi::c_values_cells(
            plan_.alloc_w, std::max(plan_.window, plan_.src_window), setup_.band_size);
        histograms_ = detail::make_large_array<std::uint16_t>(cells);
        // Zero once: c_values leaves its counts 0 again (CValuesFn).
        std::memset(histograms_.get(), 0, cells * sizeof(std::uint16_t));
        mask_scratch_.resize(cambi::spatial_mask_scratch(plan_.alloc_w));
        mode_buffer_.resize(static_cast<std::size_t>(3) * plan_.alloc_w);
    }

    double score(const Plane& luma, int w, int h, int window, bool heatmaps, unsigned frame) {
        if (twin_) return score_on_device(luma, w, h, window, heatmaps, frame);
        if (!image_) allocate_buffers();
        const bool dither = plan_.enc_bitdepth < 10;
        if (bpc_ == 8 && w == in_w_ && h == in_h_) {
            k_.load_u8(luma.row<std::uint8_t>(0), luma.stride(), image_.get(), stride_, w, h,
                       dither);
        } else {
            if (bpc_ > 8)
                to_10_bits<std::uint16_t>(luma, w, h);
            else
                to_10_bits<std::uint8_t>(luma, w, h);
            if (dither) cambi::anti_dither(image_.get(), stride_, w, h);
        }

        std::uint16_t* image = image_.get();
        std::uint16_t* mask = mask_.get();
        auto* c_values = reinterpret_cast<float*>(frame_scratch_.get());
        // With the speed-up the first scale is decimated and keeps only the
        // mask's even rows and columns: the kernel writes just those.
        if (plan_.speedup)
            k_.spatial_mask_half(image, stride_, mask, w, h, mask_threshold(w, h),
                                 mask_scratch_.data());
        else
            k_.spatial_mask(image, stride_, mask, w, h, mask_threshold(w, h), mask_scratch_.data());
        double scores[kScales];
        for (int s = 0; s < kScales; ++s) {
            if (s > 0 || plan_.speedup) {
                w = (w + 1) >> 1;
                h = (h + 1) >> 1;
                k_.decimate(image, stride_, w, h);
                if (s > 0) k_.decimate(mask, stride_, w, h);
            }
            k_.filter_mode(image, stride_, w, h, mode_buffer_.data());
            cambi::CValueSums sums;
            k_.c_values(image, mask, stride_, w, h, window, setup_, c_values, histograms_.get(),
                        sums);
            if (heatmaps) write_heatmap(c_values, s, frame, w, h);
            scores[s] = cambi::spatial_pooling(c_values, plan_.topk, w, h, sums, pool_scratch_);
        }
        return weighted(scores, window);
    }

    // The scales' scores weighted 16, 8, 4, 2, 1, over the window's area.
    static double weighted(const double scores[kScales], int window) {
        double sum = 0.0;
        for (int s = 0; s < kScales; ++s) sum += scores[s] * kScaleWeights[s];
        const int odd = 2 * (window >> 1) + 1;
        return sum / static_cast<std::uint16_t>(odd * odd);
    }

    // The device computes every scale's c-values (device::CambiTwin); the
    // host gathers their sums, writes the heat map and pools each scale
    // with the scalar's code, so the score is the scalar's bits.
    double score_on_device(const Plane& luma, int w, int h, int window, bool heatmaps,
                           unsigned frame) {
        cambi::CambiPicture p;
        p.luma = luma.row<std::uint8_t>(0);
        p.stride = luma.stride();
        p.in_w = in_w_, p.in_h = in_h_, p.bpc = bpc_;
        p.w = w, p.h = h, p.window = window;
        p.dither = plan_.enc_bitdepth < 10;
        p.speedup = plan_.speedup;
        p.mask_threshold = mask_threshold(w, h);
        twin_->run(p);
        double scores[kScales];
        for (int s = 0; s < kScales; ++s) {
            if (s > 0 || plan_.speedup) {
                w = (w + 1) >> 1;
                h = (h + 1) >> 1;
            }
            float* c = twin_->c_values(s);
            cambi::CValueSums sums;
            for (int y = 0; y < h; ++y) k_.c_value_sums(c + static_cast<std::ptrdiff_t>(y) * w, w, sums);
            if (heatmaps) write_heatmap(c, s, frame, w, h);
            scores[s] = cambi::spatial_pooling(c, plan_.topk, w, h, sums, pool_scratch_);
        }
        return weighted(scores, window);
    }

    void write_heatmap(const float* c, int scale, unsigned frame, int w, int h) {
        std::vector<std::uint16_t> rows(static_cast<std::size_t>(w) * h);
        for (std::size_t i = 0; i < rows.size(); ++i)
            rows[i] = static_cast<std::uint16_t>(heatmap_scale_ * c[i]);
        heatmaps_->write(scale, frame, w, h, rows.data());
    }

    std::string key_;
    const cambi::CambiKernels& k_;
    Plan plan_;
    int in_w_, in_h_, bpc_;
    bool full_ref_;
    double max_val_;
    std::ptrdiff_t stride_;
    std::vector<std::uint16_t> tvi_;
    std::vector<int> weights_;
    cambi::ContrastSetup setup_;
    std::unique_ptr<std::uint16_t[], detail::LargeFree> image_, mask_, histograms_;
    detail::FrameScratch frame_scratch_;  // the c-values, alloc_w x alloc_h
    std::vector<std::uint32_t> mask_scratch_;
    std::vector<std::uint16_t> mode_buffer_;
    std::vector<float> pool_scratch_;
    std::shared_ptr<HeatmapFiles> heatmaps_;
    double heatmap_scale_ = 0;
    std::unique_ptr<cambi::CambiTwin> twin_;  // the per-pixel stages on the device
};

}  // namespace

FeatureInfo cambi_info() {
    // libvmaf names only the first; the other two are written with full_ref.
    FeatureInfo info = extractor_info<Cambi>("cambi", cambi_table().specs(),
                                             {{"Cambi_feature_cambi_score", "cambi"},
                                              {"cambi_source", ""},
                                              {"cambi_full_reference", ""}});
    info.device_twins = {std::string(cambi::CambiTwin::kind)};
    // Without full_ref only the distorted picture is scored.
    info.reads_reference = [](const OptionValues& o) { return cambi_table().read(o).full_ref; };
    return info;
}

}  // namespace vmafpp

namespace vmafpp::cambi {

void throw_if_bad_sample(const CambiPicture& p, std::uint32_t index) {
    if (index == kNoBadSample) return;
    const int x = static_cast<int>(index % static_cast<std::uint32_t>(p.in_w));
    const int y = static_cast<int>(index / static_cast<std::uint32_t>(p.in_w));
    std::uint16_t v;
    std::memcpy(&v, p.luma + y * p.stride + 2 * x, 2);
    throw_bad_sample(v, p.bpc);
}

std::vector<std::int32_t> nearest_positions(int in_n, int n) {
    std::vector<std::int32_t> t(static_cast<std::size_t>(n));
    if (in_n == n) {
        for (int i = 0; i < n; ++i) t[static_cast<std::size_t>(i)] = i;
        return t;
    }
    const float r = static_cast<float>(in_n) / static_cast<float>(n);
    float f = static_cast<float>(r / 2 - 0.5);
    for (int i = 0; i < n; ++i) {
        t[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(f + 0.5);
        f += r;
    }
    return t;
}

}  // namespace vmafpp::cambi
