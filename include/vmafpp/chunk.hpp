// A frame range's results in a lossless file, and the merge of the ranges of
// one pair into the results of a run over the whole pair (what
// `vmafpp --frame_range A:B --chunk_out FILE` and `vmafpp merge` do).
//
// Each frame's values are those a whole run gives (score() reads the context
// the temporal extractors need), so merging is concatenation: the frames in
// frame order and the keys in the order of their first appearance, which is
// the whole run's order because every extractor and model writes each key at
// frame 0 (a scored frame under any subsample). Pooling then runs once, in
// the writers, over the merged frames: the same arithmetic as a single run.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "vmafpp/export.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/results.hpp"

namespace vmafpp {

struct ScoreRun;

struct Chunk {
    std::string version;
    // What the merge compares: the pair as named by the caller and a
    // description of the scoring options (the same for every chunk of a run).
    std::string reference, distorted, config;
    unsigned width = 0, height = 0, subsample = 1;
    unsigned begin = 0, end = 0;  // frames begin .. end - 1
    bool ends_input = false;      // no frame of the pair after end - 1
    double seconds = 0.0;         // wall-clock time of scoring the chunk
    // Keys in this chunk's order; values[i] is frame begin + i, null when
    // the frame has no value (not scored under subsample).
    std::vector<Results::Metric> metrics;
    // The aggregates' totals over frames begin .. end - 1 (psnr's APSNR),
    // in the run's order; the merge adds them and finishes the values.
    std::vector<std::pair<std::string, AggregateSums>> aggregates;
};

// The chunk of a frame-range run (or of a whole run: 0 .. frames).
VMAFPP_API Chunk make_chunk(const ScoreRun& run, std::string reference, std::string distorted,
                 std::string config);

// JSON; every number printed so that it reads back to the same double (17
// significant digits), non-finite values as strings ("nan", "inf", "-inf"),
// aggregate sums as integers.
VMAFPP_API std::string render_chunk(const Chunk& chunk);
// Throws vmafpp::Error naming `what` (a path) on anything malformed.
VMAFPP_API Chunk parse_chunk(std::string_view text, const std::string& what);
// parse_chunk of the file at `path`, read as a model file is: a regular file
// (a directory, a device such as /dev/zero or a fifo is refused at once) of at
// most kMaxChunkFileBytes; throws vmafpp::Error with one line otherwise.
VMAFPP_API Chunk read_chunk_file(const std::string& path);
// A chunk costs about 20 bytes per key and frame (17 digits and a comma): a
// 1-hour 60 fps chunk of the default model and psnr (18 keys) is 73 MiB. The
// limit keeps a merge's memory (the parse takes several times the text)
// bounded; longer runs are scored in more chunks.
inline constexpr unsigned long long kMaxChunkFileBytes = 256ull << 20;

// The results of the whole pair; fps is frames / the chunks' summed seconds;
// aggregates are finished from the chunks' summed totals.
// Throws vmafpp::Error with one line when the chunks are of different pairs,
// options or versions, or leave a gap, overlap, or miss the pair's end.
VMAFPP_API Results merge_chunks(std::vector<Chunk> chunks);

}  // namespace vmafpp
