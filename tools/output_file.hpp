// Where vmafpp's -o goes, checked before the first frame is scored and
// written so that a failure never destroys an existing file.
#pragma once

#include <string>
#include <vector>

namespace vmafpp::cli {

class OutputFile {
public:
    // Checks `path` now: not empty, not a directory, not one of `inputs`
    // (compared by device and inode, so "./r.y4m", links and hard links are
    // caught; "-" is standard input), and its folder writable. A regular file
    // (or a new one) is written to a temporary file in the same folder that
    // commit() renames over it; a device or pipe is written directly. "-" and
    // /dev/stdout are standard output.
    OutputFile(const std::string& path, const std::vector<std::string>& inputs);
    ~OutputFile();  // removes the temporary file unless committed
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    bool is_stdout() const { return stdout_; }
    // Writes `data` and puts it in place; throws vmafpp::Error on any write
    // error (a full disk, a closed pipe), leaving an existing file untouched.
    void commit(const std::string& data);

private:
    std::string path_;      // as given, for messages
    std::string target_;    // the file a rename replaces
    std::string temp_;      // empty when writing directly
    int fd_ = -1;
    bool stdout_ = false;
};

// Writes all of `data` to `fd`; throws vmafpp::Error naming `what` on failure.
void write_all(int fd, const std::string& data, const std::string& what);

}  // namespace vmafpp::cli
