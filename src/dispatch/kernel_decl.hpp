// The types a feature's <name>_kernels.hpp declares its kernel-table
// functions with (see kernel_table.hpp): templates only, nothing that an ISA
// file including the header could instantiate.
#pragma once

#include "vmafpp/cpu.hpp"

namespace vmafpp {

// A level's init, <name>_init_<level>: assigns the twins that level has.
template <class Table>
using KernelInit = void(Table&);

// A feature's table lookup, <name>_kernels_for(level): a reference bound to
// the feature's kernel_table<> instance (constant-initialised, so usable
// from any static initialiser).
template <class Table>
using KernelsFor = const Table&(SimdLevel);

}  // namespace vmafpp
