// Raw YUV framing. The first 6 bytes choose the geometry, bit depth, format
// and the file buffer size; the rest is the file. As in fuzz_y4m, memory and
// file reads must agree frame by frame, including a truncated last frame.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "fuzz_common.hpp"
#include "io/open_source.hpp"
#include "vmafpp/error.hpp"

using namespace vmafpp;

namespace {

constexpr int kMaxFrames = 256;

struct Step {
    bool ok = false;
    std::string error;
};

template <class F>
Step attempt(F&& f) {
    Step s;
    try {
        s.ok = f();
    } catch (const Error& e) {
        s.error = e.what();
        if (s.error.empty() || s.error.find('\n') != std::string::npos) std::abort();
    }
    return s;
}

void same(const Step& a, const Step& b) {
    if (a.ok != b.ok || a.error != b.error) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 6) return 0;
    RawFormat f;
    // Sizes 0..2047 include the invalid 0; tall 1-wide pictures make many
    // tiny rows (readv batches), wide ones long rows.
    f.width = int(((data[0] << 8) | data[1]) % 2048);
    f.height = int(((data[2] << 8) | data[3]) % 2048);
    f.format = static_cast<PixelFormat>(data[4] & 3);
    f.bpc = 7 + (data[4] >> 2) % 11;  // 7..17: both invalid neighbours too
    const std::size_t buffer = 1 + data[5] % 128;
    if (long(f.width) * f.height > (1L << 16)) return 0;
    data += 6;
    size -= 6;

    fuzz::MemFile file(data, size);
    const std::string name = file.path();
    std::unique_ptr<VideoReader> a, b;
    const Step open_a = attempt([&] {
        a = io::open_raw_source(std::make_unique<io::ByteSource>(name, data, size), f);
        return true;
    });
    const Step open_b = attempt([&] {
        b = io::open_raw_source(std::make_unique<io::ByteSource>(name, buffer), f);
        return true;
    });
    same(open_a, open_b);
    if (!open_a.ok) return 0;

    Picture pa, pb;
    for (int frame = 0; frame < kMaxFrames; ++frame) {
        const Step sa = attempt([&] { return a->read(pa); });
        const Step sb = attempt([&] { return b->read(pb); });
        same(sa, sb);
        if (!sa.ok) break;
        fuzz::check_same(pa, pb);
        fuzz::check_sample_range(pa);
    }
    return 0;
}
