// Writers for libvmaf 3.2.0's output files (XML, JSON, CSV, SUB) and a
// one-line summary per score.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "vmafpp/export.hpp"
#include "vmafpp/results.hpp"

namespace vmafpp {

enum class OutputFormat { xml, json, csv, sub };

// How numbers are printed. legacy: exactly as stock libvmaf 3.2.0 ("%.6f",
// or "%.16f" when a value has more than six zeros after the decimal point);
// otherwise "%.<digits>g" (17 = every bit of a double).
struct Precision {
    int digits = 0;  // 0 = legacy, else 1..17
    static Precision legacy() { return {0}; }
    static Precision max() { return {17}; }
};

// Whether `name` can name an XML attribute as the XML writer needs for every
// key (letters, digits, '_', '-', '.', not starting with a digit, '-' or '.').
VMAFPP_API bool is_xml_name(std::string_view name);

// "xml", "json", "csv", "sub"; throws vmafpp::Error otherwise.
VMAFPP_API OutputFormat parse_output_format(std::string_view name);
// "legacy", "max" or 1..17; throws vmafpp::Error otherwise.
VMAFPP_API Precision parse_precision(std::string_view text);

// One value as the writers print it (no null handling).
VMAFPP_API std::string format_number(double value, Precision precision);

VMAFPP_API void write_results(std::ostream& out, const Results& results, OutputFormat format,
                              Precision precision);
VMAFPP_API std::string render_results(const Results& results, OutputFormat format,
                                      Precision precision);

// "vmaf: mean 96.583061 (min 94.669893, max 100.000000, harmonic_mean 96.560104)"
// for one metric of `results`; "<key>: no pooled value" when it has none.
VMAFPP_API std::string summary_line(const Results& results, std::string_view key);

}  // namespace vmafpp
