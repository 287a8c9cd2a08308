// libvmafpp.so is libvmafpp.a's objects linked whole (cmake/install.cmake);
// CMake wants at least one source of the shared target's own.
