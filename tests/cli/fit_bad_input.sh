#!/usr/bin/env bash
# Bad input to `nanoscatter fit`: each case exits non-zero with one line
# "nanoscatter: error: FILE:LINE: KEY: ..." and leaves no output file, nor a
# temporary one, behind. Then a good fit runs and writes its files.
set -u
bin=$1 work=$2 data=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
python=/usr/bin/python3
$python -c "import h5py, numpy" 2>/dev/null || { echo "skip: no h5py/numpy"; exit 77; }

cp "$data/fit/cylinders_paracrystal.toml" sample.toml
"$bin" gisaxs sample.toml --output truth.h5 --quiet || fail "gisaxs failed"
$python - <<'PY' || fail "writing the data failed"
import h5py, numpy as np
truth = h5py.File("truth.h5", "r")["intensity"][...]
counts = np.random.default_rng().poisson(2e4 * truth / truth.max() + 5).astype(float)
with h5py.File("data.h5", "w") as f:
    f["image"] = counts
    f["small"] = counts[:10, :12]
    bad = counts.copy(); bad[3, 4] = np.nan
    f["with_nan"] = bad
    f["all"] = np.ones_like(counts)
PY
rm truth.h5
# fit.toml: the good description; variant NAME SED-EXPRESSION makes a copy with one edit.
cat > fit.toml <<'TOML'
[data]
file = "data.h5:/image"
orientation = "bottom"

[model]
engine = "gisaxs"
sample = "sample.toml"

[[parameter]]
path = "particle[0].radius"
start = 4.6
min = 2.0
max = 10.0

[[parameter]]
path = "interference.peak_distance"
start = 21.0
min = 10.0
max = 40.0

[objective]
kind = "poisson_data"

[minimizer]
name = "lm"
TOML
variant() { sed "$2" fit.toml > "$1"; }
variant path.toml 's/^path = "particle\[0\].radius"/path = "particle[0].radiuss"/'
variant bounds.toml 's/^min = 2.0/min = 4.8/'
variant shape.toml 's|^file = "data.h5:/image"|file = "data.h5:/small"|'
variant nan.toml 's|^file = "data.h5:/image"|file = "data.h5:/with_nan"|'
{ cat fit.toml; printf '\n[mask]\nfile = "data.h5:/all"\n'; } > masked.toml
variant tie.toml 's/^start = 21.0/tie = "2*particle[0].size"/'
variant objective.toml 's/^kind = "poisson_data"/kind = "poisson"/'
inputs=$(ls | sort)

expect_error() {
  local expected=$1
  shift
  expect_cli_error "$expected" "$bin" fit "$@" --output out.h5 --png out.png --quiet
}
expect_error "path.toml:10: parameter[0].path: unknown model path 'particle[0].radiuss' (the model has: scale, background, *" path.toml
expect_error "bounds.toml:12: parameter[0].min: the bounds [4.8, 10] exclude the start 4.6" bounds.toml
expect_error "shape.toml:2: data.file: the data are 10 × 12 pixels (rows × columns), the detector of sample.toml has 40 × 48" shape.toml
expect_error "nan.toml:2: data.file: NaN at row 3, column 4 (mask it instead: [mask] file)" nan.toml
expect_error "masked.toml:27: mask: every pixel of the region is masked: nothing to fit" masked.toml
expect_error "tie.toml:17: parameter[1].tie: tie names 'particle[0].size', which is not a parameter (parameters: particle[0].radius, interference.peak_distance)" tie.toml
expect_error "objective.toml:22: objective.kind: unknown objective 'poisson' (chi2, poisson_data, poisson_model, deviance, log)" objective.toml
expect_error "missing.toml: cannot open configuration file" missing.toml
expect_cli_error "out.xyz: --output: *" "$bin" fit fit.toml --output out.xyz --quiet

# The good description runs and writes both files.
"$bin" fit fit.toml --output out.h5 --png out.png --quiet 2> stderr.txt || fail "good fit failed: $(cat stderr.txt)"
[ -s out.h5 ] && [ -s out.png ] || fail "outputs missing"
$python - <<'PY' || fail "fit output check failed"
import h5py
f = h5py.File("out.h5", "r")
names = f["parameters"].attrs["names"].split("\n")
value = dict(zip(names, f["parameters/value"][...]))
sigma = dict(zip(names, f["parameters/sigma"][...]))
assert f.attrs["converged"] == 1, f.attrs["message"]
assert abs(value["particle[0].radius"] - 5.0) < 4 * sigma["particle[0].radius"], (value, sigma)
assert f["model"].shape == (40, 48) and f["normalised_residual"].shape == (40, 48)
assert f["history/chi2"].shape[0] >= 2
PY
echo "ok: all bad inputs rejected with one line and no output; a good fit writes its files"
