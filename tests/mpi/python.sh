#!/usr/bin/env bash
# The Python API under mpirun: every script in tests/mpi/python/ runs under
# `mpirun -np 2 python3` with comm=nanoscatter.world() and checks, on every
# rank, that the distributed result equals the single-process one (each
# script says to what tolerance); then alone, as rank 0 of 1.
set -u
scripts=$(dirname "$(realpath "$0")")/python  # before lib.bash moves to the work folder
source "$(dirname "$0")/lib.bash"
module_dir=$(realpath "$(dirname "$bin")/../python")
[ -d "$module_dir/nanoscatter" ] || { echo "skip: the Python module is not built"; exit 77; }
export PYTHONPATH="$module_dir" NS_CLI="$bin"
for script in "$scripts"/*.py; do
  name=$(basename "$script" .py)
  $py "$script" > alone_$name.txt 2>&1 || fail "$name alone: $(cat alone_$name.txt)"
  timeout 300 mpirun -q --oversubscribe -np 2 $py "$script" > np2_$name.txt 2>&1 ||
    fail "$name under mpirun -np 2: $(cat np2_$name.txt)"
  grep -q "ok 2 ranks" np2_$name.txt || fail "$name: not run on 2 ranks: $(cat np2_$name.txt)"
  echo "$name: $(tail -1 np2_$name.txt)"
done
echo "ok: the Python API under mpirun -np 2 gives the single-process results"
