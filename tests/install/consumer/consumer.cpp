// Scores a generated picture pair through the installed public headers only:
// the model is embedded in the library, so nothing else is installed.
#include <cstdio>
#include <cstdint>

#include "vmafpp/output.hpp"
#include "vmafpp/scorer.hpp"
#include "vmafpp/vmafpp.hpp"

int main() {
    vmafpp::ScoreConfig cfg;
    vmafpp::Scorer scorer(cfg, {64, 48, 8, vmafpp::PixelFormat::yuv420});
    for (int frame = 0; frame < 3; ++frame) {
        vmafpp::Picture ref = scorer.make_picture(), dis = scorer.make_picture();
        for (int y = 0; y < 48; ++y)
            for (int x = 0; x < 64; ++x) {
                const int v = (x * 7 + y * 3 + frame * 5) % 256;
                ref.planes[0].row<std::uint8_t>(y)[x] = std::uint8_t(v);
                dis.planes[0].row<std::uint8_t>(y)[x] = std::uint8_t((x + y) % 4 ? v : 255 - v);
            }
        scorer.push(std::move(ref), std::move(dis));
    }
    const vmafpp::ScoreRun run = scorer.finish();
    const auto vmaf = run.pooled("vmaf");
    if (!vmaf) return 1;
    std::printf("vmafpp %s: vmaf %.17g\n", vmafpp::version().c_str(), vmaf->mean);
    return 0;
}
