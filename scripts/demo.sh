#!/usr/bin/env bash
# Build, then run a small example of each engine that exists; results go to out/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ns=build/bin/nanoscatter
mkdir -p out
$ns info
echo "== build: gold nanoparticle (fcc Au, a = 4.078 Å, R = 16 Å)"
$ns build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 16 --output out/au.xyz
echo "== build: CoO rocksalt sphere, R = 14 Å"
$ns build --lattice rocksalt --a 4.26 --elements Co O --shape sphere --radius 14 --output out/coo.xyz
echo "demo: wrote"; ls -l out/
