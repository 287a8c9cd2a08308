// vmafpp::Error messages stay one line whatever text they quote.
#include <gtest/gtest.h>

#include <string>

#include "vmafpp/error.hpp"
#include "vmafpp/model.hpp"

namespace vmafpp {
namespace {

TEST(Error, ControlCharactersAreEscaped) {
    EXPECT_STREQ(Error("a\nb\r\tc").what(), "a\\nb\\r\\tc");
    EXPECT_STREQ(Error(std::string("x\x01y\x7f", 4)).what(), "x\\x01y\\x7f");
    EXPECT_STREQ(Error("caf\xc3\xa9 ok").what(), "caf\xc3\xa9 ok");  // UTF-8 kept
}

// Found by fuzz_model: a model_type string holding newlines was echoed as is.
TEST(Error, ModelErrorQuotingANewlineIsOneLine) {
    ModelConfig cfg;
    cfg.path = "m.json";
    try {
        Model::parse(R"({"model_dict": {"model_type": "a\nb"}})", cfg, "m.json");
        ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace vmafpp
