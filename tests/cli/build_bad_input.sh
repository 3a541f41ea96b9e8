#!/usr/bin/env bash
# Bad input to `nanoscatter build`: each case must exit non-zero, print one
# line "nanoscatter: error: ..." naming the file, line and field at fault,
# and leave no output file (nor a temporary one) behind.
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

printf '2\ncomment\nAu 0 0 0\nAu abc 0 0\n' > bad.xyz
printf '1\ncomment\nQq 0 0 0\n' > element.xyz
printf 'data_nocell\nloop_\n_atom_site_type_symbol\n_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\nAu 0 0 0\n' > nocell.cif
inputs=$(ls | sort)

# expect_error "<expected message>" args...
expect_error() {
  local expected=$1
  shift
  expect_cli_error "$expected" "$bin" build "$@" --output out.xyz
}

expect_error "missing.cif: no such file" --cif missing.cif --shape sphere --radius 10
# Outputs: XYZ or PDB only, refused before any work (a particle has no cell for CIF).
expect_cli_error "p.cif: --output: a built particle is finite and has no unit cell to write as CIF; use .xyz, .extxyz or .pdb" \
  "$bin" build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 6 --output p.cif
expect_cli_error "p.h5: --output: unknown extension '.h5'; build writes .xyz, .extxyz (extended XYZ) or .pdb" \
  "$bin" build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 6 --output p.h5
expect_error "bad.xyz:4: x: not a number 'abc'" --input bad.xyz
expect_error "element.xyz:3: element: unknown element in species label 'Qq'" --input element.xyz
expect_error "--elements: unknown element in species label 'Xx'" \
  --lattice fcc --a 4.078 --elements Xx --shape sphere --radius 10
expect_error "--radius: sphere radius must be positive and finite, got -3" \
  --lattice fcc --a 4.078 --elements Au --shape sphere --radius -3
expect_error "--radius: must be a finite number, got 'nan'" \
  --lattice fcc --a 4.078 --elements Au --shape sphere --radius nan
expect_error "nocell.cif: _cell_length_a: missing" --cif nocell.cif --shape sphere --radius 10
expect_error "--lattice: unknown lattice 'fcx' (sc, bcc, fcc, hcp, diamond, rocksalt, zincblende, wurtzite, perovskite)" \
  --lattice fcx --a 4 --elements Au --shape sphere --radius 10
expect_error "--elements: rocksalt needs 2 elements, got 1" \
  --lattice rocksalt --a 4.26 --elements Co --shape sphere --radius 10
expect_error "--size: cuboid edge b must be positive and finite, got 0" \
  --lattice sc --a 3 --elements Po --shape cuboid --size 10 0 10
expect_error "--size: expected 3 edges 'a b c', got 2" \
  --lattice sc --a 3 --elements Po --shape cuboid --size 10 10
expect_error "--edge: not used by shape sphere" \
  --lattice sc --a 3 --elements Po --shape sphere --radius 5 --edge 3
expect_error "--shape: unknown shape 'blob' (sphere, cube, cuboid, cylinder, octahedron)" \
  --lattice sc --a 3 --elements Po --shape blob --radius 5
expect_error "--vacancies: vacancy fraction must lie in [0, 1], got 1.5" \
  --lattice sc --a 3 --elements Po --shape sphere --radius 5 --vacancies 1.5
echo "ok: all bad inputs rejected with one line and no output"
