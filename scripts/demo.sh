#!/usr/bin/env bash
# Build, then run a small example of each engine; results go to out/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ns=build/bin/nanoscatter
mkdir -p out
$ns info
echo "== build: gold nanoparticle (fcc Au, a = 4.078 Å, R = 16 Å; 959 atoms)"
$ns build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 16 --output out/au.xyz
echo "== build: CoO rocksalt sphere, R = 14 Å (1213 atoms)"
$ns build --lattice rocksalt --a 4.26 --elements Co O --shape sphere --radius 14 --output out/coo.xyz
echo "== debye: X-ray powder pattern of the Au particle, exact and histogram; CoO partials and PDF"
$ns debye out/au.xyz --radiation xray --qmin 0.2 --qmax 12 --qpoints 590 --output out/au_xray.dat
$ns debye out/au.xyz --radiation xray --qmin 0.2 --qmax 12 --qpoints 590 --method histogram --output out/au_xray_hist.dat
$ns debye out/coo.xyz --radiation neutron --qmin 0.2 --qmax 12 --qpoints 590 --partials --pdf out/coo_gr.dat --output out/coo_neutron.h5
echo "== pattern2d: single-crystal pattern of the Au particle along [001]"
$ns pattern2d out/au.xyz --wavelength 0.2 --qmax 6 --nq 256 --nphi 360 --output out/au_pattern2d.h5 --png out/au_pattern2d.png
echo "== gisaxs: cylinders R = H = 5 nm on a substrate (DWBA)"
$ns gisaxs examples/gisaxs/cylinders_on_substrate.toml --output out/gisaxs_cylinders.h5 --png out/gisaxs_cylinders.png
echo "== mie and dda: sphere x = 5, m = 1.5 (Mie Qext = 3.92783)"
$ns mie --x 5 --m 1.5 0
$ns dda --shape sphere --grid 16 --m 1.5 0 --eq-rad 5 --output out/dda_sphere
echo "== rmc: fit a synthetic 64×64 small-angle image of random discs"
loading=$(/usr/bin/python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(1)
n = 64
a = np.zeros((n, n))
y, x = np.ogrid[:n, :n]
for _ in range(25):
    cx, cy = rng.integers(0, n, 2)
    dx, dy = (x - cx + n // 2) % n - n // 2, (y - cy + n // 2) % n - n // 2  # periodic distances
    a[dx ** 2 + dy ** 2 <= 4] = 1
img = np.fft.fftshift(np.abs(np.fft.fft2(a)) ** 2)
np.savetxt("out/rmc_target.txt", img)
print(f"{a.mean():.6f}")  # the fraction of occupied sites: the fit's loading
PY
)
$ns rmc --target out/rmc_target.txt --loading "$loading" \
    --tiles 2 --steps 20000 --seed 1 --output out/rmc
echo "== Python examples (examples/*/*.py, quick mode) with Debian's /usr/bin/python3"
if [ -d build/python/nanoscatter ]; then
  for example in examples/*/*.py; do
    name=$(basename "$example" .py)
    echo "-- $example --quick"
    PYTHONPATH=build/python MPLBACKEND=Agg /usr/bin/python3 "$example" --quick --output-dir "out/examples/$name"
  done
else
  echo "(skipped: the Python module was not built; see README, Python)"
fi
echo "demo: wrote"
find out -type f | sort
