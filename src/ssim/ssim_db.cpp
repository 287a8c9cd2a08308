#include "ssim/ssim_db.hpp"

#include <cmath>
#include <limits>

#include "base/c_macros.hpp"

namespace vmafpp::ssim {

OptionTable<SsimParams> lcs_db_table(const std::string& db_help) {
    using T = OptionType;
    OptionTable<SsimParams> t;
    t.add({"enable_lcs", "", T::boolean, 0.0, 0.0, 1.0, false,
           "enable luminance, contrast and structure intermediate output"},
          &SsimParams::enable_lcs)
        .add({"enable_db", "", T::boolean, 0.0, 0.0, 1.0, false, db_help}, &SsimParams::enable_db)
        .add({"clip_db", "", T::boolean, 0.0, 0.0, 1.0, false, "clip dB scores"},
             &SsimParams::clip_db);
    return t;
}

double max_db(bool clip_db, int bpc, int w, int h) {
    if (!clip_db) return std::numeric_limits<double>::infinity();
    const unsigned peak = (1u << bpc) - 1u;
    const unsigned samples = static_cast<unsigned>(w) * static_cast<unsigned>(h);
    const double mse = 0.5 / samples;
    return std::ceil(10.0 * std::log10(static_cast<double>(peak * peak) / mse));
}

double to_db(double score, double max_db) { return c_min(-10.0 * std::log10(1.0 - score), max_db); }

}  // namespace vmafpp::ssim
