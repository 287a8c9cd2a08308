// FFmpeg's functions as vmafpp uses them, loaded with dlopen on first use
// rather than linked: a run on Y4M or raw input never loads libavcodec and
// its dependencies (whose start-up code, e.g. libhwy's through libjxl, would
// run in every process and stops valgrind), and a vmafpp binary runs where
// FFmpeg's libraries are absent until a compressed file is opened.
#pragma once

#include <string>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/mathematics.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

namespace vmafpp::io {

// (library, function) of every FFmpeg function vmafpp calls.
#define VMAFPP_FFMPEG_FUNCTIONS(X)                                                              \
    X(avutil, av_strerror) X(avutil, av_log_set_level) X(avutil, av_pix_fmt_desc_get)          \
    X(avutil, av_get_pix_fmt_name) X(avutil, av_rescale) X(avutil, av_rescale_q)               \
    X(avutil, av_frame_alloc) X(avutil, av_frame_free) X(avutil, av_frame_get_buffer)          \
    X(avutil, av_frame_move_ref) X(avutil, av_frame_unref) X(avutil, av_malloc) X(avutil, av_free) \
    X(avutil, av_strdup)                                                                       \
    X(avcodec, av_packet_alloc) X(avcodec, av_packet_free) X(avcodec, av_packet_unref)         \
    X(avcodec, avcodec_alloc_context3) X(avcodec, avcodec_free_context)                        \
    X(avcodec, avcodec_get_name) X(avcodec, avcodec_open2)                                     \
    X(avcodec, avcodec_parameters_to_context) X(avcodec, avcodec_receive_frame)                \
    X(avcodec, avcodec_send_packet)                                                            \
    X(avformat, av_find_best_stream) X(avformat, av_read_frame) X(avformat, avformat_close_input) \
    X(avformat, av_seek_frame) X(avformat, avformat_alloc_context)                             \
    X(avformat, avio_alloc_context) X(avformat, avio_context_free)                             \
    X(avformat, avformat_find_stream_info) X(avformat, avformat_open_input)                    \
    X(swscale, sws_getContext) X(swscale, sws_scale) X(swscale, sws_freeContext)

struct FfmpegApi {
#define VMAFPP_FFMPEG_POINTER(lib, name) decltype(&::name) name = nullptr;
    VMAFPP_FFMPEG_FUNCTIONS(VMAFPP_FFMPEG_POINTER)
#undef VMAFPP_FFMPEG_POINTER
};

// The loaded functions (loading them on the first call, thread-safe). Throws
// vmafpp::Error starting with `what` when a library or function is missing.
const FfmpegApi& ffmpeg_api(const std::string& what);
// After a successful ffmpeg_api(): the same table without a name to blame.
const FfmpegApi& av();

}  // namespace vmafpp::io
