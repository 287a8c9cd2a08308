#include "io/ffmpeg_reader.hpp"
#include "io/ffmpeg_api.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/byte_source.hpp"
#include "io/planar_reader.hpp"
#include "vmafpp/error.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

namespace vmafpp::io {
namespace {

std::string av_error_text(int err) {
    char buf[AV_ERROR_MAX_STRING_SIZE] = {};
    av().av_strerror(err, buf, sizeof buf);
    return buf;
}

// The input's bytes as FFmpeg reads them: from the descriptor vmafpp opened,
// through an AVIOContext, never by name. FFmpeg therefore parses no protocol
// out of the name ("file:x", "concat:a|b", "http:host:port" are file names
// here), and a pipe or fifo, whose first bytes were read to recognise the
// format, is read once: those bytes first, then the descriptor, with no
// seeking. A regular file is read with pread() from where the handed-over
// source stood, so every demuxer opened on it (the seek planner opens a
// second one) has its own position.
class InputBytes {
public:
    InputBytes(std::string path, ByteSource::Handover h) : path_(std::move(path)), in_(std::move(h)) {
        if (in_.seekable) {
            const off_t at = ::lseek(in_.fd, 0, SEEK_CUR);
            base_ = at < 0 ? 0 : std::int64_t(at) - std::int64_t(in_.unread.size());
            struct stat st {};  // not lseek(SEEK_END): the offset may be shared (standard input)
            size_ = ::fstat(in_.fd, &st) != 0 ? -1 : std::int64_t(st.st_size) - base_;
        }
    }
    ~InputBytes() {
        if (in_.owns_fd) ::close(in_.fd);
    }
    InputBytes(const InputBytes&) = delete;
    InputBytes& operator=(const InputBytes&) = delete;

    bool seekable() const { return in_.seekable; }
    const std::string& path() const { return path_; }

    // A reading position of its own for one AVIOContext (opaque pointer).
    struct Cursor {
        InputBytes* in = nullptr;
        std::int64_t pos = 0;
    };
    // A pipe has one reader; a second one would find its bytes gone.
    std::unique_ptr<Cursor> cursor() {
        if (!in_.seekable && pipe_taken_)
            throw Error(path_ + ": a pipe or fifo can be read only once");
        pipe_taken_ = !in_.seekable;
        return std::make_unique<Cursor>(Cursor{this, 0});
    }

    static int read_packet(void* opaque, std::uint8_t* buf, int size) {
        auto* c = static_cast<Cursor*>(opaque);
        const int n = c->in->read_at(c->pos, buf, size);
        if (n > 0) c->pos += n;
        return n;
    }
    static std::int64_t seek(void* opaque, std::int64_t offset, int whence) {
        auto* c = static_cast<Cursor*>(opaque);
        const std::int64_t size = c->in->size_;
        if (whence & AVSEEK_SIZE) return size >= 0 ? size : AVERROR(ENOSYS);
        whence &= ~AVSEEK_FORCE;
        std::int64_t to = offset;
        if (whence == SEEK_CUR) to = c->pos + offset;
        else if (whence == SEEK_END) to = size >= 0 ? size + offset : -1;
        else if (whence != SEEK_SET) return AVERROR(EINVAL);
        if (to < 0) return AVERROR(EINVAL);
        c->pos = to;
        return to;
    }

private:
    // Up to `size` bytes at `pos`; 0 bytes is AVERROR_EOF, as FFmpeg wants.
    int read_at(std::int64_t pos, std::uint8_t* buf, int size) {
        for (;;) {
            ssize_t k;
            if (in_.seekable) {
                k = ::pread(in_.fd, buf, std::size_t(size), off_t(base_ + pos));
            } else if (std::size_t(pos) < in_.unread.size()) {
                k = ssize_t(std::min<std::size_t>(std::size_t(size), in_.unread.size() - std::size_t(pos)));
                std::memcpy(buf, in_.unread.data() + pos, std::size_t(k));
            } else {
                k = ::read(in_.fd, buf, std::size_t(size));
            }
            if (k > 0) return int(k);
            if (k == 0) return AVERROR_EOF;
            if (errno != EINTR) return AVERROR(errno);
        }
    }

    std::string path_;
    ByteSource::Handover in_;
    std::int64_t base_ = 0;   // a regular file's offset of byte 0 for FFmpeg
    std::int64_t size_ = -1;  // bytes from base_ to the end; -1 for a pipe
    bool pipe_taken_ = false;
};

// Nested opens (a playlist's segments, a concat script's files, an MP4's
// external data references) would reach other files or the network:
// vmafpp reads the one file it was given. Refused twice: through the
// context's io_open, and by an empty protocol whitelist for demuxers that
// open a nested context of their own.
int refuse_nested_open(AVFormatContext*, AVIOContext**, const char*, int, AVDictionary**) {
    return AVERROR(EPERM);
}

// One demuxer over the input: the AVFormatContext and the AVIOContext it
// reads (FFmpeg closes neither the custom context nor its buffer).
class Demuxer {
public:
    Demuxer(InputBytes& input, const std::string& path) : cursor_(input.cursor()) {
        constexpr int kBuffer = 1 << 16;
        auto* buffer = static_cast<std::uint8_t*>(av().av_malloc(kBuffer));
        if (!buffer) throw Error(path + ": out of memory");
        pb_ = av().avio_alloc_context(buffer, kBuffer, 0, cursor_.get(), &InputBytes::read_packet,
                                      nullptr, input.seekable() ? &InputBytes::seek : nullptr);
        if (!pb_) {
            av().av_free(buffer);
            throw Error(path + ": out of memory");
        }
        fmt_ = av().avformat_alloc_context();
        if (!fmt_) throw Error(path + ": out of memory");
        fmt_->pb = pb_;
        fmt_->io_open = &refuse_nested_open;
        // Demuxers that open nested inputs themselves (concat's own
        // avformat_open_input) inherit this list: no protocol is on it.
        fmt_->protocol_whitelist = av().av_strdup("none");
        if (!fmt_->protocol_whitelist) throw Error(path + ": out of memory");
    }
    ~Demuxer() {
        if (fmt_) av().avformat_close_input(&fmt_);
        if (pb_) {
            av().av_free(pb_->buffer);
            av().avio_context_free(&pb_);
        }
    }
    Demuxer(const Demuxer&) = delete;
    Demuxer& operator=(const Demuxer&) = delete;

    // avformat_open_input on the context; the name only names it (and its
    // extension helps the probe). On failure FFmpeg has freed the context.
    int open(const std::string& path) {
        const int err = av().avformat_open_input(&fmt_, path.c_str(), nullptr, nullptr);
        if (err < 0) fmt_ = nullptr;
        return err;
    }
    AVFormatContext* get() const { return fmt_; }
    AVFormatContext* operator->() const { return fmt_; }

private:
    std::unique_ptr<InputBytes::Cursor> cursor_;
    AVIOContext* pb_ = nullptr;
    AVFormatContext* fmt_ = nullptr;
};

struct CodecCloser {
    void operator()(AVCodecContext* c) const { av().avcodec_free_context(&c); }
};
struct FrameFree {
    void operator()(AVFrame* f) const { av().av_frame_free(&f); }
};
struct PacketFree {
    void operator()(AVPacket* p) const { av().av_packet_free(&p); }
};
struct SwsFree {
    void operator()(SwsContext* s) const { av().sws_freeContext(s); }
};
using FramePtr = std::unique_ptr<AVFrame, FrameFree>;

// The scorer's layout of a decoded pixel format, if it reads it as is.
struct Layout {
    PixelFormat format = PixelFormat::yuv420;
    int bpc = 8;
};

bool direct_layout(AVPixelFormat f, Layout& out) {
    const AVPixFmtDescriptor* d = av().av_pix_fmt_desc_get(f);
    if (!d) return false;
    const unsigned bad = AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM |
                         AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_ALPHA |
                         AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_BAYER;
    if ((d->flags & bad) || (!(d->flags & AV_PIX_FMT_FLAG_PLANAR) && d->nb_components != 1)) return false;
    const int depth = d->comp[0].depth;
    if (depth < 8 || depth > 16) return false;
    // Each component in its own plane, samples in the low bits of 1 or 2 bytes.
    for (int c = 0; c < d->nb_components; ++c)
        if (d->comp[c].plane != c || d->comp[c].shift != 0 || d->comp[c].depth != depth ||
            d->comp[c].step != (depth > 8 ? 2 : 1))
            return false;
    if (d->nb_components == 1) {
        out = {PixelFormat::yuv400, depth};
        return true;
    }
    if (d->nb_components != 3) return false;
    if (d->log2_chroma_w == 1 && d->log2_chroma_h == 1) out = {PixelFormat::yuv420, depth};
    else if (d->log2_chroma_w == 1 && d->log2_chroma_h == 0) out = {PixelFormat::yuv422, depth};
    else if (d->log2_chroma_w == 0 && d->log2_chroma_h == 0) out = {PixelFormat::yuv444, depth};
    else return false;
    return true;
}

// The planar format a frame of `f` is converted to when the scorer cannot
// read `f` itself: same subsampling, same depth rounded up to 8/10/12/16.
AVPixelFormat planar_target(AVPixelFormat f, Layout& out) {
    const AVPixFmtDescriptor* d = av().av_pix_fmt_desc_get(f);
    const int depth = d ? d->comp[0].depth : 8;
    const int bpc = depth <= 8 ? 8 : depth <= 10 ? 10 : depth <= 12 ? 12 : 16;
    const bool gray = d && d->nb_components <= 2 && !(d->flags & AV_PIX_FMT_FLAG_RGB);
    const int cw = d && !(d->flags & AV_PIX_FMT_FLAG_RGB) ? d->log2_chroma_w : 0;
    const int ch = d && !(d->flags & AV_PIX_FMT_FLAG_RGB) ? d->log2_chroma_h : 0;
    if (gray) {
        out = {PixelFormat::yuv400, bpc};
        return bpc == 8 ? AV_PIX_FMT_GRAY8 : bpc == 10 ? AV_PIX_FMT_GRAY10LE
               : bpc == 12 ? AV_PIX_FMT_GRAY12LE : AV_PIX_FMT_GRAY16LE;
    }
    if (cw == 1 && ch == 1) {
        out = {PixelFormat::yuv420, bpc};
        return bpc == 8 ? AV_PIX_FMT_YUV420P : bpc == 10 ? AV_PIX_FMT_YUV420P10LE
               : bpc == 12 ? AV_PIX_FMT_YUV420P12LE : AV_PIX_FMT_YUV420P16LE;
    }
    if (cw == 1 && ch == 0) {
        out = {PixelFormat::yuv422, bpc};
        return bpc == 8 ? AV_PIX_FMT_YUV422P : bpc == 10 ? AV_PIX_FMT_YUV422P10LE
               : bpc == 12 ? AV_PIX_FMT_YUV422P12LE : AV_PIX_FMT_YUV422P16LE;
    }
    out = {PixelFormat::yuv444, bpc};
    return bpc == 8 ? AV_PIX_FMT_YUV444P : bpc == 10 ? AV_PIX_FMT_YUV444P10LE
           : bpc == 12 ? AV_PIX_FMT_YUV444P12LE : AV_PIX_FMT_YUV444P16LE;
}

class FfmpegReader final : public VideoReader {
public:
    FfmpegReader(const std::string& path, ByteSource::Handover input) : path_(path) {
        ffmpeg_api(path);  // loads FFmpeg's libraries, or says they are missing
        input_ = std::make_unique<InputBytes>(path, std::move(input));
        av().av_log_set_level(AV_LOG_QUIET);  // errors reach the user as our one line
        const AVCodec* codec = open_stream();
        const AVStream* st = fmt()->streams[stream_];
        const AVPixelFormat pf = AVPixelFormat(st->codecpar->format);
        if (pf == AV_PIX_FMT_NONE)
            fail("its video stream has no pixel format (a truncated or damaged file?)" + pipe_hint());
        Layout layout;
        src_format_ = pf;
        if (!direct_layout(pf, layout)) convert_to_ = planar_target(pf, layout);
        check_dimensions(path, st->codecpar->width, st->codecpar->height, layout.bpc);
        info_.width = st->codecpar->width;
        info_.height = st->codecpar->height;
        info_.bpc = layout.bpc;
        info_.format = layout.format;
        const AVRational rate = st->avg_frame_rate.num > 0 ? st->avg_frame_rate : st->r_frame_rate;
        if (rate.num > 0 && rate.den > 0) {
            info_.fps_num = rate.num;
            info_.fps_den = rate.den;
        }
        if (st->nb_frames > 0) info_.frames = st->nb_frames;
        seek_codec_ = frame_per_packet(codec->id, fmt()->iformat->name);
    }

    ~FfmpegReader() override {
        {
            std::lock_guard<std::mutex> lock(mu_);
            stop_ = true;
        }
        space_.notify_all();
        if (decoder_.joinable()) decoder_.join();
    }

    const VideoInfo& info() const override { return info_; }
    void set_luma_only(bool luma_only) override { luma_only_ = luma_only; }

    bool read(Picture& pic) override {
        start(0);
        FramePtr f = next();
        if (!f) return false;
        const bool chroma = info_.format != PixelFormat::yuv400 && !luma_only_;
        if (pic.width != info_.width || pic.height != info_.height || pic.bpc != info_.bpc ||
            pic.format != info_.format || pic.has_chroma() != chroma)
            pic = Picture(info_.width, info_.height, info_.bpc, info_.format, chroma);
        const int planes = chroma ? 3 : 1;
        const int bytes = info_.bpc > 8 ? 2 : 1;
        for (int p = 0; p < planes; ++p) {
            Plane& dst = pic.planes[p];
            const std::size_t row = std::size_t(dst.width()) * bytes;
            for (int y = 0; y < dst.height(); ++y)
                std::memcpy(dst.row<std::uint8_t>(y), f->data[p] + std::ptrdiff_t(y) * f->linesize[p], row);
        }
        return true;
    }

    // The first skip before any frame is read starts decoding at frame n:
    // from the keyframe before it where that is provably exact (plan_seek),
    // else from the start; the decoding thread drops the frames before n.
    unsigned skip(unsigned n) override {
        if (n == 0) return 0;
        if (!started_) {
            start(n);
            std::unique_lock<std::mutex> lock(mu_);
            ready_.wait(lock, [&] { return !queue_.empty() || done_; });
            if (!queue_.empty()) return n;
            if (!error_.empty()) throw Error(error_);
            return dropped_;
        }
        unsigned i = 0;
        while (i < n && next()) ++i;
        return i;
    }

    // Where the decoding of the last run began (tests: a keyframe seek).
    unsigned decoding_began_at() const {
        std::lock_guard<std::mutex> lock(mu_);
        return began_at_;
    }

private:
    AVFormatContext* fmt() const { return demux_->get(); }
    [[noreturn]] void fail(const std::string& what) const { throw Error(path_ + ": " + what); }
    // Why a pipe may fail where the same file would not.
    std::string pipe_hint() const {
        return input_->seekable() ? ""
                                  : " (read from a pipe or fifo, without seeking: a format that "
                                    "needs to seek, e.g. MP4 with its index at the end, needs a file)";
    }

    // The next decoded frame from the queue; null at the end of the stream.
    FramePtr next() {
        std::unique_lock<std::mutex> lock(mu_);
        ready_.wait(lock, [&] { return !queue_.empty() || done_; });
        if (queue_.empty()) {
            if (!error_.empty()) throw Error(error_);
            return nullptr;
        }
        FramePtr f = std::move(queue_.front());
        queue_.pop_front();
        lock.unlock();
        space_.notify_one();
        return f;
    }

    // Opens the demuxer and the decoder of the best video stream (again after
    // a keyframe seek that could not be proved exact). Returns the decoder.
    const AVCodec* open_stream() {
        codec_.reset();
        demux_.reset();
        demux_ = std::make_unique<Demuxer>(*input_, path_);
        int err = demux_->open(path_);
        if (err < 0) fail("not a Y4M file, and FFmpeg cannot open it: " + av_error_text(err) + pipe_hint());
        AVFormatContext* fmt = demux_->get();
        err = av().avformat_find_stream_info(fmt, nullptr);
        if (err < 0) fail("cannot read its streams: " + av_error_text(err) + pipe_hint());
        const AVCodec* codec = nullptr;
        stream_ = av().av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
        if (stream_ == AVERROR_STREAM_NOT_FOUND) fail("no video stream" + pipe_hint());
        const AVStream* st = fmt->streams[stream_ < 0 ? 0 : stream_];
        if (stream_ == AVERROR_DECODER_NOT_FOUND || !codec)
            fail(std::string("no decoder for its video codec (") +
                 av().avcodec_get_name(st->codecpar->codec_id) + ") in this FFmpeg");
        if (stream_ < 0) fail("no video stream: " + av_error_text(stream_));
        codec_.reset(av().avcodec_alloc_context3(codec));
        if (!codec_) fail("out of memory");
        err = av().avcodec_parameters_to_context(codec_.get(), st->codecpar);
        if (err < 0) fail("bad codec parameters: " + av_error_text(err));
        codec_->thread_count = 0;  // FFmpeg picks (frame and slice threads)
        err = av().avcodec_open2(codec_.get(), codec, nullptr);
        if (err < 0) fail(std::string("cannot open its ") + codec->name + " decoder: " + av_error_text(err));
        return codec;
    }

    void start(unsigned first) {
        if (started_) return;
        started_ = true;
        start_at_ = first;
        decoder_ = std::thread([this] { decode_loop(); });
    }

    // Frame index = packet index holds where every packet of the stream is
    // exactly one shown frame: these codecs in these containers (Matroska/WebM,
    // MP4/MOV, IVF store one access unit, superframe or temporal unit per
    // packet). Elsewhere (MPEG-TS fields, VP8 alt-ref packets, packed B-frames)
    // a chunk decodes from the start.
    static bool frame_per_packet(AVCodecID id, const char* container) {
        const std::string c = container ? container : "";
        const bool container_ok = c.find("matroska") != std::string::npos ||
                                  c.find("mov") != std::string::npos || c == "ivf";
        const bool codec_ok = id == AV_CODEC_ID_H264 || id == AV_CODEC_ID_HEVC || id == AV_CODEC_ID_AV1 ||
                              id == AV_CODEC_ID_VP9 || id == AV_CODEC_ID_FFV1 ||
                              id == AV_CODEC_ID_MJPEG || id == AV_CODEC_ID_PRORES;
        return container_ok && codec_ok;
    }

    // A keyframe to start decoding at for frame `target`: packet K (decode
    // order, index k) such that every packet before it shows earlier and every
    // packet after it later ("closed" both ways: no leading pictures). Then
    // the frames a whole-file decode numbers k, k+1, ... are exactly K and the
    // packets after it in presentation order, so a decoder started at K
    // numbers them the same. The demuxer reads packets (no decoding) from the
    // start to kLookahead packets past the target; `shown` is the expected
    // presentation timestamps of frames k..target, which the decoding thread
    // checks frame by frame before it queues any.
    struct SeekPlan {
        unsigned index = 0;
        std::int64_t pts = 0, dts = 0, pos = -1;
        std::vector<std::int64_t> shown;
    };
    static constexpr unsigned kLookahead = 64;  // > any codec's reorder depth (H.264/HEVC: 16)

    std::optional<SeekPlan> plan_seek(unsigned target) const {
        // A pipe is read once: its frames before the target are decoded and dropped.
        if (!seek_codec_ || !input_->seekable()) return std::nullopt;
        Demuxer fmt(*input_, path_);
        if (fmt.open(path_) < 0) return std::nullopt;
        AVFormatContext* raw = fmt.get();
        if (av().avformat_find_stream_info(raw, nullptr) < 0 || unsigned(stream_) >= raw->nb_streams)
            return std::nullopt;
        std::unique_ptr<AVPacket, PacketFree> pkt(av().av_packet_alloc());
        if (!pkt) return std::nullopt;
        std::vector<SeekPlan> closed;  // candidates, pts increasing
        std::vector<std::int64_t> pts;  // every packet's, decode order
        std::int64_t max_pts = INT64_MIN;
        while (pts.size() < std::size_t(target) + kLookahead) {
            const int err = av().av_read_frame(raw, pkt.get());
            if (err == AVERROR_EOF) break;
            if (err < 0) return std::nullopt;
            const bool mine = pkt->stream_index == stream_;
            const std::int64_t p = pkt->pts, d = pkt->dts, pos = pkt->pos;
            const bool key = pkt->flags & AV_PKT_FLAG_KEY;
            av().av_packet_unref(pkt.get());
            if (!mine) continue;
            // Without timestamps, or a stream not starting at a keyframe (its
            // first frames are dropped by a whole decode), nothing is proved.
            if (p == AV_NOPTS_VALUE || (pts.empty() && !key)) return std::nullopt;
            while (!closed.empty() && closed.back().pts >= p) closed.pop_back();  // p leads them
            if (key && p > max_pts && pts.size() <= target)
                closed.push_back(SeekPlan{unsigned(pts.size()), p, d == AV_NOPTS_VALUE ? p : d, pos, {}});
            max_pts = std::max(max_pts, p);
            pts.push_back(p);
        }
        if (pts.size() <= target || closed.empty() || closed.back().index == 0) return std::nullopt;
        SeekPlan plan = std::move(closed.back());
        std::vector<std::int64_t> after(pts.begin() + plan.index, pts.end());
        std::sort(after.begin(), after.end());
        if (std::adjacent_find(after.begin(), after.end()) != after.end()) return std::nullopt;
        after.resize(target - plan.index + 1);
        plan.shown = std::move(after);
        return plan;
    }

    // Positions the demuxer at or before packet K; false if it cannot.
    bool seek_to(const SeekPlan& plan) {
        const std::int64_t ts = std::min(plan.pts, plan.dts);
        return av().av_seek_frame(fmt(), stream_, ts, AVSEEK_FLAG_BACKWARD) >= 0;
    }

    // Runs on the decoding thread: queues frames (at most kQueue ahead) from
    // frame start_at_ on.
    void decode_loop() {
        try {
            std::optional<SeekPlan> plan = start_at_ > 0 ? plan_seek(start_at_) : std::nullopt;
            if (plan && !seek_to(*plan)) {
                open_stream();
                plan.reset();
            }
            if (!decode(plan ? &*plan : nullptr)) {
                // The seek could not be confirmed before any frame was
                // queued: decode the whole file instead.
                open_stream();
                decode(nullptr);
            }
        } catch (const Error& e) {
            finish(e.what());
        } catch (const std::exception& e) {
            finish(path_ + ": decoding failed: " + e.what());
        }
    }

    // Decodes from the demuxer's position (packet K of `plan`, or the start),
    // drops frames before start_at_, queues the rest. Returns false when a
    // frame up to start_at_ contradicts the plan (nothing is queued then).
    bool decode(const SeekPlan* plan) {
        {
            std::lock_guard<std::mutex> lock(mu_);
            began_at_ = plan ? plan->index : 0;
        }
        std::unique_ptr<AVPacket, PacketFree> pkt(av().av_packet_alloc());
        FramePtr frame(av().av_frame_alloc());
        if (!pkt || !frame) throw Error(path_ + ": out of memory");
        bool flushing = false;
        std::optional<unsigned> damaged_after;  // frames before the first corrupt packet
        bool at_key = plan == nullptr;  // a seek may land before packet K
        unsigned decoded = plan ? plan->index : 0;
        std::int64_t last_shown = INT64_MIN;
        for (;;) {
            if (!flushing) {
                const int err = av().av_read_frame(fmt(), pkt.get());
                if (err == AVERROR_EOF) {
                    if (!at_key) return false;
                    flushing = true;
                    av().avcodec_send_packet(codec_.get(), nullptr);
                } else if (err < 0) {
                    throw Error(path_ + ": cannot read the file after " + std::to_string(decoded) +
                                " frames: " + av_error_text(err));
                } else {
                    if (pkt->stream_index != stream_) {
                        av().av_packet_unref(pkt.get());
                        continue;
                    }
                    if (!at_key) {
                        const bool is_k = (pkt->flags & AV_PKT_FLAG_KEY) && pkt->pts == plan->pts &&
                                          (plan->pos < 0 || pkt->pos < 0 || pkt->pos == plan->pos);
                        if (!is_k && (pkt->pos >= 0 && plan->pos >= 0 && pkt->pos > plan->pos)) {
                            av().av_packet_unref(pkt.get());
                            return false;  // passed K without finding it
                        }
                        at_key = is_k;
                        if (!at_key) {
                            av().av_packet_unref(pkt.get());
                            continue;
                        }
                    }
                    // A demuxer marks a packet the file cuts short, and also
                    // one after a discontinuity (MPEG-TS files joined end to
                    // end, where the size may change too). The packet is
                    // decoded on, so that a frame of another size is told as
                    // such; either way the run fails (below).
                    if ((pkt->flags & AV_PKT_FLAG_CORRUPT) && !damaged_after)
                        damaged_after = decoded;
                    const int s = av().avcodec_send_packet(codec_.get(), pkt.get());
                    av().av_packet_unref(pkt.get());
                    if (s < 0 && s != AVERROR(EAGAIN))
                        throw Error(path_ + ": frame " + std::to_string(decoded) +
                                    " cannot be decoded: " + av_error_text(s));
                }
            }
            for (;;) {
                const int r = av().avcodec_receive_frame(codec_.get(), frame.get());
                if (r == AVERROR(EAGAIN)) break;
                if (r == AVERROR_EOF) {
                    if (damaged_after) throw_damaged(*damaged_after);
                    check_complete(decoded);
                    finish("");
                    return true;
                }
                if (r < 0)
                    throw Error(path_ + ": frame " + std::to_string(decoded) +
                                " cannot be decoded: " + av_error_text(r));
                if (frame->decode_error_flags || (frame->flags & AV_FRAME_FLAG_CORRUPT))
                    throw Error(path_ + ": frame " + std::to_string(decoded) +
                                " is corrupt (damaged or truncated data)");
                // Every frame, also one dropped before a skip's target: a
                // count of frames (--count-frames skips them all) must fail
                // where scoring would.
                check_geometry(*frame, decoded);
                if (damaged_after) {
                    // Nothing decoded after a damaged packet is queued (a run
                    // that stops early, --frame_cnt, must not score it): the
                    // decoding goes on only for a size change to be named,
                    // a bounded number of frames, then the damage is the error.
                    if (decoded - *damaged_after > kLookahead) throw_damaged(*damaged_after);
                    av().av_frame_unref(frame.get());
                    ++decoded;
                    continue;
                }
                if (frame->best_effort_timestamp != AV_NOPTS_VALUE)
                    last_pts_ = std::max(last_pts_, frame->best_effort_timestamp);
                if (plan) {
                    // After a seek every frame's place is checked: up to the
                    // target against the demuxed timestamps (a mismatch falls
                    // back to a whole decode), later by increasing time.
                    const std::int64_t shown = frame->pts;
                    if (decoded <= start_at_) {
                        if (shown != plan->shown[decoded - plan->index]) return false;
                    } else if (shown == AV_NOPTS_VALUE || shown <= last_shown) {
                        throw Error(path_ + ": frame " + std::to_string(decoded) +
                                    " is out of order after a keyframe seek; score this range from "
                                    "a Y4M decode of the file");
                    }
                    last_shown = shown;
                }
                if (decoded < start_at_) {
                    av().av_frame_unref(frame.get());
                    ++decoded;
                    std::lock_guard<std::mutex> lock(mu_);
                    dropped_ = decoded;
                    if (stop_) return true;
                    continue;
                }
                FramePtr ready = prepare(frame.get(), decoded);
                ++decoded;
                std::unique_lock<std::mutex> lock(mu_);
                space_.wait(lock, [&] { return queue_.size() < kQueue || stop_; });
                if (stop_) return true;
                queue_.push_back(std::move(ready));
                lock.unlock();
                ready_.notify_one();
            }
        }
    }

    // A container cut short (Matroska, WebM) simply ends early; its header
    // still says how long the video is. Frames missing from the end by more
    // than two frame durations mean a truncated file, not a shorter video.
    void check_complete(unsigned decoded) const {
        const AVStream* st = fmt()->streams[stream_];
        const AVRational rate = st->avg_frame_rate.num > 0 ? st->avg_frame_rate : st->r_frame_rate;
        // The stream's own duration, or the file's when the video is all it
        // holds (an audio track may be longer than the video).
        std::int64_t duration = 0;
        if (st->duration > 0 && st->duration != AV_NOPTS_VALUE)
            duration = av().av_rescale_q(st->duration, st->time_base, AVRational{1, AV_TIME_BASE});
        else if (fmt()->nb_streams == 1 && fmt()->duration > 0)
            duration = fmt()->duration;
        if (duration <= 0 || last_pts_ == AV_NOPTS_VALUE || rate.num <= 0 || rate.den <= 0) return;
        const std::int64_t start = st->start_time != AV_NOPTS_VALUE ? st->start_time : 0;
        const std::int64_t frame_us = av().av_rescale(AV_TIME_BASE, rate.den, rate.num);
        const std::int64_t end_us =
            av().av_rescale_q(last_pts_ - start, st->time_base, AVRational{1, AV_TIME_BASE}) + frame_us;
        if (end_us + 2 * frame_us < duration)
            throw Error(path_ + ": the video ends after " + std::to_string(decoded) + " frames (" +
                        std::to_string(end_us / 1000) + " ms) of the " +
                        std::to_string(duration / 1000) + " ms its header gives: a truncated file?");
    }

    void finish(const std::string& error) {
        {
            std::lock_guard<std::mutex> lock(mu_);
            done_ = true;
            error_ = error;
        }
        ready_.notify_all();
    }

    // A frame of the stream's geometry in a format the scorer reads.
    [[noreturn]] void throw_damaged(unsigned frames) const {
        throw Error(path_ + ": after " + std::to_string(frames) +
                    " frames, its data is cut short or damaged (a truncated file?)");
    }

    void check_geometry(const AVFrame& frame, unsigned index) const {
        if (frame.width != info_.width || frame.height != info_.height || frame.format != src_format_)
            throw Error(path_ + ": frame " + std::to_string(index) + " is " + std::to_string(frame.width) +
                        "x" + std::to_string(frame.height) + " " + pix_fmt_name(frame.format) +
                        ", the stream " + std::to_string(info_.width) + "x" +
                        std::to_string(info_.height) + " " + pix_fmt_name(src_format_) +
                        ": vmafpp scores one geometry per input");
    }
    static std::string pix_fmt_name(int f) {
        const char* n = av().av_get_pix_fmt_name(AVPixelFormat(f));
        return n ? n : "(no pixel format)";
    }

    FramePtr prepare(AVFrame* frame, unsigned index) {
        check_geometry(*frame, index);
        FramePtr out(av().av_frame_alloc());
        if (!out) throw Error(path_ + ": out of memory");
        if (convert_to_ == AV_PIX_FMT_NONE) {
            av().av_frame_move_ref(out.get(), frame);
            return out;
        }
        if (!sws_) {
            sws_.reset(av().sws_getContext(info_.width, info_.height, src_format_, info_.width, info_.height,
                                      convert_to_, SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT,
                                      nullptr, nullptr, nullptr));
            if (!sws_) throw Error(path_ + ": cannot convert its pixel format " +
                                   av().av_get_pix_fmt_name(src_format_));
        }
        out->format = convert_to_;
        out->width = info_.width;
        out->height = info_.height;
        if (av().av_frame_get_buffer(out.get(), 0) < 0) throw Error(path_ + ": out of memory");
        av().sws_scale(sws_.get(), frame->data, frame->linesize, 0, info_.height, out->data, out->linesize);
        av().av_frame_unref(frame);
        return out;
    }

    static constexpr std::size_t kQueue = 4;

    std::string path_;
    std::unique_ptr<InputBytes> input_;  // before demux_: its demuxers read it
    std::unique_ptr<Demuxer> demux_;
    std::unique_ptr<AVCodecContext, CodecCloser> codec_;
    std::unique_ptr<SwsContext, SwsFree> sws_;
    int stream_ = -1;
    AVPixelFormat src_format_ = AV_PIX_FMT_NONE;
    AVPixelFormat convert_to_ = AV_PIX_FMT_NONE;
    VideoInfo info_;
    bool luma_only_ = false;
    std::int64_t last_pts_ = AV_NOPTS_VALUE;  // decoding thread only

    bool seek_codec_ = false;   // frame_per_packet() holds for this file
    bool started_ = false;      // the decoding thread runs
    unsigned start_at_ = 0;     // first frame it queues (set before it starts)

    mutable std::mutex mu_;
    std::condition_variable ready_, space_;
    unsigned dropped_ = 0;      // frames before start_at_ decoded and dropped
    unsigned began_at_ = 0;     // frame the last decode began at
    std::deque<FramePtr> queue_;
    bool done_ = false, stop_ = false;
    std::string error_;
    std::thread decoder_;  // last: starts after every member it uses exists
};

}  // namespace

bool ffmpeg_available() { return true; }

std::unique_ptr<VideoReader> open_ffmpeg(const std::string& path) {
    ByteSource src(path);
    return std::make_unique<FfmpegReader>(path, src.release());
}

std::unique_ptr<VideoReader> open_ffmpeg_source(std::unique_ptr<ByteSource> src) {
    const std::string path = src->path();
    return std::make_unique<FfmpegReader>(path, src->release());
}

unsigned ffmpeg_decoding_began_at(const VideoReader& reader) {
    const auto* r = dynamic_cast<const FfmpegReader*>(&reader);
    return r ? r->decoding_began_at() : 0;
}

}  // namespace vmafpp::io
