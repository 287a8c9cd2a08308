#!/usr/bin/python3
"""Chunked scoring on a Dask LocalCluster against one single-threaded process.

Each repetition, in turn: one `vmafpp --threads 0` over the whole pair; the same
pair through vmafpp.dask.score() in chunks on a LocalCluster of N single-threaded
worker processes (started once, not timed); and the same chunks as plain
`vmafpp --frame_range` processes, N at a time, then `vmafpp merge` (no Dask: the
cost of chunking itself, whose CPU time is measured beside the single run's).
Prints every repetition (outputs compared, fps aside), the medians and ratios,
and the load average, which on a shared machine says how far to trust them.

  bench/dask_scaling.py --build build -r ref.y4m -d dis.y4m [--chunk-frames 150]
                        [--workers 2] [--repeat 5]
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


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def without_fps(path):
    with open(path, encoding="utf-8") as f:
        return re.sub(r'"fps": [^,\n]*', "fps", f.read())


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default="build")
    p.add_argument("-r", "--reference", required=True)
    p.add_argument("-d", "--distorted", required=True)
    p.add_argument("--chunk-frames", type=int, default=150)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args()
    sys.path.insert(0, os.path.join(a.build, "python"))
    import vmafpp.dask
    from distributed import Client, LocalCluster

    cli = os.path.abspath(os.path.join(a.build, "vmafpp"))
    tmp = tempfile.mkdtemp(prefix="vmafpp-dask-scaling-")
    single_out, dask_out, plain_out = (os.path.join(tmp, n) for n in ("single.json", "dask.json", "plain.json"))
    frames = int(subprocess.run([cli, "-r", a.reference, "-d", a.distorted, "--count-frames"], check=True,
                                stdout=subprocess.PIPE, text=True).stdout)
    ranges = vmafpp.dask.chunk_ranges(frames, a.chunk_frames)
    print("%d frames, %d chunks of up to %d, %d workers; load %s" % (frames, len(ranges), a.chunk_frames,
                                                                   a.workers, load()), flush=True)
    cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    single, dask, plain, single_cpu, plain_cpu = [], [], [], [], []
    try:
        for rep in range(a.repeat):
            c, t = child_cpu(), time.time()
            subprocess.run([cli, "-r", a.reference, "-d", a.distorted, "--threads", "0", "-q", "--json", "-o",
                            single_out], check=True)
            single.append(time.time() - t)
            single_cpu.append(child_cpu() - c)

            t = time.time()
            vmafpp.dask.score([(a.reference, a.distorted, dask_out)], client=client, chunk_frames=a.chunk_frames,
                              threads=0, output_format="json", vmafpp_cli=cli)
            dask.append(time.time() - t)

            c, t = child_cpu(), time.time()
            files, running = [], []
            for i, (b, e) in enumerate(ranges):
                files.append(os.path.join(tmp, "chunk%d.json" % i))
                if len(running) == a.workers:
                    running.pop(0).wait()
                running.append(subprocess.Popen([cli, "-r", a.reference, "-d", a.distorted, "--threads", "0",
                                                 "-q", "--frame_range", "%d:%d" % (b, e), "--chunk_out",
                                                 files[-1]]))
            for proc in running:
                proc.wait()
            subprocess.run([cli, "merge"] + files + ["-o", plain_out, "--json"], check=True)
            plain.append(time.time() - t)
            plain_cpu.append(child_cpu() - c)

            same = without_fps(single_out) == without_fps(dask_out) == without_fps(plain_out)
            print("rep %d: single %.2f s (cpu %.2f s), dask %.2f s, plain chunks %.2f s (cpu %.2f s); "
                  "outputs equal: %s; load %s" % (rep, single[-1], single_cpu[-1], dask[-1], plain[-1],
                                                   plain_cpu[-1], same, load()), flush=True)
    finally:
        client.close()
        cluster.close()
    m = statistics.median
    print("median: single %.2f s (%.1f fps), dask %.2f s (%.2fx), plain chunks %.2f s (%.2fx); "
          "cpu: single %.2f s, chunks %.2f s (%.3fx)"
          % (m(single), frames / m(single), m(dask), m(single) / m(dask), m(plain), m(single) / m(plain),
             m(single_cpu), m(plain_cpu), m(plain_cpu) / m(single_cpu)))


if __name__ == "__main__":
    main()
