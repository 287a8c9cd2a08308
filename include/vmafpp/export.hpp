// VMAFPP_API marks what libvmafpp.so exports. The library's objects are
// compiled with -fvisibility=hidden and -fvisibility-inlines-hidden
// (src/CMakeLists.txt), so a name is part of the shared library's ABI only
// when its declaration here in include/vmafpp/ carries the macro: free
// functions the library defines, and classes with out-of-line members, a
// vtable or a type that is thrown (their typeinfo must be the library's one
// on both sides). Internal kernels and helpers stay out of the dynamic symbol
// table (the ctest `exported_symbols` checks it).
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define VMAFPP_API __attribute__((visibility("default")))
#else
#define VMAFPP_API
#endif
