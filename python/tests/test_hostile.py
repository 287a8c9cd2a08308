"""The Python module on hostile input: each row of the table is a call that
must raise vmafpp.Error with one line naming what is wrong (the plane and
both shapes where a plane is wrong), never crash or read past an array; and
one Scorer shared by threads that push and finish at once."""
import os
import threading
import time
import unittest

import numpy as np

import vmafpp


def zeros(h, w, dtype=np.uint8):
    return np.zeros((h, w), dtype)


def planes(w, h, cw, ch, dtype=np.uint8):
    return (zeros(h, w, dtype), zeros(ch, cw, dtype), zeros(ch, cw, dtype))


def psnr_scorer(w, h, fmt, bitdepth=8):
    return vmafpp.Scorer(w, h, bitdepth, fmt, features=["psnr"], model=None)


def push_twice(scorer, frame):
    """The reproducer pushed twice: the second push segfaulted."""
    for _ in range(2):
        try:
            scorer.push(frame, frame)
        except vmafpp.Error as e:
            last = e
    raise last


STACK = np.zeros((2, 144, 176), np.uint8)
STACK420 = (STACK, np.zeros((2, 72, 88), np.uint8), np.zeros((2, 72, 88), np.uint8))

# (name, call, the message's expected text)
CASES = [
    ("1080p 4:4:4 scorer given 4:2:0 chroma (read past the arrays, then segfaulted)",
     lambda: push_twice(psnr_scorer(1920, 1080, "444"), planes(1920, 1080, 960, 540)),
     "reference plane U is 960x540, but a 1920x1080 4:4:4 picture's U plane is 1920x1080"),
    ("4:2:0 scorer given 4:4:4 chroma (was accepted)",
     lambda: psnr_scorer(176, 144, "420").push(planes(176, 144, 176, 144), planes(176, 144, 176, 144)),
     "reference plane U is 176x144, but a 176x144 4:2:0 picture's U plane is 88x72"),
    ("4:2:0 scorer, luma-only features, given 4:4:4 chroma",
     lambda: vmafpp.Scorer(176, 144, 8, "420", features=["float_ssim"], model=None)
     .push(planes(176, 144, 176, 144), planes(176, 144, 176, 144)),
     "reference plane U is 176x144"),
    ("distorted chroma wrong, reference right",
     lambda: psnr_scorer(176, 144, "420").push(planes(176, 144, 88, 72), planes(176, 144, 88, 144)),
     "distorted plane U is 88x144, but a 176x144 4:2:0 picture's U plane is 88x72"),
    ("luma of another size",
     lambda: psnr_scorer(64, 48, "420").push(planes(60, 48, 32, 24), planes(60, 48, 32, 24)),
     "reference plane Y is 60x48, but a 64x48 4:2:0 picture's Y plane is 64x48"),
    ("odd size: chroma neither floor nor ceil",
     lambda: psnr_scorer(33, 19, "420").push(planes(33, 19, 18, 10), planes(33, 19, 18, 10)),
     "picture's U plane is 16x9 (or 17x10)"),
    ("luma alone where chroma is read",
     lambda: psnr_scorer(64, 48, "420").push(zeros(48, 64), zeros(48, 64)),
     "the extractors read chroma: give Y, U and V planes"),
    ("chroma for a 4:0:0 scorer",
     lambda: psnr_scorer(64, 48, "400").push(planes(64, 48, 64, 48), planes(64, 48, 64, 48)),
     "a 4:0:0 picture has 1 plane (Y), got 3"),
    ("uint16 samples for an 8-bit scorer",
     lambda: psnr_scorer(64, 48, "400").push(zeros(48, 64, np.uint16), zeros(48, 64, np.uint16)),
     "bitdepth 8 does not fit uint16 samples"),
    ("a sample above the bit depth",
     lambda: psnr_scorer(64, 48, "400", 10).push(zeros(48, 64, np.uint16) + 1024,
                                                   zeros(48, 64, np.uint16)),
     "a sample exceeds 10 bits"),
    ("a 1-dimensional frame",
     lambda: psnr_scorer(64, 48, "400").push(np.zeros(64, np.uint8), np.zeros(64, np.uint8)),
     "reference: expected a 2-dimensional array, got 1 dimensions"),
    ("two planes",
     lambda: psnr_scorer(64, 48, "420").push(planes(64, 48, 32, 24)[:2], planes(64, 48, 32, 24)[:2]),
     "expected 1 or 3 planes, got 2"),
    ("bytes paths are paths (said 'expected a 3-dimensional array')",
     lambda: vmafpp.score(b"/nonexistent-ref.y4m", b"/nonexistent-dis.y4m"),
     "cannot open /nonexistent-ref.y4m"),
    ("arrays of one size but different layouts (said '176x144, distorted is 176x144')",
     lambda: vmafpp.score(STACK, STACK420, model=None, features=["psnr"]),
     "reference is 176x144 luma only 8-bit, distorted is 176x144 4:2:0 8-bit"),
    ("arrays of different bit depths",
     lambda: vmafpp.score(STACK.astype(np.uint16), STACK, bitdepth=10),
     "bitdepth 10 does not fit uint8 samples"),
]


class HostileInput(unittest.TestCase):
    def test_table(self):
        for name, call, text in CASES:
            with self.subTest(name):
                with self.assertRaises(vmafpp.Error) as cm:
                    call()
                msg = str(cm.exception)
                self.assertIn(text, msg)
                self.assertNotIn("\n", msg)

    def test_after_finish_messages_say_it_once(self):
        s = psnr_scorer(64, 48, "400")
        s.push(zeros(48, 64), zeros(48, 64))
        s.finish()
        for call, text in ((lambda: s.push(zeros(48, 64), zeros(48, 64)),
                            "push after finish: the session is over"),
                           (s.finish, "finish called twice")):
            with self.assertRaises(vmafpp.Error) as cm:
                call()
            self.assertEqual(str(cm.exception), text)

    def test_refused_push_leaves_the_scorer_usable(self):
        # The reproducer's right planes after its wrong ones: identical zero
        # planes give psnr_cb 60 (it came out 10.15, 9.83 or 9.77).
        s = psnr_scorer(1920, 1080, "444")
        with self.assertRaises(vmafpp.Error):
            s.push(planes(1920, 1080, 960, 540), planes(1920, 1080, 960, 540))
        s.push(planes(1920, 1080, 1920, 1080), planes(1920, 1080, 1920, 1080))
        self.assertEqual(s.frames, 1)
        pooled = s.finish()["pooled_metrics"]
        for key in ("psnr_y", "psnr_cb", "psnr_cr"):
            self.assertEqual(pooled[key]["mean"], 60.0, key)

    def test_views_score_as_their_copies(self):
        # Transposed, reversed, broadcast and strided arrays are copied or
        # read through their strides: the values of contiguous copies.
        rng = np.random.default_rng(7)
        base = rng.integers(0, 256, size=(3, 96, 128), dtype=np.uint8)
        ref = base[:, 8:56, 16:80]                       # rows wider than the plane
        dis = base[:, ::-1, :].T.copy().T[:, 20:68, 32:96]  # Fortran order, reversed rows
        chroma = np.broadcast_to(rng.integers(0, 256, size=(1, 24, 32), dtype=np.uint8), (3, 24, 32))
        got = vmafpp.score((ref, chroma, chroma[:, ::-1, ::-1]), (dis, chroma, chroma),
                           model=None, features=["psnr"])
        want = vmafpp.score(tuple(np.ascontiguousarray(a) for a in (ref, chroma, chroma[:, ::-1, ::-1])),
                            tuple(np.ascontiguousarray(a) for a in (dis, chroma, chroma)),
                            model=None, features=["psnr"])
        self.assertEqual(got["frames"], want["frames"])
        self.assertLess(got["pooled_metrics"]["psnr_y"]["mean"], 20.0)  # frames that differ


class ThreadedScorer(unittest.TestCase):
    """push() and finish() from several threads on one Scorer serialise:
    every push before the finish is scored, every one after it raises; none
    crashes (finish during a push segfaulted 2 of 7 runs)."""

    def run_round(self, threads=4, pushes=6):
        # Frames large enough that a push spends its time scoring without
        # the GIL, where a finish from another thread used to free the
        # session under it.
        s = vmafpp.Scorer(640, 480, 8, "420", features=["psnr"], model=None, threads=0)
        frame = planes(640, 480, 320, 240)
        accepted, refused, unexpected = [], [], []
        start = threading.Barrier(threads + 1)

        def pusher():
            start.wait()
            for _ in range(pushes):
                try:
                    s.push(frame, frame)
                    accepted.append(1)
                except vmafpp.Error as e:
                    (refused if "after finish" in str(e) else unexpected).append(str(e))
                _ = s.frames

        workers = [threading.Thread(target=pusher) for _ in range(threads)]
        for t in workers:
            t.start()
        start.wait()
        time.sleep(0.002)  # some pushes in flight
        result = None
        while result is None:
            try:
                result = s.finish()
            except vmafpp.Error as e:  # no frame pushed yet: the session ends anyway
                self.assertIn("no frames to score", str(e))
                result = {"frames": []}
        for t in workers:
            t.join(60)
            self.assertFalse(t.is_alive())
        self.assertEqual(unexpected, [])
        self.assertEqual(len(accepted) + len(refused), threads * pushes)
        self.assertEqual(len(result["frames"]), len(accepted))
        for f in result["frames"]:
            self.assertEqual(f["metrics"]["psnr_y"], 60.0)

    def test_push_and_finish_from_threads(self):
        for _ in range(int(os.environ.get("VMAFPP_THREAD_ROUNDS", "20"))):
            self.run_round()


if __name__ == "__main__":
    unittest.main()
