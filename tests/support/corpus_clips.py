"""The corpus clips for the Python test scripts (python/tests*, tests/capi,
tests/install): one decompression, as tests/support/corpus.cpp does for the
C++ tests.

A clip is written to a temporary name of this process and renamed into place,
so scripts that ctest runs at once over one work folder never read a
half-written clip."""

import lzma
import os


def decompress_clip(corpus, pair, which, out):
    """tests/corpus/clips/<pair>_<which>.y4m.xz into `out`, unless it is there."""
    if os.path.exists(out):
        return out
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with lzma.open(os.path.join(corpus, "clips", f"{pair}_{which}.y4m.xz")) as f:
        data = f.read()
    tmp = f"{out}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out)
    return out


def clip(corpus, work, pair, which):
    """The decompressed clip, <work>/<pair>_<which>.y4m."""
    return decompress_clip(corpus, pair, which, os.path.join(work, f"{pair}_{which}.y4m"))
