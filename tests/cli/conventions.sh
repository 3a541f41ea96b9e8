#!/usr/bin/env bash
# One naming and unit scheme across engines (docs/conventions.md), one check
# per item of issue 24 that was inconsistent: --output for the multi-file
# engines, Euler conventions named in the option, one direct-beam placement,
# one anomalous option, unit strings for the GISAXS wavelength, no "no GPU"
# notice with --device auto, B factors from build and the Debye header, CIF
# space groups by symbol. Old names still work, each with one warning line,
# and give the same numbers as the new ones.
set -u
bin=$(realpath "$1") work=$2 data=$(realpath "$3") here=$(dirname "$(realpath "$0")")
py=/usr/bin/python3
source "$here/lib.bash" || exit 1
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
$py -c 'import h5py, numpy' 2>/dev/null || { echo "skip: $py lacks h5py/numpy"; exit 77; }
# The numbers of a text output (header lines differ by the command).
numbers() { grep -v '^#' "$1"; }
# error_is EXPECTED COMMAND...: lib.bash's contract for bad input, nothing left behind.
error_is() {
  inputs=$(ls -A | sort)
  expect_cli_error "$@"
}
# expect_warning OLD NEW COMMAND...: success and exactly the one warning line.
expect_warning() {
  local old=$1 new=$2
  shift 2
  "$@" 2> warn.txt || fail "old name $old failed: $(cat warn.txt)"
  [ "$(cat warn.txt)" = "nanoscatter: warning: $old is deprecated, use $new" ] ||
    fail "warning for $old: '$(cat warn.txt)'"
}

printf '2\ntwo gold atoms\nAu 0 0 0\nAu 1.5 -2.0 0.7\n' > au2.xyz

# --- B factors in build, and the Debye header says Debye–Waller only when some B ≠ 0.
"$bin" build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 6 --output plain.xyz -q || fail "build"
"$bin" build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 6 --b-factor Au=0.5 --output b.xyz -q ||
  fail "build --b-factor"
grep -q 'b_iso:R:1' b.xyz || fail "no b_iso column in b.xyz"
[ "$(awk 'NR > 2 { print $NF + 0 }' b.xyz | sort -u)" = "0.5" ] || fail "B is not 0.5 on every atom"
error_is "--b-factor: the structure has no Ag atom" \
  "$bin" build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 6 --b-factor Ag=0.5 --output x.xyz
error_is "--b-factor: expected ELEMENT=B (Å²), e.g. Au=0.5, got 'Au'" \
  "$bin" build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 6 --b-factor Au --output x.xyz
error_is "--b-factor: Au: B must be a finite value ≥ 0 Å², got -1" \
  "$bin" build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 6 --b-factor Au=-1 --output x.xyz
q=(--qmax 6 --qpoints 20 --device cpu -q)
"$bin" debye plain.xyz "${q[@]}" --output plain.dat || fail "debye plain"
"$bin" debye b.xyz "${q[@]}" --output b.dat || fail "debye with B"
grep -q '^# radiation:.*Debye–Waller' plain.dat && fail "Debye–Waller stated with every B = 0"
grep -q '^# radiation:.*Debye–Waller on' b.dat || fail "Debye–Waller not stated with B = 0.5"
# pattern2d's header the same way
p2d=(--wavelength 1.0 --qmax 4 --nq 8 --nphi 8 --device cpu -q)
"$bin" pattern2d plain.xyz "${p2d[@]}" --output plain2d.txt || fail "pattern2d plain"
"$bin" pattern2d b.xyz "${p2d[@]}" --output b2d.txt || fail "pattern2d b"
grep -q '^# factors: no Debye–Waller' plain2d.txt || fail "pattern2d states Debye–Waller with every B = 0"
grep -q '^# factors: Debye–Waller on' b2d.txt || fail "pattern2d does not state Debye–Waller with B = 0.5"
[ "$(numbers plain.dat)" != "$(numbers b.dat)" ] || fail "B = 0.5 changed nothing"

# --- --device auto without a GPU says nothing (also with dda --prognosis).
"$bin" debye au2.xyz --qmax 6 --qpoints 5 --output auto.dat 2> auto.txt || fail "debye --device auto"
"$bin" dda --shape sphere --grid 8 --m 1.5 0 --prognosis --output prog 2>> auto.txt > /dev/null ||
  fail "dda --prognosis"
grep -q 'GPU' auto.txt && fail "device notice printed: $(cat auto.txt)"

# --- --output for the engines that write several files; --output-dir warns.
"$bin" dda --shape sphere --grid 8 --m 1.5 0 --device cpu -q --output dda_new || fail "dda --output"
expect_warning --output-dir --output "$bin" dda --shape sphere --grid 8 --m 1.5 0 --device cpu -q --output-dir dda_old
[ -f dda_new/CrossSec-Y ] || fail "dda --output wrote no CrossSec-Y"
[ "$(tail -n +2 dda_new/CrossSec-Y)" = "$(tail -n +2 dda_old/CrossSec-Y)" ] || fail "dda old and new differ"
rmc=(--target "$here/../../examples/rmc/discs_64.h5:/image" --loading 0.0952 --tiles 1 --steps 200 --seed 1
     --device cpu -q)
"$bin" rmc "${rmc[@]}" --output rmc_new || fail "rmc --output"
expect_warning --output-dir --output "$bin" rmc "${rmc[@]}" --output-dir rmc_old
[ -f rmc_new/rmc.h5 ] && [ -f rmc_old/rmc.h5 ] || fail "rmc wrote no rmc.h5"
error_is "--output: required (the folder for the files)" "$bin" rmc "${rmc[@]}"

# --- pattern2d: --euler-zyz (old --euler), --direct-beam from the corner
# (old --beam-center from pixel (0, 0)'s centre: the same point minus 0.5).
polar=(--wavelength 1.2 --qmax 6 --nq 9 --nphi 12 --device cpu -q)
"$bin" pattern2d au2.xyz "${polar[@]}" --euler-zyz 10 20 30 --output zyz.dat || fail "--euler-zyz"
expect_warning --euler --euler-zyz "$bin" pattern2d au2.xyz "${polar[@]}" --euler 10 20 30 --output old_euler.dat
[ "$(numbers zyz.dat)" = "$(numbers old_euler.dat)" ] || fail "--euler and --euler-zyz differ"
"$bin" pattern2d au2.xyz "${polar[@]}" --output unrotated.dat || fail "unrotated"
[ "$(numbers zyz.dat)" != "$(numbers unrotated.dat)" ] || fail "--euler-zyz did not rotate"
flat=(--wavelength 1.0 --flat --distance 100 --pixel-size 2 --nx 8 --ny 6 --device cpu -q)
"$bin" pattern2d au2.xyz "${flat[@]}" --direct-beam 3 2 --output beam_new.h5 || fail "--direct-beam"
expect_warning --beam-center "--direct-beam (pixels from the corner: add 0.5 to each value)" \
  "$bin" pattern2d au2.xyz "${flat[@]}" --beam-center 2.5 1.5 --output beam_old.h5
"$bin" pattern2d au2.xyz "${flat[@]}" --output beam_middle.h5 || fail "default direct beam"
$py - <<'PY' || fail "direct beam checks"
import sys
import h5py, numpy as np
new, old, middle = (h5py.File(f, "r") for f in ("beam_new.h5", "beam_old.h5", "beam_middle.h5"))
x, y = new["axes/x"][...], new["axes/y"][...]
# Pixel i's centre is i + 0.5 from the corner: x = (i + 0.5 − 3) · 2 mm.
ok = (np.allclose(x, (np.arange(8) + 0.5 - 3) * 2.0, rtol=0, atol=1e-12) and
      np.allclose(y, (np.arange(6) + 0.5 - 2) * 2.0, rtol=0, atol=1e-12) and
      np.array_equal(new["intensity"][...], old["intensity"][...]) and
      np.allclose(middle["axes/x"][...], (np.arange(8) + 0.5 - 4) * 2.0, rtol=0, atol=1e-12) and
      # the file records the direct beam as the option places it
      np.allclose(new.attrs["direct_beam"], [3, 2]) and np.allclose(middle.attrs["direct_beam"], [4, 3]) and
      "beam_center" not in new.attrs)
sys.exit(0 if ok else 1)
PY

# --- one anomalous option: --anomalous at --energy (or hc/λ of --wavelength).
"$bin" debye au2.xyz "${q[@]}" --anomalous --energy 11.9 --output anomalous.dat || fail "--anomalous --energy"
expect_warning "--energy without --anomalous" "--anomalous --energy" \
  "$bin" debye au2.xyz "${q[@]}" --energy 11.9 --output energy_only.dat
[ "$(numbers anomalous.dat)" = "$(numbers energy_only.dat)" ] || fail "--energy alone differs from --anomalous"
"$bin" debye au2.xyz "${q[@]}" --output no_anomalous.dat || fail "debye without f'"
[ "$(numbers anomalous.dat)" != "$(numbers no_anomalous.dat)" ] || fail "--anomalous changed nothing"
error_is "--anomalous: needs the photon energy: --energy (keV) or --wavelength (Å)" \
  "$bin" debye au2.xyz "${q[@]}" --anomalous --output x.dat

# --- GISAXS sample: euler_zxz (old euler, warned) and the wavelength with its unit.
sample() {  # $1: the beam's wavelength value, $2: the rotation table
  cat <<EOF
density = 0.01
[beam]
wavelength = $1
alpha_i = 0.2
[detector]
type = "angular"
phi_f = { min = -1.0, max = 1.0, bins = 8 }
alpha_f = { min = 0.0, max = 2.0, bins = 6 }
[material.substrate]
delta = 6e-6
beta = 2e-8
[material.particle]
delta = 6e-4
beta = 2e-8
[[layer]]
name = "vacuum"
[[layer]]
name = "substrate"
material = "substrate"
[[particle]]
shape = "box"
length = 8.0
width = 4.0
height = 3.0
material = "particle"
rotation = $2
EOF
}
sample 0.1 '{ euler_zxz = [30, 20, 10] }' > zxz.toml
sample 0.1 '{ euler = [30, 20, 10] }' > old_zxz.toml
sample '"1.0 angstrom"' '{ euler_zxz = [30, 20, 10] }' > angstrom.toml
sample '"0.1 nm"' '{ euler_zxz = [30, 20, 10] }' > nm.toml
sample '"1.0 furlong"' '{ euler_zxz = [30, 20, 10] }' > bad_unit.toml
"$bin" gisaxs zxz.toml --device cpu -q --output zxz.txt || fail "gisaxs euler_zxz"
"$bin" gisaxs old_zxz.toml --device cpu -q --output old_zxz.txt 2> warn.txt || fail "gisaxs euler"
[ "$(cat warn.txt)" = "nanoscatter: warning: old_zxz.toml:26: particle[0].rotation.euler: deprecated, use euler_zxz" ] ||
  fail "gisaxs euler warning: '$(cat warn.txt)'"
"$bin" gisaxs angstrom.toml --device cpu -q --output angstrom.txt || fail "wavelength in angstrom"
"$bin" gisaxs nm.toml --device cpu -q --output nm.txt || fail "wavelength in nm"
[ "$(numbers zxz.txt)" = "$(numbers old_zxz.txt)" ] || fail "euler and euler_zxz differ"
[ "$(numbers zxz.txt)" = "$(numbers angstrom.txt)" ] || fail "\"1.0 angstrom\" differs from 0.1 (nm)"
[ "$(numbers zxz.txt)" = "$(numbers nm.txt)" ] || fail "\"0.1 nm\" differs from 0.1"
error_is "bad_unit.toml:3: beam.wavelength: unknown unit 'furlong' in '1.0 furlong'; give a length or a photon energy (Å, angstrom, nm, um, µm, mm, cm, m; keV, eV)" \
  "$bin" gisaxs bad_unit.toml --device cpu --output x.txt

# --- one wavelength name: dda and mie take --wavelength (the lengths' unit); --lambda is the warned alias.
"$bin" mie --radius 1 --wavelength 2 --m 1.5 0 > mie_new.txt || fail "mie --wavelength"
expect_warning --lambda --wavelength "$bin" mie --radius 1 --lambda 2 --m 1.5 0 > mie_old.txt
[ "$(numbers mie_new.txt)" = "$(numbers mie_old.txt)" ] || fail "mie --lambda and --wavelength differ"
"$bin" dda --grid 6 --size 2 --wavelength 3 --device cpu --output dda_new -q || fail "dda --wavelength"
expect_warning --lambda --wavelength "$bin" dda --grid 6 --size 2 --lambda 3 --device cpu --output dda_old -q
[ "$(numbers dda_new/CrossSec-Y)" = "$(numbers dda_old/CrossSec-Y)" ] || fail "dda --lambda and --wavelength differ"

# --- CIF with only a space-group symbol: expanded as the COD file with its operations.
cat > symbol.cif <<'EOF'
data_NaCl
_cell_length_a 5.62
_cell_length_b 5.62
_cell_length_c 5.62
_cell_angle_alpha 90
_cell_angle_beta 90
_cell_angle_gamma 90
_symmetry_space_group_name_H-M 'F m -3 m'
loop_
_atom_site_type_symbol
_atom_site_fract_x
_atom_site_fract_y
_atom_site_fract_z
Na1+ 0 0 0
Cl1- 0.5 0.5 0.5
EOF
"$bin" build --cif symbol.cif --shape sphere --radius 14 --output symbol.xyz -q || fail "--cif with a symbol only"
"$bin" build --cif "$data/debye-xansons-nacl/NaCl.cif" --shape sphere --radius 14 --output cod.xyz -q || fail "COD"
[ "$(head -n1 symbol.xyz)" = "$(head -n1 cod.xyz)" ] || fail "symbol $(head -n1 symbol.xyz) != COD $(head -n1 cod.xyz)"
echo "conventions: all checks passed"
