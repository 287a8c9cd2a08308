"""vmafpp-dask on hostile use: outputs the CLI would refuse (an input of any
pair, a directory, another pair's output, a missing folder) are refused with
one line before any cluster starts, and every input is left as it was;
outputs get the CLI's modes; a scheduler killed mid-job ends the command with
one line and a non-zero status, the existing output kept."""
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import test_dask as base

DASK_CMD = base.DASK_CMD
CLI = os.path.abspath(base.CLI) if os.path.exists(base.CLI) else base.CLI
PAIR = "p08_brick_176x144_420p8_bilinear2x"


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def run_dask(args, timeout=120, **kw):
    return subprocess.run([sys.executable, DASK_CMD, "--vmafpp", CLI, "--workers", "1"] + args,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=timeout, **kw)


@unittest.skipUnless(DASK_CMD, "VMAFPP_DASK (the vmafpp-dask command) not given")
class RefusedOutputs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="vmafpp-dask-hostile-")
        cls.ref = base.clip(PAIR, "ref")
        cls.dis = base.clip(PAIR, "dis")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def copy(self, src, name):
        dst = self.path(name)
        shutil.copyfile(src, dst)
        return dst

    def test_table(self):
        dcopy = self.copy(self.dis, "dcopy.y4m")
        rcopy = self.copy(self.ref, "rcopy.y4m")
        link = self.path("link.y4m")
        if not os.path.exists(link):
            os.link(rcopy, link)
        listed = self.path("pairs.txt")
        with open(listed, "w", encoding="utf-8") as f:
            f.write("%s %s %s\n" % (rcopy, dcopy, os.path.join(self.tmp, ".", "rcopy.y4m")))
        out = self.path("out.json")
        # (name, arguments, the message's expected text)
        rows = [
            ("output is the distorted (was replaced by 17 KB of JSON)",
             ["--json", "-r", rcopy, "-d", dcopy, "-o", dcopy],
             "output file %s is the input %s (it would be overwritten)" % (dcopy, dcopy)),
            ("a --list line naming the reference as output",
             ["--list", listed], "is the input %s" % rcopy),
            ("output a hard link to the reference",
             ["-r", rcopy, "-d", dcopy, "-o", link], "is the input %s" % rcopy),
            ("output another pair's input",
             ["-r", rcopy, "-d", dcopy, "-o", out, "-r", out + "x", "-d", dcopy, "-o", rcopy],
             "is the input %s" % rcopy),
            ("two pairs with one output",
             ["-r", rcopy, "-d", dcopy, "-o", out, "-r", rcopy, "-d", dcopy, "-o",
              os.path.join(self.tmp, ".", "out.json")],
             "is also the output of the pair with output %s" % out),
            ("output a directory", ["-r", rcopy, "-d", dcopy, "-o", self.tmp], "is a directory"),
            ("output folder missing", ["-r", rcopy, "-d", dcopy, "-o", self.path("no/out.json")],
             "no such folder"),
        ]
        before = {p: digest(p) for p in (rcopy, dcopy)}
        for name, args, text in rows:
            with self.subTest(name):
                t0 = time.monotonic()
                proc = run_dask(args)
                self.assertNotEqual(proc.returncode, 0, proc.stderr)
                self.assertEqual(proc.stderr.count("\n"), 1, proc.stderr)
                self.assertTrue(proc.stderr.startswith("vmafpp-dask: "), proc.stderr)
                self.assertIn(text, proc.stderr)
                self.assertLess(time.monotonic() - t0, 30, "refused only after scoring")
                for p, d in before.items():
                    self.assertEqual(digest(p), d, "%s was changed" % p)
                self.assertFalse(os.path.exists(out))

    def test_written_outputs_have_the_clis_modes(self):
        import vmafpp.dask

        old = os.umask(0o027)
        try:
            new = self.path("mode-new.json")
            vmafpp.dask.write_atomically(new, "{}")
            self.assertEqual(os.stat(new).st_mode & 0o7777, 0o640)  # mkstemp's was 0600
            kept = self.path("mode-kept.json")
            with open(kept, "w", encoding="utf-8") as f:
                f.write("old")
            os.chmod(kept, 0o604)
            vmafpp.dask.write_atomically(kept, "new")
            self.assertEqual(os.stat(kept).st_mode & 0o7777, 0o604)
            # A symbolic link's target is replaced, the link stays.
            link = self.path("mode-link.json")
            os.symlink(kept, link)
            vmafpp.dask.write_atomically(link, "newer")
            self.assertTrue(os.path.islink(link))
            with open(kept, encoding="utf-8") as f:
                self.assertEqual(f.read(), "newer")
        finally:
            os.umask(old)
        self.assertEqual([n for n in os.listdir(self.tmp) if n.startswith(".vmafpp-")], [])


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@unittest.skipUnless(DASK_CMD and base.HAVE_DISTRIBUTED, "vmafpp-dask or python3-distributed missing")
class SchedulerKilled(unittest.TestCase):
    def test_one_line_and_non_zero_exit(self):
        tmp = tempfile.mkdtemp(prefix="vmafpp-dask-sched-")
        groups = []  # the scheduler's and the worker's process groups (the nanny has a child)
        job = None
        try:
            address = "tcp://127.0.0.1:%d" % free_port()
            env = dict(os.environ, TMPDIR=tmp)
            scheduler = subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                 "--port", address.rsplit(":", 1)[1], "--no-dashboard"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True)
            groups.append(scheduler)
            groups.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", "1",
                 "--nthreads", "1", "--no-dashboard"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True))
            marker = os.path.join(tmp, "slow-chunk")
            wrapper = base.write_wrapper(os.path.join(tmp, "slow-vmafpp"), base.SLOW_WRAPPER.format(
                marker=marker, range="0:24", cli=CLI))
            out = os.path.join(tmp, "out.json")
            with open(out, "w", encoding="utf-8") as f:
                f.write("an earlier output")
            job = subprocess.Popen(
                [sys.executable, DASK_CMD, "--scheduler", address, "--vmafpp", wrapper, "--json",
                 "-r", base.clip(PAIR, "ref"), "-d", base.clip(PAIR, "dis"), "-o", out],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            deadline = time.time() + 90
            while not os.path.exists(marker) and time.time() < deadline and job.poll() is None:
                time.sleep(0.1)
            self.assertTrue(os.path.exists(marker), "the chunk never started")
            os.kill(scheduler.pid, signal.SIGKILL)
            scheduler.wait(30)
            _, err = job.communicate(timeout=120)
            self.assertNotEqual(job.returncode, 0, err)
            self.assertEqual(err.count("\n"), 1, err)
            self.assertTrue(err.startswith("vmafpp-dask: the job was cancelled"), err)
            self.assertNotIn("Traceback", err)
            with open(out, encoding="utf-8") as f:
                self.assertEqual(f.read(), "an earlier output")
        finally:
            if job is not None and job.poll() is None:
                job.kill()
                job.communicate(timeout=30)
            for p in groups:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait(30)
            if os.path.exists(os.path.join(tmp, "slow-chunk")):
                with open(os.path.join(tmp, "slow-chunk"), encoding="utf-8") as f:
                    try:
                        os.kill(int(f.read().split()[1]), signal.SIGKILL)  # the sleeping chunk
                    except (ProcessLookupError, ValueError, IndexError):
                        pass
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
