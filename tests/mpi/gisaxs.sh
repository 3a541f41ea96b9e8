#!/usr/bin/env bash
# `nanoscatter gisaxs` under mpirun: pixel blocks dealt round-robin, merged
# on rank 0. Each pixel is computed as alone: the images must agree exactly.
set -u
source "$(dirname "$0")/lib.bash"

sample=$data/gisaxs/mixture_paracrystal.toml
[ -f "$sample" ] || fail "missing $sample"
"$bin" gisaxs "$sample" --output one.h5 --text one.txt --quiet || fail "alone failed"
for np in 2 4; do
  mpi $np gisaxs "$sample" --output np$np.h5 --text np$np.txt 2> log$np.txt || fail "np $np: $(cat log$np.txt)"
  load_report log$np.txt $np
  same_h5 np$np.h5 one.h5 0
  same_numbers np$np.txt one.txt 0
done
echo "ok: gisaxs under mpirun -np 2 and 4 equals the single process"
