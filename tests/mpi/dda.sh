#!/usr/bin/env bash
# `nanoscatter dda` under mpirun: the two incident polarisations of a
# particle without 90° symmetry (an ellipsoid) are solved on different ranks
# and finished on rank 0. Each solve is the same computation as alone, so
# CrossSec-X/Y and mueller must agree exactly (limit 0); with 4 ranks two
# ranks have nothing to solve. A sphere (one polarisation) runs on rank 0.
set -u
source "$(dirname "$0")/lib.bash"

ell="--shape ellipsoid 0.8 1.3 --grid 10 --m 1.5 0.01 --mueller --csca --device cpu"
sph="--shape sphere --grid 8 --m 1.33 0.0 --mueller --device cpu"
"$bin" dda $ell --output one --quiet || fail "ellipsoid alone failed"
"$bin" dda $sph --output one_s --quiet || fail "sphere alone failed"
for np in 2 4; do
  mpi $np dda $ell --output np$np 2> log$np.txt || fail "np $np: $(cat log$np.txt)"
  load_report log$np.txt $np
  for f in CrossSec-X CrossSec-Y mueller; do same_numbers np$np/$f one/$f 0; done
  grep -q "^Total wall time" np$np/log || fail "np $np: no log"
  mpi $np dda $sph --output np${np}_s --quiet || fail "sphere np $np"
  for f in CrossSec-X CrossSec-Y mueller; do same_numbers np${np}_s/$f one_s/$f 0; done
done
echo "ok: dda under mpirun -np 2 and 4 equals the single process"
