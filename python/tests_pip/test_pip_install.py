"""`pip install --no-build-isolation --no-index .` from the source tree into a
fresh venv (--system-site-packages, for Debian's numpy) installs a vmafpp
whose score() gives the CLI's pooled VMAF to 17 significant digits, whose
versions are the project's, whose extension needs only system libraries and
whose vmafpp-dask console script runs.

The pip build compiles the library again (a Release build of the one
extension target): its CMake folder stays in the work folder
(VMAFPP_PIP_BUILD_DIR), so a rerun only relinks what changed."""
import json
import os
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "support"))
from corpus_clips import clip as corpus_clip  # noqa: E402  (tests/support/corpus_clips.py)

SOURCE = os.environ["VMAFPP_SOURCE_DIR"]
VERSION = os.environ["VMAFPP_PROJECT_VERSION"]
CLI = os.environ["VMAFPP_CLI"]
CORPUS = os.environ["VMAFPP_CORPUS_DIR"]
WORK = os.environ["VMAFPP_TEST_WORK_DIR"]
VENV = os.path.join(WORK, "venv")
VENV_PYTHON = os.path.join(VENV, "bin", "python")

PAIR = "p08_brick_176x144_420p8_bilinear2x"

# Runs in the venv, from the work folder: nothing of the source or build tree
# is on its path.
PROBE = """
import importlib.metadata, json, sys
import vmafpp, vmafpp._vmafpp, vmafpp.dask
r = vmafpp.score(sys.argv[1], sys.argv[2])
json.dump({"file": vmafpp.__file__, "extension": vmafpp._vmafpp.__file__,
           "version": vmafpp.version(), "dunder_version": getattr(vmafpp, "__version__", None),
           "metadata_version": importlib.metadata.version("vmafpp"),
           "vmaf": repr(r["pooled_metrics"]["vmaf"]["mean"])}, sys.stdout)
"""


def clip(which):
    return corpus_clip(CORPUS, WORK, PAIR, which)


def run(cmd, **kwargs):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stdout[-8000:]}")
    return p.stdout


def pip_env():
    env = dict(os.environ)
    env["VMAFPP_PIP_BUILD_DIR"] = os.path.join(WORK, "pip-build")
    # ninja's default (cores + 2) would overload a CI runner that also runs other tests.
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", str(len(os.sched_getaffinity(0))))
    # The device backends have tests of their own; here they would only add
    # their compile time (nvcc, glslc) to a build that tests the packaging.
    env.setdefault("CMAKE_ARGS", "-DVMAFPP_WITH_CUDA=OFF -DVMAFPP_WITH_VULKAN=OFF")
    env.pop("PYTHONPATH", None)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def cli_pooled_vmaf(ref, dis):
    """The CLI's --precision max text of the pooled mean (17 significant digits)."""
    out = os.path.join(WORK, f"{PAIR}_cli.json")
    run([CLI, "-r", ref, "-d", dis, "--json", "-o", out, "--precision", "max"])
    with open(out) as f:
        doc = json.load(f, parse_float=str)
    return doc["pooled_metrics"]["vmaf"]["mean"]


def shared_libraries(path):
    """(name, resolved path or None) of each library ldd lists for path."""
    libs = []
    for line in run(["ldd", path]).splitlines():
        if "=>" not in line:
            continue
        name, target = (s.strip() for s in line.split("=>", 1))
        resolved = target.split(" (")[0].strip()
        libs.append((name, None if resolved == "not found" else resolved))
    return libs


class PipInstall(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.makedirs(WORK, exist_ok=True)
        shutil.rmtree(VENV, ignore_errors=True)
        run([sys.executable, "-m", "venv", "--system-site-packages", VENV])
        cls.pip_log = run([VENV_PYTHON, "-m", "pip", "install", "--no-build-isolation", "--no-index",
                           "--no-cache-dir", SOURCE], cwd=WORK, env=pip_env())
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        cls.probe = json.loads(run([VENV_PYTHON, "-c", PROBE, clip("ref"), clip("dis")], cwd=WORK, env=env))

    def test_installed_into_the_venv(self):
        site = run([VENV_PYTHON, "-c", "import sysconfig; print(sysconfig.get_paths()['platlib'])"]).strip()
        for key in ("file", "extension"):
            self.assertTrue(self.probe[key].startswith(site + os.sep), f"{key} {self.probe[key]} not in {site}")

    def test_versions_are_the_projects(self):
        self.assertEqual(self.probe["metadata_version"], VERSION)
        self.assertEqual(self.probe["version"], VERSION)
        # vmafpp.__version__ arrives with the module's hardening; checked once it exists.
        if self.probe["dunder_version"] is not None:
            self.assertEqual(self.probe["dunder_version"], VERSION)

    def test_pooled_vmaf_equals_the_cli_to_17_digits(self):
        want = cli_pooled_vmaf(clip("ref"), clip("dis"))
        got = float(self.probe["vmaf"])
        self.assertEqual(format(got, ".17g"), format(float(want), ".17g"),
                         f"pip-installed vmafpp {self.probe['vmaf']}, CLI {want}")

    def test_extension_needs_only_system_libraries(self):
        libs = shared_libraries(self.probe["extension"])
        self.assertTrue(libs)
        for name, path in libs:
            self.assertIsNotNone(path, f"{name} not found")
            self.assertTrue(path.startswith(("/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/")),
                            f"{name} resolves to {path}, outside the system's libraries")

    def test_console_script_runs(self):
        script = os.path.join(VENV, "bin", "vmafpp-dask")
        self.assertIn("usage: vmafpp-dask", run([script, "--help"], cwd=WORK))


if __name__ == "__main__":
    unittest.main()
