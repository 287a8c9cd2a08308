"""vmafpp's Python module against the CLI: score() on file paths, on numpy
frames (luma and per-plane) and the streaming Scorer give the CLI's
--precision max JSON values bit for bit; errors raise vmafpp.Error."""
import json
import os
import sys
import subprocess
import tempfile
import threading
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "support"))
from corpus_clips import clip as corpus_clip  # noqa: E402  (tests/support/corpus_clips.py)

import numpy as np

import vmafpp

CLI = os.environ.get("VMAFPP_CLI", "vmafpp")
CORPUS = os.environ.get("VMAFPP_CORPUS_DIR", "")
WORK = os.environ.get("VMAFPP_TEST_WORK_DIR") or tempfile.mkdtemp()

PAIR8 = "p08_brick_176x144_420p8_bilinear2x"
PAIR10 = "p12_gravel_576x324_420p10_x265crf28"
PAIR_ODD = "p20_coffee_333x187_420p8_x264crf30_odd"


def clip(pair, which):
    return corpus_clip(CORPUS, WORK, pair, which)


def read_y4m(path):
    """(Y, U, V) arrays of shape (N, h, w) as the file stores them, and the bit depth."""
    with open(path, "rb") as f:
        data = f.read()
    header, rest = data.split(b"\n", 1)
    tokens = {t[:1]: t[1:] for t in header.split()[1:]}
    w, h = int(tokens[b"W"]), int(tokens[b"H"])
    c = tokens.get(b"C", b"420").decode()
    bpc = int(c.split("p")[1]) if "p" in c and c.split("p")[1].isdigit() else 8
    sx, sy = (0, 0) if c.startswith("444") else (1, 0) if c.startswith("422") else (1, 1)
    cw, ch = (w + sx) >> sx, (h + sy) >> sy
    dtype = np.uint16 if bpc > 8 else np.uint8
    frame_samples = w * h + 2 * cw * ch
    planes = ([], [], [])
    pos = 0
    while pos < len(rest):
        pos = rest.index(b"\n", pos) + 1  # the FRAME line
        frame = np.frombuffer(rest, dtype=dtype, count=frame_samples, offset=pos)
        pos += frame.nbytes
        planes[0].append(frame[: w * h].reshape(h, w))
        planes[1].append(frame[w * h: w * h + cw * ch].reshape(ch, cw))
        planes[2].append(frame[w * h + cw * ch:].reshape(ch, cw))
    return tuple(np.stack(p) for p in planes), bpc


def cli_json(pair, threads=0, features=()):
    out = os.path.join(WORK, f"{pair}_{threads}_{'_'.join(features)}_py.json")
    cmd = [CLI, "-r", clip(pair, "ref"), "-d", clip(pair, "dis"), "--json", "--precision", "max",
           "--threads", str(threads), "-q", "-o", out]
    for f in features:
        cmd += ["--feature", f]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f)


class ScoreMatchesCli(unittest.TestCase):
    def assert_same(self, got, want, keys=None):
        """Every frame value and pooled value of `want` (for `keys`, default all) equal."""
        self.assertEqual(len(got["frames"]), len(want["frames"]))
        n = 0
        for g, w in zip(got["frames"], want["frames"]):
            self.assertEqual(g["frameNum"], w["frameNum"])
            for key, value in w["metrics"].items():
                if keys is None or key in keys:
                    self.assertEqual(g["metrics"][key], value, f"{key} frame {w['frameNum']}")
                    n += 1
        for key, pooled in want["pooled_metrics"].items():
            if keys is None or key in keys:
                self.assertEqual(got["pooled_metrics"][key], pooled, key)
                n += 4
        if keys is None:
            self.assertEqual(list(got["pooled_metrics"]), list(want["pooled_metrics"]))
        return n

    def test_paths(self):
        for pair, threads, features in [(PAIR8, 0, ()), (PAIR8, 2, ("psnr",)), (PAIR10, 2, ("float_ssim",))]:
            with self.subTest(pair=pair, threads=threads):
                got = vmafpp.score(clip(pair, "ref"), clip(pair, "dis"), features=list(features),
                                   threads=threads)
                self.assertGreater(self.assert_same(got, cli_json(pair, threads, features)), 100)

    def test_raw_yuv_paths(self):
        # The Y4M's frames without headers, read as raw 4:2:0 with the CLI's -w -h -p -b.
        ref, bpc = read_y4m(clip(PAIR10, "ref"))
        dis, _ = read_y4m(clip(PAIR10, "dis"))
        paths = []
        for name, planes in (("ref", ref), ("dis", dis)):
            path = os.path.join(WORK, f"{PAIR10}_{name}.yuv")
            with open(path, "wb") as f:
                for n in range(planes[0].shape[0]):
                    for p in planes:
                        f.write(p[n].tobytes())
            paths.append(path)
        h, w = ref[0].shape[1:]
        got = vmafpp.score(paths[0], paths[1], width=w, height=h, pixel_format="420", bitdepth=bpc)
        self.assert_same(got, cli_json(PAIR10))

    def test_numpy_luma(self):
        for pair in (PAIR8, PAIR10):
            with self.subTest(pair=pair):
                ref, bpc = read_y4m(clip(pair, "ref"))
                dis, _ = read_y4m(clip(pair, "dis"))
                got = vmafpp.score(ref[0], dis[0], bitdepth=bpc if bpc > 8 else None, threads=2)
                want = cli_json(pair, 2)
                self.assertGreater(self.assert_same(got, want), 100)

    def test_numpy_planes_with_chroma(self):
        # psnr reads chroma: Y4M's ceil-sized chroma of an odd size, as planes.
        ref, _ = read_y4m(clip(PAIR_ODD, "ref"))
        dis, _ = read_y4m(clip(PAIR_ODD, "dis"))
        got = vmafpp.score(ref, dis, features=["psnr"])
        want = cli_json(PAIR_ODD, 0, ("psnr",))
        self.assertIn("psnr_cb", got["pooled_metrics"])
        self.assert_same(got, want)

    def test_streaming_scorer(self):
        ref, bpc = read_y4m(clip(PAIR10, "ref"))
        dis, _ = read_y4m(clip(PAIR10, "dis"))
        s = vmafpp.Scorer(ref[0].shape[2], ref[0].shape[1], bitdepth=bpc, pixel_format="420",
                          features=["float_ssim"], threads=2)
        for n in range(ref[0].shape[0]):
            s.push(tuple(p[n] for p in ref), tuple(p[n] for p in dis))
        self.assertEqual(s.frames, ref[0].shape[0])
        self.assert_same(s.finish(), cli_json(PAIR10, 2, ("float_ssim",)))

    def test_streaming_scorer_buffer_refilled_after_push(self):
        # The usual read loop: one buffer per plane, refilled for every frame
        # right after push returns. push copies by default, so the frames
        # scored later on the workers are the ones pushed.
        ref, bpc = read_y4m(clip(PAIR10, "ref"))
        dis, _ = read_y4m(clip(PAIR10, "dis"))
        s = vmafpp.Scorer(ref[0].shape[2], ref[0].shape[1], bitdepth=bpc, pixel_format="420",
                          threads=2)
        rbuf = tuple(np.empty_like(p[0]) for p in ref)
        dbuf = tuple(np.empty_like(p[0]) for p in dis)
        for n in range(ref[0].shape[0]):
            for b, p in zip(rbuf + dbuf, ref + dis):
                b[...] = p[n]
            s.push(rbuf, dbuf)
            for b in rbuf + dbuf:
                b.fill(0)  # the caller reuses its buffer before the frame is scored
        self.assert_same(s.finish(), cli_json(PAIR10, 2, ()))

    def test_other_threads_run_while_scoring(self):
        # The GIL is released while frames are scored.
        ticks = []
        stop = threading.Event()

        def tick():
            while not stop.is_set():
                ticks.append(1)
                stop.wait(0.001)

        t = threading.Thread(target=tick)
        ref, _ = read_y4m(clip(PAIR10, "ref"))
        dis, _ = read_y4m(clip(PAIR10, "dis"))
        t.start()
        before = len(ticks)
        vmafpp.score(ref[0], dis[0], bitdepth=10)
        during = len(ticks) - before
        stop.set()
        t.join()
        self.assertGreater(during, 5)

    def test_dataframe(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("pandas not installed")
        got = vmafpp.score(clip(PAIR8, "ref"), clip(PAIR8, "dis"))
        df = vmafpp.to_dataframe(got)
        self.assertEqual(df["vmaf"].iloc[0], got["frames"][0]["metrics"]["vmaf"])


class Errors(unittest.TestCase):
    def test_messages(self):
        a = np.zeros((2, 48, 64), np.uint8)
        b = np.zeros((2, 48, 62), np.uint8)
        cases = [
            (lambda: vmafpp.score(a, b), "reference and distorted differ"),
            (lambda: vmafpp.score(a, a[:1]), "frames"),
            (lambda: vmafpp.score(a.astype(np.uint16), a.astype(np.uint16)), "bitdepth"),
            (lambda: vmafpp.score(a.astype(np.float32), a), "uint8 or uint16"),
            (lambda: vmafpp.score(a, a, model="no_such_model"), "no_such_model"),
            (lambda: vmafpp.score(a, a, features=["nope"]), "unknown feature"),
            (lambda: vmafpp.score("/nonexistent.y4m", "/nonexistent.y4m"), "nonexistent"),
            (lambda: vmafpp.Scorer(64, 48, pixel_format="411"), "pixel format"),
        ]
        for call, text in cases:
            with self.assertRaises(vmafpp.Error) as cm:
                call()
            msg = str(cm.exception)
            self.assertIn(text, msg)
            self.assertNotIn("\n", msg)

    def test_scorer_misuse(self):
        s = vmafpp.Scorer(64, 48)
        with self.assertRaises(vmafpp.Error):
            s.push(np.zeros((48, 60), np.uint8), np.zeros((48, 60), np.uint8))
        with self.assertRaises(vmafpp.Error):
            s.finish()  # nothing pushed
        with self.assertRaises(vmafpp.Error):
            s.finish()


if __name__ == "__main__":
    unittest.main()
