#!/usr/bin/env python3
"""Corpus goldens through an AArch64 CLI under qemu-user (scripts/test-arm64).

For each pair and run, the CLI scores the pair twice: at the best level the
emulated CPU has (NEON) and with --cpumask 1 (NEON off: the scalar code).
Each output must equal libvmaf 3.2.0's golden number for number (the goldens
print %.17g, which Python parses to the same double), and the two outputs
must be identical but for fps. Runs go two at a time (os.cpu_count()).

usage: test-arm64-goldens.py --cli 'qemu-aarch64 -L /usr/aarch64-linux-gnu build-arm64/vmafpp'
                             --work build-arm64/goldens PAIR_PREFIX[:GOLDEN,...]...

A pair runs every golden of RUNS it has, or only the goldens named after it
(p07:cambi_opts.json,features_speed.json).
"""

import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "support"))
import corpus_clips  # noqa: E402

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "corpus")

# The features of features_other.json, in the oracle's order; a pair's golden
# has those libvmaf could score on it (manifest.json, features_other_status).
OTHER_FEATURES = ("psnr", "float_ssim", "float_ms_ssim", "ciede", "cambi", "psnr_hvs")


def features_other_args(pair):
    with open(os.path.join(CORPUS, "manifest.json")) as f:
        entry = next(p for p in json.load(f)["pairs"] if p["name"] == pair)
    status = entry["features_other_status"]
    args = ["--threads", "1", "-n"]
    for feature in OTHER_FEATURES:
        if status.get(feature, {}).get("ok", False):
            args += ["--feature", feature]
    return args


# golden file -> the CLI options of its run (tests/corpus/README.md), or a
# function of the pair that gives them.
RUNS = {
    "default.json": ["--threads", "1"],
    "gain_1.2.json": ["-n", "--feature", "adm=adm_enhn_gain_limit=1.2"],
    "preset_nflx_ctc_v1.0.json": ["--nflx_ctc", "v1.0"],
    # CAMBI, SSIM / MS-SSIM, CIEDE and PSNR-HVS (with psnr).
    "features_other.json": features_other_args,
    "features_float.json": ["--threads", "1", "-n", "--feature", "float_adm", "--feature",
                            "float_vif", "--feature", "float_motion"],
    "features_speed.json": ["--threads", "1", "-n", "--feature", "speed_chroma",
                            "--feature", "speed_temporal"],
    "cambi_opts.json": ["--threads", "1", "-n", "--feature",
                        "cambi=full_ref=true:topk=0.2:window_size=45:tvi_threshold=0.012:max_log_contrast=3"],
}


# Metrics of a golden that have no AArch64 value: libvmaf scored the corpus
# on x86, where float ADM's DIVS is rcpss refined by one Newton step; on
# AArch64 libvmaf (and vmafpp) divide plainly (float_adm_kernels.hpp's
# divide()), so float ADM's numbers differ from the x86 golden in the last
# digits at every level. They are still compared NEON against scalar, bit
# for bit; every other metric of the golden against libvmaf's number.
X86_ONLY = {
    "features_float.json": lambda key: key.startswith("adm") or key == "aim",
}


def run_args(golden, pair):
    args = RUNS[golden]
    return args(pair) if callable(args) else args


def pair_names(prefixes):
    """(pair, the goldens it runs: None for every one of RUNS) per argument."""
    names = sorted(os.path.basename(p) for p in os.listdir(os.path.join(CORPUS, "golden")))
    out = []
    for arg in prefixes:
        prefix, _, only = arg.partition(":")
        found = [n for n in names if n.startswith(prefix + "_")]
        if len(found) != 1:
            sys.exit(f"test-arm64-goldens: no single corpus pair named {prefix}_*")
        goldens = only.split(",") if only else None
        for g in goldens or []:
            if g not in RUNS:
                sys.exit(f"test-arm64-goldens: no run for golden {g}")
        out.append((found[0], goldens))
    return out


def has_golden(pair, golden):
    """Whether libvmaf scored the run on the pair (cambi_opts.json of a pair
    below cambi's window has no frames)."""
    path = os.path.join(CORPUS, "golden", pair, golden)
    if not os.path.exists(path):
        return False
    with open(path) as f:
        return bool(json.load(f)["frames"])


def score(cli, work, pair, golden, extra, tag):
    ref = corpus_clips.clip(CORPUS, work, pair, "ref")
    dis = corpus_clips.clip(CORPUS, work, pair, "dis")
    out = os.path.join(work, f"{pair}.{golden}.{tag}.json")
    cmd = shlex.split(cli) + ["-r", ref, "-d", dis, "-q", "--json", "--precision", "max",
                              "-o", out] + run_args(golden, pair) + extra
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        return None, f"{shlex.join(cmd)} failed ({run.returncode}): {run.stderr.strip()}"
    with open(out) as f:
        got = json.load(f)
    got.pop("fps", None)
    return got, None


def differences(got, want, x86_only=lambda key: False):
    """Where `got` differs from the golden `want` (the e2e golden test's rules),
    leaving out the metrics x86_only names."""
    if len(got.get("frames", [])) != len(want["frames"]):
        return [f"{len(got.get('frames', []))} frames, golden {len(want['frames'])}"]
    out = []
    for i, (g, w) in enumerate(zip(got["frames"], want["frames"])):
        for key, value in w["metrics"].items():
            if x86_only(key):
                continue
            if g["metrics"].get(key, "absent") != value:
                out.append(f"frame {i} {key}: {g['metrics'].get(key, 'absent')!r}, golden {value!r}")
        if len(g["metrics"]) != len(w["metrics"]):
            out.append(f"frame {i}: {len(g['metrics'])} metrics, golden {len(w['metrics'])}")
    for key, pooled in want.get("pooled_metrics", {}).items():
        if x86_only(key):
            continue
        for method, value in pooled.items():
            if value is None:
                continue
            have = got.get("pooled_metrics", {}).get(key, {}).get(method)
            if have != value:
                out.append(f"pooled {key} {method}: {have!r}, golden {value!r}")
    return out


def check(cli, work, pair, golden):
    """Problems of one pair and golden at both levels; empty when all agree."""
    with open(os.path.join(CORPUS, "golden", pair, golden)) as f:
        want = json.load(f)
    problems = []
    outputs = {}
    for tag, extra in (("neon", []), ("scalar", ["--cpumask", "1"])):
        got, error = score(cli, work, pair, golden, extra, tag)
        if error:
            problems.append(error)
            continue
        outputs[tag] = got
        x86_only = X86_ONLY.get(golden, lambda key: False)
        problems += [f"{tag}: {d}" for d in differences(got, want, x86_only)[:5]]
    if len(outputs) == 2 and outputs["neon"] != outputs["scalar"]:
        problems.append("the NEON and scalar outputs differ")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("pairs", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    jobs = [(p, g) for p, only in pair_names(args.pairs) for g in (only or RUNS) if has_golden(p, g)]
    # Decompressed once, before two runs of one pair could race on a clip.
    for pair in sorted({p for p, _ in jobs}):
        for which in ("ref", "dis"):
            corpus_clips.clip(CORPUS, args.work, pair, which)
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = pool.map(lambda job: (job, check(args.cli, args.work, *job)), jobs)
        for (pair, golden), problems in results:
            print(f"{'FAILED' if problems else 'ok    '} {pair} {golden} (neon, scalar)")
            for p in problems:
                print(f"    {p}")
            failed += bool(problems)
    print(f"test-arm64-goldens: {len(jobs) - failed} of {len(jobs)} goldens identical at NEON and scalar")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
