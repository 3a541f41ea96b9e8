"""pip's way into the project's CMake build (pyproject.toml, README "Install").

    /usr/bin/python3 -m pip install --no-build-isolation --no-deps --target out/python .

setuptools (Debian 12: python3-setuptools, python3-wheel, python3-pip; no
package index needed) runs this file; its build_ext configures the CMake
project with the Python module on and everything else that can be left out
off (tests, benchmarks, CUDA), builds the one target nanoscatter_python (and
the static library it links), and installs CMake's install component
`python` (python/CMakeLists.txt: the module and the pure-Python files, the
same package `cmake --install` puts under a prefix) into the wheel.

Environment:
  NANOSCATTER_CUDA=OFF|AUTO|ON  the CUDA paths (CMake option of the same name;
                                default OFF, so a wheel needs no CUDA runtime)
  NANOSCATTER_BUILD_DIR=DIR     build there and keep it, so the next pip run
                                rebuilds only what changed (default: a
                                temporary folder, removed after the build)
  CMAKE_BUILD_PARALLEL_LEVEL=N  compile jobs (CMake's own variable)

Nothing is written into the checkout: setuptools' build/ and .egg-info go to
that folder too, and the CMake build lies outside the source tree.
"""
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE_DIR = os.path.dirname(os.path.abspath(__file__))


def project_version():
    """project(nanoscatter VERSION x.y.z) of CMakeLists.txt: the one version,
    also compiled into the module (nanoscatter.__version__) and the CLI."""
    with open(os.path.join(SOURCE_DIR, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(nanoscatter VERSION ([0-9.]+)", f.read())
    if not m:
        sys.exit("setup.py: no project(nanoscatter VERSION ...) in CMakeLists.txt")
    return m.group(1)


def build_folder():
    kept = os.environ.get("NANOSCATTER_BUILD_DIR")
    if kept:
        path = os.path.abspath(kept)
        os.makedirs(path, exist_ok=True)
        return path
    # pip runs each build step in a process of its own; the folder lives as
    # long as that process, which is when the wheel has been copied out.
    path = tempfile.mkdtemp(prefix="nanoscatter-build-")
    atexit.register(shutil.rmtree, path, True)
    return path


class CMakeBuild(build_ext):
    """Builds nanoscatter._core with CMake and places the whole package
    (CMake's install component `python`) into build_lib."""

    def run(self):
        if self.inplace or getattr(self, "editable_mode", False):
            # Both would put the module into the checkout; the in-tree build
            # already assembles the package where Python can import it.
            sys.exit("setup.py: no in-place or editable build (pip install -e); while developing, "
                     "build with CMake and use PYTHONPATH=build/python (docs/guide.md, Python)")
        cmake = shutil.which("cmake")
        if not cmake:
            sys.exit("setup.py: cmake not found (Debian: scripts/deps.sh installs it)")
        top = os.path.abspath(self.build_temp)
        cmake_dir = os.path.join(top, "cmake")
        staging = os.path.join(top, "package")
        cuda = os.environ.get("NANOSCATTER_CUDA", "OFF")
        configure = [
            cmake, "-S", SOURCE_DIR, "-B", cmake_dir, "-DCMAKE_BUILD_TYPE=Release",
            # The module for the interpreter pip runs under.
            "-DPython3_EXECUTABLE=" + sys.executable,
            "-DNANOSCATTER_PYTHON=ON", "-DNANOSCATTER_CUDA=" + cuda,
            "-DNANOSCATTER_TESTS=OFF", "-DNANOSCATTER_BENCH=OFF",
            # Relative: under the --prefix of the install below.
            "-DNANOSCATTER_INSTALL_PYTHONDIR=site",
        ]
        if shutil.which("ninja") and not os.path.exists(os.path.join(cmake_dir, "CMakeCache.txt")):
            configure += ["-G", "Ninja"]
        subprocess.check_call(configure)
        subprocess.check_call([cmake, "--build", cmake_dir, "--target", "nanoscatter_python"])
        shutil.rmtree(staging, ignore_errors=True)
        subprocess.check_call([cmake, "--install", cmake_dir, "--component", "python", "--prefix", staging])
        package = os.path.join(staging, "site", "nanoscatter")
        target = os.path.join(os.path.abspath(self.build_lib), "nanoscatter")
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(package, target)


build_base = build_folder()
setup(
    version=project_version(),
    ext_modules=[Extension("nanoscatter._core", sources=[])],
    # The package is what CMake installs (CMakeBuild), not found by setuptools.
    packages=[],
    cmdclass={"build_ext": CMakeBuild},
    options={
        "build": {"build_base": build_base},
        "egg_info": {"egg_base": build_base},
    },
    zip_safe=False,
)
