// Whole small files (a model, a chunk) read with a size limit, so that a
// device, a pipe or a huge file is refused with one line before any memory is
// spent on it.
#pragma once

#include <cstdint>
#include <string>

namespace vmafpp::detail {

struct FileKind {
    const char* name;         // "model file": the messages' "model file X is ..."
    const char* what;         // "a model": "over the 64 MiB limit for a model"
    std::uint64_t max_bytes;  // a whole number of MiB
};

// The contents of `path`, a regular file of at most kind.max_bytes. Throws
// vmafpp::Error naming the path when it cannot be opened or read, is a
// directory, a device or a pipe, or is larger than the limit.
std::string read_capped_file(const std::string& path, const FileKind& kind);

}  // namespace vmafpp::detail
