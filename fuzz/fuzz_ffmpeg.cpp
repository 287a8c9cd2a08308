// Compressed-input reader (FFmpeg's demuxers and decoders behind
// io::open_ffmpeg) on arbitrary bytes as a file: it either refuses with a
// one-line vmafpp::Error or gives pictures of the geometry it announced,
// samples within the bit depth; never a crash, hang or other exception.
// Seeds: fuzz/corpus/ffmpeg (tiny encodes and damaged copies of them,
// written by fuzz/make_ffmpeg_seeds.sh).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "fuzz_common.hpp"
#include "io/ffmpeg_reader.hpp"
#include "vmafpp/error.hpp"

using namespace vmafpp;

namespace {

constexpr long kMaxPixels = 1L << 16;
constexpr int kMaxFrames = 64;

void check_message(const std::string& m) {
    if (m.empty() || m.find('\n') != std::string::npos || m.find('\r') != std::string::npos)
        std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::MemFile file(data, size);
    try {
        std::unique_ptr<VideoReader> r = io::open_ffmpeg(file.path());
        const VideoInfo info = r->info();
        if (long(info.width) * info.height > kMaxPixels) return 0;
        r->set_luma_only(size % 2 == 0);
        Picture pic;
        for (int f = 0; f < kMaxFrames && r->read(pic); ++f) {
            if (pic.width != info.width || pic.height != info.height || pic.bpc != info.bpc) std::abort();
            fuzz::check_sample_range(pic);
        }
    } catch (const Error& e) {
        check_message(e.what());
    }
    return 0;
}
