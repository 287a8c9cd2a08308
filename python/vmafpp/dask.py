"""Score many pairs, and long pairs in frame ranges, on a Dask cluster.

    from distributed import Client
    import vmafpp.dask
    client = Client("tcp://scheduler:8786")
    texts = vmafpp.dask.score([("ref.y4m", "dis.y4m", "out.json")], client=client,
                              chunk_frames=2000, features=["psnr"], output_format="json")

Every task runs the `vmafpp` command line tool on a worker (which must see
the input files under the same paths: shared storage):

- `vmafpp --count-frames` gives each pair's frame count;
- `vmafpp --frame_range A:B --chunk_out F` scores one chunk (reading the
  context frames the temporal features need) into a lossless chunk file,
  whose text comes back through Dask;
- `vmafpp merge` joins a pair's chunks into the output a single run writes
  (byte for byte, fps aside), which the client writes atomically.

A chunk whose worker dies is rescheduled by Dask (the scheduler's
allowed-failures); one that fails is retried `retries` times. A pair with a
chunk that still fails gets no output and makes score() raise ChunkFailed
naming the pair and the frame range: never a silently shorter result. The
task functions travel by value (cloudpickle), so workers need only the
`vmafpp` executable, not this package.
"""
import asyncio
import concurrent.futures
import logging
import os
import stat
import subprocess
import sys
import tempfile
import uuid

log = logging.getLogger("vmafpp.dask")

OUTPUT_FORMATS = ("xml", "json", "csv", "sub")


class ChunkFailed(RuntimeError):
    """A chunk (or a pair's frame count or merge) failed after its retries."""


class ClusterLost(RuntimeError):
    """The scheduler cancelled the job's tasks: it stopped, or the client
    lost its connection to it."""


LOST = ("the job was cancelled: the scheduler stopped or the connection to it was lost; "
        "outputs not yet written are missing")


class OutputRefused(ValueError):
    """An output path the CLI would refuse too (an input, a directory, ...)."""


def _is_stdout(path):
    return path in ("-", "/dev/stdout")


def check_outputs(pairs):
    """Raises OutputRefused, before anything is scored, for an output that
    names an input of any pair, a directory, another pair's output or a
    folder that cannot be written."""
    inputs = []
    for r, d, _ in pairs:
        for path in (r, d):
            try:
                st = os.stat(path)
            except OSError:
                continue  # the pair's frame count reports a missing input
            inputs.append((path, (st.st_dev, st.st_ino)))
    seen = {}
    for _, _, out in pairs:
        if out is None or _is_stdout(out):
            continue
        if not out:
            raise OutputRefused("output file: empty file name")
        try:
            st = os.stat(out)
        except FileNotFoundError:
            st = None
        except OSError as e:
            raise OutputRefused("cannot write output file %s: %s" % (out, e.strerror)) from None
        if st is not None:
            if stat.S_ISDIR(st.st_mode):
                raise OutputRefused("output file %s is a directory" % out)
            ident = (st.st_dev, st.st_ino)
            for path, in_ident in inputs:
                if in_ident == ident:
                    raise OutputRefused("output file %s is the input %s (it would be overwritten); "
                                        "choose another output" % (out, path))
        else:
            ident = os.path.realpath(out)
        if ident in seen:
            raise OutputRefused("output file %s is also the output of the pair with output %s"
                                % (out, seen[ident]))
        seen[ident] = out
        folder = os.path.dirname(os.path.realpath(out))
        if (st is None or stat.S_ISREG(st.st_mode)) and not os.access(folder, os.W_OK | os.X_OK):
            reason = "no such folder" if not os.path.isdir(folder) else "permission denied"
            raise OutputRefused("cannot write output file %s: folder %s: %s" % (out, folder, reason))


def _new_file_mode():
    """0666 less the umask: the mode open() would give a new file."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _run(cmd, what):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        lines = (proc.stderr or proc.stdout).strip().splitlines()
        raise RuntimeError("%s: vmafpp exited with %d: %s"
                           % (what, proc.returncode, lines[-1] if lines else "(no message)"))
    return proc.stdout


def count_frames(cli, reference, distorted, args):
    """Frame pairs to score (after any --frame_skip_* in args)."""
    out = _run([cli, "-r", reference, "-d", distorted, "-q", "--count-frames"] + list(args),
               "%s vs %s: counting frames" % (reference, distorted))
    return int(out.strip())


def score_chunk(cli, reference, distorted, args, begin, end):
    """The chunk file text of frames begin..end-1."""
    what = "%s vs %s frames %d:%d" % (reference, distorted, begin, end)
    with tempfile.TemporaryDirectory(prefix="vmafpp-chunk-") as tmp:
        path = os.path.join(tmp, "chunk.json")
        _run([cli, "-r", reference, "-d", distorted, "-q"] + list(args) +
             ["--frame_range", "%d:%d" % (begin, end), "--chunk_out", path], what)
        with open(path, encoding="utf-8") as f:
            return f.read()


def merge_chunks(cli, chunk_texts, output_format, precision, what):
    """The merged output text of one pair's chunks."""
    with tempfile.TemporaryDirectory(prefix="vmafpp-merge-") as tmp:
        paths = []
        for i, text in enumerate(chunk_texts):
            paths.append(os.path.join(tmp, "chunk%06d.json" % i))
            with open(paths[-1], "w", encoding="utf-8") as f:
                f.write(text)
        out = os.path.join(tmp, "out")
        _run([cli, "merge"] + paths + ["-o", out, "--" + output_format, "--precision", precision],
             what + ": merging")
        with open(out, encoding="utf-8") as f:
            return f.read()


def write_atomically(path, text):
    """Writes text to path as the CLI writes -o: through a temporary file in
    the target's folder and a rename (a reader sees the old file or the whole
    new one), keeping the old file's mode or giving a new one 0666 less the
    umask (mkstemp's 0600 would make the results private); a symbolic link's
    target is replaced, a device or pipe written directly; "-" is stdout."""
    if _is_stdout(path):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    target = os.path.realpath(path) if st is not None else path
    mode = stat.S_IMODE(st.st_mode) if st is not None else _new_file_mode()
    fd, tmp = tempfile.mkstemp(prefix=".vmafpp-", dir=os.path.dirname(os.path.abspath(target)))
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def chunk_ranges(frames, chunk_frames):
    """[begin, end) ranges of at most chunk_frames frames covering 0..frames-1."""
    if frames <= 0:
        return []
    step = frames if not chunk_frames or chunk_frames <= 0 else int(chunk_frames)
    return [(b, min(frames, b + step)) for b in range(0, frames, step)]


def scoring_args(model=None, features=(), subsample=None, threads=None, extra_args=()):
    args = []
    for m in ([model] if isinstance(model, str) else (model or [])):
        args += ["-m", m if "=" in m else "version=" + m]
    for f in features:
        args += ["--feature", f]
    if subsample:
        args += ["--subsample", str(subsample)]
    if threads is not None:
        args += ["--threads", str(threads)]
    return args + list(extra_args)


def _pairs(pairs):
    out = []
    for p in pairs:
        if isinstance(p, dict):
            out.append((p["reference"], p["distorted"], p.get("output")))
        elif len(p) == 2:
            out.append((p[0], p[1], None))
        else:
            out.append((p[0], p[1], p[2]))
    return out


def score(pairs, client=None, chunk_frames=None, model=None, features=(), subsample=None,
          threads=None, extra_args=(), output_format="xml", precision="legacy",
          vmafpp_cli=None, retries=2, progress=False):
    """Scores (reference, distorted[, output]) pairs on the client's cluster.

    chunk_frames: frames per chunk (None: one chunk per pair). model, features,
    subsample, threads and extra_args (more of the CLI's scoring options) are
    the same for every pair. Returns the output text of each pair, in order;
    writes it (atomically) where an output path is given. Raises
    OutputRefused before scoring when an output is one the CLI would refuse
    (see check_outputs), and ChunkFailed after the other pairs are done when a
    pair's chunk failed after its retries; that pair gets no output.
    """
    import cloudpickle
    from distributed import Client, as_completed, progress as dask_progress

    # Workers need only the vmafpp executable, not this module.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    if output_format not in OUTPUT_FORMATS:
        raise ValueError("output_format must be one of %s" % ", ".join(OUTPUT_FORMATS))
    cli = vmafpp_cli or os.environ.get("VMAFPP_CLI") or "vmafpp"
    args = scoring_args(model, features, subsample, threads, extra_args)
    pairs = _pairs(pairs)
    check_outputs(pairs)
    own_client = client is None
    if own_client:
        client = Client(processes=True, threads_per_worker=1, dashboard_address=None)
    run = uuid.uuid4().hex[:8]
    try:
        counts = [client.submit(count_frames, cli, r, d, args, retries=retries, pure=False,
                                key="vmafpp-count-%s-%d" % (run, i))
                  for i, (r, d, _) in enumerate(pairs)]
        chunks = {}  # future -> (pair index, begin, end)
        failures = {}  # pair index -> message
        for i, fut in enumerate(counts):
            r, d, _ = pairs[i]
            try:
                frames = fut.result()
            except Exception as e:  # noqa: BLE001 - reported with the pair
                failures[i] = _naming_pair("%s vs %s" % (r, d), e)
                continue
            if frames <= 0:
                failures[i] = "%s vs %s: no frames to score" % (r, d)
                continue
            for b, e in chunk_ranges(frames, chunk_frames):
                f = client.submit(score_chunk, cli, r, d, args, b, e, retries=retries, pure=False,
                                  key="vmafpp-chunk-%s-%d-%d-%d" % (run, i, b, e))
                chunks[f] = (i, b, e)
        if progress and chunks:
            dask_progress(list(chunks))
        done_chunks = {}  # pair index -> {begin: future}; texts stay on the workers
        total = len(chunks)
        for done, f in enumerate(as_completed(list(chunks)), 1):
            i, b, e = chunks[f]
            r, d, _ = pairs[i]
            if f.status == "finished":
                done_chunks.setdefault(i, {})[b] = f
                log.info("chunk %d/%d done: %s vs %s frames %d:%d", done, total, r, d, b, e)
            elif f.status == "cancelled":  # no exception to report: the cluster is gone
                raise ClusterLost(LOST)
            else:
                failures.setdefault(i, _naming_pair("%s vs %s frames %d:%d" % (r, d, b, e), f.exception())
                                    + " (after %d retries)" % retries)
        merges = {}
        for i, parts in done_chunks.items():
            if i in failures:
                continue
            r, d, _ = pairs[i]
            # The futures, not their texts: Dask hands the chunks to the
            # merging worker without a round trip through this client.
            ordered = [parts[b] for b in sorted(parts)]
            merges[i] = client.submit(merge_chunks, cli, ordered, output_format, precision,
                                      "%s vs %s" % (r, d), retries=retries, pure=False,
                                      key="vmafpp-merge-%s-%d" % (run, i))
        results = [None] * len(pairs)
        for i, f in merges.items():
            r, d, out = pairs[i]
            try:
                results[i] = f.result()
            except Exception as ex:  # noqa: BLE001 - names the pair already
                failures[i] = str(ex)
                continue
            if out:
                write_atomically(out, results[i])
                log.info("wrote %s", out)
        if failures:
            raise ChunkFailed("; ".join(failures[i] for i in sorted(failures)))
        return results
    finally:
        if own_client:
            cluster = client.cluster
            client.close()
            if cluster is not None:
                cluster.close()


def _naming_pair(what, error):
    """The message of a task's error, led by `what` (the pair, the frames)
    once: _run's messages already start with it."""
    text = str(error)
    return text if text.startswith(what) else "%s: %s" % (what, text)


def _read_list(path):
    """A list file: one pair per line, "REF DIS OUT" (tab or spaces); # comments."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t") if "\t" in line else line.split()
            if len(parts) != 3:
                raise SystemExit("vmafpp-dask: %s:%d: expected REF DIS OUT" % (path, n))
            out.append(tuple(parts))
    return out


def main(argv=None):
    import argparse

    p = argparse.ArgumentParser(
        prog="vmafpp-dask", add_help=False, allow_abbrev=False,
        description="Score pairs (and long pairs in chunks) on a Dask cluster with vmafpp; "
                    "outputs equal single vmafpp runs byte for byte (fps aside). Options not "
                    "listed here (-m, --feature, --subsample, --threads, -w/-h/-p/-b, ...) go "
                    "to every vmafpp run.")
    p.add_argument("--help", action="help", help="print this help and exit")
    p.add_argument("--scheduler", help="tcp://HOST:PORT of a running scheduler "
                   "(default: a LocalCluster on this machine)")
    p.add_argument("--workers", type=int, default=None,
                   help="LocalCluster workers (without --scheduler; default: one per core)")
    p.add_argument("--chunk-frames", type=int, default=None,
                   help="frames per chunk (default: one chunk per pair)")
    p.add_argument("-r", "--reference", action="append", default=[])
    p.add_argument("-d", "--distorted", action="append", default=[])
    p.add_argument("-o", "--output", action="append", default=[])
    p.add_argument("--list", help="file of pairs, one \"REF DIS OUT\" per line")
    fmt = p.add_mutually_exclusive_group()
    for name in OUTPUT_FORMATS:
        fmt.add_argument("--" + name, dest="format", action="store_const", const=name)
    p.add_argument("--precision", default="legacy")
    p.add_argument("--retries", type=int, default=2, help="retries of a failing chunk")
    p.add_argument("--vmafpp", default=None, help="the vmafpp executable the workers run")
    p.add_argument("--progress", action="store_true", help="Dask's progress bar")
    p.add_argument("--summary", help="after every pair is scored (with --json), a summary CSV: a row per "
                   "pair with each model score's statistics (vmafpp report --summary)")
    p.add_argument("--report", help="after every pair is scored (with --json), one HTML report of all "
                   "pairs (vmafpp report)")
    p.add_argument("-v", "--verbose", action="store_true", help="log each chunk")
    a, passthrough = p.parse_known_args(argv)
    # Our own handler: the root logger would also print every INFO record
    # distributed's loggers pass up.
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("vmafpp-dask: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO if a.verbose else logging.WARNING)
    log.propagate = False
    if not (len(a.reference) == len(a.distorted) == len(a.output)):
        p.error("give -r, -d and -o the same number of times (one triple per pair)")
    pairs = list(zip(a.reference, a.distorted, a.output))
    if a.list:
        pairs += _read_list(a.list)
    if not pairs:
        p.error("no pairs: give -r REF -d DIS -o OUT (repeatable) or --list FILE")
    if (a.summary or a.report) and ((a.format or "xml") != "json" or any(_is_stdout(o) for _, _, o in pairs)):
        print("vmafpp-dask: --summary and --report read the pairs' outputs: give --json and output files",
              file=sys.stderr)
        return 1
    try:
        # The summary and report are checked as outputs too: never an input.
        check_outputs(pairs + [("", "", x) for x in (a.summary, a.report) if x])  # before a cluster starts
    except OutputRefused as e:
        print("vmafpp-dask: %s" % e, file=sys.stderr)
        return 1
    cli = a.vmafpp or os.environ.get("VMAFPP_CLI")
    if not cli:
        here = os.path.join(os.path.dirname(os.path.abspath(sys.argv[0])), "vmafpp")
        cli = here if os.access(here, os.X_OK) else "vmafpp"
    if not a.verbose:
        # Workers' "Compute Failed" warnings and the client's "Failed to
        # reconnect" are multi-line or repeat what the one-line error says;
        # -v keeps them. Set before dask is imported (its config reads the
        # environment then), inherited by the LocalCluster's workers.
        os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "critical")
    from distributed import Client, LocalCluster

    if not a.verbose:
        # distributed's own config gives distributed.client a level of its own.
        for name in ("distributed", "distributed.client"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        # distributed logs a cancelled reconnection under the module that
        # awaited it (asyncio's), which has no handler: without one on the
        # root, logging's last resort prints that traceback after our line.
        logging.getLogger().addHandler(logging.NullHandler())

    cluster = client = None
    try:
        if a.scheduler:
            client = Client(a.scheduler)
        else:
            cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
        score(pairs, client=client, chunk_frames=a.chunk_frames, extra_args=passthrough,
              output_format=a.format or "xml", precision=a.precision, vmafpp_cli=cli,
              retries=a.retries, progress=a.progress)
        if a.summary or a.report:
            write_summary(cli, pairs, a.summary, a.report)
    except (ChunkFailed, ClusterLost, OutputRefused) as e:
        print("vmafpp-dask: %s" % e, file=sys.stderr)
        return 1
    except (Exception, asyncio.CancelledError, concurrent.futures.CancelledError) as e:
        # A lost scheduler cancels every future (asyncio's CancelledError is
        # no Exception): one line, not distributed's traceback. Outputs are
        # only ever renamed into place whole, so none is left half-written.
        print("vmafpp-dask: %s" % _describe_failure(e), file=sys.stderr)
        return 1
    finally:
        _close_quietly(client, cluster)
    return 0


def write_summary(cli, pairs, summary=None, report=None):
    """The batch's summary CSV (a row per pair) and one HTML report of every
    pair, from the pairs' JSON outputs, by `vmafpp report --list` (the
    summary and report of `vmafpp batch`)."""
    with tempfile.TemporaryDirectory(prefix="vmafpp-summary-") as tmp:
        listing = os.path.join(tmp, "pairs.list")
        with open(listing, "w", encoding="utf-8") as f:
            for r, d, out in pairs:
                f.write("%s\t%s\t%s\n" % (r, d, out))
        cmd = [cli, "report", "--list", listing]
        if summary:
            cmd += ["--summary", summary]
        if report:
            cmd += ["-o", report]
        _run(cmd, "the summary")


def _describe_failure(e):
    if isinstance(e, (asyncio.CancelledError, concurrent.futures.CancelledError)):
        return LOST
    text = " ".join(str(e).split()) or "(no message)"
    return "%s: %s" % (type(e).__name__, text)


def _close_quietly(client, cluster):
    """Closes what main() opened; a scheduler that is gone makes closing
    fail too, which must not replace the error already printed."""
    for thing in (client, cluster):
        if thing is None:
            continue
        try:
            thing.close()
        except (Exception, asyncio.CancelledError):  # noqa: BLE001 - see above
            pass


if __name__ == "__main__":
    sys.exit(main())
