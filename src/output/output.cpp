#include "vmafpp/output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <sstream>

#include "vmafpp/error.hpp"

namespace vmafpp {

namespace {

// libvmaf's count of zeros right after the decimal point, which picks "%.6f"
// or "%.16f". It truncates through int; values that do not fit an int (and
// NaN, infinities) come out as 0 there on x86, so they do here.
int leading_fraction_zeros(double x) {
    x = std::fabs(x);
    if (!(x < 2147483648.0)) return 0;
    const int int_part = static_cast<int>(x);
    double fraction = x - int_part;
    int zeros = 0;
    while (fraction < 1.0 && fraction != 0) {
        fraction *= 10;
        ++zeros;
    }
    return zeros;
}

std::string printf_double(const char* fmt, double v) {
    char buf[512];  // "%.16f" of 2^31 and "%.17g" of anything fit easily
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

std::string printf_double_g(int digits, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

bool is_finite(double v) { return std::isfinite(v); }

// Appends `c`, or for a control character its escape `fmt` (a printf
// format of the byte's value): what both writers' escaping ends with.
void append_or_escape_control(std::string& out, char c, const char* fmt) {
    if (static_cast<unsigned char>(c) >= 0x20) {
        out += c;
        return;
    }
    char buf[8];
    std::snprintf(buf, sizeof buf, fmt, static_cast<unsigned>(c));
    out += buf;
}

std::string json_string(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else {
            append_or_escape_control(out, c, "\\u%04x");
        }
    }
    return out;
}

// Attribute text: a model's name= is the user's, and may hold any byte.
std::string xml_attr(std::string_view s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default: append_or_escape_control(out, c, "&#%u;");
        }
    }
    return out;
}

// A frame's values are attributes named by their keys; an attribute name
// cannot be escaped, so a key that is not an XML name is refused (the CLI
// checks model names before scoring, so no scores are lost to this).
const std::string& xml_name(const std::string& key) {
    if (!is_xml_name(key))
        throw Error("the name \"" + key + "\" cannot be an XML attribute name (use letters, "
                    "digits, '_', '-' and '.', starting with a letter or '_'), or write --json");
    return key;
}

std::string json_number(double v, Precision p) {
    return is_finite(v) ? format_number(v, p) : "null";
}

std::string fps_text(double fps) { return printf_double("%.2f", fps); }

std::size_t frame_span(const Results& r) {
    std::size_t n = 0;
    for (const auto& m : r.metrics) n = std::max(n, m.values.size());
    return n;
}

bool has_value(const Results::Metric& m, std::size_t frame) {
    return frame < m.values.size() && m.values[frame].has_value();
}

// The frames libvmaf writes: kept by subsampling and holding some value.
template <class F>
void for_each_frame(const Results& r, F&& f) {
    const std::size_t n = frame_span(r);
    for (std::size_t i = 0; i < n; ++i) {
        if (r.subsample > 1 && i % r.subsample) continue;
        bool any = false;
        for (const auto& m : r.metrics) any = any || has_value(m, i);
        if (any) f(i);
    }
}

const char* const kPoolNames[] = {"min", "max", "mean", "harmonic_mean"};

double pooled_value(const Pooled& p, int method) {
    switch (method) {
        case 0: return p.min;
        case 1: return p.max;
        case 2: return p.mean;
        default: return p.harmonic_mean;
    }
}

void write_xml(std::ostream& out, const Results& r, Precision p) {
    out << "<VMAF version=\"" << xml_attr(r.version) << "\">\n";
    out << "  <params qualityWidth=\"" << r.width << "\" qualityHeight=\"" << r.height
        << "\" />\n";
    out << "  <fyi fps=\"" << fps_text(r.fps) << "\" />\n";
    out << "  <frames>\n";
    for_each_frame(r, [&](std::size_t i) {
        out << "    <frame frameNum=\"" << i << "\" ";
        for (const auto& m : r.metrics)
            if (has_value(m, i)) out << xml_name(m.key) << "=\"" << format_number(*m.values[i], p) << "\" ";
        out << "/>\n";
    });
    out << "  </frames>\n";
    out << "  <pooled_metrics>\n";
    for (const auto& m : r.metrics) {
        out << "    <metric name=\"" << xml_attr(m.key) << "\" ";
        if (const auto pooled = r.pooled(m))
            for (int j = 0; j < 4; ++j)
                out << kPoolNames[j] << "=\"" << format_number(pooled_value(*pooled, j), p)
                    << "\" ";
        out << "/>\n";
    }
    out << "  </pooled_metrics>\n";
    out << "  <aggregate_metrics ";
    for (const auto& [name, value] : r.aggregate)
        out << xml_name(name) << "=\"" << format_number(value, p) << "\" ";
    out << "/>\n";
    out << "</VMAF>\n";
}

// Stock libvmaf's layout, byte for byte, including its quirk of ending a
// null frame value without a newline (still valid JSON). One difference:
// the separator before a frame depends on whether a frame was written
// before, not on the frame number, so the JSON stays valid when frame 0 has
// no values.
void write_json(std::ostream& out, const Results& r, Precision p) {
    out << "{\n";
    out << "  \"version\": \"" << json_string(r.version) << "\",\n";
    out << "  \"fps\": " << (is_finite(r.fps) ? fps_text(r.fps) : "null") << ",\n";
    out << "  \"frames\": [";
    bool first_frame = true;
    for_each_frame(r, [&](std::size_t i) {
        out << (first_frame ? "\n" : ",\n");
        first_frame = false;
        out << "    {\n";
        out << "      \"frameNum\": " << i << ",\n";
        out << "      \"metrics\": {\n";
        std::size_t count = 0;
        for (const auto& m : r.metrics) count += has_value(m, i);
        std::size_t written = 0;
        for (const auto& m : r.metrics) {
            if (!has_value(m, i)) continue;
            ++written;
            const double v = *m.values[i];
            const char* comma = written < count ? "," : "";
            out << "        \"" << json_string(m.key) << "\": ";
            if (is_finite(v))
                out << format_number(v, p) << comma << "\n";
            else
                out << "null" << comma;
        }
        out << "      }\n";
        out << "    }";
    });
    out << "\n  ],\n";
    out << "  \"pooled_metrics\": {";
    for (std::size_t k = 0; k < r.metrics.size(); ++k) {
        const auto& m = r.metrics[k];
        out << (k > 0 ? ",\n" : "\n");
        out << "    \"" << json_string(m.key) << "\": {";
        if (const auto pooled = r.pooled(m))
            for (int j = 0; j < 4; ++j)
                out << (j > 0 ? ",\n" : "\n") << "      \"" << kPoolNames[j]
                    << "\": " << json_number(pooled_value(*pooled, j), p);
        out << "\n";
        out << "    }";
    }
    out << "\n  },\n";
    out << "  \"aggregate_metrics\": {";
    for (std::size_t k = 0; k < r.aggregate.size(); ++k) {
        out << "\n    \"" << json_string(r.aggregate[k].first)
            << "\": " << json_number(r.aggregate[k].second, p);
        out << (k + 1 < r.aggregate.size() ? "," : "");
    }
    out << "\n  }\n";
    out << "}\n";
}

// libvmaf leaves a missing value's cell out, which shifts the later columns;
// we write an empty cell instead so every column keeps its header.
void write_csv(std::ostream& out, const Results& r, Precision p) {
    out << "Frame,";
    for (const auto& m : r.metrics) out << m.key << ",";
    out << "\n";
    for_each_frame(r, [&](std::size_t i) {
        out << i << ",";
        for (const auto& m : r.metrics) {
            if (has_value(m, i)) out << format_number(*m.values[i], p);
            out << ",";
        }
        out << "\n";
    });
}

void write_sub(std::ostream& out, const Results& r, Precision p) {
    for_each_frame(r, [&](std::size_t i) {
        out << "{" << i << "}{" << i + 1 << "}frame: " << i << "|";
        for (const auto& m : r.metrics)
            if (has_value(m, i)) out << m.key << ": " << format_number(*m.values[i], p) << "|";
        out << "\n";
    });
}

}  // namespace

bool is_xml_name(std::string_view s) {
    auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
    if (s.empty() || !letter(s[0])) return false;
    for (char c : s)
        if (!letter(c) && !(c >= '0' && c <= '9') && c != '-' && c != '.') return false;
    return true;
}

OutputFormat parse_output_format(std::string_view name) {
    if (name == "xml") return OutputFormat::xml;
    if (name == "json") return OutputFormat::json;
    if (name == "csv") return OutputFormat::csv;
    if (name == "sub") return OutputFormat::sub;
    throw Error("unknown output format \"" + std::string(name) + "\" (xml, json, csv or sub)");
}

Precision parse_precision(std::string_view text) {
    if (text == "legacy") return Precision::legacy();
    if (text == "max") return Precision::max();
    int digits = 0;
    for (char c : text) {
        if (c < '0' || c > '9' || digits > 100) {
            digits = -1;
            break;
        }
        digits = digits * 10 + (c - '0');
    }
    if (text.empty() || digits < 1 || digits > 17)
        throw Error("precision \"" + std::string(text) + "\": expected legacy, max or 1..17");
    return Precision{digits};
}

std::string format_number(double value, Precision precision) {
    if (precision.digits > 0) return printf_double_g(precision.digits, value);
    return printf_double(leading_fraction_zeros(value) <= 6 ? "%.6f" : "%.16f", value);
}

void write_results(std::ostream& out, const Results& results, OutputFormat format,
                   Precision precision) {
    switch (format) {
        case OutputFormat::xml: write_xml(out, results, precision); break;
        case OutputFormat::json: write_json(out, results, precision); break;
        case OutputFormat::csv: write_csv(out, results, precision); break;
        case OutputFormat::sub: write_sub(out, results, precision); break;
    }
}

std::string render_results(const Results& results, OutputFormat format, Precision precision) {
    std::ostringstream ss;
    write_results(ss, results, format, precision);
    return ss.str();
}

std::string summary_line(const Results& results, std::string_view key) {
    const Results::Metric* m = results.find(key);
    const auto pooled = m ? results.pooled(*m) : std::nullopt;
    if (!pooled) return std::string(key) + ": no pooled value";
    char buf[256];
    std::snprintf(buf, sizeof buf, ": mean %.6f (min %.6f, max %.6f, harmonic_mean %.6f)",
                  pooled->mean, pooled->min, pooled->max, pooled->harmonic_mean);
    return std::string(key) + buf;
}

}  // namespace vmafpp
