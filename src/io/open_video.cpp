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
    // As libvmaf's CLI: any raw geometry flag means the inputs are raw YUV.
    if (raw.width != 0 || raw.height != 0) return open_raw_yuv(path, raw);
    auto src = std::make_unique<io::ByteSource>(path);
    // Y4M keeps its own exact reader; an empty file gets its message; the
    // rest is a container for FFmpeg, which reads files by name (not a pipe).
    if (src->starts_with("YUV4MPEG2") || src->peek() < 0) return io::open_y4m_source(std::move(src));
    if (path == "-")
        throw Error("-: standard input is not a Y4M stream (compressed input needs a file name; "
                    "or pipe through ffmpeg -f yuv4mpegpipe)");
    src.reset();
    return io::open_ffmpeg(path);
}

}  // namespace vmafpp
