#include "io/open_source.hpp"
#include "io/planar_reader.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp::io {
namespace {

class RawReader final : public PlanarReader {
public:
    using PlanarReader::PlanarReader;

protected:
    // A frame starts wherever the previous one ended; a partial last frame is
    // reported by the plane reads (never dropped silently).
    bool begin_frame() override { return source().peek() >= 0; }
};

}  // namespace

std::unique_ptr<VideoReader> open_raw_source(std::unique_ptr<ByteSource> src, const RawFormat& f) {
    check_dimensions(src->path(), f.width, f.height, f.bpc);
    VideoInfo info;
    info.width = f.width;
    info.height = f.height;
    info.bpc = f.bpc;
    info.format = f.format;
    // libvmaf's raw reader reads floor-sized chroma planes (w / 2 for odd w),
    // so raw files made for libvmaf frame identically here.
    const ChromaShift s = chroma_shift(f.format);
    const PlaneLayout luma{f.width, f.height};
    const PlaneLayout chroma{f.width >> s.x, f.height >> s.y};
    const int planes = f.format == PixelFormat::yuv400 ? 1 : 3;
    auto reader = std::make_unique<RawReader>(std::move(src), std::move(info),
                                              std::array<PlaneLayout, 3>{luma, chroma, chroma}, planes);
    reader->inspect(0);
    return reader;
}

}  // namespace vmafpp::io
