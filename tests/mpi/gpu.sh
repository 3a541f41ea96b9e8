#!/usr/bin/env bash
# Engines on GPUs under mpirun (skips without a CUDA build and a GPU): each
# rank drives its own GPU, (local rank / --ranks-per-gpu) mod GPUs, named in
# the load report; results against the single process on one GPU: Debye
# float64 and float32 1e-12 (float32 keeps the single process's blocks, so
# only float64 additions are reordered), Debye histograms 1e-12 (the same),
# pattern2d 1e-12 (float64 atomics on the GPU add in varying order), RMC
# exact with a fixed --cluster.
set -u
source "$(dirname "$0")/lib.bash"
gpus=$(grep '^gpus:' <<< "$info" | awk '{print $2}')
grep -q '^cuda: built' <<< "$info" && [ "${gpus:-0}" -ge 1 ] || { echo "skip: no CUDA build or no GPU"; exit 77; }

"$bin" build --lattice rocksalt --a 4.26 --elements Co O --shape sphere --radius 30 --output coo.xyz --quiet || fail "build"
q="--qmin 0.1 --qmax 12 --qpoints 300 --device gpu"
"$bin" debye coo.xyz $q --precision double --output one_d.dat --quiet || fail "debye double alone"
"$bin" debye coo.xyz $q --precision single --output one_s.dat --quiet || fail "debye single alone"
"$bin" debye coo.xyz $q --method histogram --output one_h.dat --quiet || fail "debye histogram alone"
for np in 2 4; do
  mpi $np debye coo.xyz $q --precision double --output np${np}_d.dat 2> log$np.txt || fail "np $np: $(cat log$np.txt)"
  load_report log$np.txt $np
  same_numbers np${np}_d.dat one_d.dat 1e-12
  mpi $np debye coo.xyz $q --precision single --output np${np}_s.dat --quiet || fail "debye single np $np"
  same_numbers np${np}_s.dat one_s.dat 1e-12
  # GPU histograms: the ranks take the single process's pieces (the fast
  # path's binning depends on how atoms are grouped), so float64 order only.
  mpi $np debye coo.xyz $q --method histogram --output np${np}_h.dat --quiet || fail "debye histogram np $np"
  same_numbers np${np}_h.dat one_h.dat 1e-12
done
# Device choice: with as many GPUs as ranks every rank has its own; with
# --ranks-per-gpu 2 ranks 0 and 1 share GPU 0.
if [ "$gpus" -ge 2 ]; then
  grep -q "load over 2 ranks: .*; gpu 0 1;" log2.txt || fail "2 ranks on 2 GPUs: $(cat log2.txt)"
fi
if [ "$gpus" -ge 4 ]; then
  grep -q "load over 4 ranks: .*; gpu 0 1 2 3;" log4.txt || fail "4 ranks on 4 GPUs: $(cat log4.txt)"
fi
mpi 2 debye coo.xyz $q --precision double --ranks-per-gpu 2 --output shared.dat 2> shared.txt || fail "ranks-per-gpu"
grep -q "; gpu 0 0;" shared.txt || fail "--ranks-per-gpu 2: $(cat shared.txt)"
same_numbers shared.dat one_d.dat 1e-12

"$bin" pattern2d coo.xyz --wavelength 1.0 --qmax 4 --nq 64 --nphi 90 --device gpu --output one.h5 --quiet || fail "p2d"
mpi 4 pattern2d coo.xyz --wavelength 1.0 --qmax 4 --nq 64 --nphi 90 --device gpu --output np4.h5 --quiet || fail "p2d np 4"
# The GPU kernel adds its atom-tile partial sums into float64 with atomics,
# whose order varies from run to run: equal to float64 rounding, not bit for
# bit (4 H200s: 1.8e-13).
same_h5 np4.h5 one.h5 1e-12

$py - <<'PY' || fail "could not write the target"
import numpy as np, h5py
n = 64
a = (np.random.default_rng(5).random((n, n)) < 0.3).astype(float)
with h5py.File("target.h5", "w") as f:
    f["image"] = np.fft.fftshift(np.abs(np.fft.fft2(a)) ** 2)
PY
r="rmc --target target.h5 --loading 0.3 --tiles 4 --steps 4000 --seed 3 --cluster 1 --device gpu --quiet"
"$bin" $r --output rmc_one || fail "rmc gpu alone"
mpi 2 $r --output rmc_np2 || fail "rmc gpu np 2"
same_h5 rmc_np2/rmc.h5 rmc_one/rmc.h5 0
echo "ok: GPU runs under mpirun agree with one process; ranks use their own GPUs"
