#include "io/ffmpeg_api.hpp"

#include <dlfcn.h>

#include <mutex>

#include "vmafpp/error.hpp"

namespace vmafpp::io {
namespace {

// The sonames of the major versions vmafpp was compiled against.
std::string soname(const char* lib) {
    const std::string l(lib);
    const int major = l == "avutil"    ? LIBAVUTIL_VERSION_MAJOR
                      : l == "avcodec" ? LIBAVCODEC_VERSION_MAJOR
                      : l == "avformat" ? LIBAVFORMAT_VERSION_MAJOR
                                        : LIBSWSCALE_VERSION_MAJOR;
    return "lib" + l + ".so." + std::to_string(major);
}

struct Loaded {
    FfmpegApi api;
    std::string error;  // empty when every function was found
};

Loaded load() {
    Loaded out;
    for (const char* lib : {"avutil", "avcodec", "avformat", "swscale"}) {
        // Never closed: the functions stay valid for the whole process.
        if (!::dlopen(soname(lib).c_str(), RTLD_NOW | RTLD_GLOBAL)) {
            const char* why = ::dlerror();
            out.error = "compressed input needs FFmpeg's " + soname(lib) + ", which cannot be loaded (" +
                        (why ? why : "not found") + "; install FFmpeg's libraries, e.g. libavformat59)";
            return out;
        }
    }
#define VMAFPP_FFMPEG_LOAD(lib, name)                                                           \
    if (out.error.empty()) {                                                                    \
        void* handle = ::dlopen(soname(#lib).c_str(), RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);    \
        void* f = handle ? ::dlsym(handle, #name) : nullptr;                                    \
        if (!f) out.error = "FFmpeg's " + soname(#lib) + " lacks " #name;                     \
        out.api.name = reinterpret_cast<decltype(out.api.name)>(f);                             \
    }
    VMAFPP_FFMPEG_FUNCTIONS(VMAFPP_FFMPEG_LOAD)
#undef VMAFPP_FFMPEG_LOAD
    return out;
}

const Loaded& loaded() {
    static const Loaded l = load();
    return l;
}

}  // namespace

const FfmpegApi& ffmpeg_api(const std::string& what) {
    const Loaded& l = loaded();
    if (!l.error.empty()) throw Error(what + ": " + l.error);
    return l.api;
}

const FfmpegApi& av() { return loaded().api; }

}  // namespace vmafpp::io
