#!/usr/bin/python3
"""One version, from project(vmafpp VERSION ...), wherever vmafpp states its
own: `vmafpp --version`, the "version" of the CLI's output files,
vmafpp::version() (the installed consumer prints it), vmafpp.pc and the
Python module's __version__ (and version()). The C API states libvmaf's
instead, as libvmaf does: vmaf_version(), the "version" of
vmaf_write_output()'s files and libvmaf.pc are all exactly the version of
libvmaf's goldens (tests/corpus/golden/*/default.json, "3.2.0").

Runs on the prefix that install_consumers made (its consumers included).
  check_versions.py PROJECT_VERSION INSTALL_WORK_DIR CORPUS_DIR WORK_DIR
"""
import ctypes
import glob
import json
import os
import re
import subprocess
import sys

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"),
                os.path.dirname(os.path.abspath(__file__))]
from installed_prefix import installed_pcdir  # noqa: E402
from corpus_clips import clip as corpus_clip  # noqa: E402  (tests/support/corpus_clips.py)

PAIR = "p08_brick_176x144_420p8_bilinear2x"


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"FAILED ({p.returncode}): {' '.join(cmd)}\n{p.stdout}{p.stderr}")
    return p.stdout


def clip(corpus, work, which):
    return corpus_clip(corpus, work, PAIR, which)


def json_version(path):
    with open(path) as f:
        return json.load(f)["version"]


def main():
    project = sys.argv[1]
    install_work, corpus, work = (os.path.abspath(a) for a in sys.argv[2:5])
    os.makedirs(work, exist_ok=True)
    pcdir = installed_pcdir(install_work)
    prefix = os.path.join(install_work, "prefix")
    libdir = os.path.dirname(pcdir)
    env = dict(os.environ, PKG_CONFIG_PATH=pcdir)
    ref, dis = clip(corpus, work, "ref"), clip(corpus, work, "dis")
    cli = os.path.join(prefix, "bin", "vmafpp")

    ours = {}  # where vmafpp states its own version -> what it says
    m = re.match(r"vmafpp (\S+) ", run([cli, "--version"]))
    ours["vmafpp --version"] = m.group(1) if m else None
    for fmt in ("json", "xml"):
        out = os.path.join(work, f"cli.{fmt}")
        run([cli, "-r", ref, "-d", dis, f"--{fmt}", "-o", out, "-q"])
        if fmt == "json":
            ours["CLI JSON \"version\""] = json_version(out)
        else:
            m = re.search(r'<VMAF version="([^"]*)"', open(out).read())
            ours["CLI XML version"] = m.group(1) if m else None
    ours["vmafpp.pc"] = run(["pkg-config", "--modversion", "vmafpp"], env=env).strip()
    for consumer in ("consumer_shared", "consumer_static"):
        m = re.match(r"vmafpp (\S+):", run([os.path.join(install_work, "cmake", consumer)]))
        ours[f"vmafpp::version() ({consumer})"] = m.group(1) if m else None
    site = glob.glob(os.path.join(prefix, "**", "site-packages"), recursive=True)
    if site and os.path.isdir(os.path.join(site[0], "vmafpp")):
        code = "import vmafpp; print(vmafpp.__version__); print(vmafpp.version())"
        lines = run(["/usr/bin/python3", "-c", code], cwd=work,
                    env=dict(os.environ, PYTHONPATH=site[0])).split()
        ours["python vmafpp.__version__"], ours["python vmafpp.version()"] = lines

    libvmaf = {}  # where the C API states libvmaf's version
    golden = json_version(os.path.join(corpus, "golden", PAIR, "default.json"))
    libvmaf["libvmaf's golden default.json"] = golden
    so = os.path.join(libdir, "libvmaf.so")
    if os.path.exists(so):
        lib = ctypes.CDLL(so)
        lib.vmaf_version.restype = ctypes.c_char_p
        libvmaf["vmaf_version()"] = lib.vmaf_version().decode()
        libvmaf["libvmaf.pc"] = run(["pkg-config", "--modversion", "libvmaf"], env=env).strip()
        out = os.path.join(work, "capi.json")
        run([os.path.join(install_work, "vmaf_capi_test"), ref, dis, "0", out])
        libvmaf["vmaf_write_output() \"version\""] = json_version(out)

    ok = True
    for title, states, want in (("vmafpp", ours, project), ("libvmaf C API", libvmaf, golden)):
        for where, said in states.items():
            mark = "ok" if said == want else "DIFFERS"
            ok = ok and said == want
            print(f"{title:14} {where:40} {said!r:12} {mark}")
    if not ok:
        sys.exit(f"versions disagree: vmafpp's must be {project!r} (project(vmafpp VERSION)), "
                 f"the C API's {golden!r} (libvmaf's)")
    print(f"versions agree: vmafpp {project} in {len(ours)} places, "
          f"libvmaf {golden} in {len(libvmaf)}")


if __name__ == "__main__":
    main()
