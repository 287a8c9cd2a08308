// A nu-SVR / epsilon-SVR regressor with an RBF kernel, read from the libsvm
// model text that libvmaf's JSON models embed.
//
// Our own rather than Debian's libsvm (3.24): that library only loads models
// from a file path, so every model string would go through a temporary file,
// and the prediction is a dozen lines. Its arithmetic is the same as ours and
// libvmaf's (same kernel order, glibc exp, double sums): on every frame of
// the corpus' default.json goldens (320 frames x the v0.6.1, 4k and neg
// models) both gave bit-identical predictions.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vmafpp::detail {

class SvrModel {
public:
    // Throws vmafpp::Error("<context>: ...") when the text is not an RBF
    // regression model or holds a non-finite number.
    static SvrModel parse(std::string_view text, const std::string& context);

    // Decision value for one feature vector x (x[0] is libsvm index 1).
    // Bit-identical to libsvm's svm_predict() for regression models.
    double predict(std::span<const double> x) const;

    // Highest feature index a support vector uses.
    std::size_t max_index() const { return dim_; }
    std::size_t support_vector_count() const { return coef_.size(); }

private:
    double gamma_ = 0.0;
    double rho_ = 0.0;
    std::size_t dim_ = 0;
    std::vector<double> coef_;
    // Support vectors stored densely, dim_ values each; an index the model
    // text leaves out is 0 (see predict() for why that keeps libsvm's bits).
    std::vector<double> sv_;
};

}  // namespace vmafpp::detail
