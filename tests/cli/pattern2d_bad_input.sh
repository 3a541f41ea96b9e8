#!/usr/bin/env bash
# Bad input to `nanoscatter pattern2d`: each case must exit non-zero, print
# one line "nanoscatter: error: ..." naming the file and the option at fault,
# and leave no output file (nor a temporary one) behind.
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

printf '2\ntwo gold atoms\nAu 0 0 0\nAu 2.88 0 0\n' > au2.xyz
printf '0\nno atoms\n' > empty.xyz
inputs=$(ls | sort)
polar=(--wavelength 1 --qmax 4 --nq 8 --nphi 12)

# expect_error "<expected message, or its beginning when it ends in '*'>" args...
expect_error() {
  local expected=$1
  shift
  expect_cli_error "$expected" "$bin" pattern2d "$@"
}

# The issue's cases: nq or nphi < 1, qmax beyond 2k, empty structure,
# non-positive wavelength.
expect_error "--nq: must be at least 1, got 0" au2.xyz --wavelength 1 --qmax 4 --nq 0 --nphi 12 -o out.h5
expect_error "--max-device-memory: unknown unit 'X' (K, M, G: powers of 1024)" au2.xyz --wavelength 1 --qmax 4 --nq 8 --nphi 12 --max-device-memory 3X -o out.h5
expect_error "--nphi: must be at least 1, got -3" au2.xyz --wavelength 1 --qmax 4 --nq 8 --nphi -3 -o out.h5
expect_error "--qmax: qmax = 13 Å⁻¹ exceeds 2k = 4π/λ = 12.566*" \
  au2.xyz --wavelength 1 --qmax 13 --nq 8 --nphi 12 -o out.h5
expect_error "empty.xyz: the structure has no atoms" empty.xyz "${polar[@]}" -o out.h5
expect_error "--wavelength: wavelength (Å) must be positive and finite, got 0" \
  au2.xyz --wavelength 0 --qmax 4 --nq 8 --nphi 12 -o out.h5
expect_error "--wavelength: wavelength (Å) must be positive and finite, got -1.5" \
  au2.xyz --wavelength -1.5 --qmax 4 --nq 8 --nphi 12 -o out.h5 --png out.png
# Missing, conflicting and malformed options.
expect_error "--wavelength: required (Å)" au2.xyz --qmax 4 --nq 8 --nphi 12 -o out.h5
expect_error "--nphi: required for the polar detector (or set flat for a flat detector)" au2.xyz --wavelength 1 --qmax 4 --nq 8 -o out.h5
expect_error "--nq: not used with a flat detector" au2.xyz --wavelength 1 --flat --nq 8 -o out.h5
expect_error "--distance: required with a flat detector" au2.xyz --wavelength 1 --flat --pixel-size 1 --nx 4 --ny 4 -o out.h5
expect_error "--pixel-size: pixel size must be positive and finite, got -0.1" \
  au2.xyz --wavelength 1 --flat --distance 100 --pixel-size -0.1 --nx 4 --ny 4 -o out.h5
expect_error "--ny: must be at least 1, got 0" au2.xyz --wavelength 1 --flat --distance 100 --pixel-size 1 --nx 4 --ny 0 -o out.h5
expect_error "--direct-beam: only used with a flat detector" au2.xyz "${polar[@]}" --direct-beam 1 2 -o out.h5
expect_error "--rotation: the orientation is given twice (Euler angles and a rotation matrix); give one" \
  au2.xyz "${polar[@]}" --euler-zyz 1 2 3 --rotation 1 0 0 0 1 0 0 0 1 -o out.h5
expect_error "--rotation: the orientation matrix is not a proper rotation*" \
  au2.xyz "${polar[@]}" --rotation 1 0 0 0 1 0 0 0 -1 -o out.h5
expect_error "--beam: the beam direction must be a finite, non-zero vector" au2.xyz "${polar[@]}" --beam 0 0 0 -o out.h5
expect_error "--anomalous: only used with X-rays (radiation xray)" au2.xyz "${polar[@]}" --radiation neutron --anomalous -o out.h5
expect_error "--radiation: unknown radiation 'light' (expected xray, neutron or electron)" \
  au2.xyz "${polar[@]}" --radiation light -o out.h5
expect_error "--precision: unknown precision 'half' (expected auto, single or double)" au2.xyz "${polar[@]}" --precision half -o out.h5
expect_error "out.xyz: --output: pattern2d writes HDF5 (.h5, .hdf5), text (.dat, .txt, .csv) or a picture (.png)" \
  au2.xyz "${polar[@]}" -o out.xyz
expect_error "out.tiff: --output: unknown extension '.tiff'*" au2.xyz "${polar[@]}" -o out.tiff
expect_error "out.h5: --png: expects a png file name" au2.xyz "${polar[@]}" -o out.dat --png out.h5
expect_error "nodir/out.h5: --output: directory 'nodir' does not exist" au2.xyz "${polar[@]}" -o nodir/out.h5
expect_error "out.png: --amplitude: a .png output cannot hold the amplitude; use .h5 or text" \
  au2.xyz "${polar[@]}" --amplitude -o out.png
expect_error "--threads: must be ≥ 0 (0: all cores), got -2" au2.xyz "${polar[@]}" --threads -2 -o out.h5
expect_error "--device: unknown device 'tpu' (expected auto, cpu or gpu)" au2.xyz "${polar[@]}" --device tpu -o out.h5
expect_error "missing.xyz: no such file" missing.xyz "${polar[@]}" -o out.h5
echo "pattern2d bad input: all cases give one-line errors and no files"
