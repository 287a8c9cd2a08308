"""Builds the Python package vmafpp for the interpreter that runs it (pip,
python3 -m build; metadata in pyproject.toml).

The extension _vmafpp is the project's own CMake target vmafpp_python: CMake
is configured with only what that target needs (no tests, benchmarks, C API
or shared library), for sys.executable, and builds that one target in
Release; the models are embedded in libvmafpp.a, which the extension links
statically, so the wheel needs nothing from the build tree.

Environment:
  VMAFPP_PIP_BUILD_DIR  setuptools' build folder (CMake's build folder is its
                        temp.* subfolder); default build-pip/ in the source tree
  CMAKE_ARGS            more CMake arguments (-DVMAFPP_WITH_CUDA=OFF, ...)
  CMAKE_BUILD_PARALLEL_LEVEL, CMAKE_CXX_COMPILER_LAUNCHER  as for any CMake build
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def project_version():
    """The one version of the project: CMakeLists.txt's project(vmafpp VERSION x.y.z)."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    found = re.search(r"project\(\s*vmafpp\s+VERSION\s+([0-9]+(?:\.[0-9]+)*)", text)
    if not found:
        raise SystemExit("setup.py: CMakeLists.txt has no 'project(vmafpp VERSION x.y.z)'")
    return found.group(1)


def cmake_configure_args(python):
    """Only the Python module: everything else the project builds by default is
    off, so a pip build compiles the library once and links one target."""
    args = [
        "-DCMAKE_BUILD_TYPE=Release",
        "-DVMAFPP_BUILD_TESTS=OFF",
        "-DVMAFPP_BUILD_BENCH=OFF",
        "-DVMAFPP_BUILD_SHARED=OFF",
        "-DVMAFPP_LIBVMAF_API=OFF",
        "-DVMAFPP_PYTHON=ON",
        # A missing pybind11 or numpy must fail the install, not build nothing.
        "-DVMAFPP_PYTHON_REQUIRED=ON",
        "-DPython_EXECUTABLE=" + python,
    ]
    if shutil.which("ninja"):
        args += ["-G", "Ninja"]
    return args + shlex.split(os.environ.get("CMAKE_ARGS", ""))


def cached_python(build_dir):
    """The interpreter an existing CMake cache was configured for, or None."""
    cache = build_dir / "CMakeCache.txt"
    if not cache.exists():
        return None
    for line in cache.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("Python_EXECUTABLE:"):
            return line.split("=", 1)[1]
    return None


def run(cmd, **kwargs):
    print("+ " + shlex.join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kwargs)


class CMakeTarget(Extension):
    """An extension module that is a CMake target's output, not setuptools' compile."""

    def __init__(self, name, target, output_dir):
        super().__init__(name, sources=[])
        self.target = target
        self.output_dir = output_dir  # relative to CMake's build folder


class BuildWithCMake(build_ext):
    def build_extension(self, ext):
        if not isinstance(ext, CMakeTarget):
            return super().build_extension(ext)
        build_dir = Path(self.build_temp).resolve()
        build_dir.mkdir(parents=True, exist_ok=True)
        # FindPython and pybind11 cache what they found for one interpreter: a
        # folder configured for another (a venv reusing VMAFPP_PIP_BUILD_DIR)
        # is configured afresh; its object files stay and are reused.
        if cached_python(build_dir) not in (None, sys.executable):
            (build_dir / "CMakeCache.txt").unlink()
        run(["cmake", "-S", str(ROOT), "-B", str(build_dir)] + cmake_configure_args(sys.executable))
        run(["cmake", "--build", str(build_dir), "--target", ext.target, "--config", "Release"])
        built = build_dir / ext.output_dir / ("_vmafpp" + sysconfig.get_config_var("EXT_SUFFIX"))
        if not built.exists():
            raise SystemExit(f"setup.py: the build did not make {built}")
        dest = Path(self.get_ext_fullpath(ext.name))
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(built, dest)


def build_base():
    """setuptools' default, build/, is the project's CMake build folder."""
    return os.environ.get("VMAFPP_PIP_BUILD_DIR") or str(ROOT / "build-pip")


setup(
    version=project_version(),
    package_dir={"": "python"},
    packages=["vmafpp"],
    ext_modules=[CMakeTarget("vmafpp._vmafpp", target="vmafpp_python", output_dir="python/vmafpp")],
    cmdclass={"build_ext": BuildWithCMake},
    options={"build": {"build_base": build_base()}},
)
