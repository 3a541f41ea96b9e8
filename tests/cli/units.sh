#!/usr/bin/env bash
# Every length (and angle) may carry its unit (docs/conventions.md, issue
# 24): the unit-carrying and the bare form of one input give identical
# outputs in each engine, and a bad unit is one line naming the option or
# file:line:key.
set -u
bin=$(realpath "$1") work=$2 here=$(dirname "$(realpath "$0")")
source "$here/lib.bash" || exit 1
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# The numbers of a text output (its header records the command line).
numbers() { grep -v '^#' "$1"; }
same() {  # same FILE1 FILE2 WHAT
  [ -s "$1" ] || fail "$3: $1 is empty"
  [ "$(numbers "$1")" = "$(numbers "$2")" ] || fail "$3: $1 and $2 differ"
}
error_is() {
  inputs=$(ls -A | sort)
  expect_cli_error "$@"
}

# --- build and debye: Å when bare.
"$bin" build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 10 --output bare.xyz -q || fail "build bare"
"$bin" build --lattice fcc --a 0.4078nm --elements Au --shape sphere --radius 1nm --output nm.xyz -q || fail "build nm"
"$bin" build --lattice fcc --a "4.078 Å" --elements Au --shape sphere --radius "10 angstrom" --output a.xyz -q ||
  fail "build angstrom"
same bare.xyz nm.xyz "build --a 0.4078nm --radius 1nm vs --a 4.078 --radius 10"
same bare.xyz a.xyz "build with Å"
"$bin" debye bare.xyz --qmax 6 --qpoints 20 --device cpu -q --output bare.dat || fail "debye bare"
"$bin" debye bare.xyz --qmax 6 --qpoints 20 --method histogram --bin-width 0.001 --device cpu -q --output hist.dat ||
  fail "debye histogram bare"
"$bin" debye bare.xyz --qmax 6 --qpoints 20 --method histogram --bin-width 0.0001nm --device cpu -q --output hist_nm.dat ||
  fail "debye --bin-width 0.0001nm"
same hist.dat hist_nm.dat "debye --bin-width 0.0001nm vs 0.001"
"$bin" debye bare.xyz --two-theta-min 10 --two-theta-max 80 --qpoints 15 --wavelength 1.54 --device cpu -q --output tt.dat ||
  fail "debye 2θ bare"
"$bin" debye bare.xyz --two-theta-min 10deg --two-theta-max "80 deg" --qpoints 15 --wavelength 0.154nm --device cpu -q \
  --output tt_nm.dat || fail "debye 2θ with units"
same tt.dat tt_nm.dat "debye --wavelength 0.154nm vs 1.54"
error_is "--radius: 'A' in '50 A' is not a unit here (A is the ampere): write Å or angstrom" \
  "$bin" build --lattice fcc --a 4.078 --elements Au --shape sphere --radius "50 A" --output x.xyz
error_is "--wavelength: unknown unit 'nmm' in '1nmm'; give a length or a photon energy (Å, angstrom, nm, um, µm, mm, cm, m; keV, eV)" \
  "$bin" debye bare.xyz --two-theta-min 10 --two-theta-max 80 --qpoints 15 --wavelength 1nmm --output x.dat
error_is "--two-theta-min: '10 nm' is a length; give an angle (deg, °, rad, mrad, urad, µrad)" \
  "$bin" debye bare.xyz --two-theta-min "10 nm" --two-theta-max 80 --qpoints 15 --wavelength 1 --output x.dat
error_is "--radius: must be a finite number, got 'inf nm'" \
  "$bin" build --lattice fcc --a 4.078 --elements Au --shape sphere --radius "inf nm" --output x.xyz

# --- pattern2d: Å for λ, mm for the flat detector, degrees for Euler angles.
p2d=(--flat --nx 8 --ny 6 --device cpu -q)
"$bin" pattern2d bare.xyz "${p2d[@]}" --wavelength 1.0 --distance 100 --pixel-size 2 --euler-zyz 30 20 10 \
  --output p_bare.txt || fail "pattern2d bare"
"$bin" pattern2d bare.xyz "${p2d[@]}" --wavelength 0.1nm --distance 10cm --pixel-size 2000um --euler-zyz 30deg 20 "10 deg" \
  --output p_units.txt || fail "pattern2d with units"
same p_bare.txt p_units.txt "pattern2d with units vs bare"

# --- dda and mie: one unit (ADDA's); with units, every length converts to nm.
"$bin" dda --grid 6 --size 1000 --wavelength 500 --device cpu --output dda_bare -q || fail "dda bare"
"$bin" dda --grid 6 --size 1um --wavelength 0.5um --device cpu --output dda_units -q || fail "dda with units"
same dda_bare/CrossSec-Y dda_units/CrossSec-Y "dda --wavelength 0.5um --size 1um vs 500/1000"
same dda_bare/CrossSec-X dda_units/CrossSec-X "dda (x polarisation) with units vs bare"
"$bin" mie --radius 250 --wavelength 500 --m 1.5 0 > mie_bare.txt || fail "mie bare"
"$bin" mie --radius "0.25 µm" --wavelength 500nm --m 1.5 0 > mie_units.txt || fail "mie with units"
same mie_bare.txt mie_units.txt "mie with units vs bare"
error_is "--size: '1000' has no unit while --wavelength has one ('0.5um'): give units to all lengths or to none" \
  "$bin" dda --grid 6 --size 1000 --wavelength 0.5um --device cpu --output dda_mixed
error_is "--wavelength: required when --radius carries a unit ('250nm'): the default 2π has none" \
  "$bin" mie --radius 250nm --m 1.5 0

# --- gisaxs: a sample in nm numbers and the same in Å (and mrad) strings.
sample() {  # $1: radius, $2: height, $3: thickness, $4: roughness, $5: peak_distance, $6: omega, $7: alpha_i, $8: distance
  cat <<EOF
density = 0.01
[beam]
wavelength = 0.1
alpha_i = $7
[detector]
type = "flat"
distance = $8
pixel_size = [0.172, 0.172]
pixels = [12, 8]
direct_beam = [6, -20]
[material.film]
delta = 4e-6
beta = 1e-8
[material.substrate]
delta = 6e-6
beta = 2e-8
[material.particle]
delta = 6e-4
beta = 2e-8
[[layer]]
[[layer]]
material = "film"
thickness = $3
roughness = $4
[[layer]]
material = "substrate"
[[particle]]
shape = "cylinder"
radius = $1
height = $2
material = "particle"
[interference]
type = "radial_paracrystal"
peak_distance = $5
pdf = { type = "gauss", omega = $6 }
EOF
}
sample 5 8 20 0.5 25 3 0.2 2000 > nm.toml
sample '"50 Å"' '"80 angstrom"' '"200 angstrom"' '"5 angstrom"' '"250 Å"' '"30 Å"' '"0.2 deg"' '"2 m"' > angstrom.toml
"$bin" gisaxs nm.toml --device cpu -q --output nm.txt || fail "gisaxs nm"
"$bin" gisaxs angstrom.toml --device cpu -q --output angstrom.txt || fail "gisaxs angstrom"
same nm.txt angstrom.txt "gisaxs sample in nm numbers vs Å strings"
sample '"5 A"' 8 20 0.5 25 3 0.2 2000 > bad_a.toml
error_is "bad_a.toml:29: particle[0].radius: 'A' in '5 A' is not a unit here (A is the ampere): write Å or angstrom" \
  "$bin" gisaxs bad_a.toml --device cpu --output x.txt
sample 5 8 '"20"' 0.5 25 3 0.2 2000 > quoted.toml
error_is "quoted.toml:23: layer[1].thickness: a string needs its unit (\"5 nm\", \"0.2 deg\"); write a bare number without quotes; got '20'" \
  "$bin" gisaxs quoted.toml --device cpu --output x.txt
sample 5 8 20 0.5 25 3 '"0.2 nm"' 2000 > bad_angle.toml
error_is "bad_angle.toml:4: beam.alpha_i: '0.2 nm' is a length; give an angle (deg, °, rad, mrad, urad, µrad)" \
  "$bin" gisaxs bad_angle.toml --device cpu --output x.txt
echo "units: ok"
