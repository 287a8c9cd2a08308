#include "io/planar_reader.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "base/sample_range.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp::io {

static_assert(std::endian::native == std::endian::little,
              "files store 9..16-bit samples little-endian and rows are read without swapping");

namespace {

constexpr long long kMaxSide = 32768;
constexpr long long kMaxPixels = 1LL << 28;

}  // namespace

void check_dimensions(const std::string& what, long long width, long long height, int bpc) {
    if (width <= 0 || height <= 0)
        throw Error(what + ": invalid picture size " + std::to_string(width) + "x" +
                    std::to_string(height) + " (width and height must be at least 1)");
    // These limits keep every plane offset inside int32 (kernels index rows
    // with int) and one 16-bit 4:4:4 frame under 1.5 GiB.
    if (width > kMaxSide || height > kMaxSide || width * height > kMaxPixels)
        throw Error(what + ": picture size " + std::to_string(width) + "x" +
                    std::to_string(height) + " is too large (at most 32768 per side and 2^28 pixels)");
    if (bpc < 8 || bpc > 16)
        throw Error(what + ": unsupported bit depth " + std::to_string(bpc) + " (8 to 16 bits)");
}

PlanarReader::PlanarReader(std::unique_ptr<ByteSource> src, VideoInfo info,
                           std::array<PlaneLayout, 3> file_planes, int plane_count)
    : src_(std::move(src)), info_(std::move(info)), file_planes_(file_planes),
      plane_count_(plane_count), bytes_per_sample_(info_.bpc > 8 ? 2 : 1) {}

std::size_t PlanarReader::plane_bytes(int p) const {
    return std::size_t(file_planes_[p].width) * std::size_t(file_planes_[p].height) *
           std::size_t(bytes_per_sample_);
}

std::size_t PlanarReader::frame_bytes() const {
    std::size_t n = 0;
    for (int p = 0; p < plane_count_; ++p) n += plane_bytes(p);
    return n;
}

void PlanarReader::inspect(std::size_t per_frame_extra) {
    const long long left = src_->size_left();
    const std::size_t each = frame_bytes() + per_frame_extra;
    if (left >= 0 && each > 0 && std::size_t(left) % each == 0) {
        info_.frames = (long long)(std::size_t(left) / each);
        frame_extra_ = per_frame_extra;
    }
    // The header's size is only a claim: before anyone allocates pictures of
    // that size (the session's pool, the extractors), the first frame must be
    // there (a 1 KB file saying 16384x16384 would cost gigabytes). A pipe
    // reads it ahead into memory that grows only as bytes arrive.
    if (src_->peek() < 0) return;  // no frames at all: an empty input
    // Only a clear shortfall is reported here; a frame short of its Y4M FRAME
    // line or a few bytes gets read()'s more precise message.
    const std::size_t there = src_->available(each);
    if (there < frame_bytes())
        throw Error(src_->path() + ": frame 0 is truncated: the file ends after " +
                    std::to_string(there > per_frame_extra ? there - per_frame_extra : 0) +
                    " of its " + std::to_string(frame_bytes()) + " bytes (frames count from 0)");
}

std::string PlanarReader::frame_context() const {
    return src_->path() + ": frame " + std::to_string(frames_read_);
}

void PlanarReader::check_read(std::size_t got, std::size_t wanted, std::size_t& frame_offset) const {
    frame_offset += got;
    if (got != wanted)
        throw Error(frame_context() + " is truncated: the file ends after " +
                    std::to_string(frame_offset) + " of its " + std::to_string(frame_bytes()) +
                    " bytes (frames count from 0)");
}

void PlanarReader::read_plane(const PlaneLayout& file, Plane& plane, std::size_t& frame_offset) {
    const std::size_t file_row = std::size_t(file.width) * std::size_t(bytes_per_sample_);
    const std::size_t file_bytes = file_row * std::size_t(file.height);
    const std::size_t rows = std::size_t(plane.height());
    const std::size_t kept_row = std::size_t(plane.width()) * std::size_t(bytes_per_sample_);
    if (kept_row == file_row) {
        // The common case: straight from the file into the plane's rows.
        check_read(src_->read_rows(plane.data(), plane.stride(), file_row, rows),
                   file_row * rows, frame_offset);
    } else {
        // Ceil-sized Y4M chroma of an odd width: each file row has one sample
        // more than the picture keeps.
        scratch_.resize(file_row * rows);
        check_read(src_->read(scratch_.data(), scratch_.size()), scratch_.size(), frame_offset);
        for (std::size_t y = 0; y < rows; ++y)
            std::memcpy(plane.row<std::uint8_t>(int(y)), scratch_.data() + y * file_row, kept_row);
    }
    // Ceil-sized Y4M chroma of an odd height: the last file row is dropped.
    const std::size_t extra = file_bytes - file_row * rows;
    if (extra) check_read(src_->skip(extra), extra, frame_offset);
}

bool PlanarReader::read(Picture& pic) {
    if (!begin_frame()) return false;
    if (unread_) {
        // set_samples_unread: the video's geometry, no planes.
        skip_frame_samples();
        pic = Picture();
        pic.width = info_.width;
        pic.height = info_.height;
        pic.bpc = info_.bpc;
        pic.format = info_.format;
        return true;
    }
    const bool chroma = plane_count_ == 3 && !luma_only_;
    if (pic.width != info_.width || pic.height != info_.height || pic.bpc != info_.bpc ||
        pic.format != info_.format || pic.has_chroma() != chroma) {
        // The header's size is only a claim: a short file must not cost a
        // picture of that size (a 1 KB file saying 16384x16384 would).
        const std::size_t there = src_->available(frame_bytes());
        if (there < frame_bytes()) {
            std::size_t offset = 0;
            check_read(there, frame_bytes(), offset);
        }
        pic = Picture(info_.width, info_.height, info_.bpc, info_.format, chroma);
    }

    std::size_t offset = 0;
    const int filled = chroma ? plane_count_ : 1;
    for (int p = 0; p < filled; ++p) read_plane(file_planes_[p], pic.planes[p], offset);
    // Chroma nobody reads: both planes in one skip, so a regular file seeks
    // once. A file that ends inside them is still reported, with its length.
    std::size_t unread = 0;
    for (int p = filled; p < plane_count_; ++p) unread += plane_bytes(p);
    if (unread) check_read(src_->skip(unread), unread, offset);
    if (info_.bpc > 8 && info_.bpc < 16) check_sample_range(pic);
    ++frames_read_;
    return true;
}

// The samples of a frame whose header begin_frame() read, skipped (one seek
// in a regular file; a file that ends inside them is reported as read()
// would).
void PlanarReader::skip_frame_samples() {
    std::size_t offset = 0;
    check_read(src_->skip(frame_bytes()), frame_bytes(), offset);
    ++frames_read_;
}

// A sample above the declared depth would break the integer kernels' range
// proofs (and means a wrong -b, or big-endian data); it is an input error.
// Only the planes read are checked: chroma skipped for a luma-only run is never
// seen by a kernel, so out-of-range chroma there is not an error.
void PlanarReader::check_sample_range(const Picture& pic) const {
    static constexpr const char* kPlaneNames[] = {"Y", "U", "V"};
    const int planes = pic.has_chroma() ? pic.plane_count() : 1;
    for (int p = 0; p < planes; ++p) {
        if (!samples_fit(pic.planes[p], info_.bpc))
            throw Error(frame_context() + ": plane " + kPlaneNames[p] + " has samples above the " +
                        std::to_string(info_.bpc) + "-bit maximum " +
                        std::to_string((1 << info_.bpc) - 1) +
                        " (wrong bit depth, or big-endian samples?)");
    }
}

unsigned PlanarReader::skip(unsigned n) {
    // A regular file of whole frames (info().frames known, each frame
    // preceded by the same `per_frame_extra` bytes: Y4M's "FRAME\n"): one
    // seek to the byte offset instead of a read per frame, which is what a
    // --frame_range deep into a long file needs. A Y4M whose FRAME lines
    // carry parameters gets here only if its size happens to divide; the
    // next read() then finds no FRAME line and says so.
    if (info_.frames >= 0 && src_->size_left() >= 0 && n > 1) {
        const long long left = info_.frames - (long long)frames_read_;
        const unsigned k = left <= 0 ? 0u : (unsigned)std::min<long long>(n, left);
        const std::size_t bytes = std::size_t(k) * (frame_bytes() + frame_extra_);
        std::size_t offset = 0;
        if (bytes) check_read(src_->skip(bytes), bytes, offset);
        frames_read_ += k;
        return k;
    }
    unsigned i = 0;
    for (; i < n && begin_frame(); ++i) skip_frame_samples();
    return i;
}

}  // namespace vmafpp::io
