#include "io/planar_reader.hpp"

#include <bit>
#include <cstring>

#include "vmafpp/error.hpp"

namespace vmafpp::io {

static_assert(std::endian::native == std::endian::little,
              "16-bit samples are stored little-endian in files and read with memcpy");

void check_dimensions(const std::string& what, long width, long height, int bpc) {
    // 2^15 per side and 2^28 samples keep every plane offset inside int32 and
    // the allocation of one frame under 1.5 GiB.
    if (width <= 0 || height <= 0)
        throw Error(what + ": invalid picture size " + std::to_string(width) + "x" +
                    std::to_string(height) + " (width and height must be at least 1)");
    if (width > 32768 || height > 32768 || width * height > (1L << 28))
        throw Error(what + ": picture size " + std::to_string(width) + "x" +
                    std::to_string(height) + " is too large (at most 32768 per side, 2^28 pixels)");
    if (bpc < 8 || bpc > 16)
        throw Error(what + ": unsupported bit depth " + std::to_string(bpc) + " (8 to 16 bits)");
}

PlanarReader::PlanarReader(std::unique_ptr<ByteSource> src, VideoInfo info,
                           std::array<PlaneLayout, 3> file_planes, int plane_count)
    : src_(std::move(src)), info_(std::move(info)), file_planes_(file_planes),
      plane_count_(plane_count) {}

std::size_t PlanarReader::frame_bytes() const {
    const std::size_t bps = info_.bpc > 8 ? 2 : 1;
    std::size_t n = 0;
    for (int p = 0; p < plane_count_; ++p)
        n += std::size_t(file_planes_[p].width) * std::size_t(file_planes_[p].height) * bps;
    return n;
}

void PlanarReader::read_exact(void* dst, std::size_t n, std::size_t& frame_offset) {
    const std::size_t got = src_->read(dst, n);
    frame_offset += got;
    if (got != n)
        throw Error(src_->path() + ": frame " + std::to_string(frames_read_) +
                    " is truncated (the file ends after " + std::to_string(frame_offset) +
                    " of its " + std::to_string(frame_bytes()) + " bytes)");
}

bool PlanarReader::read(Picture& pic) {
    if (!begin_frame()) return false;
    if (pic.width != info_.width || pic.height != info_.height || pic.bpc != info_.bpc ||
        pic.format != info_.format)
        pic = Picture(info_.width, info_.height, info_.bpc, info_.format);

    const std::size_t bps = info_.bpc > 8 ? 2 : 1;
    std::size_t offset = 0;
    for (int p = 0; p < plane_count_; ++p) {
        const PlaneLayout& fp = file_planes_[p];
        const std::size_t file_row = std::size_t(fp.width) * bps;
        const bool has_picture_plane = p < pic.plane_count();
        Plane* plane = has_picture_plane ? &pic.planes[p] : nullptr;
        const int rows_kept = plane ? plane->height() : 0;
        const std::size_t kept = plane ? std::size_t(plane->width()) * bps : 0;
        for (int y = 0; y < fp.height; ++y) {
            if (y < rows_kept && kept == file_row) {
                read_exact(plane->row<std::uint8_t>(y), file_row, offset);
                continue;
            }
            row_.resize(file_row);
            read_exact(row_.data(), file_row, offset);
            if (y < rows_kept) std::memcpy(plane->row<std::uint8_t>(y), row_.data(), kept);
        }
    }
    // Samples above the declared bit depth would overflow the integer
    // kernels' proofs of range; mask them as a decoder writing bpc bits would.
    if (info_.bpc > 8 && info_.bpc < 16) {
        const std::uint16_t mask = std::uint16_t((1u << info_.bpc) - 1);
        bool clipped = false;
        for (int p = 0; p < pic.plane_count(); ++p) {
            Plane& pl = pic.planes[p];
            for (int y = 0; y < pl.height(); ++y) {
                std::uint16_t* r = pl.row<std::uint16_t>(y);
                for (int x = 0; x < pl.width(); ++x) clipped |= (r[x] & ~mask) != 0;
            }
        }
        if (clipped)
            throw Error(src_->path() + ": frame " + std::to_string(frames_read_) +
                        " has samples above " + std::to_string(info_.bpc) +
                        "-bit range (wrong -b or endianness?)");
    }
    ++frames_read_;
    return true;
}

}  // namespace vmafpp::io
