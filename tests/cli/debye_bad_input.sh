#!/usr/bin/env bash
# Bad input to `nanoscatter debye`: each case exits non-zero, prints one line
# "nanoscatter: error: ..." naming the file or option at fault, and leaves no
# output file (nor a temporary one) behind.
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

printf '2\ntwo atoms\nAu 0 0 0\nAu 2.88 0 0\n' > au2.xyz
printf '0\nno atoms\n' > empty.xyz
printf '1\nempty after occupancy\nAu 0 0 0\n' > one.xyz
inputs=$(ls | sort)

# expect_error "<expected message>" args...  (structure and --output given by the caller)
# Messages are checked as prefixes.
expect_error() {
  local expected=$1
  shift
  expect_cli_error "$expected*" "$bin" debye "$@"
}

q=(--qmin 0.2 --qmax 12 --qpoints 50)
expect_error "empty.xyz: " empty.xyz "${q[@]}" --output o.dat
expect_error "missing.xyz: " missing.xyz "${q[@]}" --output o.dat
expect_error "--qmin: must be a finite value ≥ 0 Å⁻¹, got -0.1" au2.xyz --qmin -0.1 --qmax 12 --qpoints 50 --output o.dat
expect_error "--qmax: must be finite and greater than --qmin (0.2), got 0.2" au2.xyz --qmin 0.2 --qmax 0.2 --qpoints 50 --output o.dat
expect_error "--qmax: must be finite and greater than --qmin (5), got 1" au2.xyz --qmin 5 --qmax 1 --qpoints 50 --output o.dat
expect_error "--qmax: required" au2.xyz --qmin 0.2 --qpoints 50 --output o.dat
expect_error "--max-device-memory: must be ≥ 0, got '-2G'" au2.xyz "${q[@]}" --max-device-memory -2G --output o.dat
expect_error "--qpoints: need at least 1 point, got 0" au2.xyz --qmin 0.2 --qmax 12 --qpoints 0 --output o.dat
expect_error "--qpoints: need at least 1 point, got -5" au2.xyz --qmin 0.2 --qmax 12 --qpoints -5 --output o.dat
expect_error "--qpoints: required" au2.xyz --qmin 0.2 --qmax 12 --output o.dat
expect_error "--radiation: unknown radiation 'gamma'" au2.xyz --radiation gamma "${q[@]}" --output o.dat
expect_error "--method: unknown method 'fast'" au2.xyz --method fast "${q[@]}" --output o.dat
expect_error "--histogram-mode: unknown histogram mode 'exact'" au2.xyz --method histogram --histogram-mode exact "${q[@]}" --output o.dat
expect_error "--bin-width: must be a finite value > 0 Å, got 0" au2.xyz --method histogram --bin-width 0 "${q[@]}" --output o.dat
expect_error "--bin-width: must be a finite value > 0 Å, got -0.001" au2.xyz --method histogram --bin-width -1e-3 "${q[@]}" --output o.dat
expect_error "--bin-width: must be a finite value > 0 Å, got 0" au2.xyz --bin-width 0 --pdf g.dat "${q[@]}" --output o.dat
expect_error "--normalize: unknown normalisation 'max'" au2.xyz --normalize max "${q[@]}" --output o.dat
expect_error "--precision: unknown precision 'half'" au2.xyz --precision half "${q[@]}" --output o.dat
expect_error "--device: unknown device 'tpu'" au2.xyz --device tpu "${q[@]}" --output o.dat
expect_error "--energy: anomalous scattering applies to X-rays only" au2.xyz --radiation neutron --anomalous --energy 8 "${q[@]}" --output o.dat
expect_error "--energy: must be a finite photon energy > 0 keV, got -8" au2.xyz --anomalous --energy -8 "${q[@]}" --output o.dat
expect_error "--wavelength: required with a 2θ grid" au2.xyz --two-theta-min 10 --two-theta-max 100 --qpoints 50 --output o.dat
expect_error "--qmin: give either --qmin/--qmax or --two-theta-min/--two-theta-max/--wavelength" au2.xyz --qmin 0.1 --two-theta-min 10 --two-theta-max 100 --wavelength 1.54 --qpoints 50 --output o.dat
expect_error "--qmax: give either --qmin/--qmax or --two-theta-min/--two-theta-max/--wavelength" au2.xyz --qmax 5 --two-theta-min 10 --two-theta-max 100 --wavelength 1.54 --qpoints 50 --output o.dat
expect_error "--two-theta-max: required with a 2θ grid" au2.xyz --two-theta-min 10 --wavelength 1.54 --qpoints 50 --output o.dat
expect_error "--qmax: required (or give --two-theta-min/--two-theta-max/--wavelength for a 2θ grid)" au2.xyz --qpoints 50 --output o.dat
expect_error "--wavelength: must be > 0 Å, got 0" au2.xyz --two-theta-min 10 --two-theta-max 100 --wavelength 0 --qpoints 50 --output o.dat
expect_error "o.xyz: --output: debye writes text (.dat, .txt, .csv), HDF5 (.h5, .hdf5), a picture (.png) or a powder pattern (.xye)" au2.xyz "${q[@]}" --output o.xyz
expect_error "o.cif: --output: unknown extension '.cif'; debye writes text (.dat, .txt, .csv), HDF5 (.h5, .hdf5), a picture (.png) or a powder pattern (.xye)" au2.xyz "${q[@]}" --output o.cif
expect_error "nodir/o.dat: --output: directory 'nodir' does not exist" au2.xyz "${q[@]}" --output nodir/o.dat
expect_error "g.xyz: --pdf: debye writes text" au2.xyz "${q[@]}" --pdf g.xyz --output o.dat
expect_error "--pdf-dr: must be a finite value > 0 Å, got 0" au2.xyz "${q[@]}" --pdf g.dat --pdf-dr 0 --output o.dat
# A GPU where none can run: one clear line (skipped where a GPU is present).
if "$bin" info | grep -q '^gpus: 0'; then
  expect_error "--device: gpu requested but" au2.xyz --device gpu "${q[@]}" --output o.dat
fi
echo "ok: all bad debye inputs rejected with one line and no output"
