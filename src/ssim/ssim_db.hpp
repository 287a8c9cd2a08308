// What float_ssim and float_ms_ssim share besides the kernels: the options
// libvmaf declares in both, and the conversion of a score to dB.
#pragma once

#include <string>
#include <vector>

#include "base/option_table.hpp"

namespace vmafpp::ssim {

// What float_ssim and float_ms_ssim read from their options (float_ssim
// adds scale, its downscaling factor).
struct SsimParams {
    bool enable_lcs;
    bool enable_db;
    bool clip_db;
    int scale;
};

// enable_lcs, enable_db and clip_db as libvmaf declares them (booleans,
// false, no alias, not feature parameters: they never suffix keys).
// `db_help` is the extractor's help text of enable_db.
OptionTable<SsimParams> lcs_db_table(const std::string& db_help);

// The dB ceiling of clip_db: ceil(10 log10(peak^2 / (0.5 / (w h)))), peak =
// 2^bpc - 1 (unsigned arithmetic, as libvmaf's init); +infinity without
// clip_db.
double max_db(bool clip_db, int bpc, int w, int h);

// libvmaf's convert_to_db: MIN(-10 log10(1 - score), max_db), with C's
// MIN (a NaN first argument yields max_db).
double to_db(double score, double max_db);

}  // namespace vmafpp::ssim
