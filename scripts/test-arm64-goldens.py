#!/usr/bin/env python3
"""Corpus goldens through an AArch64 CLI under qemu-user (scripts/test-arm64).

For each pair and run, the CLI scores the pair twice: at the best level the
emulated CPU has (NEON) and with --cpumask 1 (NEON off: the scalar code).
Each output must equal libvmaf 3.2.0's golden number for number (the goldens
print %.17g, which Python parses to the same double), and the two outputs
must be identical but for fps. Runs go two at a time (os.cpu_count()).

usage: test-arm64-goldens.py --cli 'qemu-aarch64 -L /usr/aarch64-linux-gnu build-arm64/vmafpp'
                             --work build-arm64/goldens PAIR_PREFIX...
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

# golden file -> the CLI options of its run (tests/corpus/README.md).
RUNS = {
    "default.json": ["--threads", "1"],
    "gain_1.2.json": ["-n", "--feature", "adm=adm_enhn_gain_limit=1.2"],
    "preset_nflx_ctc_v1.0.json": ["--nflx_ctc", "v1.0"],
}


def pair_names(prefixes):
    names = sorted(os.path.basename(p) for p in os.listdir(os.path.join(CORPUS, "golden")))
    out = []
    for prefix in prefixes:
        found = [n for n in names if n.startswith(prefix + "_")]
        if len(found) != 1:
            sys.exit(f"test-arm64-goldens: no single corpus pair named {prefix}_*")
        out.append(found[0])
    return out


def score(cli, work, pair, golden, extra, tag):
    ref = corpus_clips.clip(CORPUS, work, pair, "ref")
    dis = corpus_clips.clip(CORPUS, work, pair, "dis")
    out = os.path.join(work, f"{pair}.{golden}.{tag}.json")
    cmd = shlex.split(cli) + ["-r", ref, "-d", dis, "-q", "--json", "--precision", "max",
                              "-o", out] + RUNS[golden] + extra
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        return None, f"{shlex.join(cmd)} failed ({run.returncode}): {run.stderr.strip()}"
    with open(out) as f:
        got = json.load(f)
    got.pop("fps", None)
    return got, None


def differences(got, want):
    """Where `got` differs from the golden `want` (the e2e golden test's rules)."""
    if len(got.get("frames", [])) != len(want["frames"]):
        return [f"{len(got.get('frames', []))} frames, golden {len(want['frames'])}"]
    out = []
    for i, (g, w) in enumerate(zip(got["frames"], want["frames"])):
        for key, value in w["metrics"].items():
            if g["metrics"].get(key, "absent") != value:
                out.append(f"frame {i} {key}: {g['metrics'].get(key, 'absent')!r}, golden {value!r}")
        if len(g["metrics"]) != len(w["metrics"]):
            out.append(f"frame {i}: {len(g['metrics'])} metrics, golden {len(w['metrics'])}")
    for key, pooled in want.get("pooled_metrics", {}).items():
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
        problems += [f"{tag}: {d}" for d in differences(got, want)[:5]]
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
    jobs = [(p, g) for p in pair_names(args.pairs) for g in RUNS
            if os.path.exists(os.path.join(CORPUS, "golden", p, g))]
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
