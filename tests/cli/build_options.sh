#!/usr/bin/env bash
# `nanoscatter build` options beyond the named lattices: a CIF unit cell, a
# polyhedron from planes, conversion of an input structure, ensembles, and
# reproducible defects.
set -u
bin=$1 work=$2 data=$(realpath "$3")
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
count() { head -n1 "$1"; }

# NaCl from the COD CIF equals the named rock-salt lattice with the same a.
nacl=$data/debye-xansons-nacl/NaCl.cif
"$bin" build --cif "$nacl" --shape sphere --radius 14 --output cif.xyz -q || fail "--cif NaCl"
"$bin" build --lattice rocksalt --a 5.62 --elements Na1+ Cl1- --shape sphere --radius 14 --output named.xyz -q ||
  fail "rocksalt NaCl"
[ "$(count cif.xyz)" = "$(count named.xyz)" ] || fail "CIF $(count cif.xyz) != named $(count named.xyz)"
# Ions keep their charges (extended XYZ charge column).
grep -q 'charge:I:1' cif.xyz || fail "no charge column in cif.xyz"

# A cube written as six planes gives the cube's atoms.
printf '# cube of edge 12\n1 0 0 6\n-1 0 0 6\n0 1 0 6\n0 -1 0 6\n0 0 1 6\n0 0 -1 6\n' > cube.planes
"$bin" build --lattice fcc --a 4.078 --elements Au --planes cube.planes --output planes.xyz -q || fail "--planes"
"$bin" build --lattice fcc --a 4.078 --elements Au --shape cube --edge 12 --output cube.xyz -q || fail "cube"
[ "$(count planes.xyz)" = "$(count cube.xyz)" ] || fail "planes $(count planes.xyz) != cube $(count cube.xyz)"

# Convert to PDB and back, cropping on the way: a sphere of R = 5 cut from the
# cube of edge 12 (which holds it whole) equals a sphere built directly.
"$bin" build --input cube.xyz --output cube.pdb -q || fail "xyz -> pdb"
[ "$(grep -c '^HETATM' cube.pdb)" = "$(count cube.xyz)" ] || fail "pdb atom count"
"$bin" build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 5 --output small.xyz -q || fail "R=5"
"$bin" build --input cube.pdb --shape sphere --radius 5 --output cropped.xyz -q || fail "crop"
[ "$(count cropped.xyz)" = "$(count small.xyz)" ] || fail "crop $(count cropped.xyz) != $(count small.xyz)"

# Ensemble: three copies.
printf '0 0 0\n50 0 0 90 0 0\n0 50 0 0 90 0\n' > placements.txt
"$bin" build --input small.xyz --placements placements.txt --output three.xyz -q || fail "--placements"
[ "$(count three.xyz)" = "$((3 * $(count small.xyz)))" ] || fail "ensemble count $(count three.xyz)"

# Vacancies: exact count round(0.1 · 959) = 96 removed, reproducible for a seed.
args=(--lattice fcc --a 4.078 --elements Au --shape sphere --radius 16 --vacancies 0.1 --displace 0.05 -q)
"$bin" build "${args[@]}" --seed 7 --output v1.xyz || fail "defects 1"
"$bin" build "${args[@]}" --seed 7 --output v2.xyz || fail "defects 2"
"$bin" build "${args[@]}" --seed 8 --output v3.xyz || fail "defects 3"
[ "$(count v1.xyz)" = 863 ] || fail "vacancies: $(count v1.xyz) atoms, expected 863"
cmp -s v1.xyz v2.xyz || fail "same seed, different output"
cmp -s v1.xyz v3.xyz && fail "different seeds, same output"
echo "ok"
