// Y4M reader on arbitrary bytes. Each input is read twice in lockstep, from
// memory and from an in-memory file through a buffer whose size the input
// picks, and both runs must agree frame by frame: same pictures, same errors.
// Any error must be a vmafpp::Error with a non-empty one-line message.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "fuzz_common.hpp"
#include "io/open_source.hpp"
#include "vmafpp/error.hpp"

using namespace vmafpp;

namespace {

// Larger pictures only cost allocation time; their framing code is the same.
constexpr long kMaxPixels = 1L << 16;
constexpr int kMaxFrames = 256;

struct Step {
    bool ok = false;
    std::string error;
};

void check_message(const std::string& m) {
    if (m.empty() || m.find('\n') != std::string::npos || m.find('\r') != std::string::npos)
        std::abort();
}

template <class F>
Step attempt(F&& f) {
    Step s;
    try {
        s.ok = f();
    } catch (const Error& e) {
        s.error = e.what();
        check_message(s.error);
    }
    return s;
}

void same(const Step& a, const Step& b) {
    if (a.ok != b.ok || a.error != b.error) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::MemFile file(data, size);
    const std::string name = file.path();
    const std::size_t buffer = 1 + (size * 2654435761u) % 97;  // 1..97 bytes

    std::unique_ptr<VideoReader> a, b;
    const Step open_a = attempt([&] {
        a = io::open_y4m_source(std::make_unique<io::ByteSource>(name, data, size));
        return true;
    });
    const Step open_b = attempt([&] {
        b = io::open_y4m_source(std::make_unique<io::ByteSource>(name, buffer));
        return true;
    });
    same(open_a, open_b);
    if (!open_a.ok) return 0;
    const VideoInfo& info = a->info();
    if (long(info.width) * info.height > kMaxPixels) return 0;

    Picture pa, pb;
    for (int frame = 0; frame < kMaxFrames; ++frame) {
        if (frame % 3 == 2) {
            const Step sa = attempt([&] { return a->skip(1) == 1; });
            const Step sb = attempt([&] { return b->skip(1) == 1; });
            same(sa, sb);
            if (!sa.ok) break;
            continue;
        }
        const Step sa = attempt([&] { return a->read(pa); });
        const Step sb = attempt([&] { return b->read(pb); });
        same(sa, sb);
        if (!sa.ok) break;
        fuzz::check_same(pa, pb);
        fuzz::check_sample_range(pa);
        if (pa.width != info.width || pa.height != info.height) std::abort();
    }
    return 0;
}
