#!/usr/bin/python3
"""Compiles and runs every code example a user reads, against the installed
prefix (as a user would: pkg-config vmafpp or libvmaf):

- README.md: every fenced block marked c, cpp or c++;
- the public headers (include/vmafpp/*.hpp, capi/include/libvmaf/*.h): every
  run of comment lines indented three spaces or more after the comment
  marker ("//   code" or " *   code"), the headers' convention for code.

So an example cannot be added without being run: whatever these rules find
is compiled and run, and anything that fails to compile, warns (-Werror,
less unused variables: fragments compute what they show), or exits non-zero
fails the test. An example without main() is a fragment: its #include lines
stay at the top (a header's example gets that header), the rest becomes the
body of main(). Each runs in a folder holding ref.y4m and dis.y4m (a corpus
pair), the names the examples use.

  run_examples.py INSTALL_WORK_DIR SOURCE_DIR CORPUS_DIR WORK_DIR
"""
import glob
import os
import re
import subprocess
import sys

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"),
                os.path.dirname(os.path.abspath(__file__))]
from installed_prefix import installed_pcdir  # noqa: E402
from corpus_clips import decompress_clip  # noqa: E402  (tests/support/corpus_clips.py)

PAIR = "p08_brick_176x144_420p8_bilinear2x"
LANGS = {"c": "c", "cpp": "cpp", "c++": "cpp", "cxx": "cpp"}


def readme_examples(path):
    examples, block, lang, start = [], None, None, 0
    for n, line in enumerate(open(path).read().splitlines(), 1):
        fence = re.match(r"^```\s*(\S*)", line)
        if block is None and fence:
            block, lang, start = [], fence.group(1).lower(), n
        elif block is not None and line.startswith("```"):
            if lang in LANGS:
                examples.append((f"{os.path.basename(path)}:{start}", LANGS[lang], None, block))
            block = None
        elif block is not None:
            block.append(line)
    return examples


def header_examples(path, include, src):
    """Runs of '//   code' or ' *   code' lines in a header's comments."""
    examples, block, start = [], None, 0
    lang = "c" if path.endswith(".h") else "cpp"
    for n, line in enumerate(open(path).read().splitlines(), 1):
        m = re.match(r"^\s*(?://|\*)   (.*)$", line)
        if m and m.group(1).strip():
            if block is None:
                block, start = [], n
            block.append(m.group(1))
        elif block is not None:
            examples.append((f"{os.path.relpath(path, src)}:{start}", lang, include, block))
            block = None
    return examples


def program(lang, include, lines):
    if any(re.search(r"\bmain\s*\(", l) for l in lines):
        return "\n".join(lines) + "\n"
    head = [l for l in lines if l.lstrip().startswith("#include")]
    body = [l for l in lines if not l.lstrip().startswith("#include")]
    if include and f"<{include}>" not in "".join(head):
        head.insert(0, f"#include <{include}>")
    args = "void" if lang == "c" else ""
    return "\n".join(head + [f"int main({args}) {{"] + ["    " + l for l in body]
                     + ["    return 0;", "}"]) + "\n"


def clip(corpus, work, which):
    return decompress_clip(corpus, PAIR, which, os.path.join(work, f"{which}.y4m"))


def pkg_flags(pcdir, package, static):
    env = dict(os.environ, PKG_CONFIG_PATH=pcdir)
    libs = ["--static", "--libs"] if static else ["--libs"]
    flags = subprocess.run(["pkg-config", "--cflags"] + libs + [package], env=env,
                           capture_output=True, text=True, check=True).stdout.split()
    libdir = subprocess.run(["pkg-config", "--variable=libdir", package], env=env,
                            capture_output=True, text=True, check=True).stdout.strip()
    return flags + [f"-Wl,-rpath,{libdir}"]


def main():
    install_work, src, corpus, work = (os.path.abspath(a) for a in sys.argv[1:5])
    os.makedirs(work, exist_ok=True)
    pcdir = installed_pcdir(install_work)
    static = not os.path.exists(os.path.join(os.path.dirname(pcdir), "libvmafpp.so"))

    examples = readme_examples(os.path.join(src, "README.md"))
    for h in sorted(glob.glob(os.path.join(src, "include", "vmafpp", "*.hpp"))):
        examples += header_examples(h, f"vmafpp/{os.path.basename(h)}", src)
    for h in sorted(glob.glob(os.path.join(src, "capi", "include", "libvmaf", "*.h"))):
        examples += header_examples(h, os.path.basename(h), src)
    if not examples:
        sys.exit("no example found: the extraction rules no longer match README.md")
    clip(corpus, work, "ref")
    clip(corpus, work, "dis")

    failed = []
    for i, (where, lang, include, lines) in enumerate(examples):
        name = f"example{i:02d}"
        source = os.path.join(work, f"{name}.{'c' if lang == 'c' else 'cpp'}")
        with open(source, "w") as f:
            f.write(f"// {where}\n" + program(lang, include, lines))
        exe = os.path.join(work, name)
        if lang == "c":
            cmd = ["cc", "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-Wno-unused-variable",
                   "-o", exe, source] + pkg_flags(pcdir, "libvmaf", False)
        else:
            cmd = ["c++", "-O1", "-Wall", "-Wextra", "-Werror", "-Wno-unused-variable",
                   "-o", exe, source] + pkg_flags(pcdir, "vmafpp", static)
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            failed.append(f"{where}: does not compile ({source}):\n{p.stderr}")
            continue
        try:
            p = subprocess.run([exe], cwd=work, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            failed.append(f"{where}: still running after 300 s")
            continue
        if p.returncode != 0:
            failed.append(f"{where}: exits {p.returncode} ({source}):\n{p.stdout}{p.stderr}")
            continue
        print(f"{where}: {lang}, {len(lines)} lines, compiled and ran (exit 0)")
    if failed:
        sys.exit("\n".join(failed))
    print(f"code_examples: {len(examples)} examples compiled and run")


if __name__ == "__main__":
    main()
