"""The HTML report, --stats and the batch summary, checked from the outside.

    report_test.py render|large|stats|errors CLI CORPUS WORK [--screenshot PNG]

render: a corpus pair's report (vmafpp --report; the frame, time and value
    under a pointer put on frame 12), a three-encode comparison
    (vmafpp batch: the pair's encode and two requantised copies of its
    reference) and a libvmaf 3.2.0 golden (vmafpp report) drawn by headless
    Chromium; each page must say "rendered", log nothing on the console, show
    its curves in the screenshot (pixels of each input's colour inside each
    plot's area) and hold in its tables the statistics and worst frames this
    script computes with numpy from the JSON the page was made from.
    --screenshot also keeps the three-encode page's screenshot (docs/report.png).
large: a 100,000-frame synthetic libvmaf JSON: the page draws (parse, curves,
    tables) in under 2 s, its curves decimated (at most two points per pixel
    column) and its tables exact.
stats: --stats in JSON (--precision max) against numpy: percentiles equal
    numpy.percentile (linear) to the bit; the stdout table and the CSV rows;
    the -o output without --stats is the same but for the added members;
    vmafpp report --stats on small, tied, sparse, negative and wide series.
errors: bad input (missing or malformed files and lists, outputs that are
    inputs) gives one line on stderr and a non-zero exit, and leaves the
    inputs as they were.

Run by /usr/bin/python3 (Debian's, with numpy and PIL)."""
import hashlib
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from corpus_clips import clip  # noqa: E402

CHROMIUM = os.environ.get("VMAFPP_CHROMIUM", "/usr/bin/chromium")
PAIR = "p16_testsrc2_352x288_420p8_x264crf30"  # 24 frames with a visible curve
GOLDEN = "p01_astronaut_576x324_420p8_x264crf23"
COLORS = ["#1f77b4", "#d62728", "#2ca02c"]  # the page's first three
STATS = ["mean", "harmonic_mean", "min", "max", "stddev", "p1", "p5", "p10", "p50"]
FAILURES = []


def check(ok, what):
    if not ok:
        FAILURES.append(what)
        print("FAIL: " + what, flush=True)


def run(cmd, expect=0, timeout=120):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if expect is not None and p.returncode != expect:
        raise SystemExit("%s: exit %d (expected %d)\n%s" % (" ".join(cmd), p.returncode, expect, p.stderr))
    return p


# ---- what the page should show, computed here ----

def series_from_json(path):
    """{key: (frames, values)} of a vmafpp or libvmaf JSON result (finite values)."""
    with open(path) as f:
        j = json.load(f)
    out = {}
    for fr in j["frames"]:
        for k, v in fr["metrics"].items():
            if v is None:
                continue
            out.setdefault(k, ([], []))
            out[k][0].append(fr["frameNum"])
            out[k][1].append(float(v))
    return {k: (np.array(f), np.array(v, dtype=np.float64)) for k, (f, v) in out.items()}


def lower_is_worse(key):
    return not any(s in key for s in ("cambi", "motion", "aim"))


def stats_for(key, frames, values, threshold=60.0, worst=10):
    """The table's numbers, computed independently of the C++."""
    n = len(values)
    s = {"count": n, "mean": values.mean(), "harmonic_mean": n / np.sum(1.0 / (values + 1.0)) - 1.0,
         "min": values.min(), "max": values.max(), "stddev": values.std()}
    for p in (1, 5, 10, 50):
        s["p%d" % p] = np.percentile(values, p)  # numpy's default: linear
    s["below"] = int(np.count_nonzero(values < threshold))
    # Worst first, ties by frame number (a stable sort over frame order).
    order = np.argsort(values if lower_is_worse(key) else -values, kind="stable")
    s["worst"] = [(int(frames[i]), values[i]) for i in order[:worst]]
    return s


def close6(text, value):
    """A table cell printed with 6 decimals holds `value` (numpy's sums may
    differ from the C++'s in the last bits, never by half a unit of the 6th)."""
    return abs(float(text) - value) <= 5e-7 + 1e-12 * abs(value)


# ---- the page as Chromium drew it ----

class Dom(html.parser.HTMLParser):
    """The parts of the dumped DOM the checks read: the status element, the
    statistics cells, the worst-frame tables and the facts."""

    def __init__(self):
        super().__init__()
        self.status, self.status_attrs = None, {}
        self.stats = {}   # (metric, input index) -> {stat: text}
        self.worst = {}   # (metric, input index) -> [(frame text, value text)]
        self.facts = []   # rows of the facts table, as lists of cell texts
        self.plots = {}   # data-plot key -> attrs
        self._table = None
        self._row = None
        self._cell = None
        self._text = ""
        self._in_status = False
        self._in_facts = False
        self.tip = []     # the lines of the first plot's pointer box
        self._tip_depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id") == "status":
            self._in_status, self.status_attrs = True, a
        if a.get("id") == "facts":
            self._in_facts = True
        if "data-plot" in a:
            self.plots[a["data-plot"]] = a
        if self._tip_depth:
            self._tip_depth += 1
            self.tip.append("")
        elif a.get("class") == "tip" and not self.tip:
            self._tip_depth = 1
        if tag == "table":
            self._table = a
        elif tag == "tr":
            self._row = {"attrs": a, "cells": []}
        elif tag in ("td", "th") and self._row is not None:
            self._cell, self._text = a, ""

    def handle_endtag(self, tag):
        if self._tip_depth:
            self._tip_depth -= 1
        if tag == "div" and self._in_status:
            self._in_status = False
        if tag in ("td", "th") and self._cell is not None:
            self._row["cells"].append((self._cell, self._text.strip()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self._end_row(self._row)
            self._row = None
        elif tag == "table":
            self._table = None
            self._in_facts = False

    def _end_row(self, row):
        t = self._table or {}
        if "data-metric" in t and "data-input" in row["attrs"]:
            cells = {c.get("data-stat"): text for c, text in row["cells"] if c.get("data-stat")}
            self.stats[(t["data-metric"], int(row["attrs"]["data-input"]))] = cells
        elif "data-worst" in t:
            frame = [text for c, text in row["cells"] if "data-frame" in c]
            if frame:
                self.worst.setdefault((t["data-worst"], int(t["data-input"])), []).append(
                    (frame[0], row["cells"][-1][1]))
        elif self._in_facts:
            self.facts.append([text for _, text in row["cells"]])

    def handle_data(self, data):
        if self._tip_depth > 1:
            self.tip[-1] += data
        if self._in_status:
            self.status = (self.status or "") + data
        if self._cell is not None:
            self._text += data


def render(page, png, width=1280, height=1500, hash=""):
    """Chromium's DOM after the page's script ran, its screenshot, its
    console lines and the seconds it took (start to exit)."""
    # A profile of its own: ctest -j runs report_render and report_large at once.
    profile = tempfile.mkdtemp(prefix="chromium-", dir=os.path.dirname(os.path.abspath(png)))
    t = time.monotonic()
    p = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--user-data-dir=" + profile,
                        "--no-first-run", "--enable-logging=stderr", "--v=0", "--dump-dom",
                        "--screenshot=" + png, "--window-size=%d,%d" % (width, height),
                        "file://" + os.path.abspath(page) + hash],
                       capture_output=True, text=True, timeout=120)
    seconds = time.monotonic() - t
    shutil.rmtree(profile, ignore_errors=True)
    if p.returncode != 0 or not os.path.exists(png):
        raise SystemExit("chromium failed on %s (exit %d):\n%s" % (page, p.returncode, p.stderr[-2000:]))
    dom = Dom()
    dom.feed(p.stdout)
    console = [line for line in p.stderr.splitlines() if ":CONSOLE" in line]
    return dom, Image.open(png).convert("RGB"), console, seconds


def rgb(hex_color):
    return tuple(int(hex_color[i:i + 2], 16) for i in (1, 3, 5))


def colour_pixels(image, box, colour, tolerance=40):
    """Pixels within `tolerance` (per channel) of `colour` inside box (x, y, w, h)."""
    x, y, w, h = (int(round(v)) for v in box)
    a = np.asarray(image.crop((x, y, x + w, y + h)), dtype=np.int16)
    return int(np.count_nonzero(np.all(np.abs(a - np.array(rgb(colour))) <= tolerance, axis=2)))


def check_page(name, page, png, inputs, models, threshold=60.0, worst=10, hash=""):
    """inputs: the JSON results the page was made from, in the page's order."""
    dom, image, console, seconds = render(page, png, hash=hash)
    print("%s: rendered in %.2f s (chromium start to exit), page script %s ms"
          % (name, seconds, dom.status_attrs.get("data-ms")), flush=True)
    check(dom.status == "rendered", "%s: the page's status is %r, not 'rendered'" % (name, dom.status))
    check(not console, "%s: console output: %s" % (name, console[:3]))
    plots = json.loads(dom.status_attrs.get("data-plots", "[]"))
    check(sorted(p["key"] for p in plots) == sorted(models), "%s: plots %s, not one per model score %s"
          % (name, [p["key"] for p in plots], models))
    for p in plots:
        box = (p["x"], p["y"], p["w"], p["h"])
        check(p["w"] > 500 and p["h"] > 150, "%s: plot %s is %sx%s" % (name, p["key"], p["w"], p["h"]))
        for i in range(len(inputs)):
            n = colour_pixels(image, box, COLORS[i])
            # A curve across the plot is at least one pixel per column.
            check(n >= p["w"] * 0.5, "%s: plot %s shows %d pixels of input %d's colour" % (name, p["key"], n, i))
        # Nothing of the curve colours outside the curve area's left margin
        # (the axis labels are grey): the area check is looking at the curve.
        check(colour_pixels(image, (p["x"] - 50, p["y"], 45, p["h"]), COLORS[0]) == 0,
              "%s: the curve colour left of plot %s" % (name, p["key"]))
    for i, path in enumerate(inputs):
        series = series_from_json(path)
        for key, (frames, values) in series.items():
            exp = stats_for(key, frames, values, threshold, worst)
            cells = dom.stats.get((key, i))
            check(cells is not None, "%s: no statistics row for %s of input %d" % (name, key, i))
            if cells is None:
                continue
            check(cells.get("count") == str(exp["count"]), "%s %s[%d]: frames %s, expected %d"
                  % (name, key, i, cells.get("count"), exp["count"]))
            for s in STATS:
                check(s in cells and close6(cells[s], exp[s]), "%s %s[%d]: %s is %s, numpy says %.9f"
                      % (name, key, i, s, cells.get(s), exp[s]))
            if key in models:
                check(cells.get("below") == str(exp["below"]), "%s %s[%d]: below %s, expected %d"
                      % (name, key, i, cells.get("below"), exp["below"]))
                got = dom.worst.get((key, i), [])
                check([int(f) for f, _ in got] == [f for f, _ in exp["worst"]],
                      "%s %s[%d]: worst frames %s, expected %s" % (name, key, i, [f for f, _ in got],
                                                                   [f for f, _ in exp["worst"]]))
                check(all(close6(v, e) for (_, v), (_, e) in zip(got, exp["worst"])),
                      "%s %s[%d]: worst values differ" % (name, key, i))
    return dom, image


# ---- the runs ----

def requantised_y4m(src, dst, step):
    """The clip with its luma rounded to multiples of `step`: a worse encode."""
    with open(src, "rb") as f:
        header, body = f.read().split(b"\n", 1)
    fields = header.split()
    w = int([x for x in fields if x.startswith(b"W")][0][1:])
    h = int([x for x in fields if x.startswith(b"H")][0][1:])
    frame = 6 + w * h * 3 // 2  # "FRAME\n" and 4:2:0 8-bit planes
    data = bytearray(body)
    for at in range(0, len(data), frame):
        y = np.frombuffer(bytes(data[at + 6:at + 6 + w * h]), dtype=np.uint8).astype(np.int32)
        q = np.clip((y + step // 2) // step * step, 0, 255).astype(np.uint8)
        data[at + 6:at + 6 + w * h] = q.tobytes()
    with open(dst, "wb") as f:
        f.write(header + b"\n" + bytes(data))
    return dst


def test_render(cli, corpus, work, screenshot):
    ref, dis = clip(corpus, work, PAIR, "ref"), clip(corpus, work, PAIR, "dis")
    # 1. One corpus pair, scored with its report.
    one_json, one_html = os.path.join(work, "one.json"), os.path.join(work, "one.html")
    run([cli, "-r", ref, "-d", dis, "--feature", "psnr", "-q", "--json", "--precision", "max", "-o", one_json,
         "--report", one_html])
    # The pointer over frame 12 of 0..23: the curve area starts 56 px into the
    # plot and is 1132 px wide (the plot's 1200 less its margins).
    x = 56 + round(12 / 23 * (1132 - 1))
    dom, _ = check_page("pair", one_html, os.path.join(work, "one.png"), [one_json], ["vmaf"],
                        hash="#pointer=%d" % x)
    frames, values = series_from_json(one_json)["vmaf"]
    want = ["frame 12 · 0.480 s", "%s: %.4f" % (os.path.basename(dis), values[12])]
    check(dom.tip == want, "pair: the pointer shows %r, expected %r" % (dom.tip, want))
    facts = {row[0]: row[1:] for row in dom.facts if row}
    for fact in ("reference", "distorted", "size", "frames", "models", "vmafpp", "SIMD", "backend"):
        check(fact in facts and facts[fact][0], "pair: the run's facts lack %r" % fact)
    check(facts.get("size") == ["352x288"] and facts.get("frames") == ["24"],
          "pair: size/frames facts %s %s" % (facts.get("size"), facts.get("frames")))

    # 2. Three encodes of one reference, side by side (vmafpp batch).
    encodes = [dis, requantised_y4m(ref, os.path.join(work, "q40.y4m"), 40),
               requantised_y4m(ref, os.path.join(work, "q64.y4m"), 64)]
    outs = [os.path.join(work, "enc%d.json" % i) for i in range(3)]
    listing = os.path.join(work, "three.list")
    with open(listing, "w") as f:
        f.write("# reference, encode, its result\n")
        for e, o in zip(encodes, outs):
            f.write("%s\t%s\t%s\n" % (ref, e, o))
    three_html, summary = os.path.join(work, "three.html"), os.path.join(work, "three.csv")
    run([cli, "batch", listing, "--json", "--precision", "max", "--jobs", "2", "-q", "--summary", summary,
         "--report", three_html])
    png = os.path.join(work, "three.png")
    check_page("three encodes", three_html, png, outs, ["vmaf"])
    with open(summary) as f:
        rows = [line.split(",") for line in f.read().splitlines()]
    head = rows[0]
    check(len(rows) == 4, "summary: %d rows, expected a header and 3 pairs" % len(rows))
    for row, out, e in zip(rows[1:], outs, encodes):
        frames, values = series_from_json(out)["vmaf"]
        exp = stats_for("vmaf", frames, values)
        got = dict(zip(head, row))
        check(got.get("distorted") == e and got.get("frames") == str(len(values)),
              "summary row of %s: %s" % (e, row[:4]))
        for s in STATS:
            check(close6(got.get("vmaf_" + s, "nan"), exp[s]), "summary %s: vmaf_%s %s, numpy %.9f"
                  % (e, s, got.get("vmaf_" + s), exp[s]))
    if screenshot:
        # Cropped to the plot and the statistics, in 256 colours: a small PNG.
        page = Image.open(png).convert("RGB").crop((0, 0, 1280, 740))
        page.quantize(colors=256).save(screenshot, optimize=True)
        print("wrote %s (%d bytes)" % (screenshot, os.path.getsize(screenshot)))

    # 3. libvmaf 3.2.0's own JSON (a golden), through vmafpp report.
    golden = os.path.join(corpus, "golden", GOLDEN, "default.json")
    golden_html = os.path.join(work, "golden.html")
    run([cli, "report", golden, "-o", golden_html, "--frame-rate", "25", "--threshold", "95"])
    check_page("libvmaf golden", golden_html, os.path.join(work, "golden.png"), [golden], ["vmaf"], threshold=95)


def test_large(cli, work):
    """100,000 frames: vmaf, a feature and psnr, as libvmaf writes them."""
    n = 100_000
    rng = np.random.default_rng(20261207)
    t = np.arange(n)
    vmaf = np.clip(85 + 8 * np.sin(t / 900.0) + rng.normal(0, 2.5, n), 0, 100)
    vmaf[[1234, 50_000, 99_998]] = [12.5, 30.25, 5.0]  # drops the curve must keep
    psnr = 38 + 3 * np.cos(t / 1300.0) + rng.normal(0, 0.8, n)
    motion = np.abs(rng.normal(3, 1.5, n))
    path = os.path.join(work, "large.json")
    with open(path, "w") as f:
        f.write('{\n  "version": "3.2.0",\n  "fps": 1.0,\n  "frames": [\n')
        f.write(",\n".join('    {"frameNum": %d, "metrics": {"integer_motion2": %.17g, "psnr_y": %.17g, '
                           '"vmaf": %.17g}}' % (i, motion[i], psnr[i], vmaf[i]) for i in range(n)))
        f.write('\n  ]\n}\n')
    page = os.path.join(work, "large.html")
    t0 = time.monotonic()
    run([cli, "report", path, "-o", page, "--frame-rate", "60"])
    print("large: vmafpp report wrote %.1f MB in %.2f s" % (os.path.getsize(page) / 1e6, time.monotonic() - t0))
    dom, _ = check_page("100k frames", page, os.path.join(work, "large.png"), [path], ["vmaf"])
    ms = float(dom.status_attrs.get("data-ms", "inf"))
    check(ms < 2000, "100k frames: the page took %.0f ms to draw, more than 2 s" % ms)
    plot = dom.plots.get("vmaf", {})
    width = json.loads(dom.status_attrs.get("data-plots", "[{}]"))[0].get("w", 0)
    points = int(plot.get("data-points", "0"))
    check(0 < points <= 2 * width, "100k frames: %d points drawn for %s columns (not decimated)" % (points, width))
    worst = dom.worst.get(("vmaf", 0), [])
    check([f for f, _ in worst[:3]] == ["99998", "1234", "50000"], "100k frames: worst %s" % worst[:3])


def test_stats(cli, corpus, work):
    ref, dis = clip(corpus, work, PAIR, "ref"), clip(corpus, work, PAIR, "dis")
    base = [cli, "-r", ref, "-d", dis, "--feature", "psnr", "--feature", "float_ssim", "--feature", "cambi",
            "-q", "--threads", "1"]
    plain, stats = os.path.join(work, "plain.json"), os.path.join(work, "stats.json")
    run(base + ["--json", "--precision", "max", "-o", plain])
    p = run(base + ["--json", "--precision", "max", "-o", stats, "--stats", "--threshold", "92", "--worst", "4"])
    with open(plain) as f:
        plain_text = f.read()
    with open(stats) as f:
        stats_text = f.read()
    no_fps = lambda s: re.sub(r'"fps": [^,\n]*', '"fps"', s)  # noqa: E731 - the run's speed
    check(no_fps(stats_text).startswith(no_fps(plain_text)[:-3] + ",\n  \"vmafpp_facts\""),
          "stats: the --stats JSON is not the plain JSON plus members at its end")
    j = json.loads(stats_text)
    series = series_from_json(plain)
    check(set(j["vmafpp_stats"]["metrics"]) == set(series), "stats: metrics %s" % sorted(j["vmafpp_stats"]["metrics"]))
    for key, (frames, values) in series.items():
        got = j["vmafpp_stats"]["metrics"][key]
        for q in (1, 5, 10, 50):
            want = float(np.percentile(values, q))  # linear, numpy's default
            check(got["p%d" % q] == want, "stats %s: p%d %r, numpy.percentile %r" % (key, q, got["p%d" % q], want))
        # libvmaf's pooling sums in frame order; numpy's pairwise sum may
        # differ in the last bits, so these are compared to 1e-12.
        exp = stats_for(key, frames, values, 92, 4)
        for s in ("mean", "harmonic_mean", "min", "max", "stddev"):
            check(abs(got[s] - exp[s]) <= 1e-12 * max(1.0, abs(exp[s])),
                  "stats %s: %s %r, numpy %r" % (key, s, got[s], exp[s]))
        if key == "vmaf":
            check(got["below_threshold"] == exp["below"], "stats vmaf: below 92: %r" % got["below_threshold"])
            check([w["frame"] for w in got["worst_frames"]] == [f for f, _ in exp["worst"]],
                  "stats vmaf: worst frames %r" % got["worst_frames"])
    # The stdout table: one row per metric, printed with 6 decimals.
    rows = {}
    for line in p.stdout.splitlines():
        parts = line.split()
        if len(parts) == 12 and parts[0] in series:
            rows[parts[0]] = parts
    check(set(rows) == set(series), "stats: stdout rows %s" % sorted(rows))
    for key, parts in rows.items():
        exp = stats_for(key, *series[key], 92, 4)
        check(parts[1] == str(exp["count"]), "stats stdout %s: frames %s" % (key, parts[1]))
        for s, text in zip(STATS, parts[2:11]):
            check(close6(text, exp[s]), "stats stdout %s: %s %s, numpy %.9f" % (key, s, text, exp[s]))
    # CSV: the plain rows, then one row per statistic under each column.
    plain_csv, stats_csv = os.path.join(work, "plain.csv"), os.path.join(work, "stats.csv")
    run(base + ["--csv", "-o", plain_csv])
    run(base + ["--csv", "-o", stats_csv, "--stats"])
    with open(plain_csv) as f:
        plain_lines = f.read().splitlines()
    with open(stats_csv) as f:
        stat_lines = f.read().splitlines()
    check(stat_lines[:len(plain_lines)] == plain_lines, "stats: the --stats CSV does not start with the plain CSV")
    head = plain_lines[0].split(",")
    for line in stat_lines[len(plain_lines):]:
        cells = line.split(",")
        if cells[0] not in STATS:
            continue
        for col, text in zip(head[1:], cells[1:]):
            if col in series and text:
                exp = stats_for(col, *series[col])
                check(close6(text, exp[cells[0]]), "stats csv %s %s: %s, numpy %.9f" % (col, cells[0], text, exp[cells[0]]))


def test_stats_edges(cli, work):
    """vmafpp report --stats on a libvmaf-style JSON of small, tied, sparse
    (null-holed), negative and wide series: the interpolation's corners."""
    rng = np.random.default_rng(7)
    columns = {
        "vmaf": [5, 5, 5, 1, 9, 100, 0, 37.5, 62.25, 5],
        "two": [0, None, None, 1e6, None, None, None, None, None, None],
        "one": [None, None, None, None, None, None, None, 42.5, None, None],
        "neg": [-3.25, 7, -1e-3, 2.5, 11, -8, 0.125, 4, 3, 3],
        "wide": list(rng.uniform(0, 1000, 10)),
    }
    path = os.path.join(work, "edges.json")
    with open(path, "w") as f:
        json.dump({"version": "3.2.0", "frames": [
            {"frameNum": i, "metrics": {k: v[i] for k, v in columns.items()}} for i in range(10)]}, f)
    p = run([cli, "report", path, "--stats", "--threshold", "5.5", "--worst", "3"])
    rows = {parts[0]: parts for parts in (line.split() for line in p.stdout.splitlines()) if len(parts) == 12}
    check(set(columns) <= set(rows), "edges: rows %s" % sorted(rows))
    for key, column in columns.items():
        frames = np.array([i for i, v in enumerate(column) if v is not None])
        values = np.array([v for v in column if v is not None], dtype=np.float64)
        exp = stats_for(key, frames, values, 5.5, 3)
        parts = rows.get(key, [key] + ["nan"] * 11)
        check(parts[1] == str(len(values)), "edges %s: frames %s" % (key, parts[1]))
        for s, text in zip(STATS, parts[2:11]):
            check(close6(text, exp[s]), "edges %s: %s %s, numpy %.9f" % (key, s, text, exp[s]))
        check(parts[11] == (str(exp["below"]) if key == "vmaf" else "-"), "edges %s: below %s" % (key, parts[11]))
    worst = [line for line in p.stdout.splitlines() if line.startswith("vmaf worst frames:")]
    check(worst == ["vmaf worst frames: 6 (0.000000) 3 (1.000000) 0 (5.000000)"], "edges: %s" % worst)


def one_line_error(name, p):
    lines = p.stderr.strip().splitlines()
    check(p.returncode not in (0, None) and p.returncode < 128,
          "%s: exit %s, expected a non-zero exit (no crash)" % (name, p.returncode))
    check(len(lines) == 1, "%s: stderr is %d lines: %r" % (name, len(lines), p.stderr[:400]))


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_errors(cli, corpus, work):
    ref, dis = clip(corpus, work, PAIR, "ref"), clip(corpus, work, PAIR, "dis")
    good = os.path.join(corpus, "golden", GOLDEN, "default.json")
    bad_json = os.path.join(work, "bad.json")
    with open(bad_json, "w") as f:
        f.write('{"frames": [ {"frameNum": 0, "metrics": {"vmaf": 1}}, ')
    no_frames = os.path.join(work, "noframes.json")
    with open(no_frames, "w") as f:
        f.write('{"version": "3.2.0", "pooled_metrics": {}}')
    backwards = os.path.join(work, "backwards.json")
    with open(backwards, "w") as f:
        f.write('{"frames": [{"frameNum": 1, "metrics": {"vmaf": 1}}, {"frameNum": 0, "metrics": {"vmaf": 2}}]}')
    bad_list = os.path.join(work, "bad.list")
    with open(bad_list, "w") as f:
        f.write("%s\t%s\n# fine\n%s only-two-fields-and a fourth\n" % (ref, dis, ref))
    empty_list = os.path.join(work, "empty.list")
    with open(empty_list, "w") as f:
        f.write("# nothing\n\n")
    missing_list = os.path.join(work, "missing.list")
    with open(missing_list, "w") as f:
        f.write("%s\t%s\t%s\n" % (ref, os.path.join(work, "no-such.y4m"), os.path.join(work, "m.json")))
    out = os.path.join(work, "err.html")
    inputs = [good, bad_json, no_frames, backwards, bad_list, empty_list, missing_list, ref, dis]
    before = {p: digest(p) for p in inputs}
    cases = [
        ("report of a missing file", [cli, "report", os.path.join(work, "absent.json"), "-o", out]),
        ("report of malformed JSON", [cli, "report", bad_json, "-o", out]),
        ("report of JSON without frames", [cli, "report", no_frames, "-o", out]),
        ("report of frames out of order", [cli, "report", backwards, "-o", out]),
        ("report of a Y4M file", [cli, "report", ref, "-o", out]),
        ("report of a directory", [cli, "report", work, "-o", out]),
        ("report writing over its input", [cli, "report", good, "-o", good]),
        ("report with no output", [cli, "report", good]),
        ("report with a malformed list", [cli, "report", "--list", bad_list, "-o", out]),
        ("report with a bad --threshold", [cli, "report", good, "-o", out, "--threshold", "nan"]),
        ("batch of a malformed list", [cli, "batch", bad_list, "-q"]),
        ("batch of an empty list", [cli, "batch", empty_list, "-q"]),
        ("batch of a missing list", [cli, "batch", os.path.join(work, "absent.list"), "-q"]),
        ("batch writing its summary over its list", [cli, "batch", missing_list, "--summary", missing_list]),
        ("batch writing its report over a video", [cli, "batch", missing_list, "--report", ref]),
        ("--report over the distorted video", [cli, "-r", ref, "-d", dis, "-q", "--report", dis]),
        ("--report and -o the same file", [cli, "-r", ref, "-d", dis, "-q", "--json", "-o", out, "--report", out]),
    ]
    for name, cmd in cases:
        one_line_error(name, run(cmd, expect=None, timeout=60))
    check(not os.path.exists(out), "a failed run left %s" % out)
    # A pair that fails is a row with its error, and the exit status says so.
    summary = os.path.join(work, "missing.csv")
    p = run([cli, "batch", missing_list, "-q", "--summary", summary], expect=None, timeout=60)
    check(p.returncode == 1, "batch with a missing video: exit %d" % p.returncode)
    with open(summary) as f:
        rows = f.read().splitlines()
    check(len(rows) == 2 and "no-such.y4m" in rows[1] and rows[1].split(",")[-1],
          "batch with a missing video: summary %r" % rows)
    check(all(digest(p) == d for p, d in before.items()), "an input file changed")


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("render", "large", "stats", "errors"):
        raise SystemExit(__doc__)
    what, cli, corpus, work = sys.argv[1:5]
    screenshot = sys.argv[6] if len(sys.argv) > 6 and sys.argv[5] == "--screenshot" else None
    work = os.path.join(work, what)
    os.makedirs(work, exist_ok=True)
    if what in ("render", "large") and not os.access(CHROMIUM, os.X_OK):
        raise SystemExit("%s not found: scripts/install-deps installs Debian's chromium" % CHROMIUM)
    t = time.monotonic()
    if what == "render":
        test_render(cli, corpus, work, screenshot)
    elif what == "large":
        test_large(cli, work)
    elif what == "stats":
        test_stats(cli, corpus, work)
        test_stats_edges(cli, work)
    else:
        test_errors(cli, corpus, work)
    print("%s: %d failures, %.1f s" % (what, len(FAILURES), time.monotonic() - t))
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
