// Shared framing for Y4M and raw YUV: a file frame is up to three planes whose
// sizes may exceed the Picture's (Y4M stores ceil-sized chroma, libvmaf's
// pictures are floor-sized); extra columns and rows are read and dropped.
#pragma once

#include <array>
#include <cstdint>
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
    unsigned skip(unsigned n) override;
    void set_luma_only(bool luma_only) override { luma_only_ = luma_only; }
    void set_samples_unread(bool unread) override { unread_ = unread; }

    // Bytes of samples in one file frame (without a Y4M FRAME line).
    std::size_t frame_bytes() const;
    // Called once the header is read, each frame taking frame_bytes() +
    // `per_frame_extra` bytes: sets info().frames when the source's size is
    // known and a whole number of frames, and throws unless the first frame's
    // bytes are there (or the input has no frame at all).
    void inspect(std::size_t per_frame_extra);

protected:
    // Consumes whatever precedes a frame's samples; false at a clean end of
    // file. Y4M reads its "FRAME" line here.
    virtual bool begin_frame() = 0;

    ByteSource& source() { return *src_; }
    unsigned frames_read() const { return frames_read_; }
    // "<path>: frame <n>" for messages about the frame being read.
    std::string frame_context() const;

private:
    void check_read(std::size_t got, std::size_t wanted, std::size_t& frame_offset) const;
    void read_plane(const PlaneLayout& file, Plane& plane, std::size_t& frame_offset);
    void skip_frame_samples();
    std::size_t plane_bytes(int p) const;
    void check_sample_range(const Picture& pic) const;

    std::unique_ptr<ByteSource> src_;
    VideoInfo info_;
    std::array<PlaneLayout, 3> file_planes_;
    int plane_count_;
    int bytes_per_sample_;
    bool luma_only_ = false;
    bool unread_ = false;
    unsigned frames_read_ = 0;
    std::size_t frame_extra_ = 0;  // bytes before each frame when info_.frames is known
    std::vector<std::uint8_t> scratch_;  // only for file rows wider than the picture's
};

// Throws unless 1 <= width, height and the frame fits the limits below; `what`
// (the path) starts the message.
void check_dimensions(const std::string& what, long long width, long long height, int bpc);

}  // namespace vmafpp::io
