#!/usr/bin/python3
"""The C API test program (vmaf_capi_test.c, built against the installed
libvmaf.pc) against the CLI on corpus pairs, 8 and 10 bit, n_threads 0 and 2:
the pooled VMAF at 17 digits, every per-frame value of every key at 17 digits
(the CLI's --precision max JSON), and the JSON file vmaf_write_output()
writes against the CLI's default JSON (all but fps).

  compare_with_cli.py compare|invalid|valgrind CLI CAPI_TEST CORPUS_DIR WORK_DIR
"""
import json
import lzma
import os
import subprocess
import sys

# (pair, CLI options, the same for vmaf_capi_test): odd sizes, 4:2:0, 4:2:2,
# 4:4:4, 8 and 10 bit; psnr reads chroma, so the chroma rows are copied and
# checked too; a bootstrap model collection, a model feature overload and
# subsampling.
RUNS = [
    ("p08_brick_176x144_420p8_bilinear2x", [], []),
    ("p20_coffee_333x187_420p8_x264crf30_odd", ["--feature", "psnr"], ["--feature", "psnr"]),
    ("p09_astronaut_576x324_422p8_gblur", ["--feature", "psnr"], ["--feature", "psnr"]),
    ("p12_gravel_576x324_420p10_x265crf28", ["--feature", "float_ssim"], ["--feature", "float_ssim"]),
    ("p13_moon_352x288_444p10_x264crf30", ["--feature", "psnr"], ["--feature", "psnr"]),
    ("p16_testsrc2_352x288_420p8_x264crf30", ["-m", "version=vmaf_b_v0.6.3"],
     ["--model", "vmaf_b_v0.6.3", "--collection"]),
    ("p17_mandelbrot_176x144_420p8_vp9crf55", ["-m", "version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1.2",
                                               "--feature", "motion=motion_force_zero=true"],
     ["--overload", "adm=adm_enhn_gain_limit=1.2", "--feature", "motion=motion_force_zero=true"]),
    ("p18_life_176x144_420p8_x264crf35", ["--subsample", "3"], ["--subsample", "3"]),
]


def clip(corpus, work, pair, which):
    out = os.path.join(work, f"{pair}_{which}.y4m")
    if not os.path.exists(out):
        with lzma.open(os.path.join(corpus, "clips", f"{pair}_{which}.y4m.xz")) as f:
            data = f.read()
        with open(out + ".tmp", "wb") as f:
            f.write(data)
        os.replace(out + ".tmp", out)
    return out


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAILED ({p.returncode}): {' '.join(cmd)}\n{p.stdout}{p.stderr}")
    return p.stdout


def without_fps(doc):
    doc = dict(doc)
    doc.pop("fps", None)
    return doc


def compare(cli, capi, corpus, work):
    compared = 0
    for pair, cli_opts, capi_opts in RUNS:
        ref, dis = clip(corpus, work, pair, "ref"), clip(corpus, work, pair, "dis")
        for threads in (0, 2):
            tag = f"{pair} threads={threads}"
            base = [cli, "-r", ref, "-d", dis, "--json", "--threads", str(threads), "-q"] + cli_opts
            cli_max, cli_legacy = (os.path.join(work, f"{pair}_{threads}_cli_{k}.json")
                                   for k in ("max", "legacy"))
            run(base + ["--precision", "max", "-o", cli_max])
            run(base + ["-o", cli_legacy])
            with open(cli_max) as f:
                expect = json.load(f)
            keys = list(expect["frames"][0]["metrics"])
            out = os.path.join(work, f"{pair}_{threads}_capi.json")
            args = [capi, ref, dis, str(threads), out] + capi_opts
            lines = run(args + ["--print"] + keys).splitlines()

            got = {}
            for line in lines:
                if line.startswith("pooled "):
                    _, key, value = line.split()
                    want = expect["pooled_metrics"][key]["mean"]
                    if float(value) != want:
                        sys.exit(f"{tag}: pooled {key} {value} != CLI {want!r}")
                    compared += 1
                    continue
                key, frame, value = line.split()
                got[(key, int(frame))] = float(value)
            for fr in expect["frames"]:
                for key, value in fr["metrics"].items():
                    g = got.get((key, fr["frameNum"]))
                    if g != value:
                        sys.exit(f"{tag}: {key} frame {fr['frameNum']}: C API {g!r} != CLI {value!r}")
                    compared += 1
            if len(got) != sum(len(fr["metrics"]) for fr in expect["frames"]):
                sys.exit(f"{tag}: the C API printed {len(got)} values, the CLI has more")

            with open(out) as f:
                mine = json.load(f)
            with open(cli_legacy) as f:
                theirs = json.load(f)
            # The files' versions differ by design: the C API writes libvmaf's
            # ("3.2.0"), the CLI vmafpp's (tests/install/check_versions.py).
            if mine.get("version") != "3.2.0":
                sys.exit(f"{tag}: vmaf_write_output's version is {mine.get('version')!r}, not 3.2.0")
            mine["version"] = theirs["version"]
            if without_fps(mine) != without_fps(theirs):
                sys.exit(f"{tag}: vmaf_write_output's JSON differs from the CLI's ({out} vs {cli_legacy})")
            compared += sum(len(fr["metrics"]) for fr in theirs["frames"])
            print(f"{tag}: pooled vmaf {expect['pooled_metrics']['vmaf']['mean']!r}, "
                  f"{len(got)} per-frame values and the JSON file equal")
    print(f"capi_matches_cli: {compared} values compared, all equal")


def main():
    mode, cli, capi, corpus, work = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    if mode == "invalid":
        print(run([capi, "--invalid", clip(corpus, work, RUNS[0][0], "ref")]), end="")
    elif mode == "valgrind":
        # Invalid calls and a threaded run with a collection and chroma, under memcheck.
        vg = ["valgrind", "-q", "--error-exitcode=9", "--leak-check=full",
              "--errors-for-leak-kinds=definite"]
        pair = RUNS[0][0]
        print(run(vg + [capi, "--invalid", clip(corpus, work, pair, "ref")]), end="")
        print(run(vg + [capi, clip(corpus, work, pair, "ref"), clip(corpus, work, pair, "dis"), "2",
                        os.path.join(work, "valgrind.json"), "--model", "vmaf_b_v0.6.3",
                        "--collection", "--feature", "psnr"]), end="")
    else:
        compare(cli, capi, corpus, work)


if __name__ == "__main__":
    main()
