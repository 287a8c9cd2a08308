// Writes a synthetic reference/distorted Y4M pair, so the README's first
// command can score something without downloading a clip.
//
//   vmafpp-sample [--width W] [--height H] [--frames N] [--bitdepth B] OUT_REF OUT_DIS
//
// The reference pans over a procedurally textured scene (gradients, rings and
// seeded noise); the distorted copy is blurred, posterised and noised, roughly
// what a low-bitrate encode does to it.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Args {
    int width = 352, height = 288, frames = 24, bitdepth = 8;
    std::string ref, dis;
};

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr, "vmafpp-sample: %s\nusage: vmafpp-sample [--width W] [--height H] "
                         "[--frames N] [--bitdepth 8|10] OUT_REF.y4m OUT_DIS.y4m\n", why);
    std::exit(1);
}

Args parse(int argc, char** argv) {
    Args a;
    std::vector<std::string> pos;
    for (int i = 1; i < argc; ++i) {
        const std::string s = argv[i];
        auto value = [&]() {
            if (i + 1 >= argc) usage(("missing value for " + s).c_str());
            return std::atoi(argv[++i]);
        };
        if (s == "--width") a.width = value();
        else if (s == "--height") a.height = value();
        else if (s == "--frames") a.frames = value();
        else if (s == "--bitdepth") a.bitdepth = value();
        else if (!s.empty() && s[0] == '-') usage(("unknown option " + s).c_str());
        else pos.push_back(s);
    }
    if (pos.size() != 2) usage("expected two output paths");
    if (a.width < 2 || a.height < 2 || a.width > 8192 || a.height > 8192) usage("bad size");
    if (a.frames < 1 || a.frames > 100000) usage("bad frame count");
    if (a.bitdepth != 8 && a.bitdepth != 10) usage("bit depth must be 8 or 10");
    a.ref = pos[0];
    a.dis = pos[1];
    return a;
}

// Small deterministic generator so the sample is identical everywhere.
std::uint32_t hash(std::uint32_t x) {
    x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
    return x;
}

double scene(double x, double y) {
    const double rings = 0.5 + 0.5 * std::sin(std::sqrt((x - 300) * (x - 300) + (y - 200) * (y - 200)) * 0.15);
    const double grad = (x + 2 * y) / 1400.0;
    const double tex = (hash(std::uint32_t(x) * 7919u + std::uint32_t(y) * 104729u) & 255) / 255.0;
    const double blocks = ((int(x) / 40 + int(y) / 40) % 2) ? 0.2 : 0.0;
    return 0.45 * rings + 0.25 * grad + 0.15 * tex + blocks;
}

class Writer {
public:
    Writer(const std::string& path, const Args& a) : a_(a) {
        f_ = std::fopen(path.c_str(), "wb");
        if (!f_) usage(("cannot write " + path).c_str());
        std::fprintf(f_, "YUV4MPEG2 W%d H%d F25:1 Ip A1:1 %s XCOLORRANGE=LIMITED\n", a.width, a.height,
                     a.bitdepth == 8 ? "C420jpeg" : "C420p10");
    }
    ~Writer() { std::fclose(f_); }
    void frame(const std::vector<int>& luma) {
        std::fputs("FRAME\n", f_);
        plane(luma);
        const int cw = (a_.width + 1) / 2, ch = (a_.height + 1) / 2;
        plane(std::vector<int>(std::size_t(cw) * ch, 128 << (a_.bitdepth - 8)));
        plane(std::vector<int>(std::size_t(cw) * ch, 128 << (a_.bitdepth - 8)));
    }

private:
    void plane(const std::vector<int>& v) {
        if (a_.bitdepth == 8) {
            std::vector<std::uint8_t> b(v.begin(), v.end());
            std::fwrite(b.data(), 1, b.size(), f_);
        } else {
            std::vector<std::uint8_t> b(v.size() * 2);
            for (std::size_t i = 0; i < v.size(); ++i) {
                b[2 * i] = std::uint8_t(v[i] & 255);
                b[2 * i + 1] = std::uint8_t(v[i] >> 8);
            }
            std::fwrite(b.data(), 1, b.size(), f_);
        }
    }
    const Args& a_;
    std::FILE* f_;
};

}  // namespace

int main(int argc, char** argv) {
    const Args a = parse(argc, argv);
    Writer ref(a.ref, a), dis(a.dis, a);
    const int lo = 16 << (a.bitdepth - 8), hi = 235 << (a.bitdepth - 8);
    std::vector<int> r(std::size_t(a.width) * a.height), d(r.size());
    for (int f = 0; f < a.frames; ++f) {
        for (int y = 0; y < a.height; ++y)
            for (int x = 0; x < a.width; ++x)
                r[std::size_t(y) * a.width + x] = lo + int((hi - lo) * std::min(1.0, scene(x + 3.0 * f, y + 1.0 * f)));
        // Distortion: 3x3 box blur, posterise to 1/8 of the levels, +-2 noise.
        const int step = 8 << (a.bitdepth - 8);
        for (int y = 0; y < a.height; ++y)
            for (int x = 0; x < a.width; ++x) {
                int sum = 0;
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx) {
                        const int yy = std::min(std::max(y + dy, 0), a.height - 1);
                        const int xx = std::min(std::max(x + dx, 0), a.width - 1);
                        sum += r[std::size_t(yy) * a.width + xx];
                    }
                const int noise = int(hash(std::uint32_t(f * 1000003 + y * a.width + x)) % 5) - 2;
                const int v = (sum / 9) / step * step + step / 2 + noise;
                d[std::size_t(y) * a.width + x] = std::min(std::max(v, lo), hi);
            }
        ref.frame(r);
        dis.frame(d);
    }
    return 0;
}
