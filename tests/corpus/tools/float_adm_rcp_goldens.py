#!/usr/bin/env python3
"""Write golden/<pair>/features_float.<rcp>.json: libvmaf 3.2.0's float
features run on THIS machine, for CPUs whose rcpss differs from the machine
that made features_float.json.

libvmaf's float ADM divides with rcpss plus one Newton step on x86, and rcpss
is a per-vendor table, so its float ADM values depend on the CPU (see
tests/support/golden_cpu.hpp). Every other key of these files equals
features_float.json, which the script checks before writing anything.

usage: float_adm_rcp_goldens.py --vmaf /path/to/libvmaf-3.2.0/tools/vmaf --rcp intel
Runs each pair's features_float.json command from manifest.json, exactly as
the oracle ran it (Y4M, or raw YUV where the manifest says raw).
"""
import argparse
import json
import lzma
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.dirname(HERE)
# libvmaf's float_motion races on these pairs: motion3's presence in a frame
# varies from run to run (README "Facts"), so it is not checked here.
RACED = {"p15": ("motion3",), "p17": ("motion3",)}
FLOAT_ADM_KEYS = {"adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3"}


SUBSAMPLING = {"420": (1, 1), "422": (1, 0), "444": (0, 0)}


def raw_frames(data, entry, floor_chroma):
    """The planes of every Y4M frame, as the oracle fed libvmaf raw YUV: with
    floor_chroma (odd sizes) each chroma plane cropped to floor(w/2) x
    floor(h/2) (4:2:0) or floor(w/2) x h (4:2:2), libvmaf's plane size."""
    w, h = entry["width"], entry["height"]
    bps = 2 if entry["bitdepth"] > 8 else 1
    sx, sy = SUBSAMPLING[entry["pix_fmt"][3:6]]
    cw, ch = -(-w // (1 << sx)), -(-h // (1 << sy))
    fw, fh = (w >> sx, h >> sy) if floor_chroma else (cw, ch)
    out = bytearray()
    pos = data.index(b"\n") + 1
    while pos < len(data):
        if not data.startswith(b"FRAME", pos):
            sys.exit("%s: not a FRAME header at byte %d" % (entry["name"], pos))
        pos = data.index(b"\n", pos) + 1
        out += data[pos:pos + w * h * bps]
        pos += w * h * bps
        for _ in range(2):
            for row in range(fh):
                out += data[pos + row * cw * bps:pos + row * cw * bps + fw * bps]
            pos += cw * ch * bps
    return bytes(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vmaf", required=True, help="libvmaf 3.2.0's vmaf CLI")
    ap.add_argument("--rcp", required=True, help="the file's tag, e.g. intel")
    args = ap.parse_args()
    manifest = json.load(open(os.path.join(CORPUS, "manifest.json")))
    for entry in manifest["pairs"]:
        name = entry["name"]
        run = entry["golden_runs"].get("features_float.json")
        if not run or not run["ok"]:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            for role, up in (("ref", "REF"), ("dis", "DIS")):
                data = lzma.open(os.path.join(CORPUS, entry[role + "_file"])).read()
                if entry["oracle_input"]["mode"] == "raw":
                    floor = entry["oracle_input"].get("floor_chroma", False)
                    open(os.path.join(tmp, up + ".yuv"), "wb").write(raw_frames(data, entry, floor))
                else:
                    open(os.path.join(tmp, up + ".y4m"), "wb").write(data)
            cmd = shlex.split(run["command"].replace("$VMAF_ORACLE", shlex.quote(args.vmaf)))
            p = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit("%s: %s" % (name, p.stderr.strip()))
            made = os.path.join(tmp, "features_float.json")
            got = json.load(open(made))
            text = open(made).read()
        want = json.load(open(os.path.join(CORPUS, "golden", name, "features_float.json")))
        for fg, fw in zip(got["frames"], want["frames"]):
            for key, value in fw["metrics"].items():
                if key in FLOAT_ADM_KEYS or key in RACED.get(name[:3], ()):
                    continue
                if fg["metrics"].get(key) != value:
                    sys.exit("%s frame %d: %s differs from features_float.json: is this "
                             "libvmaf 3.2.0?" % (name, fw["frameNum"], key))
        differs = sum(fg["metrics"][k] != fw["metrics"][k] for fg, fw in
                      zip(got["frames"], want["frames"]) for k in FLOAT_ADM_KEYS)
        out = os.path.join(CORPUS, "golden", name, "features_float.%s.json" % args.rcp)
        with open(out, "w") as f:
            f.write(text)  # libvmaf's file as it wrote it
        print("%s: %d float ADM values differ from features_float.json" % (name, differs))


if __name__ == "__main__":
    main()
