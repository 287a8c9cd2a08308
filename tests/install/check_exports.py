#!/usr/bin/python3
"""What the shared libraries export (`nm -D --defined-only`), against what
the public headers promise.

libvmafpp.so: every name demangles into vmafpp:: (a function, or the vtable
or typeinfo of a class) whose first name after vmafpp:: is one the headers
of include/vmafpp/ declare VMAFPP_API (a function, or a class whose members
follow), and no name passes through vmafpp::detail or any other namespace
(the kernels' vmafpp::adm, vmafpp::vk, ...): internal code stays internal.
Each VMAFPP_API name is exported at least once, so the macro marks the ABI
and nothing else. libvmaf.so: only the C API's vmaf_* functions.

  check_exports.py LIBVMAFPP_SO LIBVMAF_SO INCLUDE_DIR
(an empty path skips that library: a build without it)
"""
import glob
import os
import re
import subprocess
import sys

SPECIAL = ("typeinfo name for ", "typeinfo for ", "vtable for ")


def dynamic_names(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True,
                         check=True).stdout
    mangled = [line.split()[-1] for line in out.splitlines() if line.strip()]
    demangled = subprocess.run(["c++filt"], input="\n".join(mangled), capture_output=True,
                               text=True, check=True).stdout.splitlines()
    return list(zip(mangled, demangled))


def public_api_names(include_dir):
    """The names declared VMAFPP_API: `class VMAFPP_API Name`, or a function
    `VMAFPP_API <type> name(` (the name is the last identifier before '(')."""
    names = {}
    for path in sorted(glob.glob(os.path.join(include_dir, "vmafpp", "*.hpp"))):
        text = open(path).read()
        for m in re.finditer(r"\b(?:class|struct)\s+VMAFPP_API\s+(\w+)", text):
            names[m.group(1)] = os.path.basename(path)
        for m in re.finditer(r"^\s*VMAFPP_API\s+([^;{]*?)\b(\w+)\s*\(", text, re.M):
            names[m.group(2)] = os.path.basename(path)
    return names


def split_scope(name):
    """'vmafpp::A<x::y>::f(int)' -> ['vmafpp', 'A<x::y>', 'f']: the qualified
    name before its parameter list, split at the top-level '::'; a return
    type ahead of the name (function templates) is dropped, and an operator
    ends the name (its symbol may hold '<', '(' or spaces)."""
    depth, parts, cur, i = 0, [], "", 0
    while i < len(name):
        if depth == 0 and cur == "" and name.startswith("operator", i):
            parts.append(name[i:])
            return parts
        c = name[i]
        if depth == 0 and name.startswith("::", i):
            parts.append(cur)
            cur, i = "", i + 2
            continue
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif depth == 0 and c == "(":
            break
        elif depth == 0 and c == " ":
            parts, cur, i = [], "", i + 1
            continue
        cur += c
        i += 1
    parts.append(cur)
    return parts


def check_vmafpp(lib, include_dir):
    api = public_api_names(include_dir)
    if not api:
        sys.exit(f"no VMAFPP_API declaration found under {include_dir}")
    problems, used = [], set()
    names = dynamic_names(lib)
    for mangled, plain in names:
        what = plain
        for prefix in SPECIAL:
            if what.startswith(prefix):
                what = what[len(prefix):]
                break
        scope = split_scope(what)
        if scope[0] != "vmafpp" or len(scope) < 2:
            problems.append(f"not in vmafpp::  {plain}  ({mangled})")
            continue
        # the name without template arguments or ABI tag: f<int>, version[abi:cxx11]
        first = re.sub(r"(<|\[abi:).*$", "", scope[1])
        if first not in api:
            problems.append(f"not a VMAFPP_API name of include/vmafpp  {plain}")
            continue
        if "detail" in scope:
            problems.append(f"internal namespace  {plain}")
            continue
        used.update(part for part in [first] + scope[2:] if part in api)  # nested classes too
    unused = sorted(set(api) - used)
    for name in unused:
        problems.append(f"declared VMAFPP_API in {api[name]} but not exported: {name}")
    if problems:
        print(f"{lib}: {len(problems)} problem(s) among {len(names)} exported names:")
        print("\n".join("  " + p for p in problems))
        return False
    functions = sum(1 for _, p in names if not p.startswith(SPECIAL))
    print(f"{lib}: {len(names)} exported names ({functions} functions and objects, "
          f"{len(names) - functions} vtables/typeinfo), all vmafpp:: public API "
          f"({len(used)} VMAFPP_API names)")
    return True


def check_libvmaf(lib):
    names = dynamic_names(lib)
    others = [plain for mangled, plain in names if not mangled.startswith("vmaf_")]
    if others:
        print(f"{lib} exports more than vmaf_*:")
        print("\n".join("  " + p for p in others))
        return False
    print(f"{lib}: {len(names)} exported names, all vmaf_*")
    return True


def main():
    vmafpp_so, libvmaf_so, include_dir = sys.argv[1:4]
    ok = True
    if vmafpp_so:
        ok = check_vmafpp(vmafpp_so, include_dir) and ok
    if libvmaf_so:
        ok = check_libvmaf(libvmaf_so) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
