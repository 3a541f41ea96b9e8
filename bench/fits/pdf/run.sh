#!/usr/bin/env bash
# The PDF fits of issue 23's real data (bench/results/2026-11-26-pdf-real-fits.md):
#   bash bench/fits/pdf/run.sh C60_DIR NI_DIR [nanoscatter binary]
# C60_DIR holds C60.gr and C60.xyz, NI_DIR Ni-xray.gr and Ni-neutron.gr. Runs
# in a scratch folder; writes FIT.h5 and FIT.png there and prints the results.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
c60=$(realpath "$1") ni=$(realpath "$2")
bin=$(realpath "${3:-$here/../../../build/bin/nanoscatter}")
work=$(mktemp -d)
cd "$work"
cp "$here"/c60.toml "$here"/ni_xray.toml "$here"/ni_neutron.toml .
ln -s "$c60/C60.xyz" C60.xyz
"$bin" build --lattice fcc --a 3.52 --elements Ni --shape sphere --radius 25 --output ni_sphere.xyz > /dev/null
for fit in c60:"$c60/C60.gr" ni_xray:"$ni/Ni-xray.gr" ni_neutron:"$ni/Ni-neutron.gr"; do
  name=${fit%%:*} data=${fit#*:}
  echo "== $name"
  /usr/bin/time -f "whole command %e s" "$bin" fit "$name.toml" --data "$data" --output "$name.h5" --quiet 2>&1 || true
  "$bin" fit "$name.toml" --data "$data" --output "$name.h5" 2>&1 | sed -n '/^fit:/!p' | tail -14
done
echo "outputs in $work"
