#!/usr/bin/env bash
# Install acceptance (issue 24): `cmake --install` into a fresh prefix, then,
# from a folder outside the source and build trees,
#   - the installed CLI runs (`nanoscatter info`), and needs nothing from the
#     build tree (no RPATH into it, every library resolved);
#   - /usr/bin/python3 imports the installed package from the prefix's Python
#     folder and computes a Debye intensity;
#   - a CMake project (tests/install/consumer) finds the package, links
#     nanoscatter::nanoscatter and computes the same intensity.
# The intensity is that of two Ni atoms 2.5 Å apart, neutrons, Q = 2 Å⁻¹:
# 2 b² (1 + sin 5 / 5) with b = 10.3 fm, 171.48708948039507 fm².
#   check_install.sh CMAKE BUILD_DIR SOURCE_DIR WORK_DIR PYTHON_DIR
# WORK_DIR keeps the logs; the prefix is a temporary folder, removed at the end.
# PYTHON_DIR: the Python folder under the prefix (NANOSCATTER_INSTALL_PYTHONDIR),
# empty where the build has no Python module (that part is then skipped, with a note).
set -euo pipefail
cmake=$1 build=$2 source=$3 work=$4 python_dir=${5:-}
python_dir_arg=$python_dir
expected=171.48708948039507
tolerance=1e-9  # relative; the sum is float64 over one pair

rm -rf "$work"
mkdir -p "$work"
# The prefix and the folder the programs run from lie outside the build tree,
# so a path into it cannot pass for one into the prefix.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix
mkdir -p "$scratch/elsewhere"
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log"

close_to_expected() {  # value label
  /usr/bin/python3 - "$1" "$2" "$expected" "$tolerance" <<'PY'
import sys
value, label, expected, tol = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
if abs(float(value) - expected) > tol * expected:
    sys.exit("%s: I(Q=2) = %s, expected %.12f" % (label, value, expected))
print("ok   %s: I(Q=2) = %s" % (label, value))
PY
}

# Installed programs and modules: no run path into the build or source tree,
# every library found.
check_self_contained() {  # file
  local runpath tree
  runpath=$(readelf -d "$1" | sed -n 's/.*(\(RPATH\|RUNPATH\)).*\[\(.*\)\]/\2/p')
  for tree in "$build" "$source" "$(realpath "$build")" "$(realpath "$source")"; do
    if [[ ":$runpath:" == *":$tree"* ]]; then
      echo "FAIL installed $1 has a run path into $tree: $runpath"; exit 1
    fi
  done
  if ldd "$1" | grep -q "not found"; then
    echo "FAIL installed $1 misses libraries:"; ldd "$1" | grep "not found"; exit 1
  fi
  echo "ok   $1: run path ${runpath:-none}, all libraries found"
}

cli=$prefix/bin/nanoscatter
check_self_contained "$cli"
cd "$scratch/elsewhere"
"$cli" info >info.txt
grep -q "^nanoscatter [0-9]" info.txt || { echo "FAIL nanoscatter info printed:"; cat info.txt; exit 1; }
echo "ok   $cli info, run from $PWD"

# Python: the package from the prefix, not from the build tree.
if [[ -n "$python_dir" ]]; then
  [[ "$python_dir" = /* ]] || python_dir=$prefix/$python_dir
  check_self_contained "$(echo "$python_dir"/nanoscatter/_core*.so)"
  value=$(PYTHONPATH="$python_dir" /usr/bin/python3 - "$python_dir" <<'PY'
import os, sys
import ase
import nanoscatter as ns
where = os.path.realpath(ns.__file__)
if not where.startswith(os.path.realpath(sys.argv[1]) + os.sep):
    sys.exit("nanoscatter imported from %s, not from %s" % (where, sys.argv[1]))
r = ns.debye(ase.Atoms("Ni2", positions=[(0, 0, 0), (0, 0, 2.5)]), q=[2.0], radiation="neutron")
print("%.12f" % r.intensity[0])
PY
  )
  close_to_expected "$value" "python3 (PYTHONPATH=$python_dir)"
else
  echo "skip Python: the build has no Python module"
fi

# pip (pyproject.toml, setup.py; test install.pip) puts into the wheel what
# the install component `python` installs: it must be the package alone.
# (An absolute Python folder would be written outside the scratch prefix.)
if [[ -n "$python_dir_arg" && "$python_dir_arg" != /* ]]; then
  "$cmake" --install "$build" --prefix "$scratch/wheel" --component python >/dev/null
  outside=$(cd "$scratch/wheel" && find . -type f | grep -v "^\./$python_dir_arg/nanoscatter/" || true)
  [[ -z "$outside" ]] || { echo "FAIL component python installs more than the package:"; echo "$outside"; exit 1; }
  echo "ok   install component python: the package alone"
fi

# A CMake project using the package.
"$cmake" -S "$source/tests/install/consumer" -B "$scratch/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/consumer_configure.log" \
  || { cat "$work/consumer_configure.log"; exit 1; }
"$cmake" --build "$scratch/consumer" >"$work/consumer_build.log" || { cat "$work/consumer_build.log"; exit 1; }
close_to_expected "$("$scratch/consumer/two_atoms")" "consumer (find_package(nanoscatter))"
