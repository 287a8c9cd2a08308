// The name a message gives a pixel format ("4:2:0"), in one place for every
// error that describes a picture.
#pragma once

#include "vmafpp/picture.hpp"

namespace vmafpp {

inline const char* chroma_format_name(PixelFormat f) {
    switch (f) {
        case PixelFormat::yuv400: return "4:0:0";
        case PixelFormat::yuv420: return "4:2:0";
        case PixelFormat::yuv422: return "4:2:2";
        default: return "4:4:4";
    }
}

}  // namespace vmafpp
