#!/usr/bin/env bash
# Bad input to `nanoscatter gisaxs`: each case exits non-zero with one line
# "nanoscatter: error: FILE:LINE: KEY: ..." (or naming the option at fault)
# and leaves no output file, nor a temporary one, behind.
set -u
bin=$1 work=$2 data=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

base=$data/gisaxs/benchmark_cylinders.toml
# variant NAME SED-EXPRESSION: a copy of the benchmark sample with one edit.
variant() { sed "$2" "$base" > "$1"; }
variant shape.toml 's/^shape = "cylinder"/shape = "blob"/'
variant key.toml 's/^radius = 5.0 .*/radiuss = 5.0/'
variant negative.toml 's/^height = 5.0 .*/height = -5.0/'
variant alpha.toml 's/^alpha_i = 0.2 .*/alpha_i = 0.0/'
variant empty.toml 's/^alpha_f = { min = 0.0, max = 3.0, bins = 200 }.*/alpha_f = { min = 0.0, max = 3.0, bins = 0 }/'
variant layer.toml 's/^layer = "vacuum" .*/layer = "film"/'
variant layer_index.toml 's/^layer = "vacuum" .*/layer = 5/'
inputs=$(ls | sort)
pictures=(--png out.png --text out.txt)

# expect_error "<expected message>" args...   (--output out.h5 is added; the
# sample-file cases also ask for --png and --text, which must not appear either)
expect_error() {
  local expected=$1
  shift
  expect_cli_error "$expected" "$bin" gisaxs "$@" --output out.h5
}

expect_error "shape.toml:34: particle[0].shape: unknown shape 'blob' (sphere, truncated_sphere, spheroid, cylinder, box, prism3, prism6, pyramid, cone, tetrahedron, icosahedron, core_shell_sphere, mesh)" shape.toml "${pictures[@]}"
expect_error "key.toml:35: particle[0].radiuss: unknown key 'radiuss'; allowed: shape, material, abundance, layer, depth, rotation, distribution, radius, height" key.toml "${pictures[@]}"
expect_error "negative.toml:36: particle[0].height: must be a positive length in nm, got -5" negative.toml "${pictures[@]}"
expect_error "alpha.toml:11: beam.alpha_i: the grazing angle must lie in (0°, 90°), got 0°" alpha.toml "${pictures[@]}"
expect_error "empty.toml:16: detector.alpha_f.bins: empty detector axis: bins must be ≥ 1, got 0" empty.toml "${pictures[@]}"
expect_error "layer.toml:38: particle[0].layer: layer 'film' does not exist (layers: vacuum, substrate)" layer.toml "${pictures[@]}"
expect_error "layer_index.toml:38: particle[0].layer: layer 5 does not exist (the sample has 2 layers, numbered from 0)" layer_index.toml "${pictures[@]}"
expect_error "missing.toml: cannot open configuration file" missing.toml "${pictures[@]}"
# A GPU where none can run: one clear line (skipped where a GPU is present).
if "$bin" info | grep -q '^gpus: 0'; then
  expect_error "--device: gpu requested but *" "$base" --device gpu
fi
expect_error "--approximation: unknown approximation 'kinematic' (dwba, born)" "$base" --approximation kinematic
expect_error "--device: unknown device 'tpu' (expected auto, cpu or gpu)" "$base" --device tpu
expect_error "--threads: must be ≥ 0 (0: all cores), got -1" "$base" --threads -1
expect_error "--max-device-memory: must be ≥ 0, got '-2G'" "$base" --max-device-memory -2G
expect_error "out.xyz: --png: expects a png file name" "$base" --png out.xyz
expect_error "nodir/x.png: --png: directory 'nodir' does not exist" "$base" --png nodir/x.png
echo "ok: all bad inputs rejected with one line and no output"
