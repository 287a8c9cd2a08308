// --scale: every picture of a reader resized by libswscale, configured as
// ffmpeg's scale filter configures it for `-vf scale=W:H:flags=NAME`, so a
// scaled input scores as the same clip scaled by the ffmpeg CLI would.
#include <cstring>

#include "io/ffmpeg_api.hpp"
#include "io/ffmpeg_reader.hpp"
#include "io/planar_reader.hpp"
#include "vmafpp/error.hpp"

extern "C" {
#include <libavutil/pixfmt.h>
#include <libswscale/swscale.h>
}

namespace vmafpp {
namespace {

using io::av;
using io::ffmpeg_api;

// The libswscale format of a picture layout; NONE where it has none.
AVPixelFormat sws_format(PixelFormat f, int bpc) {
    static constexpr struct {
        PixelFormat f;
        int bpc;
        AVPixelFormat av;
    } kTable[] = {
        {PixelFormat::yuv420, 8, AV_PIX_FMT_YUV420P},      {PixelFormat::yuv420, 9, AV_PIX_FMT_YUV420P9LE},
        {PixelFormat::yuv420, 10, AV_PIX_FMT_YUV420P10LE}, {PixelFormat::yuv420, 12, AV_PIX_FMT_YUV420P12LE},
        {PixelFormat::yuv420, 14, AV_PIX_FMT_YUV420P14LE}, {PixelFormat::yuv420, 16, AV_PIX_FMT_YUV420P16LE},
        {PixelFormat::yuv422, 8, AV_PIX_FMT_YUV422P},      {PixelFormat::yuv422, 9, AV_PIX_FMT_YUV422P9LE},
        {PixelFormat::yuv422, 10, AV_PIX_FMT_YUV422P10LE}, {PixelFormat::yuv422, 12, AV_PIX_FMT_YUV422P12LE},
        {PixelFormat::yuv422, 14, AV_PIX_FMT_YUV422P14LE}, {PixelFormat::yuv422, 16, AV_PIX_FMT_YUV422P16LE},
        {PixelFormat::yuv444, 8, AV_PIX_FMT_YUV444P},      {PixelFormat::yuv444, 9, AV_PIX_FMT_YUV444P9LE},
        {PixelFormat::yuv444, 10, AV_PIX_FMT_YUV444P10LE}, {PixelFormat::yuv444, 12, AV_PIX_FMT_YUV444P12LE},
        {PixelFormat::yuv444, 14, AV_PIX_FMT_YUV444P14LE}, {PixelFormat::yuv444, 16, AV_PIX_FMT_YUV444P16LE},
        {PixelFormat::yuv400, 8, AV_PIX_FMT_GRAY8},        {PixelFormat::yuv400, 9, AV_PIX_FMT_GRAY9LE},
        {PixelFormat::yuv400, 10, AV_PIX_FMT_GRAY10LE},    {PixelFormat::yuv400, 12, AV_PIX_FMT_GRAY12LE},
        {PixelFormat::yuv400, 14, AV_PIX_FMT_GRAY14LE},    {PixelFormat::yuv400, 16, AV_PIX_FMT_GRAY16LE},
    };
    for (const auto& e : kTable)
        if (e.f == f && e.bpc == bpc) return e.av;
    return AV_PIX_FMT_NONE;
}

class ScalingReader final : public VideoReader {
public:
    ScalingReader(std::unique_ptr<VideoReader> in, int width, int height, int flags, std::string what)
        : in_(std::move(in)), info_(in_->info()) {
        ffmpeg_api(what);  // loads libswscale, or says it is missing
        const VideoInfo& src = in_->info();
        const AVPixelFormat f = sws_format(src.format, src.bpc);
        if (f == AV_PIX_FMT_NONE)
            throw Error(what + ": cannot scale " + std::to_string(src.bpc) +
                        "-bit pictures (libswscale scales 8, 9, 10, 12, 14 and 16 bits)");
        io::check_dimensions(what, width, height, src.bpc);
        info_.width = width;
        info_.height = height;
        sws_ = av().sws_getContext(src.width, src.height, f, width, height, f, flags, nullptr, nullptr, nullptr);
        if (!sws_) throw Error(what + ": libswscale cannot scale it to " + std::to_string(width) + "x" +
                               std::to_string(height));
        // Chroma is scaled with luma whatever the scorer reads: libswscale's
        // luma result must not depend on whether chroma comes along.
        in_->set_luma_only(false);
    }
    ~ScalingReader() override { av().sws_freeContext(sws_); }

    const VideoInfo& info() const override { return info_; }
    void set_luma_only(bool luma_only) override { luma_only_ = luma_only; }
    unsigned skip(unsigned n) override { return in_->skip(n); }

    bool read(Picture& pic) override {
        if (!in_->read(src_)) return false;
        const bool chroma = info_.format != PixelFormat::yuv400;
        if (pic.width != info_.width || pic.height != info_.height || pic.bpc != info_.bpc ||
            pic.format != info_.format || pic.has_chroma() != (chroma && !luma_only_))
            pic = Picture(info_.width, info_.height, info_.bpc, info_.format, chroma && !luma_only_);
        if (chroma && luma_only_ && (scratch_.width != info_.width || scratch_.height != info_.height))
            scratch_ = Picture(info_.width, info_.height, info_.bpc, info_.format, true);
        Picture& out = chroma && luma_only_ ? scratch_ : pic;
        const int planes = chroma ? 3 : 1;
        const std::uint8_t* in[4] = {};
        int in_stride[4] = {};
        std::uint8_t* dst[4] = {};
        int dst_stride[4] = {};
        for (int p = 0; p < planes; ++p) {
            in[p] = src_.planes[p].data();
            in_stride[p] = int(src_.planes[p].stride());
            dst[p] = out.planes[p].data();
            dst_stride[p] = int(out.planes[p].stride());
        }
        av().sws_scale(sws_, in, in_stride, 0, src_.height, dst, dst_stride);
        // A Plane's bytes after its width stay zero (SIMD kernels read them).
        const int bytes = info_.bpc > 8 ? 2 : 1;
        for (int p = 0; p < planes; ++p) {
            Plane& pl = out.planes[p];
            const std::size_t used = std::size_t(pl.width()) * bytes;
            for (int y = 0; y < pl.height(); ++y)
                std::memset(pl.row<std::uint8_t>(y) + used, 0, std::size_t(pl.stride()) - used);
        }
        if (&out != &pic) std::memcpy(pic.planes[0].data(), out.planes[0].data(),
                                      std::size_t(out.planes[0].stride()) * out.planes[0].height());
        return true;
    }

private:
    std::unique_ptr<VideoReader> in_;
    VideoInfo info_;
    SwsContext* sws_ = nullptr;
    bool luma_only_ = false;
    Picture src_, scratch_;
};

}  // namespace

int scaler_flags(const std::string& name) {
    if (name == "bicubic") return SWS_BICUBIC;
    if (name == "bilinear") return SWS_BILINEAR;
    if (name == "lanczos") return SWS_LANCZOS;
    if (name == "spline") return SWS_SPLINE;
    if (name == "neighbor") return SWS_POINT;
    if (name == "area") return SWS_AREA;
    if (name == "fast_bilinear") return SWS_FAST_BILINEAR;
    if (name == "gauss") return SWS_GAUSS;
    if (name == "bicublin") return SWS_BICUBLIN;
    throw Error("--scaler: unknown scaler \"" + name +
                "\" (bicubic, bilinear, lanczos, spline, neighbor, area, fast_bilinear, gauss, bicublin)");
}

std::unique_ptr<VideoReader> scale_video(std::unique_ptr<VideoReader> in, int width, int height,
                                         const std::string& scaler, const std::string& what) {
    const int flags = scaler_flags(scaler);
    if (in->info().width == width && in->info().height == height) return in;
    return std::make_unique<ScalingReader>(std::move(in), width, height, flags, what);
}

}  // namespace vmafpp
