#include <charconv>
#include <sstream>
#include <string_view>
#include <vector>

#include "io/planar_reader.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp::io {
namespace {

constexpr std::string_view kSignature = "YUV4MPEG2";
constexpr std::size_t kMaxHeaderLine = 4096;

struct ChromaTag {
    PixelFormat format;
    int bpc;
};

// Y4M chroma tags as ffmpeg and mjpegtools write them. 8-bit 4:2:0 has three
// siting variants that store the same samples.
bool parse_chroma_tag(std::string_view tag, ChromaTag& out) {
    auto with_depth = [&](std::string_view base, PixelFormat fmt) {
        if (tag.substr(0, base.size()) != base) return false;
        std::string_view rest = tag.substr(base.size());
        if (rest.empty()) { out = {fmt, 8}; return true; }
        if (fmt != PixelFormat::yuv400) {
            if (rest[0] != 'p') return false;
            rest.remove_prefix(1);
        }
        int bits = 0;
        auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), bits);
        if (ec != std::errc() || ptr != rest.data() + rest.size() || bits < 9 || bits > 16)
            return false;
        out = {fmt, bits};
        return true;
    };
    if (tag == "420jpeg" || tag == "420paldv" || tag == "420mpeg2") {
        out = {PixelFormat::yuv420, 8};
        return true;
    }
    return with_depth("420", PixelFormat::yuv420) || with_depth("422", PixelFormat::yuv422) ||
           with_depth("444", PixelFormat::yuv444) || with_depth("mono", PixelFormat::yuv400);
}

class Y4mReader final : public PlanarReader {
public:
    using PlanarReader::PlanarReader;

protected:
    bool begin_frame() override {
        if (source().peek() == EOF) return false;
        std::string line;
        source().read_line(line, kMaxHeaderLine);
        if (line.rfind("FRAME", 0) != 0)
            throw Error(source().path() + ": frame " + std::to_string(frames_read()) +
                        " does not start with FRAME (wrong frame size in the header, or a "
                        "corrupt file)");
        return true;
    }
};

long parse_dimension(const std::string& path, std::string_view token) {
    long v = 0;
    auto [ptr, ec] = std::from_chars(token.data() + 1, token.data() + token.size(), v);
    if (ec != std::errc() || ptr != token.data() + token.size())
        throw Error(path + ": bad Y4M header field \"" + std::string(token) + "\"");
    return v;
}

}  // namespace

std::unique_ptr<VideoReader> open_y4m_source(std::unique_ptr<ByteSource> src) {
    const std::string path = src->path();
    std::string header;
    if (!src->read_line(header, kMaxHeaderLine) || header.rfind(kSignature, 0) != 0)
        throw Error(path + ": not a Y4M file (no YUV4MPEG2 signature)");

    long width = -1, height = -1;
    ChromaTag chroma{PixelFormat::yuv420, 8};
    std::istringstream tokens(header.substr(kSignature.size()));
    std::string token;
    while (tokens >> token) {
        switch (token[0]) {
            case 'W': width = parse_dimension(path, token); break;
            case 'H': height = parse_dimension(path, token); break;
            case 'C':
                if (!parse_chroma_tag(std::string_view(token).substr(1), chroma))
                    throw Error(path + ": unsupported Y4M chroma tag \"" + token +
                                "\" (supported: 420jpeg, 420paldv, 420mpeg2, 420, 422, 444, mono, "
                                "and 420pN, 422pN, 444pN, monoN for N = 9..16)");
                break;
            case 'I':
                if (token != "Ip" && token != "I?")
                    throw Error(path + ": interlaced Y4M (" + token + ") is not supported");
                break;
            default: break;  // frame rate, aspect, X extensions: irrelevant to scores
        }
    }
    if (width < 0 || height < 0) throw Error(path + ": Y4M header lacks W or H");
    check_dimensions(path, width, height, chroma.bpc);

    VideoInfo info;
    info.width = int(width);
    info.height = int(height);
    info.bpc = chroma.bpc;
    info.format = chroma.format;
    info.header = header;

    // Y4M chroma planes round up: ceil(w / 2) for subsampled directions.
    const ChromaShift s = chroma_shift(chroma.format);
    const PlaneLayout luma{info.width, info.height};
    const PlaneLayout chroma_plane{(info.width + s.x) >> s.x, (info.height + s.y) >> s.y};
    const int planes = chroma.format == PixelFormat::yuv400 ? 1 : 3;
    return std::make_unique<Y4mReader>(std::move(src), std::move(info),
                                       std::array<PlaneLayout, 3>{luma, chroma_plane, chroma_plane},
                                       planes);
}

}  // namespace vmafpp::io
