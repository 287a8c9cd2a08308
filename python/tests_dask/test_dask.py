"""vmafpp.dask on a real distributed.LocalCluster: 2 worker processes, one
thread each, over TCP on loopback. A batch of 8 corpus pairs plus one long
pair in chunks gives the outputs of single vmafpp runs (fps aside); killing
a worker while it scores a chunk still does (Dask reschedules the chunk); a
chunk that keeps failing fails the job naming the pair and the frame range.
Every wait has a timeout, and the cluster is closed whatever happens."""
import faulthandler
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "support"))
from corpus_clips import clip as corpus_clip  # noqa: E402  (tests/support/corpus_clips.py)

CLI = os.environ.get("VMAFPP_CLI", "vmafpp")
DASK_CMD = os.environ.get("VMAFPP_DASK", "")
CORPUS = os.environ.get("VMAFPP_CORPUS_DIR", "")
WORK = os.environ.get("VMAFPP_TEST_WORK_DIR") or tempfile.mkdtemp()

BATCH = ["p01_astronaut_576x324_420p8_x264crf23", "p06_motorcycle_352x288_420p8_av1br20k",
         "p08_brick_176x144_420p8_bilinear2x", "p12_gravel_576x324_420p10_x265crf28",
         "p13_moon_352x288_444p10_x264crf30", "p17_mandelbrot_176x144_420p8_vp9crf55",
         "p20_coffee_333x187_420p8_x264crf30_odd", "p22_rocket_48x48_420p8_x264crf32_small"]
LONG_SOURCE = "p18_life_176x144_420p8_x264crf35"  # 24 frames, repeated 4 times
ARGS = ["--feature", "psnr", "--feature", "float_motion", "--threads", "0"]
# A hang anywhere dumps every thread's stack and ends the process.
faulthandler.dump_traceback_later(280, exit=True)

try:
    import distributed  # noqa: F401
    HAVE_DISTRIBUTED = True
except ImportError:
    HAVE_DISTRIBUTED = False


def clip(pair, which):
    return corpus_clip(CORPUS, WORK, pair, which)


def repeated_y4m(src, dst, times):
    """The clip's frames `times` times over (a longer clip, same header)."""
    if os.path.exists(dst):
        return dst
    with open(src, "rb") as f:
        header, frames = f.read().split(b"\n", 1)
    with open(dst + ".tmp", "wb") as f:
        f.write(header + b"\n" + frames * times)
    os.replace(dst + ".tmp", dst)
    return dst


def without_fps(text):
    return re.sub(r'"fps": [^,\n]*|fps="[^"]*"', "fps", text)


def single_run(ref, dis, out):
    subprocess.run([CLI, "-r", ref, "-d", dis, "-q", "--json", "--precision", "max", "-o", out]
                   + ARGS, check=True, timeout=120)
    with open(out, encoding="utf-8") as f:
        return f.read()


# Runs the real vmafpp, except that the first attempt at the marked chunk
# records its worker's pid (its parent) and its own, then waits to be
# killed: the test kills the worker mid-chunk.
SLOW_WRAPPER = """#!/usr/bin/python3
import os, sys, time
args = sys.argv[1:]
marker = {marker!r}
if "--frame_range" in args and args[args.index("--frame_range") + 1] == {range!r} \\
        and not os.path.exists(marker):
    with open(marker + ".tmp", "w") as f:
        f.write("%d %d" % (os.getppid(), os.getpid()))
    os.replace(marker + ".tmp", marker)
    time.sleep(120)
    sys.exit(3)
os.execv({cli!r}, [{cli!r}] + args)
"""

# Fails every attempt at the marked chunk.
FAILING_WRAPPER = """#!/usr/bin/python3
import os, sys
args = sys.argv[1:]
if "--frame_range" in args and args[args.index("--frame_range") + 1] == {range!r}:
    sys.stderr.write("vmafpp: planted failure\\n")
    sys.exit(1)
os.execv({cli!r}, [{cli!r}] + args)
"""


def write_wrapper(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


@unittest.skipUnless(HAVE_DISTRIBUTED, "python3-distributed is not installed")
class DaskCluster(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        from distributed import Client, LocalCluster

        cls.tmp = tempfile.mkdtemp(prefix="vmafpp-dask-test-")
        # The workers' temporary files too (a killed worker leaves its
        # chunk's folder behind), removed with it.
        cls.saved_tmpdir = os.environ.get("TMPDIR")
        os.environ["TMPDIR"] = cls.tmp
        cls.cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                   protocol="tcp", host="127.0.0.1", dashboard_address=None)
        try:
            cls.client = Client(cls.cluster, timeout=60)
        except BaseException:
            cls.cluster.close()
            raise
        cls.pairs = [(clip(p, "ref"), clip(p, "dis")) for p in BATCH]
        cls.long = tuple(repeated_y4m(clip(LONG_SOURCE, w), os.path.join(WORK, f"long_{w}.y4m"), 4)
                         for w in ("ref", "dis"))
        cls.expected = {}
        for i, (r, d) in enumerate(cls.pairs + [cls.long]):
            cls.expected[(r, d)] = without_fps(single_run(r, d, os.path.join(cls.tmp, f"single{i}.json")))

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close(timeout=30)
        if cls.saved_tmpdir is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = cls.saved_tmpdir
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def score(self, pairs, cli=CLI, chunk_frames=10, retries=2):
        import vmafpp.dask

        return vmafpp.dask.score(pairs, client=self.client, chunk_frames=chunk_frames,
                                 extra_args=ARGS, output_format="json", precision="max",
                                 vmafpp_cli=cli, retries=retries)

    def test_batch_and_long_pair_equal_single_runs(self):
        outs = [os.path.join(self.tmp, f"batch{i}.json") for i in range(len(self.pairs) + 1)]
        jobs = [(r, d, o) for (r, d), o in zip(self.pairs + [self.long], outs)]
        texts = self.score(jobs, chunk_frames=10)  # the long pair: 10 chunks
        for (r, d, o), text in zip(jobs, texts):
            with open(o, encoding="utf-8") as f:
                self.assertEqual(f.read(), text)
            self.assertEqual(without_fps(text), self.expected[(r, d)], f"{r} vs {d}")

    def test_worker_killed_mid_chunk_is_retried(self):
        marker = os.path.join(self.tmp, "killed-chunk")
        wrapper = write_wrapper(os.path.join(self.tmp, "slow-vmafpp"),
                                SLOW_WRAPPER.format(marker=marker, range="30:40", cli=os.path.abspath(CLI)))
        import threading

        result = {}

        def job():
            try:
                result["texts"] = self.score([self.long + (None,)], cli=wrapper, chunk_frames=10)
            except BaseException as e:  # noqa: BLE001 - reported by the test
                result["error"] = e

        t = threading.Thread(target=job, daemon=True)
        t.start()
        deadline = time.time() + 120
        while not os.path.exists(marker) and time.time() < deadline and t.is_alive():
            time.sleep(0.1)
        self.assertTrue(os.path.exists(marker), "the marked chunk never started")
        with open(marker, encoding="utf-8") as f:
            worker_pid, wrapper_pid = (int(x) for x in f.read().split())
        try:
            worker_pids = set(self.client.run(os.getpid).values())
            self.assertIn(worker_pid, worker_pids, "the chunk's parent is not a Dask worker")
            os.kill(worker_pid, signal.SIGKILL)
        finally:
            os.kill(wrapper_pid, signal.SIGKILL)  # the orphaned chunk process
        t.join(180)
        self.assertFalse(t.is_alive(), "the job did not finish after the worker was killed")
        self.assertNotIn("error", result, result.get("error"))
        self.assertEqual(without_fps(result["texts"][0]), self.expected[self.long])
        # The cluster is back to two workers for the other tests.
        self.client.wait_for_workers(2, timeout=60)

    def test_chunk_failing_after_retries_fails_the_job(self):
        import vmafpp.dask

        wrapper = write_wrapper(os.path.join(self.tmp, "failing-vmafpp"),
                                FAILING_WRAPPER.format(range="20:30", cli=os.path.abspath(CLI)))
        out = os.path.join(self.tmp, "failed.json")
        with self.assertRaises(vmafpp.dask.ChunkFailed) as cm:
            self.score([self.long + (out,)], cli=wrapper, chunk_frames=10, retries=1)
        msg = str(cm.exception)
        self.assertIn(self.long[0], msg)
        self.assertEqual(msg.count(self.long[0]), 1, "the pair is named once: " + msg)
        self.assertIn("frames 20:30", msg)
        self.assertIn("planted failure", msg)
        self.assertFalse(os.path.exists(out), "a failed pair must get no output")

    def test_count_failing_names_the_pair_once(self):
        import vmafpp.dask

        r, d = os.path.join(self.tmp, "no_ref.y4m"), os.path.join(self.tmp, "no_dis.y4m")
        with self.assertRaises(vmafpp.dask.ChunkFailed) as cm:
            self.score([(r, d, None)], retries=0)
        msg = str(cm.exception)
        self.assertIn("counting frames", msg)
        self.assertEqual(msg.count(f"{r} vs {d}"), 1, "the pair is named once: " + msg)

    @unittest.skipUnless(DASK_CMD, "VMAFPP_DASK (the vmafpp-dask command) not given")
    def test_command_against_the_scheduler(self):
        (r1, d1), (r2, d2) = self.pairs[2], self.long
        o1, o2 = (os.path.join(self.tmp, f"cmd{i}.json") for i in (1, 2))
        subprocess.run([sys.executable, DASK_CMD, "--scheduler", self.cluster.scheduler_address,
                        "--chunk-frames", "7", "-r", r1, "-d", d1, "-o", o1, "-r", r2, "-d", d2,
                        "-o", o2, "--json", "--precision", "max", "--vmafpp", CLI] + ARGS,
                       check=True, timeout=120)
        for (r, d), o in (((r1, d1), o1), ((r2, d2), o2)):
            with open(o, encoding="utf-8") as f:
                self.assertEqual(without_fps(f.read()), self.expected[(r, d)])

    @unittest.skipUnless(DASK_CMD, "VMAFPP_DASK (the vmafpp-dask command) not given")
    def test_list_with_summary_and_report(self):
        """--list with --summary and --report: a CSV row per pair whose
        statistics are those of the pair's output, and one page of both."""
        import json

        pairs = [self.pairs[2], self.pairs[5]]
        outs = [os.path.join(self.tmp, f"listed{i}.json") for i in range(2)]
        listing = os.path.join(self.tmp, "pairs.list")
        with open(listing, "w", encoding="utf-8") as f:
            f.write("# a comment\n\n")
            for (r, d), o in zip(pairs, outs):
                f.write(f"{r} {d} {o}\n")
        summary, report = os.path.join(self.tmp, "summary.csv"), os.path.join(self.tmp, "report.html")
        base = [sys.executable, DASK_CMD, "--scheduler", self.cluster.scheduler_address, "--list", listing,
                "--vmafpp", CLI]
        subprocess.run(base + ["--json", "--precision", "max", "--summary", summary, "--report", report] + ARGS,
                       check=True, timeout=120)
        with open(summary, encoding="utf-8") as f:
            rows = [line.split(",") for line in f.read().splitlines()]
        self.assertEqual(len(rows), 3)
        for row, (r, d), o in zip(rows[1:], pairs, outs):
            got = dict(zip(rows[0], row))
            self.assertEqual((got["reference"], got["distorted"], got["output"]), (r, d, o))
            with open(o, encoding="utf-8") as f:
                vmaf = [fr["metrics"]["vmaf"] for fr in json.load(f)["frames"]]
            self.assertEqual(got["frames"], str(len(vmaf)))
            self.assertAlmostEqual(float(got["vmaf_mean"]), sum(vmaf) / len(vmaf), places=6)
            self.assertAlmostEqual(float(got["vmaf_min"]), min(vmaf), places=6)
        with open(report, encoding="utf-8") as f:
            page = f.read()
        data = json.loads(page.split('<script id="vmafpp-data" type="application/json">', 1)[1]
                          .split("</script>", 1)[0])
        self.assertEqual([i["label"] for i in data["inputs"]], [os.path.basename(d) for _, d in pairs])
        # Refused before scoring, in one line: no --json, a report over an input.
        ref = pairs[0][0]
        with open(ref, "rb") as f:
            before = f.read()
        for extra in (["--summary", summary], ["--json", "--report", ref]):
            p = subprocess.run(base + extra, capture_output=True, text=True, timeout=60)
            self.assertNotEqual(p.returncode, 0, extra)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        with open(ref, "rb") as f:
            self.assertEqual(f.read(), before)


if __name__ == "__main__":
    unittest.main()
