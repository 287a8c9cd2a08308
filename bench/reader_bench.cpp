// Reader throughput at 1080p: a generated Y4M file in the page cache, read
// frame by frame into one reused Picture (what the CLI does). Reports time per
// frames and bytes per second. The second argument reads luma only (chroma
// seeked over), as score() does when no extractor reads chroma.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "vmafpp/reader.hpp"

namespace {

constexpr int kFrames = 24;

// A 1920x1080 4:2:0 clip of `bpc` bits, written once per process.
const std::string& clip_1080p(int bpc) {
    static std::string paths[17];
    std::string& path = paths[bpc];
    if (!path.empty()) return path;
    path = (std::filesystem::temp_directory_path() /
            ("vmafpp_reader_bench_" + std::to_string(::getpid()) + "_" + std::to_string(bpc) + ".y4m"))
               .string();
    const int bps = bpc > 8 ? 2 : 1;
    const std::size_t frame = std::size_t(1920 * 1080 + 2 * 960 * 540) * std::size_t(bps);
    std::string payload(frame, '\0');
    for (std::size_t i = 0; i < frame; i += std::size_t(bps)) payload[i] = char((i * 7) & 0x3f);
    std::ofstream os(path, std::ios::binary);
    os << "YUV4MPEG2 W1920 H1080 F25:1 Ip A1:1 C" << (bpc == 8 ? "420jpeg" : "420p" + std::to_string(bpc)) << "\n";
    for (int f = 0; f < kFrames; ++f) os << "FRAME\n" << payload;
    std::atexit([] {
        for (const auto& p : paths)
            if (!p.empty()) std::filesystem::remove(p);
    });
    return path;
}

void BM_ReadY4m1080p(benchmark::State& state) {
    const int bpc = int(state.range(0));
    const bool luma_only = state.range(1) != 0;
    const std::string& path = clip_1080p(bpc);
    vmafpp::Picture pic;
    std::size_t bytes = 0;
    for (auto _ : state) {
        auto reader = vmafpp::open_y4m(path);
        reader->set_luma_only(luma_only);
        int frames = 0;
        while (reader->read(pic)) ++frames;
        if (frames != kFrames) state.SkipWithError("wrong frame count");
        bytes += std::filesystem::file_size(path);
    }
    state.SetBytesProcessed(std::int64_t(bytes));
    state.counters["frames_per_s"] =
        benchmark::Counter(double(state.iterations()) * kFrames, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ReadY4m1080p)
    ->ArgNames({"bpc", "luma_only"})
    ->ArgsProduct({{8, 10}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
