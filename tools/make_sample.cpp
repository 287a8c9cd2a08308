// Writes a synthetic reference/distorted Y4M pair, so the README's first
// command can score something without downloading a clip.
//
//   vmafpp-sample [--width W] [--height H] [--frames N] [--bitdepth B] OUT_REF OUT_DIS
//
// The reference pans over a procedurally textured scene (gradients, rings and
// seeded noise) in colour; the distorted copy is blurred, posterised and
// noised, roughly what a low-bitrate encode does to it. The chroma is smooth,
// as in camera content, so that colour metrics (ciede's Lab conversions, PSNR
// Cb/Cr) meet about as many distinct colours as they do on natural video.
#include <algorithm>
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

// The scene's colour at luma position (x, y), as an offset from neutral in
// about [-1, 1]: slow colour fields (c = 0: blue-difference, 1: red-difference).
// With the luma's texture, a 1080p reference frame has about 210 000
// distinct Y'CbCr triples (the corpus's natural 1080p pair p19: 130 000).
// The luma is the grey sample's of earlier versions, bit for bit, so that
// speed figures of luma-only features stay comparable.
double scene_chroma(int c, double x, double y) {
    if (c == 0) return 0.55 * std::sin(x * 0.0021 + y * 0.0012) + 0.3 * std::cos(y * 0.0047 - x * 0.0009);
    return 0.5 * std::cos(x * 0.0015 - y * 0.0019) + 0.3 * std::sin((x + y) * 0.0036 + 1.0);
}

struct Plane {
    int w = 0, h = 0;
    std::vector<int> v;
    Plane(int width, int height) : w(width), h(height), v(std::size_t(width) * height) {}
    int& at(int x, int y) { return v[std::size_t(y) * w + x]; }
    int at(int x, int y) const { return v[std::size_t(y) * w + x]; }
};

// What a coarse encode does to a plane: a 3x3 box blur, posterised to
// multiples of `step` (plus half a step), then +-noise, kept in [lo, hi].
Plane distort(const Plane& p, int step, int noise, int lo, int hi, std::uint32_t seed) {
    Plane d(p.w, p.h);
    for (int y = 0; y < p.h; ++y)
        for (int x = 0; x < p.w; ++x) {
            int sum = 0;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx)
                    sum += p.at(std::min(std::max(x + dx, 0), p.w - 1), std::min(std::max(y + dy, 0), p.h - 1));
            const int n = int(hash(seed + std::uint32_t(y * p.w + x)) % std::uint32_t(2 * noise + 1)) - noise;
            d.at(x, y) = std::min(std::max((sum / 9) / step * step + step / 2 + n, lo), hi);
        }
    return d;
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
    void frame(const Plane& y, const Plane& u, const Plane& v) {
        std::fputs("FRAME\n", f_);
        plane(y);
        plane(u);
        plane(v);
    }

private:
    void plane(const Plane& p) {
        if (a_.bitdepth == 8) {
            std::vector<std::uint8_t> b(p.v.begin(), p.v.end());
            std::fwrite(b.data(), 1, b.size(), f_);
        } else {
            std::vector<std::uint8_t> b(p.v.size() * 2);
            for (std::size_t i = 0; i < p.v.size(); ++i) {
                b[2 * i] = std::uint8_t(p.v[i] & 255);
                b[2 * i + 1] = std::uint8_t(p.v[i] >> 8);
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
    const int s = 1 << (a.bitdepth - 8);
    const int lo = 16 * s, hi = 235 * s, chroma_lo = 16 * s, chroma_hi = 240 * s;
    const int cw = (a.width + 1) / 2, ch = (a.height + 1) / 2;
    for (int f = 0; f < a.frames; ++f) {
        const double px = 3.0 * f, py = 1.0 * f;  // the pan
        Plane r(a.width, a.height);
        for (int y = 0; y < a.height; ++y)
            for (int x = 0; x < a.width; ++x)
                r.at(x, y) = lo + int((hi - lo) * std::min(1.0, scene(x + px, y + py)));
        Plane rc[2] = {Plane(cw, ch), Plane(cw, ch)};
        for (int c = 0; c < 2; ++c)
            for (int y = 0; y < ch; ++y)
                for (int x = 0; x < cw; ++x)
                    rc[c].at(x, y) = 128 * s + int(std::lround(34 * s * scene_chroma(c, 2 * x + px, 2 * y + py)));
        const std::uint32_t seed = std::uint32_t(f) * 1000003u;
        ref.frame(r, rc[0], rc[1]);
        dis.frame(distort(r, 8 * s, 2, lo, hi, seed), distort(rc[0], 4 * s, 1, chroma_lo, chroma_hi, seed + 1),
                  distort(rc[1], 4 * s, 1, chroma_lo, chroma_hi, seed + 2));
    }
    return 0;
}
