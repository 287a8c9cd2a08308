#include "report/report.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/capped_file.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp::report {

std::string_view report_template();  // report_template.cpp, generated

namespace {

// Shortest text that reads back to the same double.
std::string number(double v) {
    if (!std::isfinite(v)) return "null";
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string fixed6(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6f", v);
    return buf;
}

// A JSON string that is also safe inside a <script> element: '<', '>' and '&'
// are escaped, so no "</script>" or "<!--" can appear in the page's data.
std::string js_string(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20 || c == '<' || c == '>' || c == '&') {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

// frames as {"first":a,"step":s} when they are a + s i (every frame, or a
// subsample), else the list: a 100k-frame run's page stays half the size.
std::string frames_json(const std::vector<unsigned>& f) {
    const unsigned step = f.size() > 1 ? f[1] - f[0] : 1;
    bool regular = step > 0;
    for (std::size_t i = 1; regular && i < f.size(); ++i) regular = f[i] - f[i - 1] == step;
    if (regular) return "\"first\":" + std::to_string(f.empty() ? 0 : f[0]) + ",\"step\":" + std::to_string(step);
    std::string out = "\"frames\":[";
    for (std::size_t i = 0; i < f.size(); ++i) out += std::string(i ? "," : "") + std::to_string(f[i]);
    return out + "]";
}

std::string stats_json(const Stats& st) {
    std::string out = "{\"count\":" + std::to_string(st.count);
    const std::pair<const char*, double> v[] = {
        {"mean", st.mean}, {"harmonic_mean", st.harmonic_mean}, {"min", st.min}, {"max", st.max},
        {"stddev", st.stddev}, {"p1", st.p1}, {"p5", st.p5}, {"p10", st.p10}, {"p50", st.p50}};
    // The table shows what the C++ computed, printed as libvmaf prints scores.
    for (const auto& [name, value] : v) out += std::string(",\"") + name + "\":\"" + fixed6(value) + "\"";
    out += ",\"below\":" + (st.below ? std::to_string(*st.below) : std::string("null"));
    return out + "}";
}

std::string series_json(const Series& s, const Options& o) {
    const Stats st = compute_stats(s, o.threshold, o.worst);
    std::string out = "{\"key\":" + js_string(s.key) + ",\"model\":" + (s.is_model ? "true" : "false") +
                      "," + frames_json(s.frames) + ",\"stats\":" + stats_json(st) + ",\"worst\":[";
    for (std::size_t i = 0; i < st.worst.size(); ++i)
        out += std::string(i ? ",[" : "[") + std::to_string(st.worst[i].frame) + ",\"" + fixed6(st.worst[i].value) + "\"]";
    out += "],\"values\":[";
    std::string values;
    values.reserve(s.values.size() * 10);
    for (std::size_t i = 0; i < s.values.size(); ++i) {
        if (i) values += ',';
        values += number(s.values[i]);
    }
    return out + values + "]}";
}

std::string input_json(const Input& in, const Options& o) {
    std::string out = "{\"label\":" + js_string(in.label) + ",\"frame_rate\":" +
                      (in.frame_rate > 0 ? number(in.frame_rate) : "null") + ",\"facts\":[";
    for (std::size_t i = 0; i < in.facts.size(); ++i)
        out += std::string(i ? ",[" : "[") + js_string(in.facts[i].first) + "," + js_string(in.facts[i].second) + "]";
    out += "],\"metrics\":[";
    for (std::size_t i = 0; i < in.series.size(); ++i) out += std::string(i ? "," : "") + series_json(in.series[i], o);
    return out + "]}";
}

std::string replace_once(std::string_view text, std::string_view marker, const std::string& with) {
    const std::size_t at = text.find(marker);
    if (at == std::string_view::npos) throw Error("the report template has no " + std::string(marker));
    std::string out(text.substr(0, at));
    out += with;
    out += text.substr(at + marker.size());
    return out;
}

std::string threshold_text(double t) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", t);
    return buf;
}

std::vector<std::string> model_keys_of(const Input& in) {
    std::vector<std::string> out;
    for (const auto& s : in.series)
        if (s.is_model) out.push_back(s.key);
    return out;
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

const char* const kStatNames[] = {"mean", "harmonic_mean", "min", "max", "stddev", "p1", "p5", "p10", "p50"};

std::vector<double> stat_values(const Stats& st) {
    return {st.mean, st.harmonic_mean, st.min, st.max, st.stddev, st.p1, st.p5, st.p10, st.p50};
}

double json_number_or_nan(const nlohmann::ordered_json& v) {
    return v.is_number() ? v.get<double>() : std::nan("");
}

}  // namespace

std::string file_label(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos || slash + 1 == path.size() ? path : path.substr(slash + 1);
}

std::string render_html(const std::vector<Input>& inputs, const Options& o) {
    std::string data = "{\"title\":" + js_string(o.title) + ",\"threshold\":" + number(o.threshold) +
                       ",\"worst\":" + std::to_string(o.worst) + ",\"inputs\":[";
    for (std::size_t i = 0; i < inputs.size(); ++i) data += std::string(i ? "," : "") + input_json(inputs[i], o);
    data += "]}";
    return replace_once(report_template(), "@VMAFPP_REPORT_DATA@", data);
}

Input read_result_file(const std::string& path, double frame_rate) {
    // A 100k-frame result with every feature is ~100 MB of JSON.
    static constexpr detail::FileKind kind{"result file", "a result file", 1024ull << 20};
    const std::string text = detail::read_capped_file(path, kind);
    nlohmann::ordered_json j;  // the facts in the file's order
    try {
        j = nlohmann::ordered_json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw Error("result file " + path + " is not JSON (" + e.what() + "); vmafpp report reads --json output");
    }
    if (!j.is_object() || !j.contains("frames") || !j["frames"].is_array())
        throw Error("result file " + path + " has no \"frames\" list: not vmafpp's or libvmaf's --json output");
    Input in;
    in.label = file_label(path);
    in.frame_rate = frame_rate;
    std::vector<std::string> models;
    bool models_given = false;
    if (j.contains("vmafpp_facts") && j["vmafpp_facts"].is_object()) {
        const auto& f = j["vmafpp_facts"];
        for (const auto& [k, v] : f.items()) {
            if (k == "models" && v.is_array()) {
                models_given = true;
                for (const auto& m : v)
                    if (m.is_string()) models.push_back(m.get<std::string>());
            }
            if (k == "frame_rate") {  // also in the facts as "frame rate", as the file gave it
                if (v.is_number() && v.get<double>() > 0) in.frame_rate = v.get<double>();
                continue;
            }
            if (k == "distorted" && v.is_string()) in.label = file_label(v.get<std::string>());
            std::string text;
            if (v.is_array())
                for (const auto& x : v) text += std::string(text.empty() ? "" : ", ") + (x.is_string() ? x.get<std::string>() : x.dump());
            else
                text = v.is_string() ? v.get<std::string>() : v.dump();
            in.facts.emplace_back(k, text);
        }
    } else {
        in.facts.emplace_back("file", path);
        if (j.contains("version") && j["version"].is_string())
            in.facts.emplace_back("version", j["version"].get<std::string>());
        if (frame_rate > 0) in.facts.emplace_back("frame_rate", number(frame_rate));
    }
    std::vector<Series> series;
    auto series_for = [&](const std::string& key) -> Series& {
        for (auto& s : series)
            if (s.key == key) return s;
        series.push_back({key, models_given ? std::find(models.begin(), models.end(), key) != models.end()
                                            : looks_like_model_key(key),
                          {}, {}});
        return series.back();
    };
    long long last = -1;
    for (const auto& fr : j["frames"]) {
        if (!fr.is_object() || !fr.contains("frameNum") || !fr["frameNum"].is_number_unsigned() ||
            !fr.contains("metrics") || !fr["metrics"].is_object())
            throw Error("result file " + path + ": a frame without frameNum and metrics");
        const unsigned long long n = fr["frameNum"].get<unsigned long long>();
        if ((long long)n <= last || n > 0xffffffffull)
            throw Error("result file " + path + ": frame numbers out of order at frame " + std::to_string(n));
        last = (long long)n;
        for (const auto& [k, v] : fr["metrics"].items()) {
            Series& s = series_for(k);
            const double x = json_number_or_nan(v);
            if (!std::isfinite(x)) continue;  // libvmaf writes null for NaN
            s.frames.push_back(unsigned(n));
            s.values.push_back(x);
        }
    }
    for (auto& s : series)
        if (!s.values.empty()) in.series.push_back(std::move(s));
    if (in.series.empty()) throw Error("result file " + path + " has no per-frame values");
    std::size_t frames = 0;
    for (const auto& s : in.series) frames = std::max(frames, s.values.size());
    if (!j.contains("vmafpp_facts")) {
        in.facts.emplace_back("frames", std::to_string(frames));
        std::string names;  // libvmaf's file does not say: the keys that look like models'
        for (const auto& key : model_keys_of(in)) names += std::string(names.empty() ? "" : ", ") + key;
        in.facts.emplace_back("models", names);
    }
    return in;
}

std::string stats_text(const Input& in, const Options& o) {
    std::string out;
    char buf[512];
    std::snprintf(buf, sizeof buf, "%-40s %7s %12s %13s %12s %12s %12s %12s %12s %12s %12s %s\n", "metric",
                  "frames", "mean", "harmonic_mean", "min", "max", "stddev", "p1", "p5", "p10", "p50",
                  (std::string("below_") + threshold_text(o.threshold)).c_str());
    out += buf;
    std::string worst;
    for (const auto& s : in.series) {
        const Stats st = compute_stats(s, o.threshold, o.worst);
        std::snprintf(buf, sizeof buf, "%-40s %7zu %12.6f %13.6f %12.6f %12.6f %12.6f %12.6f %12.6f %12.6f %12.6f %s\n",
                      s.key.c_str(), st.count, st.mean, st.harmonic_mean, st.min, st.max, st.stddev, st.p1,
                      st.p5, st.p10, st.p50, st.below ? std::to_string(*st.below).c_str() : "-");
        out += buf;
        if (!s.is_model) continue;
        worst += s.key + " worst frames:";
        for (const auto& w : st.worst) worst += std::string(" ") + std::to_string(w.frame) + " (" + fixed6(w.value) + ")";
        worst += "\n";
    }
    return out + worst;
}

std::string add_to_json(const std::string& json, const Input& in, const Options& o, int digits) {
    if (json.size() < 3 || json.compare(json.size() - 3, 3, "\n}\n") != 0)
        throw Error("internal: the JSON result does not end as write_results writes it");
    auto num = [&](double v) {
        if (!std::isfinite(v)) return std::string("null");
        char buf[64];
        if (digits > 0)
            std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        else
            std::snprintf(buf, sizeof buf, "%.6f", v);
        return std::string(buf);
    };
    std::string add = ",\n  \"vmafpp_facts\": {";
    bool first = true;
    for (const auto& [k, v] : in.facts) {
        if (k == "models") continue;
        add += std::string(first ? "\n" : ",\n") + "    " + js_string(k) + ": " + js_string(v);
        first = false;
    }
    add += std::string(first ? "\n" : ",\n") + "    \"models\": [";
    const auto models = model_keys_of(in);
    for (std::size_t i = 0; i < models.size(); ++i) add += std::string(i ? ", " : "") + js_string(models[i]);
    add += "]";
    if (in.frame_rate > 0) add += ",\n    \"frame_rate\": " + number(in.frame_rate);
    add += "\n  }";
    add += ",\n  \"vmafpp_stats\": {\n    \"threshold\": " + number(o.threshold) + ",\n    \"metrics\": {";
    for (std::size_t i = 0; i < in.series.size(); ++i) {
        const Series& s = in.series[i];
        const Stats st = compute_stats(s, o.threshold, o.worst);
        add += std::string(i ? ",\n" : "\n") + "      " + js_string(s.key) + ": {\"count\": " + std::to_string(st.count);
        const auto v = stat_values(st);
        for (std::size_t k = 0; k < v.size(); ++k) add += std::string(", \"") + kStatNames[k] + "\": " + num(v[k]);
        if (st.below) add += ", \"below_threshold\": " + std::to_string(*st.below);
        if (s.is_model) {
            add += ", \"worst_frames\": [";
            for (std::size_t w = 0; w < st.worst.size(); ++w)
                add += std::string(w ? ", " : "") + std::string("{\"frame\": ") + std::to_string(st.worst[w].frame) +
                       ", \"value\": " + num(st.worst[w].value) + "}";
            add += "]";
        }
        add += "}";
    }
    add += "\n    }\n  }";
    return json.substr(0, json.size() - 3) + add + "\n}\n";
}

std::string add_to_csv(const std::string& csv, const Input& in, const Options& o,
                       const std::vector<std::string>& column_keys) {
    std::vector<std::optional<Stats>> st;
    for (const auto& key : column_keys) {
        const auto it = std::find_if(in.series.begin(), in.series.end(), [&](const Series& s) { return s.key == key; });
        st.push_back(it == in.series.end() ? std::nullopt : std::optional<Stats>(compute_stats(*it, o.threshold, o.worst)));
    }
    std::string out = csv;
    for (std::size_t k = 0; k < std::size(kStatNames); ++k) {
        out += kStatNames[k];
        out += ",";
        for (const auto& s : st) out += (s ? fixed6(stat_values(*s)[k]) : "") + ",";
        out += "\n";
    }
    out += std::string("below_") + threshold_text(o.threshold) + ",";
    for (const auto& s : st) out += (s && s->below ? std::to_string(*s->below) : "") + ",";
    return out + "\n";
}

std::string summary_csv(const std::vector<SummaryRow>& rows, const Options& o) {
    std::vector<std::string> models;  // every pair's, first appearance first
    for (const auto& r : rows)
        if (r.input)
            for (const auto& k : model_keys_of(*r.input))
                if (std::find(models.begin(), models.end(), k) == models.end()) models.push_back(k);
    const std::string below = std::string("below_") + threshold_text(o.threshold);
    std::string out = "reference,distorted,output,frames";
    for (const auto& m : models) {
        for (const std::string s : kStatNames) {
            out += ',';
            out += csv_field(m + "_" + s);
        }
        out += ',';
        out += csv_field(m + "_" + below);
    }
    out += ",error\n";
    for (const auto& r : rows) {
        out += csv_field(r.reference) + "," + csv_field(r.distorted) + "," + csv_field(r.output) + ",";
        std::size_t frames = 0;
        if (r.input)
            for (const auto& s : r.input->series) frames = std::max(frames, s.values.size());
        out += r.input ? std::to_string(frames) : "";
        for (const auto& m : models) {
            const Series* s = nullptr;
            if (r.input)
                for (const auto& x : r.input->series)
                    if (x.key == m) s = &x;
            if (!s) {
                out += std::string(std::size(kStatNames) + 1, ',');
                continue;
            }
            const Stats st = compute_stats(*s, o.threshold, 0);
            for (double v : stat_values(st)) {
                out += ',';
                out += fixed6(v);
            }
            out += std::string(",") + std::to_string(st.below.value_or(0));
        }
        out += std::string(",") + csv_field(r.error) + "\n";
    }
    return out;
}

std::vector<ListedPair> read_pair_list(const std::string& path, bool out_optional) {
    static constexpr detail::FileKind kind{"list file", "a list file", 64ull << 20};
    std::istringstream text(detail::read_capped_file(path, kind));
    std::vector<ListedPair> out;
    std::string line;
    for (int n = 1; std::getline(text, line); ++n) {
        const auto b = line.find_first_not_of(" \t\r");
        if (b == std::string::npos || line[b] == '#') continue;
        line = line.substr(b, line.find_last_not_of(" \t\r") + 1 - b);
        std::vector<std::string> parts;
        const bool tabs = line.find('\t') != std::string::npos;
        std::size_t at = 0;
        while (at <= line.size()) {
            if (!tabs) at = line.find_first_not_of(' ', at);
            if (at == std::string::npos) break;
            const std::size_t end = line.find(tabs ? '\t' : ' ', at);
            parts.push_back(line.substr(at, end == std::string::npos ? std::string::npos : end - at));
            if (end == std::string::npos) break;
            at = end + 1;
        }
        if (parts.size() == 3 || (out_optional && parts.size() == 2))
            out.push_back({parts[0], parts[1], parts.size() == 3 ? parts[2] : ""});
        else
            throw Error(path + ":" + std::to_string(n) + ": expected REF DIS OUT" +
                        (out_optional ? " (or REF DIS)" : ""));
    }
    if (out.empty()) throw Error("list file " + path + " lists no pair");
    return out;
}

}  // namespace vmafpp::report
