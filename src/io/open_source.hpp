// Readers over an already opened ByteSource (a file, standard input or a
// memory buffer); the public open_* functions of vmafpp/reader.hpp wrap these.
#pragma once

#include <memory>

#include "io/byte_source.hpp"
#include "vmafpp/reader.hpp"

namespace vmafpp::io {

std::unique_ptr<VideoReader> open_y4m_source(std::unique_ptr<ByteSource> src);
std::unique_ptr<VideoReader> open_raw_source(std::unique_ptr<ByteSource> src, const RawFormat& f);

}  // namespace vmafpp::io
