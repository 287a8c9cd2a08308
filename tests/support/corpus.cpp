#include "support/corpus.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace vmafpp::test {

namespace fs = std::filesystem;

fs::path corpus_dir() { return fs::path(VMAFPP_CORPUS_DIR); }
fs::path work_dir() {
    fs::path p(VMAFPP_TEST_WORK_DIR);
    fs::create_directories(p);
    return p;
}

static const nlohmann::json& manifest() {
    static const nlohmann::json m = [] {
        std::ifstream in(corpus_dir() / "manifest.json");
        if (!in) throw std::runtime_error("cannot open corpus manifest.json");
        return nlohmann::json::parse(in);
    }();
    return m;
}

std::vector<std::string> corpus_pairs() {
    std::vector<std::string> out;
    for (const auto& p : manifest()["pairs"]) out.push_back(p["name"].get<std::string>());
    return out;
}

const nlohmann::json& manifest_entry(const std::string& pair) {
    for (const auto& p : manifest()["pairs"])
        if (p["name"] == pair) return p;
    throw std::runtime_error("no pair " + pair + " in manifest");
}

int run_command(const std::string& command, std::string* output) {
    FILE* f = popen((command + " 2>&1").c_str(), "r");
    if (!f) return -1;
    std::string out;
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    const int status = pclose(f);
    if (output) *output = out;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

fs::path clip(const std::string& pair, const std::string& which) {
    static std::mutex mu;
    std::lock_guard<std::mutex> lock(mu);
    const fs::path dst = work_dir() / (pair + "_" + which + ".y4m");
    if (fs::exists(dst)) return dst;
    const fs::path src = corpus_dir() / "clips" / (pair + "_" + which + ".y4m.xz");
    if (!fs::exists(src)) throw std::runtime_error("missing clip " + src.string());
    const fs::path tmp = dst.string() + ".tmp" + std::to_string(getpid());
    std::string out;
    if (run_command("xz -dc '" + src.string() + "' > '" + tmp.string() + "'", &out) != 0)
        throw std::runtime_error("xz failed on " + src.string() + ": " + out);
    fs::rename(tmp, dst);
    return dst;
}

std::string shell_quote(const fs::path& p) {
    std::string s = "'";  // appended, not "'" + ...: GCC 12 warns (-Wrestrict) on that
    s += p.string();
    s += '\'';
    return s;
}

fs::path made_file(const fs::path& dir, const std::string& name, const std::string& make) {
    fs::create_directories(dir);
    const fs::path p = dir / name;
    if (fs::exists(p)) return p;
    const fs::path tmp = dir / (std::to_string(::getpid()) + "." + name);
    std::string out;
    const std::string cmd = "OUT='" + tmp.string() + "'; " + make;
    if (run_command(cmd, &out) != 0) throw std::runtime_error(cmd + "\n" + out);
    fs::rename(tmp, p);
    return p;
}

// A golden that libvmaf did not make for a pair (it failed there, or the run
// was only made for some pairs) is absent, and the tests that need it skip;
// a missing corpus must fail instead, never read as "no golden".
bool has_golden(const std::string& pair, const std::string& file) {
    const fs::path dir = corpus_dir() / "golden" / pair;
    if (!fs::is_directory(dir)) throw std::runtime_error("missing corpus folder " + dir.string());
    if (fs::exists(dir / file)) return true;
    const auto& runs = manifest_entry(pair)["golden_runs"];
    if (runs.contains(file) && runs[file].value("ok", false))
        throw std::runtime_error("missing golden " + (dir / file).string() +
                                 " (manifest.json says libvmaf made it)");
    return false;
}

nlohmann::json golden(const std::string& pair, const std::string& file) {
    std::ifstream in(corpus_dir() / "golden" / pair / file);
    if (!in) throw std::runtime_error("missing golden " + pair + "/" + file);
    return nlohmann::json::parse(in);
}

}  // namespace vmafpp::test
