"""Where install_consumers left the installed prefix, for the scripts that
check it (check_versions.py, run_examples.py)."""

import glob
import os
import sys


def installed_pcdir(install_work):
    """The prefix's pkgconfig folder (the one holding vmafpp.pc); exits with one
    line when install_consumers has not run."""
    prefix = os.path.join(install_work, "prefix")
    pcs = glob.glob(os.path.join(prefix, "**", "pkgconfig", "vmafpp.pc"), recursive=True)
    if not pcs:
        sys.exit(f"no vmafpp.pc under {prefix}: run install_consumers first")
    return os.path.dirname(pcs[0])
