#include "vmafpp/chunk.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "base/capped_file.hpp"
#include "vmafpp/collector.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/vmafpp.hpp"

namespace vmafpp {

namespace {

using Json = nlohmann::json;

// "vmafpp_chunk": bumped when the layout changes (2: aggregate sums), so that
// an older merge refuses a chunk whose fields it would drop.
constexpr int kFormat = 2;

// nlohmann prints a double with the shortest digits that read back to it
// (never more than 17), so a finite value round-trips; JSON has no NaN or
// infinities, which go as strings.
Json value_json(const std::optional<double>& v) {
    if (!v) return nullptr;
    if (std::isnan(*v)) return "nan";
    if (std::isinf(*v)) return *v > 0 ? "inf" : "-inf";
    return *v;
}

std::string range_text(const Chunk& c) {
    return std::to_string(c.begin) + ":" + std::to_string(c.end);
}

// Every chunk's totals added (mod 2^64, as a whole run adds its frames'),
// then finished: the whole run's aggregates, in its order.
std::vector<std::pair<std::string, double>> merged_aggregates(const std::vector<Chunk>& chunks) {
    const Chunk& first = chunks.front();
    std::vector<std::pair<std::string, AggregateSums>> total = first.aggregates;
    for (std::size_t i = 1; i < chunks.size(); ++i) {
        const Chunk& c = chunks[i];
        if (c.aggregates.size() != total.size())
            throw Error("merge: chunk " + range_text(c) + " has " + std::to_string(c.aggregates.size()) +
                        " aggregates, chunk " + range_text(first) + " " + std::to_string(total.size()));
        for (std::size_t k = 0; k < total.size(); ++k) {
            if (c.aggregates[k].first != total[k].first)
                throw Error("merge: chunk " + range_text(c) + " has aggregate " + c.aggregates[k].first +
                            " where chunk " + range_text(first) + " has " + total[k].first);
            add_aggregate_totals(total[k].first, total[k].second, c.aggregates[k].second);
        }
    }
    std::vector<std::pair<std::string, double>> out;
    for (const auto& [key, sums] : total) out.emplace_back(key, finish_aggregate(key, sums));
    return out;
}

}  // namespace

Chunk make_chunk(const ScoreRun& run, std::string reference, std::string distorted,
                 std::string config) {
    const Results r = run.results();
    Chunk c;
    c.aggregates = run.values.aggregate_sums();
    c.version = r.version;
    c.reference = std::move(reference);
    c.distorted = std::move(distorted);
    c.config = std::move(config);
    c.width = r.width;
    c.height = r.height;
    c.subsample = r.subsample;
    c.begin = run.first_frame;
    c.end = run.first_frame + run.frames;
    c.ends_input = run.ends_input;
    c.seconds = run.seconds;
    c.metrics = r.metrics;
    return c;
}

std::string render_chunk(const Chunk& c) {
    Json j;
    j["vmafpp_chunk"] = kFormat;
    j["version"] = c.version;
    j["reference"] = c.reference;
    j["distorted"] = c.distorted;
    j["config"] = c.config;
    j["width"] = c.width;
    j["height"] = c.height;
    j["subsample"] = c.subsample;
    j["begin"] = c.begin;
    j["end"] = c.end;
    j["ends_input"] = c.ends_input;
    j["seconds"] = c.seconds;
    Json metrics = Json::array();
    for (const auto& m : c.metrics) {
        Json values = Json::array();
        for (const auto& v : m.values) values.push_back(value_json(v));
        metrics.push_back(Json{{"key", m.key}, {"values", std::move(values)}});
    }
    j["metrics"] = std::move(metrics);
    Json aggregates = Json::array();
    for (const auto& [key, s] : c.aggregates)
        aggregates.push_back(Json{{"key", key}, {"feature", s.feature}, {"fixed", s.fixed}, {"totals", s.totals}});
    j["aggregates"] = std::move(aggregates);
    return j.dump() + "\n";
}

Chunk read_chunk_file(const std::string& path) {
    return parse_chunk(detail::read_capped_file(path, {"chunk file", "a chunk", kMaxChunkFileBytes}), path);
}

Chunk parse_chunk(std::string_view text, const std::string& what) {
    Json j;
    try {
        j = Json::parse(text.begin(), text.end());
    } catch (const Json::exception& e) {
        throw Error(what + ": not a vmafpp chunk file (" + e.what() + ")");
    }
    try {
        if (!j.is_object() || !j.contains("vmafpp_chunk"))
            throw Error(what + ": not a vmafpp chunk file (no \"vmafpp_chunk\" field)");
        if (j.at("vmafpp_chunk").get<int>() != kFormat)
            throw Error(what + ": chunk format " + j.at("vmafpp_chunk").dump() +
                        " is not the one this vmafpp reads (" + std::to_string(kFormat) + ")");
        Chunk c;
        c.version = j.at("version").get<std::string>();
        c.reference = j.at("reference").get<std::string>();
        c.distorted = j.at("distorted").get<std::string>();
        c.config = j.at("config").get<std::string>();
        c.width = j.at("width").get<unsigned>();
        c.height = j.at("height").get<unsigned>();
        c.subsample = j.at("subsample").get<unsigned>();
        c.begin = j.at("begin").get<unsigned>();
        c.end = j.at("end").get<unsigned>();
        c.ends_input = j.at("ends_input").get<bool>();
        c.seconds = j.at("seconds").get<double>();
        if (c.begin >= c.end || c.subsample == 0)
            throw Error(what + ": bad chunk frame range " + range_text(c));
        for (const auto& m : j.at("metrics")) {
            Results::Metric metric{m.at("key").get<std::string>(), {}};
            const Json& values = m.at("values");
            if (!values.is_array() || values.size() != c.end - c.begin)
                throw Error(what + ": key " + metric.key + " does not have one value per frame of " +
                            range_text(c));
            for (const auto& v : values) {
                if (v.is_null())
                    metric.values.emplace_back();
                else if (v.is_number())
                    metric.values.emplace_back(v.get<double>());
                else if (v == "nan")
                    metric.values.emplace_back(std::nan(""));
                else if (v == "inf" || v == "-inf")
                    metric.values.emplace_back(v == "inf" ? HUGE_VAL : -HUGE_VAL);
                else
                    throw Error(what + ": key " + metric.key + " has a value that is not a number");
            }
            c.metrics.push_back(std::move(metric));
        }
        for (const auto& a : j.at("aggregates")) {
            AggregateSums s{a.at("feature").get<std::string>(), a.at("fixed").get<std::vector<std::uint64_t>>(),
                            a.at("totals").get<std::vector<std::uint64_t>>()};
            c.aggregates.emplace_back(a.at("key").get<std::string>(), std::move(s));
        }
        return c;
    } catch (const Json::exception& e) {
        throw Error(what + ": malformed vmafpp chunk file (" + e.what() + ")");
    }
}

Results merge_chunks(std::vector<Chunk> chunks) {
    if (chunks.empty()) throw Error("merge: no chunks");
    std::stable_sort(chunks.begin(), chunks.end(),
                     [](const Chunk& a, const Chunk& b) { return a.begin < b.begin; });
    const Chunk& first = chunks.front();
    for (const Chunk& c : chunks) {
        auto differ = [&](const char* field, const std::string& a, const std::string& b) {
            if (a != b)
                throw Error("merge: chunk " + range_text(c) + " has another " + field + " (\"" + b +
                            "\") than chunk " + range_text(first) + " (\"" + a + "\")");
        };
        differ("vmafpp version", first.version, c.version);
        differ("reference", first.reference, c.reference);
        differ("distorted video", first.distorted, c.distorted);
        differ("scoring options", first.config, c.config);
        differ("picture size", std::to_string(first.width) + "x" + std::to_string(first.height),
               std::to_string(c.width) + "x" + std::to_string(c.height));
        differ("subsample", std::to_string(first.subsample), std::to_string(c.subsample));
    }
    if (first.begin != 0)
        throw Error("merge: frames 0.." + std::to_string(first.begin - 1) +
                    " are missing (the first chunk is " + range_text(first) + ")");
    for (std::size_t i = 1; i < chunks.size(); ++i) {
        const Chunk& a = chunks[i - 1];
        const Chunk& b = chunks[i];
        if (b.begin < a.end)
            throw Error("merge: chunks " + range_text(a) + " and " + range_text(b) +
                        " overlap at frames " + std::to_string(b.begin) + ".." +
                        std::to_string(std::min(a.end, b.end) - 1));
        if (a.ends_input)
            throw Error("merge: chunk " + range_text(b) + " lies past the end of the pair, which chunk " +
                        range_text(a) + " reaches");
        if (b.begin > a.end)
            throw Error("merge: frames " + std::to_string(a.end) + ".." + std::to_string(b.begin - 1) +
                        " are missing (between chunks " + range_text(a) + " and " + range_text(b) +
                        ")");
    }
    const Chunk& last = chunks.back();
    if (!last.ends_input)
        throw Error("merge: the pair goes on after frame " + std::to_string(last.end - 1) +
                    ": frames from " + std::to_string(last.end) + " on are missing");

    Results r;
    r.version = first.version;
    r.width = first.width;
    r.height = first.height;
    r.subsample = first.subsample;
    r.frame_count = last.end;
    double seconds = 0;
    std::map<std::string, std::size_t> index;
    for (const Chunk& c : chunks) {
        seconds += c.seconds;
        for (const auto& m : c.metrics) {
            auto [it, fresh] = index.emplace(m.key, r.metrics.size());
            if (fresh) r.metrics.push_back({m.key, std::vector<std::optional<double>>(r.frame_count)});
            std::copy(m.values.begin(), m.values.end(),
                      r.metrics[it->second].values.begin() + std::ptrdiff_t(c.begin));
        }
    }
    r.fps = seconds > 0 ? r.frame_count / seconds : 0.0;
    r.aggregate = merged_aggregates(chunks);
    return r;
}

}  // namespace vmafpp
