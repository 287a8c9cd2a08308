// Comparing two whole scoring runs.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "vmafpp/vmafpp.hpp"

namespace vmafpp::test {

// The same keys, frame count and every value bit for bit (value() compares
// as doubles: a NaN would fail, and no feature writes one).
inline void expect_same_run(const ScoreRun& want, const ScoreRun& got, const std::string& what) {
    ASSERT_EQ(want.values.keys(), got.values.keys()) << what;
    ASSERT_EQ(want.frames, got.frames) << what;
    for (const auto& key : want.values.keys())
        for (unsigned f = 0; f < want.frames; ++f)
            ASSERT_EQ(want.values.value(key, f), got.values.value(key, f))
                << what << ": " << key << " frame " << f;
}

}  // namespace vmafpp::test
