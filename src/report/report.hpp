// The HTML report (--report, `vmafpp report`), the --stats text and file
// additions, and the batch summary CSV. The page is report_template.html,
// embedded at build time, with the data as one JSON object in a script
// element: no file beside it and nothing fetched from the network.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "report/stats.hpp"

namespace vmafpp::report {

// One scored pair (or result file) as the report and the summary see it.
struct Input {
    std::string label;   // the legend's name: the distorted file's
    std::vector<std::pair<std::string, std::string>> facts;  // shown as given
    double frame_rate = 0;  // frames per second of the video; 0: unknown
    std::vector<Series> series;
};

struct Options {
    double threshold = 60;   // model scores below it are counted
    std::size_t worst = 10;  // worst frames listed per model score
    std::string title = "vmafpp report";
};

// The legend's name of an input: the file's name without its folders.
std::string file_label(const std::string& path);

// The self-contained page.
std::string render_html(const std::vector<Input>& inputs, const Options& options);

// A result file written by vmafpp (-o with --json; the facts key, when
// present, gives the facts, models and frame rate) or by libvmaf 3.2.0's
// vmaf --json. `frame_rate` (0: none) is used when the file does not say.
// Throws vmafpp::Error with one line on anything unreadable or malformed.
Input read_result_file(const std::string& path, double frame_rate);

// The --stats lines printed on stdout: a table of every metric, then the
// worst frames of each model score.
std::string stats_text(const Input& input, const Options& options);

// Members added to a JSON result before its closing brace, only with
// --stats: "vmafpp_facts" (facts, models, frame rate: what `vmafpp report`
// reads back) and "vmafpp_stats". `json` must be what write_results wrote.
std::string add_to_json(const std::string& json, const Input& input, const Options& options, int digits);
// Rows added after a CSV result's frames (--stats): one per statistic, its
// name in the Frame column, a value under each metric's header.
std::string add_to_csv(const std::string& csv, const Input& input, const Options& options,
                       const std::vector<std::string>& column_keys);

// One row per pair: its reference, distorted and output, frames, each model
// score's statistics; `error` says why a pair has none.
struct SummaryRow {
    std::string reference, distorted, output, error;
    const Input* input = nullptr;  // null when the pair failed
};
std::string summary_csv(const std::vector<SummaryRow>& rows, const Options& options);

// A list of pairs: one "REF DIS OUT" a line (tabs, or else spaces, between
// them), blank lines and '#' comments ignored: vmafpp-dask's --list format.
// `out_optional` also takes "REF DIS" lines (vmafpp batch: no output file).
struct ListedPair {
    std::string reference, distorted, output;
};
std::vector<ListedPair> read_pair_list(const std::string& path, bool out_optional);

}  // namespace vmafpp::report
