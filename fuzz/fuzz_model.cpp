// The model JSON loader on arbitrary text. Model::parse must either refuse
// with a one-line vmafpp::Error (malformed JSON, missing or mistyped fields,
// non-finite numbers, inconsistent sizes) or give a model whose prediction on
// a few feature vectors is not NaN and never crashes.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "vmafpp/error.hpp"
#include "vmafpp/model.hpp"

using namespace vmafpp;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    ModelConfig cfg;
    cfg.path = "fuzz.json";
    try {
        const Model m = Model::parse(text, cfg, "fuzz.json");
        const std::size_t n = m.features().size();
        for (double x : {0.0, 0.5, 1.0, 1e6}) {
            const std::vector<double> values(n, x);
            for (const auto& out : m.predict(values))
                if (std::isnan(out.value)) std::abort();
        }
    } catch (const Error& e) {
        const std::string msg = e.what();
        if (msg.empty() || msg.find('\n') != std::string::npos) std::abort();
    }
    return 0;
}
