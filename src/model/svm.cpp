#include "model/svm.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "vmafpp/error.hpp"

namespace vmafpp::detail {

namespace {

std::vector<std::string_view> split_ws(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        std::size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
        if (j > i) out.push_back(line.substr(i, j - i));
        i = j;
    }
    return out;
}

// libvmaf reads these with `istream >> double`, which libstdc++ hands to
// strtod: correctly rounded, like from_chars.
double to_number(std::string_view tok, const std::string& context, const char* what) {
    if (!tok.empty() && tok.front() == '+') tok.remove_prefix(1);
    double v = 0.0;
    const auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (ec != std::errc() || end != tok.data() + tok.size())
        throw Error(context + ": bad " + what + " \"" + std::string(tok) + "\" in the SVM model");
    if (!std::isfinite(v))
        throw Error(context + ": non-finite " + what + " in the SVM model");
    return v;
}

long to_integer(std::string_view tok, const std::string& context, const char* what) {
    long v = 0;
    const auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (ec != std::errc() || end != tok.data() + tok.size())
        throw Error(context + ": bad " + what + " \"" + std::string(tok) + "\" in the SVM model");
    return v;
}

}  // namespace

SvrModel SvrModel::parse(std::string_view text, const std::string& context) {
    std::vector<std::string_view> lines;
    for (std::size_t pos = 0; pos <= text.size();) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        lines.push_back(text.substr(pos, nl - pos));
        pos = nl + 1;
    }

    SvrModel m;
    bool have_type = false, have_kernel = false, have_gamma = false, have_rho = false;
    long total_sv = -1;
    std::size_t li = 0;
    for (; li < lines.size(); ++li) {
        const auto tok = split_ws(lines[li]);
        if (tok.empty()) continue;
        const std::string_view key = tok[0];
        if (key == "SV") break;
        if (tok.size() < 2)
            throw Error(context + ": SVM model header \"" + std::string(key) + "\" has no value");
        if (key == "svm_type") {
            // Both regression types share libsvm's decision function.
            if (tok[1] != "nu_svr" && tok[1] != "epsilon_svr")
                throw Error(context + ": unsupported svm_type \"" + std::string(tok[1]) +
                            "\" (only nu_svr and epsilon_svr)");
            have_type = true;
        } else if (key == "kernel_type") {
            if (tok[1] != "rbf")
                throw Error(context + ": unsupported kernel_type \"" + std::string(tok[1]) +
                            "\" (only rbf)");
            have_kernel = true;
        } else if (key == "gamma") {
            m.gamma_ = to_number(tok[1], context, "gamma");
            have_gamma = true;
        } else if (key == "nr_class") {
            if (to_integer(tok[1], context, "nr_class") != 2)
                throw Error(context + ": a regression SVM model must have nr_class 2");
        } else if (key == "total_sv") {
            total_sv = to_integer(tok[1], context, "total_sv");
            if (total_sv < 1) throw Error(context + ": SVM model has no support vectors");
        } else if (key == "rho") {
            m.rho_ = to_number(tok[1], context, "rho");
            have_rho = true;
        } else if (key == "degree" || key == "coef0" || key == "label" || key == "probA" ||
                   key == "probB" || key == "nr_sv") {
            // Not used by an RBF regressor's prediction.
        } else {
            throw Error(context + ": unknown SVM model header \"" + std::string(key) + "\"");
        }
    }
    if (li == lines.size()) throw Error(context + ": SVM model has no \"SV\" section");
    if (!have_type || !have_kernel || !have_gamma || !have_rho || total_sv < 0)
        throw Error(context +
                    ": SVM model header lacks one of svm_type, kernel_type, gamma, total_sv, rho");
    ++li;

    std::vector<std::vector<std::pair<long, double>>> svs;
    for (; li < lines.size() && static_cast<long>(svs.size()) < total_sv; ++li) {
        const auto tok = split_ws(lines[li]);
        if (tok.empty()) continue;
        m.coef_.push_back(to_number(tok[0], context, "SV coefficient"));
        std::vector<std::pair<long, double>> sv;
        long last = 0;
        for (std::size_t t = 1; t < tok.size(); ++t) {
            const auto colon = tok[t].find(':');
            if (colon == std::string_view::npos)
                throw Error(context + ": bad support vector entry \"" + std::string(tok[t]) + "\"");
            const long index = to_integer(tok[t].substr(0, colon), context, "SV index");
            // The dense layout below equals libsvm's sorted merge only for
            // strictly increasing indices, which libsvm itself assumes.
            if (index <= last || index > 4096)
                throw Error(context + ": support vector indices must increase from 1");
            last = index;
            sv.emplace_back(index, to_number(tok[t].substr(colon + 1), context, "SV value"));
        }
        m.dim_ = std::max(m.dim_, static_cast<std::size_t>(last));
        svs.push_back(std::move(sv));
    }
    if (static_cast<long>(svs.size()) != total_sv)
        throw Error(context + ": SVM model lists " + std::to_string(svs.size()) +
                    " support vectors, total_sv says " + std::to_string(total_sv));

    m.sv_.assign(svs.size() * m.dim_, 0.0);
    for (std::size_t i = 0; i < svs.size(); ++i)
        for (const auto& [index, value] : svs[i])
            m.sv_[i * m.dim_ + static_cast<std::size_t>(index - 1)] = value;
    return m;
}

// libsvm's RBF kernel walks x and the support vector as sorted sparse lists:
// matching indices add (x - y)^2, an index only one side has adds that
// value squared, summed in increasing index order. With the absent side
// stored as 0 every term has the same bits: (x - 0)^2 == x*x,
// (0 - y)^2 == y*y, and an index absent from both adds +0, which leaves the
// (non-negative) sum unchanged. So this dense loop is bit-identical.
double SvrModel::predict(std::span<const double> x) const {
    const std::size_t n = std::max(x.size(), dim_);
    double sum = 0.0;  // sum of coef * K(x, sv) over SVs in file order
    for (std::size_t i = 0; i < coef_.size(); ++i) {
        const double* sv = sv_.data() + i * dim_;
        double dist2 = 0.0;
        for (std::size_t k = 0; k < n; ++k) {
            const double xv = k < x.size() ? x[k] : 0.0;
            const double yv = k < dim_ ? sv[k] : 0.0;
            const double d = xv - yv;
            dist2 += d * d;
        }
        sum += coef_[i] * std::exp(-gamma_ * dist2);
    }
    sum -= rho_;
    return sum;
}

}  // namespace vmafpp::detail
