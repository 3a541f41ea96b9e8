#!/usr/bin/env bash
# `nanoscatter pattern2d` under mpirun: each rank a run of pixels, merged on
# rank 0. Pixels are computed by the same code in the same order as alone,
# so intensity and amplitude must agree exactly (limit 0; 1e-12 would do).
set -u
source "$(dirname "$0")/lib.bash"

"$bin" build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 9 --output au.xyz --quiet || fail "build failed"
polar="--wavelength 1.0 --qmax 4 --nq 33 --nphi 45 --euler-zyz 10 20 30 --amplitude"
flat="--flat --wavelength 1.0 --distance 100 --pixel-size 2 --nx 21 --ny 17"
"$bin" pattern2d au.xyz $polar --device cpu --output one.h5 --quiet || fail "polar alone failed"
"$bin" pattern2d au.xyz $flat --device cpu --output one.dat --quiet || fail "flat alone failed"
for np in 2 4; do
  mpi $np pattern2d au.xyz $polar --device cpu --output np$np.h5 2> log$np.txt || fail "np $np: $(cat log$np.txt)"
  load_report log$np.txt $np
  same_h5 np$np.h5 one.h5 0
  mpi $np pattern2d au.xyz $flat --device cpu --output np$np.dat --quiet || fail "flat np $np"
  same_numbers np$np.dat one.dat 0
done
echo "ok: pattern2d under mpirun -np 2 and 4 equals the single process"
