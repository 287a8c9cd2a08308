#include "moment/float_moment_kernels.hpp"

namespace vmafpp::float_moment {

double first_moment(const float* p, std::ptrdiff_t stride, int w, int h) {
    double sum = 0.0;
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) sum += p[i * stride + j];
    return sum / (w * h);
}

double second_moment(const float* p, std::ptrdiff_t stride, int w, int h) {
    double sum = 0.0;
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) {
            const float v = p[i * stride + j];
            sum += v * v;
        }
    return sum / (w * h);
}

}  // namespace vmafpp::float_moment
