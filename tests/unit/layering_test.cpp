// HACKING.md's layering rules, checked on the sources: every quoted include
// of a file under src/ names a folder its own folder may see, features use
// only the plug-in part of the public headers, and the ISA files
// (vmafpp_isa_sources) include no standard-library template header. A new
// arrow between folders means editing the table here and the rule in
// HACKING.md together.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kSrc = fs::path(VMAFPP_SOURCE_DIR) / "src";

// The feature folders: one metric family each (HACKING.md, "Names and
// places"): an integer extractor and its float twin share one.
const std::set<std::string> kFeatures = {"adm",   "ansnr", "cambi",    "ciede", "moment", "motion",
                                         "psnr",  "psnr_hvs", "speed", "ssim",  "vif"};
// The device backends: each implements the twins its features declare.
const std::set<std::string> kBackends = {"vulkan", "cuda"};

// What a feature folder sees besides base/, dispatch/, device/ and csf/: the
// families whose kernels it reuses (float_motion, in motion/, and speed
// filter with float_vif's kernels; ansnr's noise term is psnr's float
// kernel).
const std::map<std::string, std::set<std::string>> kFeatureUses = {
    {"motion", {"vif"}},
    {"speed", {"vif"}},
    {"ansnr", {"psnr"}},
};

// The folders `folder` may include from (its own always).
std::set<std::string> allowed(const std::string& folder) {
    static const std::set<std::string> kFeatureFloor = {"base", "dispatch", "device", "csf"};
    if (kFeatures.count(folder)) {
        std::set<std::string> out = kFeatureFloor;
        if (auto it = kFeatureUses.find(folder); it != kFeatureUses.end())
            out.insert(it->second.begin(), it->second.end());
        return out;
    }
    if (kBackends.count(folder)) {
        // A backend implements its features' twins: their *_twin.hpp, the
        // shared arithmetic and parameter headers.
        std::set<std::string> out = {"base", "dispatch", "device"};
        out.insert(kFeatures.begin(), kFeatures.end());
        return out;
    }
    static const std::map<std::string, std::set<std::string>> kFloors = {
        {"base", {}},
        {"dispatch", {"base"}},
        {"device", {"base", "dispatch"}},
        {"csf", {"base"}},
        {"io", {"base"}},
        {"model", {"base"}},
        {"output", {"base"}},
        // The CLI's report: statistics and the HTML page over results.
        {"report", {"base"}},
        // The engine reaches features through the registry (feature_list.hpp
        // declares their FeatureInfo factories) and backends through
        // device/backend.hpp: never their folders.
        {"engine", {"base", "dispatch", "device", "io", "model", "output"}},
    };
    auto it = kFloors.find(folder);
    return it == kFloors.end() ? std::set<std::string>{} : it->second;
}

// The public headers a feature or backend may include: the plug-in
// interface and what it is made of.
const std::set<std::string> kPluginHeaders = {"feature.hpp", "error.hpp",   "options.hpp",
                                              "picture.hpp", "cpu.hpp",     "compute.hpp",
                                              "export.hpp"};

struct Include {
    std::string target;  // as written
    bool system;         // <...>
    int line;
};

std::vector<Include> includes_of(const fs::path& file) {
    static const std::regex kInclude(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
    std::vector<Include> out;
    std::ifstream in(file);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        std::smatch m;
        if (std::regex_search(line, m, kInclude)) out.push_back({m[2], m[1] == "<", n});
    }
    return out;
}

bool is_source(const fs::path& p) {
    static const std::set<std::string> kExt = {".cpp", ".hpp", ".cu", ".cuh", ".h"};
    return kExt.count(p.extension().string()) > 0;
}

std::vector<fs::path> sources_under(const fs::path& dir) {
    std::vector<fs::path> out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file() && is_source(e.path())) out.push_back(e.path());
    return out;
}

// The top folder under src/ of a file.
std::string folder_of(const fs::path& file) {
    return fs::relative(file, kSrc).begin()->string();
}

TEST(Layering, EveryFolderIsInTheTable) {
    for (const auto& e : fs::directory_iterator(kSrc)) {
        if (!e.is_directory()) continue;
        const std::string f = e.path().filename().string();
        const bool known = kFeatures.count(f) || kBackends.count(f) || f == "base" ||
                           !allowed(f).empty();
        EXPECT_TRUE(known) << "src/" << f
                           << " has no floor in tests/unit/layering_test.cpp (and HACKING.md)";
    }
}

TEST(Layering, IncludesPointOnlyDownward) {
    int checked = 0;
    for (const fs::path& file : sources_under(kSrc)) {
        const std::string folder = folder_of(file);
        const std::set<std::string> ok = allowed(folder);
        for (const Include& inc : includes_of(file)) {
            if (inc.system) continue;
            // "../device/x.h" (a header GLSL reads too) names src/device/.
            const std::string target =
                inc.target.rfind("../", 0) == 0 ? inc.target.substr(3) : inc.target;
            const auto slash = target.find('/');
            if (slash == std::string::npos) continue;  // beside the file
            const std::string to = target.substr(0, slash);
            const std::string where =
                fs::relative(file, kSrc).string() + ":" + std::to_string(inc.line) + " includes " +
                inc.target;
            ++checked;
            if (to == folder) continue;
            if (to == "vmafpp") {
                const bool plugin = kFeatures.count(folder) || kBackends.count(folder);
                EXPECT_TRUE(!plugin || kPluginHeaders.count(target.substr(slash + 1)))
                    << where << ": a feature or backend sees only the plug-in headers";
                continue;
            }
            EXPECT_TRUE(ok.count(to)) << where << ": src/" << folder << " may not see src/" << to;
        }
    }
    EXPECT_GT(checked, 300);
}

// The files of every vmafpp_isa_sources(<level> a.cpp ...) call.
std::vector<fs::path> isa_files() {
    static const std::regex kCall(R"(vmafpp_isa_sources\(\s*(\w+)([^)]*)\))");
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(kSrc)) {
        const fs::path cmake = e.path() / "CMakeLists.txt";
        if (!fs::exists(cmake)) continue;
        std::ifstream in(cmake);
        std::stringstream text;
        text << in.rdbuf();
        const std::string s = text.str();
        for (std::sregex_iterator it(s.begin(), s.end(), kCall), end; it != end; ++it) {
            std::istringstream files((*it)[2].str());
            std::string f;
            while (files >> f) out.push_back(e.path() / f);
        }
    }
    return out;
}

// An ISA file is compiled with its level's -m flags; a standard-library
// template it instantiates may be the out-of-line copy the linker keeps for
// baseline callers too (HACKING.md, "Adding a feature extractor"). So an ISA
// file includes only C headers, intrinsics and <limits> (constexpr only);
// the kernel headers it includes may declare types with templates, which it
// must not instantiate (a review rule: an include scan cannot see uses).
TEST(Layering, IsaFilesIncludeNoTemplateHeaders) {
    static const std::set<std::string> kAllowed = {
        "immintrin.h", "arm_neon.h", "cstdint", "cstddef",  "cstring", "cstdlib", "cmath",
        "math.h",      "climits",    "cfloat",  "limits",   "stdint.h", "cassert"};
    const std::vector<fs::path> files = isa_files();
    EXPECT_GE(files.size(), 15u);
    for (const fs::path& isa : files) {
        ASSERT_TRUE(fs::exists(isa)) << isa;
        for (const Include& inc : includes_of(isa)) {
            if (!inc.system) continue;
            EXPECT_TRUE(kAllowed.count(inc.target)) << fs::relative(isa, kSrc).string() << ":"
                                                    << inc.line << " includes <" << inc.target
                                                    << ">";
        }
    }
}

}  // namespace
