// Test access to tests/corpus (VMAFPP_CORPUS_DIR): clip pairs (decompressed on first use into
// the build tree) and libvmaf 3.2.0 golden outputs.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace vmafpp::test {

std::filesystem::path corpus_dir();
std::filesystem::path work_dir();
// The 22 pair names of manifest.json, in order.
std::vector<std::string> corpus_pairs();
// manifest.json's entry of one pair.
const nlohmann::json& manifest_entry(const std::string& pair);
// Decompressed Y4M of "<pair>_<ref|dis>.y4m.xz"; safe to call from several
// test processes at once (written to a temporary name, then renamed).
std::filesystem::path clip(const std::string& pair, const std::string& which);
// golden/<pair>/<file>; file like "default.json".
nlohmann::json golden(const std::string& pair, const std::string& file);
bool has_golden(const std::string& pair, const std::string& file);
// Runs a shell command, returns its exit status; stdout+stderr go to *output.
int run_command(const std::string& command, std::string* output = nullptr);
// `p` in single quotes for a shell command line.
std::string shell_quote(const std::filesystem::path& p);
// dir/name, made once by `make` (a shell command writing to "$OUT"); safe
// from several test processes at once (each writes a private name, then
// renames it into place). Throws with the command's output if it fails.
std::filesystem::path made_file(const std::filesystem::path& dir, const std::string& name,
                                const std::string& make);

}  // namespace vmafpp::test
