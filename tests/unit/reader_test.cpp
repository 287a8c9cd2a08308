#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "support/corpus.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/reader.hpp"

namespace vmafpp {
namespace {

// Re-serialises what the reader returns as a Y4M stream and hashes it: equal
// to the manifest's sha256 of the file only if every sample survived.
std::string reserialised_sha256(const std::string& pair, const std::string& which,
                                unsigned* frames) {
    const auto path = test::clip(pair, which);
    auto reader = open_y4m(path.string());
    const auto out = test::work_dir() / (pair + "_" + which + ".reserialised.y4m");
    std::ofstream os(out, std::ios::binary);
    os << reader->info().header << '\n';
    Picture pic;
    *frames = 0;
    const auto& info = reader->info();
    const int bps = info.bpc > 8 ? 2 : 1;
    while (reader->read(pic)) {
        os << "FRAME\n";
        for (int p = 0; p < pic.plane_count(); ++p) {
            const Plane& pl = pic.planes[p];
            // Y4M chroma is ceil-sized; the picture keeps floor size like
            // libvmaf, so odd-sized 4:2:0 cannot round-trip (checked elsewhere).
            for (int y = 0; y < pl.height(); ++y)
                os.write(reinterpret_cast<const char*>(pl.row<std::uint8_t>(y)),
                         std::streamsize(pl.width()) * bps);
        }
        ++*frames;
    }
    os.close();
    std::string sha;
    test::run_command("sha256sum '" + out.string() + "' | cut -d' ' -f1", &sha);
    std::filesystem::remove(out);
    while (!sha.empty() && (sha.back() == '\n')) sha.pop_back();
    return sha;
}

class CorpusClip : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusClip, FramesHashToManifest) {
    const auto& m = test::manifest_entry(GetParam());
    const int w = m["width"], h = m["height"];
    const bool odd_420 = (w % 2 || h % 2) && m["pix_fmt"].get<std::string>().find("420") != std::string::npos;
    if (odd_420) GTEST_SKIP() << "odd-sized 4:2:0: picture chroma is floor-sized by design";
    for (const char* which : {"ref", "dis"}) {
        unsigned frames = 0;
        EXPECT_EQ(reserialised_sha256(GetParam(), which, &frames),
                  m[std::string(which) + "_sha256"].get<std::string>())
            << which;
        EXPECT_EQ(frames, m["frames"].get<unsigned>());
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusClip, ::testing::ValuesIn(test::corpus_pairs()));

}  // namespace
}  // namespace vmafpp
