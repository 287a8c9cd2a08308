// Shared framing for Y4M and raw YUV: a file frame is up to three planes whose
// sizes may exceed the Picture's (Y4M stores ceil-sized chroma, libvmaf's
// pictures are floor-sized); extra columns and rows are read and dropped.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "io/byte_source.hpp"
#include "vmafpp/reader.hpp"

namespace vmafpp::io {

struct PlaneLayout {
    int width = 0;
    int height = 0;
};

class PlanarReader : public VideoReader {
public:
    PlanarReader(std::unique_ptr<ByteSource> src, VideoInfo info,
                 std::array<PlaneLayout, 3> file_planes, int plane_count);

    const VideoInfo& info() const override { return info_; }
    bool read(Picture& pic) override;

protected:
    // Consumes whatever precedes a frame's samples; false at a clean end of
    // file. Y4M reads its "FRAME" line here.
    virtual bool begin_frame() = 0;

    ByteSource& source() { return *src_; }
    unsigned frames_read() const { return frames_read_; }
    std::size_t frame_bytes() const;

private:
    void read_exact(void* dst, std::size_t n, std::size_t& frame_offset);

    std::unique_ptr<ByteSource> src_;
    VideoInfo info_;
    std::array<PlaneLayout, 3> file_planes_;
    int plane_count_;
    unsigned frames_read_ = 0;
    std::vector<std::uint8_t> row_;
};

void check_dimensions(const std::string& what, long width, long height, int bpc);

}  // namespace vmafpp::io
