// Frame ranges merged back (vmafpp/chunk.hpp): for every target corpus pair
// and chunk sizes 1, 2, 3, 7 and whole, the merged JSON, XML and CSV equal
// those of one run over the whole pair byte for byte (fps aside), with the
// default model, psnr and the float features; the v1.0.16 models (motion's
// five-frame window and moving average), subsample 3 and worker threads on
// one pair each. Every chunk goes through its file text (render_chunk, then
// parse_chunk), so the file is lossless too. In-process, for speed.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support/feature_run.hpp"
#include "vmafpp/chunk.hpp"
#include "vmafpp/output.hpp"
#include "vmafpp/vmafpp.hpp"

namespace vmafpp {
namespace {

// psnr with APSNR: aggregate_metrics merge from the chunks' integer sums.
const std::vector<std::string> kFeatures = {"psnr=enable_apsnr=true", "float_ssim", "float_ms_ssim",
                                            "float_vif", "float_adm",  "float_motion"};

ScoreRun run_range(const std::string& pair, const ScoreConfig& base,
                   std::optional<FrameRange> range) {
    auto ref = open_video(test::clip(pair, "ref").string());
    auto dis = open_video(test::clip(pair, "dis").string());
    ScoreConfig cfg = base;
    cfg.frame_range = range;
    return score(*ref, *dis, cfg);
}

// Chunks of `size` frames (0: one chunk of every frame), each through its
// file text, merged.
Results merged(const std::string& pair, const ScoreConfig& cfg, unsigned frames, unsigned size) {
    if (size == 0) size = frames;
    std::vector<Chunk> chunks;
    // Out of order: the merge sorts them.
    for (unsigned begin = 0; begin < frames; begin += size) {
        const unsigned end = std::min(frames, begin + size);
        const ScoreRun run = run_range(pair, cfg, FrameRange{begin, end});
        const Chunk c = make_chunk(run, "ref", "dis", "config");
        chunks.insert(chunks.begin(), parse_chunk(render_chunk(c), pair));
    }
    return merge_chunks(std::move(chunks));
}

// Compares every format; returns how many values the merged JSON carries.
void expect_same_outputs(const std::string& what, const Results& whole, Results merged) {
    merged.fps = whole.fps;
    for (OutputFormat f : {OutputFormat::json, OutputFormat::xml, OutputFormat::csv})
        for (Precision p : {Precision::max(), Precision::legacy()})
            EXPECT_EQ(render_results(merged, f, p), render_results(whole, f, p))
                << what << " format " << int(f) << " precision " << p.digits;
}

void check_chunkings(const std::string& pair, const ScoreConfig& cfg, std::vector<unsigned> sizes,
                     std::size_t* values = nullptr) {
    const ScoreRun run = run_range(pair, cfg, std::nullopt);
    const Results whole = run.results();
    ASSERT_GT(whole.metrics.size(), 0u);
    for (unsigned size : sizes) {
        if (size >= run.frames) continue;  // the same single chunk as "whole" (0)
        const Results m = merged(pair, cfg, run.frames, size);
        expect_same_outputs(pair + " chunks of " + std::to_string(size), whole, m);
        if (values)
            for (const auto& metric : m.metrics)
                for (const auto& v : metric.values) *values += v.has_value();
    }
}

class ChunkMerge : public ::testing::TestWithParam<std::string> {};

TEST_P(ChunkMerge, DefaultModelPsnrAndFloatFeatures) {
    ScoreConfig cfg;
    cfg.features = kFeatures;
    std::size_t values = 0;
    check_chunkings(GetParam(), cfg, {1, 2, 3, 7, 0}, &values);
    RecordProperty("values_compared", std::to_string(values));
}

INSTANTIATE_TEST_SUITE_P(Corpus, ChunkMerge, ::testing::ValuesIn(test::target_pairs()),
                         [](const auto& info) { return info.param.substr(0, 3); });

// motion3 of the v1.0.16 models: the HFR one adds the five-frame window and
// the moving average (four frames of context before, one after).
TEST(ChunkMergeModels, V1016ModelsFiveFrameWindow) {
    for (const char* version : {"vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_hfr_3d0h"}) {
        ScoreConfig cfg;
        cfg.models.push_back(parse_model_config(std::string("version=") + version));
        cfg.features = {"float_motion"};
        check_chunkings("p16_testsrc2_352x288_420p8_x264crf30", cfg, {1, 2, 3, 7, 0});
    }
}

// Each temporal extractor alone: a run takes the widest context of its
// extractors, so together one's declaration could hide another's.
TEST(ChunkMergeModels, EachTemporalExtractorAlone) {
    for (const char* feature :
         {"motion", "motion=motion_five_frame_window=true",
          "motion=motion_moving_average=true",
          "motion=motion_five_frame_window=true:motion_moving_average=true", "float_motion",
          "speed_temporal", "psnr"}) {
        SCOPED_TRACE(feature);
        ScoreConfig cfg;
        cfg.no_prediction = true;
        cfg.features = {feature};
        check_chunkings("p16_testsrc2_352x288_420p8_x264crf30", cfg, {1, 2, 3, 7, 0});
    }
}

// APSNR's sums with every option that changes them (luma only: the chroma
// aggregates of 0 pixels; the reduced high-bit-depth peak; min_sse, as the
// AOM CTC preset has it) at 8, 10, 12 and 16 bits: the merged aggregates are
// those of the whole run.
TEST(ChunkMergeModels, ApsnrFromIntegerSums) {
    for (const char* pair : {"p08_brick_176x144_420p8_bilinear2x", "p12_gravel_576x324_420p10_x265crf28",
                             "p14_grass_352x288_420p12_x265crf30", "p15_chelsea_176x144_420p16_gblur"})
        for (const char* feature : {"psnr=enable_apsnr=true:enable_chroma=false",
                                    "psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5"}) {
            SCOPED_TRACE(std::string(pair) + " " + feature);
            ScoreConfig cfg;
            cfg.no_prediction = true;
            cfg.features = {feature};
            const ScoreRun run = run_range(pair, cfg, std::nullopt);
            ASSERT_EQ(run.results().aggregate.size(), 3u);
            check_chunkings(pair, cfg, {1, 5, 0});
        }
}

// Subsample counts from the pair's frame 0, not a chunk's.
TEST(ChunkMergeModels, Subsample3) {
    ScoreConfig cfg;
    cfg.features = kFeatures;
    cfg.subsample = 3;
    check_chunkings("p18_life_176x144_420p8_x264crf35", cfg, {1, 2, 3, 7, 0});
}

// With worker threads the runs_first extractors' keys lead (libvmaf's order).
TEST(ChunkMergeModels, WorkerThreadsKeyOrder) {
    ScoreConfig cfg;
    cfg.features = kFeatures;
    cfg.threads = 2;
    check_chunkings("p22_rocket_48x48_420p8_x264crf32_small", cfg, {1, 3, 0});
}

// Bad ranges and bad sets of chunks: one-line errors.
void expect_error(const std::function<void()>& f, const std::string& needle) {
    try {
        f();
        ADD_FAILURE() << "no error; expected one containing \"" << needle << "\"";
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(needle), std::string::npos) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
}

TEST(ChunkMergeErrors, BadRanges) {
    const std::string pair = "p22_rocket_48x48_420p8_x264crf32_small";  // 16 frames
    ScoreConfig cfg;
    expect_error([&] { run_range(pair, cfg, FrameRange{5, 5}); }, "is empty");
    expect_error([&] { run_range(pair, cfg, FrameRange{6, 2}); }, "is empty");
    expect_error([&] { run_range(pair, cfg, FrameRange{10, 17}); }, "past the end of the pair, which has 16");
    expect_error([&] { run_range(pair, cfg, FrameRange{16, 18}); }, "past the end of the pair, which has 16");
    ScoreConfig cnt;
    cnt.frame_cnt = 3;
    expect_error([&] { run_range(pair, cnt, FrameRange{0, 4}); }, "--frame_cnt");
}

TEST(ChunkMergeErrors, GapsOverlapsAndMismatches) {
    const std::string pair = "p22_rocket_48x48_420p8_x264crf32_small";
    ScoreConfig cfg;
    auto chunk = [&](unsigned a, unsigned b) {
        return make_chunk(run_range(pair, cfg, FrameRange{a, b}), "ref", "dis", "config");
    };
    const Chunk c0 = chunk(0, 5), c1 = chunk(5, 10), c2 = chunk(10, 16), c1b = chunk(4, 10);
    EXPECT_FALSE(c1.ends_input);
    EXPECT_TRUE(c2.ends_input);
    EXPECT_NO_THROW(merge_chunks({c2, c0, c1}));
    expect_error([&] { merge_chunks({c0, c2}); }, "frames 5..9 are missing (between chunks 0:5 and 10:16)");
    expect_error([&] { merge_chunks({c1, c2}); }, "frames 0..4 are missing");
    expect_error([&] { merge_chunks({c0, c1}); }, "frames from 10 on are missing");
    expect_error([&] { merge_chunks({c0, c1b, c2}); }, "chunks 0:5 and 4:10 overlap at frames 4..4");
    expect_error([&] { merge_chunks({c0, c1, c1, c2}); }, "overlap at frames 5..9");
    expect_error([&] { merge_chunks({}); }, "no chunks");
    Chunk other = c1;
    other.distorted = "dis2";
    expect_error([&] { merge_chunks({c0, other, c2}); }, "has another distorted video");
    other = c1;
    other.config = "config2";
    expect_error([&] { merge_chunks({c0, other, c2}); }, "has another scoring options");
    other = c1;
    other.aggregates.emplace_back("apsnr_y", AggregateSums{"psnr", {65025}, {10, 20}});
    expect_error([&] { merge_chunks({c0, other, c2}); }, "chunk 5:10 has 1 aggregates, chunk 0:5 0");
    Chunk with = c0, peak = c1, with2 = c2;
    with.aggregates = with2.aggregates = {{"apsnr_y", AggregateSums{"psnr", {65025}, {10, 20}}}};
    peak.aggregates = {{"apsnr_y", AggregateSums{"psnr", {1046529}, {10, 20}}}};
    expect_error([&] { merge_chunks({with, peak, with2}); }, "aggregate apsnr_y: sums of another feature or with other parameters");
    peak.aggregates = {{"apsnr_y", AggregateSums{"ciede", {65025}, {10, 20}}}};
    expect_error([&] { merge_chunks({with, peak, with2}); }, "sums of another feature");
    with.aggregates = peak.aggregates;
    with2.aggregates = peak.aggregates;
    expect_error([&] { merge_chunks({with, peak, with2}); }, "feature \"ciede\" does not finish aggregates");
    expect_error([&] { parse_chunk("{\"vmafpp_chunk\": 2}", "x.chunk"); }, "x.chunk: malformed");
    expect_error([&] { parse_chunk("{\"vmafpp_chunk\": 1}", "x.chunk"); }, "chunk format 1 is not the one this vmafpp reads (2)");
    expect_error([&] { parse_chunk("not json", "x.chunk"); }, "x.chunk: not a vmafpp chunk file");
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string without_fps(std::string xml) {
    const std::size_t at = xml.find("fps=\"");
    if (at != std::string::npos) xml.erase(at + 5, xml.find('"', at + 5) - at - 4);
    return xml;
}

// The AOM CTC preset (psnr with APSNR and min_sse, ciede, SSIMs, cambi, two
// models) in chunks through the CLI: the merged JSON is the whole run's.
TEST(ChunkMergeCli, AomCtcPresetWithItsAggregates) {
    const std::string pair = "p01_astronaut_576x324_420p8_x264crf23";  // 16 frames
    const std::string cli = VMAFPP_CLI;
    const std::string io = " -r '" + test::clip(pair, "ref").string() + "' -d '" +
                           test::clip(pair, "dis").string() + "' -q --aom_ctc v6.0";
    const std::string dir = (test::work_dir() / "chunk_ctc_").string();
    std::string out;
    ASSERT_EQ(test::run_command(cli + io + " --json -o " + dir + "whole.json", &out), 0) << out;
    std::string chunks;
    for (const char* range : {"0:5", "5:6", "6:16"}) {
        const std::string file = dir + range + ".chunk";
        ASSERT_EQ(test::run_command(cli + io + " --frame_range " + range + " --chunk_out " + file, &out), 0) << out;
        chunks += " " + file;
    }
    ASSERT_EQ(test::run_command(cli + " merge" + chunks + " --json -o " + dir + "merged.json", &out), 0) << out;
    auto without_fps_line = [](std::string json) {
        const std::size_t at = json.find("\"fps\"");
        if (at != std::string::npos) json.erase(at, json.find('\n', at) - at);
        return json;
    };
    const std::string whole = slurp(dir + "whole.json");
    EXPECT_NE(whole.find("\"apsnr_cr\""), std::string::npos);
    EXPECT_EQ(without_fps_line(slurp(dir + "merged.json")), without_fps_line(whole));
}

// The same through the CLI: --count-frames, --frame_range/--chunk_out, and
// vmafpp merge writing the default XML; bad ranges and bad sets of chunks
// end with one line on stderr and a non-zero exit.
TEST(ChunkMergeCli, ChunksMergeToTheSingleRunAndBadInputIsOneLine) {
    const std::string pair = "p08_brick_176x144_420p8_bilinear2x";  // 24 frames
    const std::string cli = VMAFPP_CLI;
    const std::string io = " -r '" + test::clip(pair, "ref").string() + "' -d '" +
                           test::clip(pair, "dis").string() + "' -q --feature psnr=enable_apsnr=true";
    const std::string dir = (test::work_dir() / "chunk_cli_").string();
    std::string out;
    ASSERT_EQ(test::run_command(cli + io + " --count-frames", &out), 0) << out;
    EXPECT_EQ(out, "24\n");
    ASSERT_EQ(test::run_command(cli + io + " -o " + dir + "whole.xml", &out), 0) << out;
    std::string chunks;
    for (unsigned a = 0; a < 24; a += 10) {
        const std::string range = std::to_string(a) + ":" + std::to_string(std::min(24u, a + 10));
        const std::string file = dir + std::to_string(a) + ".chunk";
        ASSERT_EQ(test::run_command(cli + io + " --frame_range " + range + " --chunk_out " + file, &out), 0) << out;
        chunks = " " + file + chunks;  // given out of order
    }
    ASSERT_EQ(test::run_command(cli + " merge" + chunks + " -o " + dir + "merged.xml", &out), 0) << out;
    EXPECT_EQ(without_fps(slurp(dir + "merged.xml")), without_fps(slurp(dir + "whole.xml")));

    auto expect_one_line_error = [&](const std::string& args, const std::string& needle) {
        std::string log;
        EXPECT_NE(test::run_command(cli + args, &log), 0) << args;
        EXPECT_NE(log.find(needle), std::string::npos) << args << "\n" << log;
        EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 1) << args << "\n" << log;
    };
    const std::string c = " " + dir;
    expect_one_line_error(io + " --frame_range 5:5 --chunk_out " + dir + "x", "is empty");
    expect_one_line_error(io + " --frame_range 9:3 --chunk_out " + dir + "x", "is empty");
    expect_one_line_error(io + " --frame_range 3-9 --chunk_out " + dir + "x", "is not A:B");
    expect_one_line_error(io + " --frame_range 20:25 --chunk_out " + dir + "x", "which has 24 frames");
    expect_one_line_error(io + " --frame_range 0:5", "give --chunk_out");
    expect_one_line_error(" merge" + c + "0.chunk" + c + "20.chunk -o " + dir + "m.xml",
                          "frames 10..19 are missing");
    expect_one_line_error(" merge" + c + "0.chunk" + c + "10.chunk -o " + dir + "m.xml",
                          "frames from 20 on are missing");
    expect_one_line_error(" merge" + c + "0.chunk" + c + "10.chunk" + c + "10.chunk" + c +
                              "20.chunk -o " + dir + "m.xml",
                          "overlap at frames 10..19");
    expect_one_line_error(" merge" + c + "whole.xml -o " + dir + "m.xml", "not a vmafpp chunk file");
    EXPECT_FALSE(std::filesystem::exists(dir + "m.xml"));
}

}  // namespace
}  // namespace vmafpp
