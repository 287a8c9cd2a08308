#!/usr/bin/python3
"""libvmaf_cuda.h (vmaf_cuda_capi_test.c, built against the installed
libvmaf.pc) against the CLI.

  cuda_with_cli.py no_driver|invalid|compare|valgrind CLI CUDA_TEST CORPUS_DIR WORK_DIR FAKE_DRIVER

no_driver: VMAFPP_CUDA_DRIVER names no library: vmaf_cuda_state_init's
  -EINVAL and its one-line message, the other error paths, HOST pictures.
invalid: with fake_libcuda.c: error paths, the state's and pictures' lifetimes,
  nothing left allocated or retained.
valgrind: invalid and one threaded DEVICE run under memcheck.
compare: FFmpeg's libvmaf_cuda sequence (DEVICE pictures filled device to
  device, luma only as FFmpeg does or every plane) and the HOST_PINNED and HOST methods on corpus pairs (odd sizes,
  4:2:0, 4:2:2, 4:4:4, 8 and 10 bit, chroma through psnr), n_threads 0 and 2:
  the pooled VMAF and every per-frame value at 17 digits, and the JSON file
  vmaf_write_output() writes, equal to the CLI's. With the fake driver this
  proves the API's bookkeeping (the planes copied are the caller's), not a
  GPU; where a real driver (libcuda.so.1) loads, the same runs go through it.
"""
import ctypes
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_with_cli import as_cli_file, clip, expect_printed_values, without_fps  # noqa: E402

# (pair, --feature, preallocation method, n_threads); device_luma copies luma
# only, as FFmpeg does, with features that read luma only.
RUNS = [
    ("p08_brick_176x144_420p8_bilinear2x", "float_ssim", "device_luma", 0),
    ("p20_coffee_333x187_420p8_x264crf30_odd", "psnr", "device", 0),
    ("p20_coffee_333x187_420p8_x264crf30_odd", "psnr", "device", 2),
    ("p20_coffee_333x187_420p8_x264crf30_odd", "psnr", "pinned", 0),
    ("p20_coffee_333x187_420p8_x264crf30_odd", "psnr", "host", 2),
    ("p09_astronaut_576x324_422p8_gblur", "psnr", "device", 0),
    ("p12_gravel_576x324_420p10_x265crf28", "float_ssim", "device", 2),
    ("p13_moon_352x288_444p10_x264crf30", "psnr", "device", 0),
]


def run(cmd, driver):
    env = dict(os.environ, VMAFPP_CUDA_DRIVER=driver)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"FAILED ({p.returncode}): VMAFPP_CUDA_DRIVER={driver} {' '.join(cmd)}\n{p.stdout}{p.stderr}")
    return p


def real_driver_loads():
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


def compare_one(cli, test, corpus, work, driver, pair, feature, method, threads):
    tag = f"{pair} {method} threads={threads} ({os.path.basename(driver)})"
    ref, dis = clip(corpus, work, pair, "ref"), clip(corpus, work, pair, "dis")
    base = [cli, "-r", ref, "-d", dis, "--json", "--threads", str(threads), "-q", "--feature", feature]
    cli_max = os.path.join(work, f"{pair}_{threads}_cli_max.json")
    cli_legacy = os.path.join(work, f"{pair}_{threads}_cli_legacy.json")
    run(base + ["--precision", "max", "-o", cli_max], driver)
    run(base + ["-o", cli_legacy], driver)
    with open(cli_max) as f:
        expect = json.load(f)
    keys = list(expect["frames"][0]["metrics"])
    out = os.path.join(work, f"{pair}_{method}_{threads}_capi.json")
    lines = run([test, ref, dis, str(threads), out, method, "--feature", feature, "--print"] + keys,
                driver).stdout.splitlines()
    compared = expect_printed_values(lines, expect, tag)
    with open(out) as f:
        mine = json.load(f)
    with open(cli_legacy) as f:
        theirs = json.load(f)
    mine = as_cli_file(mine, theirs, tag)
    if without_fps(mine) != without_fps(theirs):
        sys.exit(f"{tag}: vmaf_write_output's JSON differs from the CLI's ({out} vs {cli_legacy})")
    print(f"{tag}: pooled vmaf {expect['pooled_metrics']['vmaf']['mean']!r}, "
          f"{sum(len(fr['metrics']) for fr in expect['frames'])} per-frame values and the JSON file equal")
    return compared


def main():
    mode, cli, test, corpus, work, fake = sys.argv[1:7]
    os.makedirs(work, exist_ok=True)
    ref = clip(corpus, work, RUNS[0][0], "ref")
    if mode == "no_driver":
        p = run([test, "--no-driver", ref], os.path.join(work, "no-such-dir", "libcuda.so.1"))
        if "vmaf_cuda_state_init: no CUDA driver (" not in p.stderr:
            sys.exit(f"no one-line message naming the missing driver:\n{p.stderr}")
        print(p.stdout, end="")
    elif mode == "invalid":
        print(run([test, "--invalid", ref], fake).stdout, end="")
    elif mode == "valgrind":
        # The lifetimes and a threaded DEVICE run with chroma, under memcheck.
        vg = ["valgrind", "-q", "--error-exitcode=9", "--leak-check=full", "--errors-for-leak-kinds=definite"]
        print(run(vg + [test, "--invalid", ref], fake).stdout, end="")
        pair = RUNS[0][0]
        run(vg + [test, ref, clip(corpus, work, pair, "dis"), "2", os.path.join(work, "valgrind.json"),
                  "device", "--feature", "psnr"], fake)
        print("device run under valgrind: ok")
    else:
        drivers = [fake] + (["libcuda.so.1"] if real_driver_loads() else [])
        compared = sum(compare_one(cli, test, corpus, work, driver, *r) for driver in drivers for r in RUNS)
        print(f"capi_cuda_compare: {compared} values compared, all equal")


if __name__ == "__main__":
    main()
