// Small generated Y4M / raw YUV files for the reader tests: every sample is a
// known function of (frame, plane, x, y), so a test can check each one.
#pragma once

#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "support/corpus.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/picture.hpp"

namespace vmafpp::test {

struct Geometry {
    int width = 4;
    int height = 2;
    PixelFormat format = PixelFormat::yuv420;
    int bpc = 8;
};

inline int plane_count(PixelFormat f) { return f == PixelFormat::yuv400 ? 1 : 3; }

// Plane size as a file stores it: Y4M rounds chroma up, raw YUV (libvmaf's
// convention) rounds it down.
inline std::pair<int, int> file_plane_size(const Geometry& g, int plane, bool ceil_chroma) {
    if (plane == 0) return {g.width, g.height};
    const ChromaShift s = chroma_shift(g.format);
    if (ceil_chroma) return {(g.width + s.x) >> s.x, (g.height + s.y) >> s.y};
    return {g.width >> s.x, g.height >> s.y};
}

// Covers the whole bpc range, top value included, and differs per position.
inline unsigned sample_value(const Geometry& g, int frame, int plane, int x, int y) {
    const unsigned top = (1u << g.bpc) - 1;
    const unsigned v = unsigned(frame * 131 + plane * 71 + x * 13 + y * 29);
    return (x + y + frame) % 7 == 0 ? top : v % (top + 1);
}

inline std::string frame_payload(const Geometry& g, int frame, bool ceil_chroma) {
    std::string out;
    for (int p = 0; p < plane_count(g.format); ++p) {
        const auto [w, h] = file_plane_size(g, p, ceil_chroma);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const unsigned v = sample_value(g, frame, p, x, y);
                out.push_back(char(v & 0xff));
                if (g.bpc > 8) out.push_back(char(v >> 8));
            }
    }
    return out;
}

inline std::string y4m_tag(const Geometry& g) {
    const char* base = g.format == PixelFormat::yuv420   ? "420"
                       : g.format == PixelFormat::yuv422 ? "422"
                       : g.format == PixelFormat::yuv444 ? "444"
                                                         : "mono";
    if (g.bpc == 8) return std::string("C") + base;
    return std::string("C") + base + (g.format == PixelFormat::yuv400 ? "" : "p") +
           std::to_string(g.bpc);
}

inline std::string y4m_header(const Geometry& g, const std::string& tag) {
    return "YUV4MPEG2 W" + std::to_string(g.width) + " H" + std::to_string(g.height) +
           " F25:1 Ip A1:1 " + tag + "\n";
}

inline std::string y4m_file(const Geometry& g, int frames, const std::string& tag) {
    std::string out = y4m_header(g, tag);
    for (int f = 0; f < frames; ++f) out += "FRAME\n" + frame_payload(g, f, true);
    return out;
}
inline std::string y4m_file(const Geometry& g, int frames) { return y4m_file(g, frames, y4m_tag(g)); }

inline std::string raw_file(const Geometry& g, int frames) {
    std::string out;
    for (int f = 0; f < frames; ++f) out += frame_payload(g, f, false);
    return out;
}

// Writes `bytes` to <work dir>/reader/<name> and returns the path. ctest runs
// test processes in parallel and several write the same name, so the file is
// written under a private name and renamed into place (atomic).
inline std::string write_file(const std::string& name, const std::string& bytes) {
    const auto dir = work_dir() / "reader";
    std::filesystem::create_directories(dir);
    const auto path = dir / name;
    const auto tmp = dir / (name + ".tmp" + std::to_string(::getpid()));
    std::ofstream(tmp, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
    std::filesystem::rename(tmp, path);
    return path.string();
}

// Every sample of `pic` equals the generated frame (chroma floor-sized).
inline ::testing::AssertionResult picture_matches(const Picture& pic, const Geometry& g, int frame) {
    if (pic.width != g.width || pic.height != g.height || pic.bpc != g.bpc || pic.format != g.format)
        return ::testing::AssertionFailure() << "geometry differs";
    for (int p = 0; p < plane_count(g.format); ++p) {
        const Plane& pl = pic.planes[p];
        const auto [w, h] = file_plane_size(g, p, false);
        if (pl.width() != w || pl.height() != h)
            return ::testing::AssertionFailure() << "plane " << p << " is " << pl.width() << "x"
                                                 << pl.height() << ", expected " << w << "x" << h;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const unsigned got = g.bpc > 8 ? pl.row<std::uint16_t>(y)[x] : pl.row<std::uint8_t>(y)[x];
                const unsigned want = sample_value(g, frame, p, x, y);
                if (got != want)
                    return ::testing::AssertionFailure() << "frame " << frame << " plane " << p << " ("
                                                         << x << "," << y << "): " << got
                                                         << " != " << want;
            }
    }
    return ::testing::AssertionSuccess();
}

// `f` must throw vmafpp::Error whose message is one line naming `path` and
// containing `problem`.
inline ::testing::AssertionResult throws_error(const std::function<void()>& f, const std::string& path,
                                               const std::string& problem) {
    try {
        f();
    } catch (const Error& e) {
        const std::string m = e.what();
        if (m.find('\n') != std::string::npos || m.find('\r') != std::string::npos)
            return ::testing::AssertionFailure() << "message has a line break: " << m;
        if (m.find(path) == std::string::npos)
            return ::testing::AssertionFailure() << "message lacks the path: " << m;
        if (m.find(problem) == std::string::npos)
            return ::testing::AssertionFailure() << "message lacks \"" << problem << "\": " << m;
        return ::testing::AssertionSuccess() << m;
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure() << "not a vmafpp::Error: " << e.what();
    }
    return ::testing::AssertionFailure() << "no exception";
}

}  // namespace vmafpp::test
