// libvmaf's "ciede" extractor: 45 - 20 log10 of the mean CIEDE2000
// difference of the pictures' pixels, chroma expanded to the luma size the
// way libvmaf expands it.
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/extractor_info.hpp"
#include "ciede/ciede_kernels.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {

namespace {

using namespace ciede;  // the kernels (src/ciede/ciede_kernels.hpp)

// libvmaf expands 4:2:0 and 4:2:2 chroma by reading its own picture layout:
// chroma planes of w >> sx by h >> sy samples, rows S = align32(w >> sx)
// samples apart with zeroed padding, the V plane right after the U plane.
// Output row i, column j reads linear position (i >> 1) * S + c with
// c = j >> 1 for 4:2:0 but c = j for 4:2:2 (libvmaf halves the row index for
// both and the column only for 4:2:0), so a 4:2:2 row runs on into the next
// chroma row. This reproduces those reads: past a row's samples the padding
// gives 0, past the U plane the V plane follows. Only past the V plane
// (odd heights of 4:2:0, where libvmaf reads outside its buffer) is the
// value vmafpp's own: the last V row again.
class ChromaExpander {
public:
    explicit ChromaExpander(const FrameGeometry& g)
        : ch_(g.height >> chroma_shift(g.format).y) {
        // Column j reads linear position (i >> 1) * S + c(j), i.e. layout
        // row (i >> 1) + c(j) / S, column c(j) % S: the split does not
        // depend on the row, so it is worked out once.
        const int cw = g.width >> chroma_shift(g.format).x;
        const int stride = (cw + 31) & ~31;
        const bool halve_column = g.format == PixelFormat::yuv420;
        column_.resize(static_cast<std::size_t>(g.width));
        row_step_.resize(static_cast<std::size_t>(g.width));
        for (int j = 0; j < g.width; ++j) {
            const int c = halve_column ? j >> 1 : j;
            column_[j] = c % stride < cw ? c % stride : -1;  // -1: the zeroed padding
            row_step_[j] = c / stride;
        }
        // The common case, 4:2:0 of even width: column j reads sample j / 2
        // of the row's own layout row (no padding, no run-on).
        doubles_ = halve_column && g.width % 2 == 0;
    }

    // Row i of chroma plane p (1 or 2) at full width.
    template <class T>
    void row(const Picture& pic, int p, int i, std::uint16_t* out) const {
        if (doubles_) {
            const T* src = layout_row<T>(pic, p, i >> 1);
            const std::size_t half = column_.size() / 2;
            for (std::size_t k = 0; k < half; ++k) out[2 * k] = out[2 * k + 1] = src[k];
            return;
        }
        int step = -1;
        const T* src = nullptr;
        for (std::size_t j = 0; j < column_.size(); ++j) {
            const int c = column_[j];
            if (c < 0) {
                out[j] = 0;
                continue;
            }
            if (row_step_[j] != step) {
                step = row_step_[j];
                src = layout_row<T>(pic, p, (i >> 1) + step);
            }
            out[j] = src[c];
        }
    }

private:
    // Row r of libvmaf's layout starting at plane p: past the U plane the V
    // plane follows; past the V plane, vmafpp's choice, its last row.
    template <class T>
    const T* layout_row(const Picture& pic, int p, int r) const {
        int plane = p;
        if (r >= ch_ && plane == 1) {
            r -= ch_;
            plane = 2;
        }
        if (r >= ch_) r = ch_ - 1;
        return pic.planes[plane].row<T>(r);
    }

    int ch_;                               // chroma rows
    bool doubles_ = false;                 // every column reads sample j / 2 of its row
    std::vector<int> column_, row_step_;  // per output column
};

class Ciede final : public FeatureExtractor {
public:
    static void check(const ExtractorSetup& s) {
        const FrameGeometry& g = s.geometry;
        if (g.format == PixelFormat::yuv400)
            throw Error("ciede needs chroma planes; 4:0:0 has none");
        if (g.bpc != 8 && g.bpc != 10 && g.bpc != 12 && g.bpc != 16)
            throw Error("ciede supports 8, 10, 12 and 16 bits per component (got " +
                        std::to_string(g.bpc) + ")");
        const ChromaShift cs = chroma_shift(g.format);
        if ((g.width >> cs.x) < 1 || (g.height >> cs.y) < 1)
            throw Error("ciede needs chroma planes of at least 1x1 (" + std::to_string(g.width) +
                        "x" + std::to_string(g.height) + " has none)");
    }

    explicit Ciede(const ExtractorSetup& s)
        : key_(s.keys[0]), geo_(s.geometry), k_(ciede_kernels_for(s.compute.simd)),
          expander_(s.geometry), labs_(s.geometry.bpc),
          rows_(6 * static_cast<std::size_t>(geo_.width)),
          de_(static_cast<std::size_t>(geo_.width)) {}

    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        const double sum = geo_.bpc > 8 ? de_sum<std::uint16_t>(ref, dis)
                                        : de_sum<std::uint8_t>(ref, dis);
        const double pixels =
            static_cast<unsigned>(geo_.width) * static_cast<unsigned>(geo_.height);
        sink.append(key_, frame, 45. - 20. * std::log10(sum / pixels));
    }

private:
    // One row of plane p at full resolution into out.
    template <class T>
    void load_row(const Picture& pic, int p, int i, std::uint16_t* out) const {
        if (p == 0 || geo_.format == PixelFormat::yuv444) {
            const T* src = pic.planes[p].row<T>(i);
            for (int j = 0; j < geo_.width; ++j) out[j] = src[j];
        } else {
            expander_.row<T>(pic, p, i, out);
        }
    }

    // The double sum of every pixel's difference, row-major, as libvmaf
    // accumulates it.
    template <class T>
    double de_sum(const Picture& ref, const Picture& dis) {
        const std::size_t w = static_cast<std::size_t>(geo_.width);
        const std::uint16_t* r[3] = {rows_.data(), rows_.data() + w, rows_.data() + 2 * w};
        const std::uint16_t* d[3] = {rows_.data() + 3 * w, rows_.data() + 4 * w,
                                     rows_.data() + 5 * w};
        double sum = 0.;
        for (int i = 0; i < geo_.height; ++i) {
            for (int p = 0; p < 3; ++p) {
                load_row<T>(ref, p, i, rows_.data() + p * w);
                load_row<T>(dis, p, i, rows_.data() + (3 + p) * w);
            }
            sum = ciede::delta_e_row(k_, r, d, geo_.width, labs_, de_.data(), sum);
        }
        return sum;
    }

    std::string key_;
    FrameGeometry geo_;
    const CiedeKernels& k_;
    ChromaExpander expander_;
    ciede::LabCache labs_;  // per instance: workers never share it
    std::vector<std::uint16_t> rows_;  // ref Y, U, V, then dis Y, U, V
    std::vector<float> de_;
};

}  // namespace

FeatureInfo ciede_info() {
    FeatureInfo info = extractor_info<Ciede>("ciede", {}, {{"ciede2000", ""}});
    info.reads_chroma = [](const OptionValues&) { return true; };
    return info;
}

}  // namespace vmafpp
