#!/usr/bin/env bash
# `nanoscatter rmc` under mpirun: tiles (independent replicas) spread over
# ranks; a tile's random numbers are keyed by its global index, so every
# tile must come out exactly as in the single process (occupancies, χ²
# traces, statistics: limit 0), with a multi-resolution stage, and with 4
# ranks for 3 tiles (one rank idle).
set -u
source "$(dirname "$0")/lib.bash"

$py - <<'PY' || fail "could not write the target"
import numpy as np, h5py
n = 32
a = (np.random.default_rng(5).random((n, n)) < 0.3).astype(float)
with h5py.File("target.h5", "w") as f:
    f["image"] = np.fft.fftshift(np.abs(np.fft.fft2(a)) ** 2)
PY
args="--target target.h5 --loading 0.3 --tiles 3 --steps 3000 --multires 1 --seed 9 --device cpu"
"$bin" rmc $args --output one --quiet || fail "alone failed"
for np in 2 4; do
  mpi $np rmc $args --output np$np 2> log$np.txt || fail "np $np: $(cat log$np.txt)"
  load_report log$np.txt $np
  same_h5 np$np/rmc.h5 one/rmc.h5 0
  for f in chi2_trace.dat acceptance.dat pair_correlation.dat; do same_numbers np$np/$f one/$f 0; done
  [ -s np$np/occupancy_tile2.png ] || fail "np $np: tile 2 picture missing"
done
echo "ok: rmc under mpirun -np 2 and 4 equals the single process"
