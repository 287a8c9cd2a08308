// open_ffmpeg in a build without FFmpeg (VMAFPP_WITH_FFMPEG=OFF or not found).
#include "io/byte_source.hpp"
#include "io/ffmpeg_reader.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp::io {

bool ffmpeg_available() { return false; }

std::unique_ptr<VideoReader> open_ffmpeg(const std::string& path) {
    throw Error(path + ": not a Y4M file, and this vmafpp was built without FFmpeg, which "
                "compressed input needs (rebuild with libavformat-dev, libavcodec-dev, "
                "libswscale-dev installed), or give -w/-h/-p/-b for raw YUV");
}

std::unique_ptr<VideoReader> open_ffmpeg_source(std::unique_ptr<ByteSource> src) {
    return open_ffmpeg(src->path());
}

unsigned ffmpeg_decoding_began_at(const VideoReader&) { return 0; }

}  // namespace vmafpp::io

namespace vmafpp {

std::unique_ptr<VideoReader> scale_video(std::unique_ptr<VideoReader> in, int width, int height,
                                         const std::string&, const std::string& what) {
    if (in->info().width == width && in->info().height == height) return in;
    throw Error(what + ": --scale needs libswscale, and this vmafpp was built without FFmpeg");
}

}  // namespace vmafpp
