#!/usr/bin/env python3
"""Whole-process throughput of vmafpp (and optionally another `vmaf` binary).

Generates its own clips with vmafpp-sample (1080p and 2160p, 8 and 10 bit; on a
tmpfs if /dev/shm exists), runs every configuration REPEAT times, alternating
binaries within each repetition so both see the same machine state, and prints
the median fps and the peak resident memory (GNU time's maximum RSS). The
median fps is given twice: by wall clock, and by the process's CPU time
(user + sys), which a machine shared with other jobs disturbs much less.

Each measured run follows --warmup unmeasured runs of the same binary and
configuration (default 1), as hyperfine's --warmup does: on a VM that hands
freed memory back to its host, a run that follows the other binary's first
touches host-unbacked pages and pays a fixed cost (tens of ms, measured on
our 2-vCPU development VM), which would otherwise fall on whichever binary
runs second and weigh most on the shortest (multi-threaded) runs.

  bench/throughput.py --build build [--other /path/to/vmaf] [--repeat 5] [--warmup 1]
                      [--frames 30] [--sizes 1080p,2160p] [--depths 8,10]
                      [--threads 1,2] [--masks default,4294967295,48]
                      [--args "-n --feature vif --feature motion"]
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

SIZES = {"576p": (576, 324), "1080p": (1920, 1080), "2160p": (3840, 2160)}


def run(cmd):
    """Runs cmd under GNU time; returns (seconds, cpu_seconds, peak_rss_kib)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "MAXRSS %M"] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr))
    rss = int(re.search(r"MAXRSS (\d+)", p.stderr).group(1))
    return elapsed, cpu, rss


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--other", help="another vmaf CLI to measure side by side (e.g. libvmaf's)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1,
                    help="unmeasured runs of the same binary and configuration right before "
                         "each measured one (0: none)")
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--sizes", default="1080p,2160p")
    ap.add_argument("--depths", default="8,10")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--masks", default="default")
    ap.add_argument("--args", default="", help="extra CLI arguments, e.g. \"-n --feature vif\"")
    a = ap.parse_args()

    vmafpp = os.path.join(a.build, "vmafpp")
    sample = os.path.join(a.build, "vmafpp-sample")
    tmp_root = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=tmp_root) as tmp:
        print("| size | bits | threads | mask | binary | median fps (wall) | median fps (CPU time) | peak RSS MiB |")
        print("|---|---|---|---|---|---|---|---|")
        for size in a.sizes.split(","):
            w, h = SIZES[size]
            for depth in a.depths.split(","):
                ref = os.path.join(tmp, "ref_%s_%s.y4m" % (size, depth))
                dis = os.path.join(tmp, "dis_%s_%s.y4m" % (size, depth))
                subprocess.run([sample, "--width", str(w), "--height", str(h), "--frames",
                                str(a.frames), "--bitdepth", depth, ref, dis], check=True)
                for threads in a.threads.split(","):
                    for mask in a.masks.split(","):
                        binaries = [("vmafpp", vmafpp)] + ([("other", a.other)] if a.other else [])
                        times = {name: [] for name, _ in binaries}
                        cpus = {name: [] for name, _ in binaries}
                        rss = {name: 0 for name, _ in binaries}
                        for _ in range(a.repeat):
                            for name, binary in binaries:
                                cmd = [binary, "-r", ref, "-d", dis, "--threads", threads, "-q"] + a.args.split()
                                if mask != "default":
                                    cmd += ["--cpumask", mask]
                                for _ in range(a.warmup):
                                    run(cmd)
                                sec, cpu, peak = run(cmd)
                                times[name].append(sec)
                                cpus[name].append(cpu)
                                rss[name] = max(rss[name], peak)
                        for name, _ in binaries:
                            fps = a.frames / statistics.median(times[name])
                            cpu_fps = a.frames / statistics.median(cpus[name])
                            print("| %s | %s | %s | %s | %s | %.2f | %.2f | %.1f |" %
                                  (size, depth, threads, mask, name, fps, cpu_fps, rss[name] / 1024.0))
                        sys.stdout.flush()
                os.remove(ref)
                os.remove(dis)


if __name__ == "__main__":
    main()
