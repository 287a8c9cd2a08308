// libvmaf's "psnr_hvs" extractor: PSNR-HVS-M of each plane (luma and the
// two chroma planes, each with its contrast sensitivity table) and their
// 0.8 / 0.1 / 0.1 weighted combination.
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "base/extractor_info.hpp"
#include "psnr_hvs/psnr_hvs_kernels.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {

namespace {

using namespace psnr_hvs;  // the kernels (src/psnr_hvs/psnr_hvs_kernels.hpp)

// 10 * -log10(score): a perfect plane (score 0) gives +inf, as in libvmaf.
double to_db(double score) { return 10 * (-1 * std::log10(score)); }

class PsnrHvs final : public FeatureExtractor {
public:
    static void check(const ExtractorSetup& s) {
        const FrameGeometry& g = s.geometry;
        if (g.bpc > 12)
            throw Error("psnr_hvs supports at most 12 bits per component (got " +
                        std::to_string(g.bpc) + ")");
        if (g.format == PixelFormat::yuv400)
            throw Error("psnr_hvs needs chroma planes; 4:0:0 has none");
        // libvmaf scores 8x8 blocks only: a plane smaller than 8 in either
        // dimension has none and its value would be 0/0.
        const ChromaShift cs = chroma_shift(g.format);
        const int cw = g.width >> cs.x, ch = g.height >> cs.y;
        if (g.width < 8 || g.height < 8 || cw < 8 || ch < 8)
            throw Error("psnr_hvs needs every plane to be at least 8x8 (its 8x8 blocks); " +
                        std::to_string(g.width) + "x" + std::to_string(g.height) +
                        " has " + std::to_string(cw) + "x" + std::to_string(ch) +
                        " chroma planes");
    }

    explicit PsnrHvs(const ExtractorSetup& s)
        : keys_(s.keys), bpc_(s.geometry.bpc), k_(psnr_hvs_kernels_for(s.compute.simd)) {}

    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        static const psnr_hvs::Table8x8* const csf[3] = {&psnr_hvs::kCsfLuma, &psnr_hvs::kCsfCb,
                                                         &psnr_hvs::kCsfCr};
        double score[3];
        for (int p = 0; p < 3; ++p) {
            const Plane& a = ref.planes[p];
            const Plane& b = dis.planes[p];
            score[p] = k_.plane(a.data(), a.stride(), b.data(), b.stride(), a.width(), a.height(),
                                bpc_, *csf[p]);
            sink.append(keys_[p], frame, to_db(score[p]));
        }
        const double combined = score[0] * .8 + .1 * (score[1] + score[2]);
        sink.append(keys_[3], frame, to_db(combined));
    }

private:
    std::vector<std::string> keys_;  // psnr_hvs_y, _cb, _cr, psnr_hvs
    int bpc_;
    const PsnrHvsKernels& k_;
};

}  // namespace

FeatureInfo psnr_hvs_info() {
    FeatureInfo info = extractor_info<PsnrHvs>(
        "psnr_hvs", {},
        {{"psnr_hvs_y", ""}, {"psnr_hvs_cb", ""}, {"psnr_hvs_cr", ""}, {"psnr_hvs", ""}});
    info.reads_chroma = [](const OptionValues&) { return true; };
    return info;
}

}  // namespace vmafpp
