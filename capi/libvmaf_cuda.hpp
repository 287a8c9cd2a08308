// The seam between libvmaf.cpp (the C API over vmafpp::Scorer) and
// libvmaf_cuda.cpp (libvmaf_cuda.h's entry points, device and pinned
// pictures). libvmaf.cpp owns VmafContext; it keeps one ContextCuda in it
// and calls the three hooks below where a picture is read or released.
#pragma once

#include <memory>

#include "libvmaf/libvmaf.h"
#include "vmafpp/picture.hpp"

namespace vmafpp::capi_cuda {

struct Device;
struct Pool;

// What vmaf_cuda_import_state() and vmaf_cuda_preallocate_pictures() left
// in one VmafContext (empty until then).
struct ContextCuda {
    std::shared_ptr<Device> device;
    std::shared_ptr<Pool> pool;  // none until preallocated (or with method NONE)
};

// Defined in libvmaf.cpp, where VmafContext is.
ContextCuda& context_cuda(VmafContext* vmaf);
VmafLogLevel log_level(const VmafContext* vmaf);

// Whether pic came from vmaf_cuda_fetch_preallocated_picture() with the
// DEVICE method: its data[] are device addresses, never host pointers.
bool is_device_picture(const VmafPicture& pic);

// Copies the first `planes` planes of device picture `in` into `out`
// (allocated for the session's geometry, which `in` was checked against);
// -EINVAL when vmaf has no imported state of the picture's CUDA context or
// the picture's planes are not the ones allocated, -EIO when the copy fails.
int download(VmafContext* vmaf, const VmafPicture& in, vmafpp::Picture& out, int planes);

// Whether pic is a picture of this file's (device or pinned).
bool owns_picture(const VmafPicture& pic);

// Releases pic and returns true when it is a picture of this file's
// (device or pinned); false leaves it to libvmaf.cpp.
bool release_picture(VmafPicture* pic);

}  // namespace vmafpp::capi_cuda
