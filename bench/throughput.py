#!/usr/bin/env python3
"""Whole-process throughput of vmafpp (and optionally another `vmaf` binary).

Generates its own clips with vmafpp-sample (1080p and 2160p, 8 and 10 bit; on a
tmpfs if /dev/shm exists), runs every configuration REPEAT times, alternating
binaries within each repetition so both see the same machine state, and prints
the median fps and the peak resident memory (GNU time's maximum RSS). The
median fps is given twice: by wall clock, and by the process's CPU time
(user + sys), which a machine shared with other jobs disturbs much less.
Every repetition runs every configuration (thread counts, masks, binaries)
once, in turn; speed-ups (vmafpp against the other binary at each thread
count, and each binary's later thread counts against its first) are the
median of the ratios taken within one repetition, with their range, so a
machine whose speed drifts over minutes disturbs them less than a ratio of
medians gathered minutes apart. Each median comes with a distribution-free 95%
confidence interval (order statistics of the binomial; none below 6
repetitions), which says whether a run supports a claim such as ">= 2x". List the baseline first: --threads 0,1,2
compares against one thread doing everything (both CLIs' default). With
--other, the same paired ratios are also given by CPU time (user + sys),
which a machine shared with other jobs disturbs much less than wall time.
--clip measures given Y4M pairs (real content, or clips made with ffmpeg)
instead of vmafpp-sample's.

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
                      [--clip NAME=REF.y4m,DIS.y4m[,FRAMES] ...]  (instead of generated clips)
"""
import argparse
import math
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
    ap.add_argument("--clip", action="append", default=[], metavar="NAME=REF,DIS[,FRAMES]",
                    help="measure this Y4M pair (repeatable) instead of generated clips; "
                         "FRAMES (default --frames) is the pair's frame count, for the fps")
    a = ap.parse_args()

    vmafpp = os.path.join(a.build, "vmafpp")
    sample = os.path.join(a.build, "vmafpp-sample")
    binaries = [("vmafpp", vmafpp)] + ([("other", a.other)] if a.other else [])
    thread_counts = a.threads.split(",")
    masks = a.masks.split(",")
    tmp_root = "/dev/shm" if os.path.isdir("/dev/shm") else None
    ratios = []
    cpu_ratios = []  # the same pairs by CPU time (user + sys), which other jobs disturb less
    print("| size | bits | threads | mask | binary | median fps (wall) | median fps (CPU time) | peak RSS MiB |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(dir=tmp_root) as tmp:
        for size, depth, ref, dis, frames, generated in clips(a, sample, tmp):
            configs = [(t, m, name, binary) for t in thread_counts for m in masks
                       for name, binary in binaries]
            times = {c[:3]: [] for c in configs}
            cpus = {c[:3]: [] for c in configs}
            rss = {c[:3]: 0 for c in configs}
            # Every repetition runs every configuration once, so a ratio
            # of two configurations can be taken within one repetition,
            # minutes apart at most, before the medians are taken.
            for _ in range(a.repeat):
                for threads, mask, name, binary in configs:
                    cmd = [binary, "-r", ref, "-d", dis, "--threads", threads, "-q"] + a.args.split()
                    if mask != "default":
                        cmd += ["--cpumask", mask]
                    for _ in range(a.warmup):
                        run(cmd)
                    sec, cpu, peak = run(cmd)
                    key = (threads, mask, name)
                    times[key].append(sec)
                    cpus[key].append(cpu)
                    rss[key] = max(rss[key], peak)
            for key in times:
                threads, mask, name = key
                print("| %s | %s | %s | %s | %s | %.2f | %.2f | %.1f |" %
                      (size, depth, threads, mask, name, frames / statistics.median(times[key]),
                       frames / statistics.median(cpus[key]), rss[key] / 1024.0))
            sys.stdout.flush()
            for mask in masks:
                for threads in thread_counts:
                    if a.other:
                        ratios.append((size, depth, mask, "vmafpp / other at --threads %s" % threads,
                                       paired_speedup(times[(threads, mask, "other")],
                                                      times[(threads, mask, "vmafpp")])))
                        cpu_ratios.append((size, depth, mask, "vmafpp / other at --threads %s" % threads,
                                           paired_speedup(cpus[(threads, mask, "other")],
                                                          cpus[(threads, mask, "vmafpp")])))
                for name, _ in binaries:
                    base = thread_counts[0]
                    for threads in thread_counts[1:]:
                        ratios.append((size, depth, mask, "%s --threads %s / --threads %s" % (name, threads, base),
                                       paired_speedup(times[(base, mask, name)],
                                                      times[(threads, mask, name)])))
            if generated:
                os.remove(ref)
                os.remove(dis)

    if ratios:
        print()
        print("| size | bits | mask | speed-up (wall) | median | 95% CI of the median | min | max |")
        print("|---|---|---|---|---|---|---|---|")
        for size, depth, mask, what, (med, ci, lo, hi) in ratios:
            ci_text = "%.3fx - %.3fx" % ci if ci else "-"
            print("| %s | %s | %s | %s | %.3fx | %s | %.3fx | %.3fx |" %
                  (size, depth, mask, what, med, ci_text, lo, hi))
    if cpu_ratios:
        print()
        print("| size | bits | mask | speed-up (CPU time) | median | 95% CI of the median | min | max |")
        print("|---|---|---|---|---|---|---|---|")
        for size, depth, mask, what, (med, ci, lo, hi) in cpu_ratios:
            ci_text = "%.3fx - %.3fx" % ci if ci else "-"
            print("| %s | %s | %s | %s | %.3fx | %s | %.3fx | %.3fx |" %
                  (size, depth, mask, what, med, ci_text, lo, hi))


def clips(a, sample, tmp):
    """(size, depth, ref, dis, frames, generated) of each pair to measure:
    the --clip pairs as given (depth "-": whatever the files hold), else one
    clip of each --sizes and --depths written by vmafpp-sample into tmp."""
    if a.clip:
        for spec in a.clip:
            name, _, pair = spec.partition("=")
            fields = pair.split(",")
            if not name or len(fields) not in (2, 3) or not all(fields) or \
                    (len(fields) == 3 and not fields[2].isdigit()):
                sys.exit("--clip wants NAME=REF,DIS[,FRAMES], not %r" % spec)
            frames = int(fields[2]) if len(fields) == 3 else a.frames
            yield name, "-", fields[0], fields[1], frames, False
        return
    for size in a.sizes.split(","):
        w, h = SIZES[size]
        for depth in a.depths.split(","):
            ref = os.path.join(tmp, "ref_%s_%s.y4m" % (size, depth))
            dis = os.path.join(tmp, "dis_%s_%s.y4m" % (size, depth))
            subprocess.run([sample, "--width", str(w), "--height", str(h), "--frames",
                            str(a.frames), "--bitdepth", depth, ref, dis], check=True)
            yield size, depth, ref, dis, a.frames, True


def median_ci(values, level=0.95):
    """The order statistics (x_(k), x_(n+1-k)) that cover the median with at
    least `level` probability whatever the distribution: k is the largest
    with P(Binomial(n, 1/2) <= k - 1) <= (1 - level) / 2. None if n is too
    small for any k."""
    r = sorted(values)
    n = len(r)
    tail = (1.0 - level) / 2.0
    below, k = 0.0, 0
    for i in range(n + 1):
        below += math.comb(n, i) / 2.0 ** n
        if below > tail:
            break
        k = i + 1
    return (r[k - 1], r[n - k]) if k > 0 else None


def paired_speedup(slow_times, fast_times):
    """Median, its 95% interval, min and max over repetitions of slow/fast
    wall time, each pair taken from one repetition."""
    r = [s / f for s, f in zip(slow_times, fast_times)]
    return statistics.median(r), median_ci(r), min(r), max(r)


if __name__ == "__main__":
    main()
