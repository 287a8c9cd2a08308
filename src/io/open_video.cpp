#include "io/ffmpeg_reader.hpp"
#include "io/open_source.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/reader.hpp"

namespace vmafpp {

unsigned VideoReader::skip(unsigned n) {
    Picture scratch;
    unsigned i = 0;
    while (i < n && read(scratch)) ++i;
    return i;
}

std::unique_ptr<VideoReader> open_y4m(const std::string& path) {
    return io::open_y4m_source(std::make_unique<io::ByteSource>(path));
}

std::unique_ptr<VideoReader> open_raw_yuv(const std::string& path, const RawFormat& format) {
    return io::open_raw_source(std::make_unique<io::ByteSource>(path), format);
}

std::unique_ptr<VideoReader> open_video(const std::string& path, const RawFormat& raw) {
    auto src = std::make_unique<io::ByteSource>(path);
    // As libvmaf's CLI: any raw geometry flag means the inputs are raw YUV.
    // But a Y4M file read as raw would score its header and frame markers
    // as pixels: refused (the peek consumes nothing, so a pipe is intact).
    if (raw.width != 0 || raw.height != 0) {
        if (src->starts_with("YUV4MPEG2 "))
            throw Error(path + ": a Y4M file, which -w/-h/-p/-b would read as raw YUV (its header "
                        "as pixels): drop them, the Y4M header gives the format");
        return io::open_raw_source(std::move(src), raw);
    }
    // Y4M keeps its own exact reader; an empty file gets its message; the
    // rest is a container for FFmpeg, handed the open source with the bytes
    // peeked at, so a pipe or fifo is read once and never opened again.
    if (src->starts_with("YUV4MPEG2") || src->peek() < 0) return io::open_y4m_source(std::move(src));
    return io::open_ffmpeg_source(std::move(src));
}

}  // namespace vmafpp
