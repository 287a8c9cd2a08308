// Comparing two whole scoring runs.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/corpus.hpp"

#include "vmafpp/vmafpp.hpp"
#include "vmafpp/feature.hpp"

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

// Extractors of one run may share work (FeatureExtractor::meet): every
// feature of `features` scored together on the corpus pair writes, at each
// thread count, what it writes scored alone.
inline void expect_alone_as_together(const std::string& pair,
                                     const std::vector<std::string>& features) {
    auto run = [&](const std::vector<std::string>& f, unsigned threads) {
        auto ref = open_video(clip(pair, "ref").string());
        auto dis = open_video(clip(pair, "dis").string());
        ScoreConfig cfg;
        cfg.no_prediction = true;
        cfg.threads = threads;
        cfg.features = f;
        return score(*ref, *dis, cfg);
    };
    for (unsigned threads : {0u, 2u}) {
        const ScoreRun together = run(features, threads);
        for (const std::string& f : features) {
            const ScoreRun alone = run({f}, threads);
            ASSERT_FALSE(alone.values.keys().empty()) << f;
            for (const auto& key : alone.values.keys())
                for (unsigned n = 0; n < alone.frames; ++n)
                    ASSERT_EQ(alone.values.value(key, n), together.values.value(key, n))
                        << f << ": " << key << " frame " << n << ", " << threads << " threads";
        }
    }
}

}  // namespace vmafpp::test
