#!/usr/bin/python3
"""The C API test program (vmaf_capi_test.c, built against the installed
libvmaf.pc) against the CLI on corpus pairs, 8 and 10 bit, n_threads 0 and 2:
the pooled VMAF at 17 digits, every per-frame value of every key at 17 digits
(the CLI's --precision max JSON), and the JSON file vmaf_write_output()
writes against the CLI's default JSON (all but fps).

  compare_with_cli.py compare|filter|invalid|valgrind CLI CAPI_TEST CORPUS_DIR WORK_DIR

filter: FFmpeg's call sequences with the filter's older options and with
models registered and never scored (FILTER_RUNS).
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from corpus_clips import clip as corpus_clip  # noqa: E402  (tests/support/corpus_clips.py)

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


MODEL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "model")

# FFmpeg's libvmaf filter with its older options, and models registered and
# never scored. libvmaf 3.2.0 writes a model's score into its collector only
# when vmaf_score_at_index/vmaf_score_pooled asks for it (the flush scores
# none), looks a score up by the model's name before predicting, and
# vmaf_write_output writes what the collector holds. The filter pools only its
# `model` option's models (default version=vmaf_v0.6.1, named "vmaf"), so:
# the pooled vmaf is vmaf_v0.6.1's (the golden default.json, libvmaf's run),
# even where an unscored model or collection is also named "vmaf" (sequence
# (a)), and the file holds the features of every registered model but no
# output of an unscored one (sequence (b)). Each run: (pair, C API options,
# CLI -m options naming every model, the unscored one as UNSCORED, whether
# its features are vmaf_v0.6.1's, so that the file's keys are the golden
# default.json's exactly). The CLI's output less UNSCORED's keys is expected.
UNSCORED = "unscored"
FILTER_RUNS = [
    # model_path=vmaf_b_v0.6.3.json:enable_conf_interval=1 (a collection named "vmaf")
    ("p16_testsrc2_352x288_420p8_x264crf30",
     ["--model-path", os.path.join(MODEL_DIR, "vmaf_b_v0.6.3.json"), "--conf-interval"],
     ["-m", f"path={os.path.join(MODEL_DIR, 'vmaf_b_v0.6.3.json')}:name={UNSCORED}",
      "-m", "version=vmaf_v0.6.1"], True),
    # model_path=vmaf_v0.6.1neg.json (a model named "vmaf"; its own features)
    ("p16_testsrc2_352x288_420p8_x264crf30",
     ["--model-path", os.path.join(MODEL_DIR, "vmaf_v0.6.1neg.json")],
     ["-m", f"path={os.path.join(MODEL_DIR, 'vmaf_v0.6.1neg.json')}:name={UNSCORED}",
      "-m", "version=vmaf_v0.6.1"], False),
    # (a): a model and a collection both named "vmaf", the model pooled
    ("p16_testsrc2_352x288_420p8_x264crf30", ["--unscored", "collection:vmaf_b_v0.6.3:vmaf"],
     ["-m", "version=vmaf_v0.6.1", "-m", f"version=vmaf_b_v0.6.3:name={UNSCORED}"], True),
    # (b): a model registered and never scored ("neg"), 2 threads
    ("p01_astronaut_576x324_420p8_x264crf23", ["--unscored", "model:vmaf_v0.6.1neg:neg"],
     ["-m", "version=vmaf_v0.6.1", "-m", f"version=vmaf_v0.6.1neg:name={UNSCORED}"], False),
]


def clip(corpus, work, pair, which):
    return corpus_clip(corpus, work, pair, which)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAILED ({p.returncode}): {' '.join(cmd)}\n{p.stdout}{p.stderr}")
    return p.stdout


def without_fps(doc):
    doc = dict(doc)
    doc.pop("fps", None)
    return doc


def as_cli_file(mine, theirs, tag):
    """The C API's file with the CLI's version, once its own is checked: the
    versions differ by design (the C API writes libvmaf's "3.2.0", the CLI
    vmafpp's; tests/install/check_versions.py), everything else must not."""
    if mine.get("version") != "3.2.0":
        sys.exit(f"{tag}: vmaf_write_output's version is {mine.get('version')!r}, not 3.2.0")
    return dict(mine, version=theirs.get("version"))


def expect_printed_values(lines, expect, tag):
    """The values the C API test printed (--print: "pooled KEY V" and
    "KEY FRAME V" lines) against the CLI's file `expect`, every one exactly and
    none missing or extra; exits naming the first difference. Returns how
    many were compared."""
    got, compared = {}, 0
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
        sys.exit(f"{tag}: the C API printed {len(got)} values, the CLI has another count")
    return compared


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

            compared += expect_printed_values(lines, expect, tag)

            with open(out) as f:
                mine = json.load(f)
            with open(cli_legacy) as f:
                theirs = json.load(f)
            mine = as_cli_file(mine, theirs, tag)
            if without_fps(mine) != without_fps(theirs):
                sys.exit(f"{tag}: vmaf_write_output's JSON differs from the CLI's ({out} vs {cli_legacy})")
            compared += sum(len(fr["metrics"]) for fr in theirs["frames"])
            print(f"{tag}: pooled vmaf {expect['pooled_metrics']['vmaf']['mean']!r}, "
                  f"{sum(len(fr['metrics']) for fr in expect['frames'])} per-frame values and the JSON file equal")
    print(f"capi_matches_cli: {compared} values compared, all equal")


def is_unscored(key):
    return key == UNSCORED or key.startswith(UNSCORED + "_")


def without_unscored(doc):
    doc = without_fps(doc)
    doc["frames"] = [dict(fr, metrics={k: v for k, v in fr["metrics"].items() if not is_unscored(k)})
                     for fr in doc["frames"]]
    doc["pooled_metrics"] = {k: v for k, v in doc["pooled_metrics"].items() if not is_unscored(k)}
    return doc


def compare_filter_runs(cli, capi, corpus, work):
    compared = 0
    for n, (pair, capi_opts, cli_models, default_keys) in enumerate(FILTER_RUNS):
        threads = 2 if n == len(FILTER_RUNS) - 1 else 0
        tag = f"{pair} {' '.join(capi_opts)}"
        ref, dis = clip(corpus, work, pair, "ref"), clip(corpus, work, pair, "dis")
        base = [cli, "-r", ref, "-d", dis, "--json", "--threads", str(threads), "-q"] + cli_models
        cli_legacy = os.path.join(work, f"filter{n}_cli.json")
        run(base + ["-o", cli_legacy])
        with open(cli_legacy) as f:
            theirs = without_unscored(json.load(f))
        with open(os.path.join(corpus, "golden", pair, "default.json")) as f:
            golden = json.load(f)
        out = os.path.join(work, f"filter{n}_capi.json")
        lines = run([capi, ref, dis, str(threads), out] + capi_opts).splitlines()
        want = golden["pooled_metrics"]["vmaf"]["mean"]
        if len(lines) != 1 or not lines[0].startswith("pooled vmaf ") or float(lines[0].split()[2]) != want:
            sys.exit(f"{tag}: the C API printed {lines}, libvmaf pools vmaf_v0.6.1 to {want!r}")
        with open(out) as f:
            mine = without_fps(as_cli_file(json.load(f), theirs, tag))
        keys = list(mine["frames"][0]["metrics"])
        if default_keys and keys != list(golden["frames"][0]["metrics"]):
            sys.exit(f"{tag}: vmaf_write_output wrote {keys}, libvmaf the golden default.json's "
                     f"{list(golden['frames'][0]['metrics'])}")
        if mine != theirs:
            sys.exit(f"{tag}: vmaf_write_output's JSON ({out}) is not the CLI's less the "
                     f"unscored model's keys ({cli_legacy}): keys {keys} vs "
                     f"{list(theirs['frames'][0]['metrics'])}")
        compared += sum(len(fr["metrics"]) for fr in mine["frames"])
        print(f"{tag}: pooled vmaf {want!r} (vmaf_v0.6.1's), the file's {len(keys)} keys "
              "as libvmaf writes them")
    print(f"capi_filter_options: {compared} values compared, all equal")


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
    elif mode == "filter":
        compare_filter_runs(cli, capi, corpus, work)
    else:
        compare(cli, capi, corpus, work)


if __name__ == "__main__":
    main()
