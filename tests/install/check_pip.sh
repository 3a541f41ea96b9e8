#!/usr/bin/env bash
# pip acceptance (issue 24): the Python package built by pip through
# pyproject.toml + setup.py (setuptools, which runs the project's CMake), with
# Debian 12's python3-pip, -setuptools and -wheel and no package index:
#   - `pip install --no-build-isolation --no-deps --target T .` and
#     `pip wheel --no-build-isolation --no-deps -w W .`, run in the source
#     folder as README "Install" shows, leave the checkout as it was (no
#     build/, *.egg-info or dist/ written into it);
#   - the first builds in a temporary folder that is gone afterwards (the
#     default), the second in NANOSCATTER_BUILD_DIR (kept);
#   - the wheel holds the package nanoscatter alone, the files the in-tree
#     build assembles, with the version of CMakeLists.txt;
#   - /usr/bin/python3 imports the package from T, from a folder outside the
#     source and build trees, and computes the Debye intensity of a small gold
#     cluster equal to that of the in-tree module (<build>/python), and that
#     of two Ni atoms 2.5 Å apart, 2 b² (1 + sin 5 / 5), as install.check.
#   check_pip.sh SOURCE_DIR IN_TREE_PYTHON_DIR WORK_DIR
# WORK_DIR keeps the logs; the rest lies in a temporary folder, removed at the end.
#
# Cost: pip builds the library and the module twice (not the CLI or the
# tests). ccache makes both cheap where this checkout's sources were compiled
# with the same flags and CCACHE_BASEDIR unset before (CI's build, or an
# earlier run of this test): 25-40 s on 2 cores, mostly CMake's configure
# steps and the module's link. Without those cache entries the first pip
# build compiles everything: 18 minutes measured on a busy 2-core machine.
set -euo pipefail
source=$(realpath "$1") in_tree=$(realpath "$2") work=$3
rm -rf "$work"
mkdir -p "$work"
work=$(realpath "$work")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/tmp" "$scratch/elsewhere"
target=$scratch/target wheels=$scratch/wheels kept=$scratch/kept

# What git sees in the checkout, ignored files included (folders collapsed);
# __pycache__ folders are left out, as Python tests running beside this one
# write them.
checkout_state() {
  git -C "$source" status --porcelain --ignored | grep -v "__pycache__/$" || true
}
in_git=0
git -C "$source" rev-parse --is-inside-work-tree >/dev/null 2>&1 && in_git=1
[[ $in_git = 1 ]] && checkout_state >"$work/git_status_before.txt"

# The environment pip runs in. TMPDIR: pip's and setup.py's temporary folders
# inside the scratch folder, so that what is left of them can be seen.
# CCACHE_BASEDIR unset: with it, ccache keys a compile by paths relative to
# the build folder, and pip's build folder is not where the checkout's build/
# is, so no compile would be found again; with absolute paths every build of
# this checkout shares the cache.
# CMAKE_BUILD_PARALLEL_LEVEL: the PROCESSORS CTest reserves for this test.
pip_env=(env -u CCACHE_BASEDIR TMPDIR="$scratch/tmp" CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"
         PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INDEX=1 PIP_NO_CACHE_DIR=1)
cd "$source"
t0=$SECONDS
"${pip_env[@]}" /usr/bin/python3 -m pip install -v --no-build-isolation --no-deps --target "$target" . \
  >"$work/pip_install.log" 2>&1 || { tail -40 "$work/pip_install.log"; echo "FAIL pip install (log $work/pip_install.log)"; exit 1; }
echo "ok   pip install --target (temporary build folder): $((SECONDS - t0)) s"
left=$(find "$scratch/tmp" -maxdepth 1 -name "nanoscatter-build-*")
[[ -z "$left" ]] || { echo "FAIL setup.py left its temporary build folder: $left"; exit 1; }
t0=$SECONDS
"${pip_env[@]}" NANOSCATTER_BUILD_DIR="$kept" /usr/bin/python3 -m pip wheel -v --no-build-isolation --no-deps \
  -w "$wheels" . >"$work/pip_wheel.log" 2>&1 || { tail -40 "$work/pip_wheel.log"; echo "FAIL pip wheel (log $work/pip_wheel.log)"; exit 1; }
echo "ok   pip wheel (NANOSCATTER_BUILD_DIR): $((SECONDS - t0)) s"
[[ -f "$kept/cmake/CMakeCache.txt" ]] || [[ -n "$(find "$kept" -maxdepth 3 -name CMakeCache.txt)" ]] \
  || { echo "FAIL NANOSCATTER_BUILD_DIR=$kept holds no CMake build"; exit 1; }

# The checkout as it was.
if [[ $in_git = 1 ]]; then
  checkout_state >"$work/git_status_after.txt"
  # Entries that appeared (one that went away was removed by someone else).
  added=$(comm -13 <(sort "$work/git_status_before.txt") <(sort "$work/git_status_after.txt"))
  [[ -z "$added" ]] || { echo "FAIL pip changed the checkout; git status now also lists:"; echo "$added"; exit 1; }
fi
written=$(cd "$source" && find . -maxdepth 2 \( -name "*.egg-info" -o -path "./dist" -o -path "./build/lib.*" \
                                               -o -path "./build/bdist.*" -o -path "./build/temp.*" \) -print)
[[ -z "$written" ]] || { echo "FAIL pip wrote into the source folder: $written"; exit 1; }
checked="no build/lib.*, build/bdist.*, build/temp.*, *.egg-info or dist/"
[[ $in_git = 1 ]] && checked="git status as before, $checked" || checked="not a git checkout; $checked"
echo "ok   source folder unchanged ($checked)"

# The wheel: one, named with the project's version, holding nanoscatter/ (the
# files the in-tree build assembled) and its .dist-info, nothing else.
version=$(sed -n 's/^project(nanoscatter VERSION \([0-9.]*\).*/\1/p' "$source/CMakeLists.txt")
wheel=$(echo "$wheels"/nanoscatter-"$version"-*.whl)
[[ -f "$wheel" ]] || { echo "FAIL no wheel nanoscatter-$version-*.whl in $wheels:"; ls "$wheels"; exit 1; }
/usr/bin/python3 - "$wheel" "$in_tree" "$target" "$version" <<'PY'
import os, sys, zipfile
wheel, in_tree, target, version = sys.argv[1:]
names = zipfile.ZipFile(wheel).namelist()
info = "nanoscatter-%s.dist-info/" % version
package = sorted(n for n in names if not n.startswith(info))
expected = sorted("nanoscatter/" + f for f in os.listdir(os.path.join(in_tree, "nanoscatter"))
                  if f.endswith(".py") or f.startswith("_core"))
if package != expected:
    sys.exit("FAIL the wheel holds %s, the in-tree package %s" % (package, expected))
meta = zipfile.ZipFile(wheel).read(info + "METADATA").decode()
if "\nVersion: %s\n" % version not in meta:
    sys.exit("FAIL the wheel's METADATA does not give Version: %s" % version)
installed = sorted("nanoscatter/" + f for f in os.listdir(os.path.join(target, "nanoscatter"))
                   if f != "__pycache__")
if installed != expected:
    sys.exit("FAIL pip install --target put %s, expected %s" % (installed, expected))
print("ok   %s: the %d files of the in-tree package, version %s" % (os.path.basename(wheel), len(package), version))
PY

# The installed package against the in-tree module, run from outside both
# trees. device="cpu": an in-tree build with CUDA would otherwise take a GPU.
compute() {  # PYTHONPATH
  PYTHONPATH="$1" /usr/bin/python3 - "$1" "$scratch/elsewhere/$(basename "$1").npy" <<'PY'
import os, sys
import numpy as np
import ase
import nanoscatter as ns
folder, out = sys.argv[1], sys.argv[2]
where = os.path.realpath(ns.__file__)
if not where.startswith(os.path.realpath(folder) + os.sep):
    sys.exit("FAIL nanoscatter imported from %s, not from %s" % (where, folder))
cluster = ns.build(lattice="fcc", a=4.078, elements="Au", shape="sphere", radius=8)
r = ns.debye(cluster, qmin=0.5, qmax=10, qpoints=96, device="cpu", precision="double")
pair = ns.debye(ase.Atoms("Ni2", positions=[(0, 0, 0), (0, 0, 2.5)]), q=[2.0], radiation="neutron", device="cpu")
np.save(out, np.concatenate([[len(cluster)], r.intensity, pair.intensity]))
print(ns.__version__)
PY
}
cd "$scratch/elsewhere"
installed_version=$(compute "$target")
in_tree_version=$(compute "$in_tree")
[[ "$installed_version" = "$version" && "$in_tree_version" = "$version" ]] \
  || { echo "FAIL __version__: installed $installed_version, in-tree $in_tree_version, CMakeLists.txt $version"; exit 1; }
/usr/bin/python3 - "$scratch/elsewhere/$(basename "$target").npy" "$scratch/elsewhere/$(basename "$in_tree").npy" <<'PY'
import sys
import numpy as np
installed, in_tree = np.load(sys.argv[1]), np.load(sys.argv[2])
# Same sources, same flags: the same numbers up to the order OpenMP threads
# sum in (float64, relative 1e-12 is far below any real difference).
if installed.shape != in_tree.shape or not np.allclose(installed, in_tree, rtol=1e-12, atol=0):
    sys.exit("FAIL installed and in-tree Debye intensities differ: max relative %.3g"
             % np.max(np.abs(installed / in_tree - 1)))
pair = installed[-1]  # 2 b² (1 + sin 5 / 5), b(Ni) = 10.3 fm
if abs(pair - 171.48708948039507) > 1e-9 * 171.48708948039507:
    sys.exit("FAIL two Ni atoms: I(Q=2) = %r, expected 171.48708948039507 fm²" % pair)
print("ok   installed package: Au cluster of %d atoms, %d Q points equal to the in-tree module's "
      "(max relative difference %.1g); Ni pair I(Q=2) = %.12f" % (installed[0], installed.size - 2,
      np.max(np.abs(installed / in_tree - 1)), pair))
PY
