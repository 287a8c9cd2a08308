// YUV4MPEG2 ("Y4M") streams: one header line, then per frame a "FRAME" line
// and the planes, chroma planes ceil-sized.
//
// Odd sizes in 4:2:0 and 4:2:2: the file's chroma planes are ceil(w/2) wide
// (and ceil(h/2) high for 4:2:0) but a Picture's are floor-sized like
// libvmaf's, so the last chroma column (and row) is dropped. Every feature
// libvmaf's models use reads luma only, and libvmaf itself cannot read such a
// Y4M (it loses framing); its goldens for them were made from raw YUV with the
// chroma cropped the same way, which this reader reproduces.
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "io/open_source.hpp"
#include "io/planar_reader.hpp"
#include "io/text.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp::io {
namespace {

constexpr std::string_view kSignature = "YUV4MPEG2";
constexpr std::string_view kFrameTag = "FRAME";
// ffmpeg's headers are under 100 bytes; a longer first line is not Y4M.
constexpr std::size_t kMaxHeaderLine = 4096;
constexpr std::size_t kMaxFrameLine = 1024;

struct ChromaTag {
    PixelFormat format = PixelFormat::yuv420;
    int bpc = 8;
};

// Decimal digits only: no sign, no spaces, no trailing bytes.
bool parse_decimal(std::string_view s, long long& out) {
    if (s.empty() || s.size() > 12) return false;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && ptr == s.data() + s.size() && s[0] != '-' && s[0] != '+';
}

// "<base>" for 8 bits or "<base><sep>N" for N = 9..16 bits.
bool parse_depth_suffix(std::string_view tag, std::string_view base, std::string_view sep,
                        PixelFormat fmt, ChromaTag& out) {
    if (tag.substr(0, base.size()) != base) return false;
    std::string_view rest = tag.substr(base.size());
    if (rest.empty()) {
        out = {fmt, 8};
        return true;
    }
    if (rest.substr(0, sep.size()) != sep) return false;
    rest.remove_prefix(sep.size());
    long long bits = 0;
    if (!parse_decimal(rest, bits) || bits < 9 || bits > 16 || rest[0] == '0') return false;
    out = {fmt, int(bits)};
    return true;
}

// The tags ffmpeg writes (and libvmaf's CLI reads a subset of). 8-bit 4:2:0
// has siting variants that store the same samples.
bool parse_chroma_tag(std::string_view tag, ChromaTag& out) {
    if (tag == "420jpeg" || tag == "420mpeg2" || tag == "420paldv") {
        out = {PixelFormat::yuv420, 8};
        return true;
    }
    return parse_depth_suffix(tag, "420", "p", PixelFormat::yuv420, out) ||
           parse_depth_suffix(tag, "422", "p", PixelFormat::yuv422, out) ||
           parse_depth_suffix(tag, "444", "p", PixelFormat::yuv444, out) ||
           parse_depth_suffix(tag, "mono", "", PixelFormat::yuv400, out);
}

// "N:D" with two decimal numbers (frame rate, pixel aspect).
bool is_ratio(std::string_view s) {
    const auto colon = s.find(':');
    long long n = 0, d = 0;
    return colon != std::string_view::npos && parse_decimal(s.substr(0, colon), n) &&
           parse_decimal(s.substr(colon + 1), d);
}

class Y4mReader final : public PlanarReader {
public:
    using PlanarReader::PlanarReader;

protected:
    bool begin_frame() override {
        const auto status = source().read_line(line_, kMaxFrameLine);
        if (status == ByteSource::Line::eof) return false;
        const std::string_view line(line_);
        const bool is_frame = line.substr(0, kFrameTag.size()) == kFrameTag &&
                              (line.size() == kFrameTag.size() || line[kFrameTag.size()] == ' ');
        if (status == ByteSource::Line::too_long || !is_frame)
            throw Error(frame_context() + " does not start with a FRAME line (found \"" +
                        printable(line, 24) +
                        "\"; a wrong size in the header, or a corrupt file; frames count from 0)");
        return true;
    }

private:
    std::string line_;  // reused: no allocation per frame
};

[[noreturn]] void bad_field(const std::string& path, std::string_view token, const char* expected) {
    throw Error(path + ": bad Y4M header field \"" + printable(token, 24) + "\" (expected " +
                expected + ")");
}

}  // namespace

std::unique_ptr<VideoReader> open_y4m_source(std::unique_ptr<ByteSource> src) {
    const std::string path = src->path();
    std::string header;
    const auto status = src->read_line(header, kMaxHeaderLine);
    if (status == ByteSource::Line::eof) throw Error(path + ": empty file, not a Y4M stream");
    const std::string_view h(header);
    if (status == ByteSource::Line::too_long && h.substr(0, kSignature.size() + 1) == "YUV4MPEG2 ")
        throw Error(path + ": the Y4M header line is longer than " +
                    std::to_string(kMaxHeaderLine) + " bytes (no newline in its first " +
                    std::to_string(kMaxHeaderLine) + ")");
    if (status == ByteSource::Line::too_long || h.substr(0, kSignature.size()) != kSignature ||
        (h.size() > kSignature.size() && h[kSignature.size()] != ' '))
        throw Error(path + ": not a Y4M file (it does not start with \"YUV4MPEG2 \")");

    long long width = -1, height = -1;
    ChromaTag chroma;
    std::string_view fps;
    std::string_view rest = h.substr(kSignature.size());
    while (!rest.empty()) {
        const auto space = rest.find(' ');
        const std::string_view token = rest.substr(0, space);
        rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
        if (token.empty()) continue;
        const std::string_view value = token.substr(1);
        switch (token[0]) {
            case 'W':
                if (!parse_decimal(value, width)) bad_field(path, token, "W<width>");
                break;
            case 'H':
                if (!parse_decimal(value, height)) bad_field(path, token, "H<height>");
                break;
            case 'F':
                if (!is_ratio(value)) bad_field(path, token, "F<num>:<den>");
                fps = value;
                break;
            case 'A':
                if (!is_ratio(value)) bad_field(path, token, "A<num>:<den>");
                break;
            case 'C':
                if (!parse_chroma_tag(value, chroma))
                    throw Error(path + ": unsupported Y4M chroma tag \"" + printable(token, 24) +
                                "\" (supported: C420jpeg C420mpeg2 C420paldv C420 C422 C444 Cmono, "
                                "C420pN C422pN C444pN CmonoN for N = 9..16)");
                break;
            case 'I':
                if (value == "t" || value == "b" || value == "m")
                    throw Error(path + ": interlaced Y4M (" + std::string(token) +
                                ") is not supported; deinterlace it first");
                if (value != "p" && value != "?") bad_field(path, token, "Ip, It, Ib, Im or I?");
                break;
            default: break;  // X extensions and future tags do not change the samples
        }
    }
    if (width < 0) throw Error(path + ": Y4M header has no width (W field)");
    if (height < 0) throw Error(path + ": Y4M header has no height (H field)");
    check_dimensions(path, width, height, chroma.bpc);

    VideoInfo info;
    info.width = int(width);
    info.height = int(height);
    info.bpc = chroma.bpc;
    info.format = chroma.format;
    info.header = header;

    const ChromaShift s = chroma_shift(chroma.format);
    const PlaneLayout luma{info.width, info.height};
    const PlaneLayout chroma_plane{(info.width + s.x) >> s.x, (info.height + s.y) >> s.y};
    const int planes = chroma.format == PixelFormat::yuv400 ? 1 : 3;
    if (!fps.empty()) {
        long long n = 0, d = 0;
        const auto colon = fps.find(':');
        if (parse_decimal(fps.substr(0, colon), n) && parse_decimal(fps.substr(colon + 1), d) &&
            n > 0 && d > 0 && n <= INT32_MAX && d <= INT32_MAX) {
            info.fps_num = int(n);
            info.fps_den = int(d);
        }
    }
    auto reader = std::make_unique<Y4mReader>(
        std::move(src), std::move(info),
        std::array<PlaneLayout, 3>{luma, chroma_plane, chroma_plane}, planes);
    reader->inspect(kFrameTag.size() + 1);
    return reader;
}

}  // namespace vmafpp::io
