#!/usr/bin/env bash
# `nanoscatter debye --output I.xye` (docs/debye.md): a simulated pattern
# as counts on 2θ with Poisson σ, which `nanoscatter fit` reads as data
# (round trip: a powder fit of the file converges with χ²_red ≈ 1 and ε
# near 0); the same seed draws the same counts, no seed writes the means;
# bad combinations (.xye without --counts or --wavelength, --counts on
# another format, --noise-seed alone, counts ≤ 0, S(Q), an .xye PDF) are
# one line each and leave no file. A fit with [[phase]] tables runs and
# finds no Ni (phase[1].scale within 3σ of 0), and one with profile = "tch"
# runs (eta then no path, an unknown profile refused); a phase without a structure, [model] structure
# beside phases are refused.
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

"$bin" build --lattice rocksalt --a 4.26 --elements Co O --shape sphere --radius 8 --output coo.xyz 2> /dev/null ||
  fail "build coo failed"
"$bin" build --lattice fcc --a 3.524 --elements Ni --shape sphere --radius 8 --output ni.xyz 2> /dev/null ||
  fail "build ni failed"
grid=(--two-theta-min 20 --two-theta-max 80 --qpoints 601 --wavelength 1.5406)
"$bin" debye coo.xyz "${grid[@]}" --counts 20000 --noise-seed 7 --output noisy.xye --quiet || fail "noisy .xye failed"
"$bin" debye coo.xyz "${grid[@]}" --counts 20000 --noise-seed 7 --output again.xye --quiet || fail "second .xye failed"
"$bin" debye coo.xyz "${grid[@]}" --counts 20000 --output mean.xye --quiet || fail "mean .xye failed"
data() { grep -v '^#' "$1"; }
[ "$(data noisy.xye | wc -l)" = 601 ] || fail "noisy.xye: not 601 rows"
[ "$(data noisy.xye)" = "$(data again.xye)" ] || fail "the same seed drew other counts"
[ "$(data noisy.xye)" != "$(data mean.xye)" ] || fail "noise drew nothing"
grep -q "^# wavelength = 1.5406" noisy.xye || fail "noisy.xye: no wavelength line: $(head -20 noisy.xye)"
# The means: largest 20000, σ = √max(y, 1), 2θ from 20 to 80.
awk '!/^#/ { if ($2 > m) m = $2; s = sqrt($2 > 1 ? $2 : 1); d = $3 - s; if (d < 0) d = -d; if (d > 1e-9 * s) bad = NR;
             if (n == 0) first = $1; last = $1; n++ }
     END { if (m < 19999.999 || m > 20000.001 || bad || first < 20 - 1e-9 || first > 20 + 1e-9 || last < 80 - 1e-9 || last > 80 + 1e-9) { print m, bad, first, last; exit 1 } }' mean.xye ||
  fail "mean.xye: not scaled to 20000 with Poisson σ on 20–80°"

cat > fit.toml <<'FIT'
[data]
file = "noisy.xye"

[model]
engine = "powder"
structure = "coo.xyz"
two_theta = [20.0, 80.0]
radiation = "xray"              # one line, λ from the data file
polarisation = "synchrotron"    # P = 1: debye applies none
polarisation_fraction = 1.0

[[parameter]]
path = "lattice_expansion"
start = 0.01
min = -0.05
max = 0.05

[[parameter]]
path = "w"
start = 0.0001
fixed = true
FIT
"$bin" fit fit.toml --output fit.h5 2> stderr.txt || fail "fit of the .xye failed: $(cat stderr.txt)"
grep -q "converged" stderr.txt || fail "no converged line: $(cat stderr.txt)"
awk '/^fit: R_wp = / { split($0, a, "chi2_red = "); if (a[2] > 0.8 && a[2] < 1.25) ok = 1 } END { exit !ok }' stderr.txt ||
  fail "χ²_red not near 1: $(cat stderr.txt)"
awk '$1 == "lattice_expansion" { v = $2; s = $4; if (v < 0) v = -v; if (v < 5 * s) ok = 1 } END { exit !ok }' stderr.txt ||
  fail "ε not near 0: $(cat stderr.txt)"

# The TCH profile: y a path (eta is not one), an unknown profile refused.
sed 's/^engine = "powder"$/engine = "powder"\nprofile = "tch"/; s/^path = "w"$/path = "y"/' fit.toml > tch.toml
"$bin" fit tch.toml --output tch.h5 2> stderr.txt || fail "TCH fit failed: $(cat stderr.txt)"
grep -q "^  y  *0.0001 +- 0  *(fixed)" stderr.txt || fail "TCH fit: no fixed y line: $(cat stderr.txt)"
sed 's/^path = "y"$/path = "eta"/' tch.toml > tch_eta.toml
sed 's/^profile = "tch"$/profile = "voigt"/' tch.toml > voigt.toml

# Two phases: CoO and Ni, Ni's scale free (the data hold CoO alone: it goes to 0).
sed -e 's/^structure = "coo.xyz"$//' fit.toml > phases.toml
cat >> phases.toml <<'PHASES'

[[parameter]]
path = "phase[1].scale"
start = 0.5
min = 0.0
max = 5.0

[[phase]]
structure = "coo.xyz"

[[phase]]
structure = "ni.xyz"
PHASES
sed -i 's/^path = "lattice_expansion"/path = "phase[0].lattice_expansion"/' phases.toml
"$bin" fit phases.toml --output phases.h5 2> stderr.txt || fail "two-phase fit failed: $(cat stderr.txt)"
grep -q "^  phase\[1\].scale  *[-0-9.e]* +- " stderr.txt || fail "no phase[1].scale line: $(cat stderr.txt)"
awk '$1 == "phase[1].scale" { if ($2 < 3 * $4) ok = 1 } END { exit !ok }' stderr.txt ||
  fail "phase[1].scale not near 0 (the data hold no Ni): $(cat stderr.txt)"
sed 's/^structure = "ni.xyz"$/# none/' phases.toml > nostructure.toml
sed 's/^engine = "powder"$/engine = "powder"\nstructure = "coo.xyz"/' phases.toml > both.toml
rm -f stderr.txt fit.h5 phases.h5 tch.h5 again.xye
inputs=$(ls -A | sort)

expect_error() { expect_cli_error "$1" "$bin" debye coo.xyz "${@:2}"; }
expect_error "--counts: required for .xye output: a simulated pattern has no σ; give the counts at its maximum (σ = √counts, Poisson)" \
  "${grid[@]}" --output o.xye
expect_error "--wavelength: required for .xye output: its x column is 2θ (degrees)" --qmin 1 --qmax 4 --qpoints 30 --counts 100 --output o.xye
expect_error "--counts: applies to .xye output only (o.dat is not one)" "${grid[@]}" --counts 100 --output o.dat
expect_error "--noise-seed: needs --counts" "${grid[@]}" --noise-seed 3 --output o.xye
expect_error "--counts: must be a finite number of counts > 0, got 0" "${grid[@]}" --counts 0 --output o.xye
expect_error "--normalize: an .xye file holds counts of an intensity: none or per-atom, not sq" "${grid[@]}" --counts 100 --normalize sq --output o.xye
expect_error "g.xye: --pdf: debye writes text (.dat, .txt, .csv), HDF5 (.h5, .hdf5) or a picture (.png)" "${grid[@]}" --pdf g.xye --output o.dat
expect_cli_error "nostructure.toml:32: phase[1]: a [[phase]] needs a structure (a structure file)" "$bin" fit nostructure.toml --output o.h5
expect_cli_error "both.toml:6: model.structure: with [[phase]] tables, give structure in each phase, not in [model]" "$bin" fit both.toml --output o.h5
expect_cli_error "voigt.toml:6: model.profile: unknown profile 'voigt' (pseudo_voigt, tch)" "$bin" fit voigt.toml --output o.h5
expect_cli_error "tch_eta.toml:20: parameter[1].path: unknown model path 'eta' (the model has: scale, background, zero, u, v, w, x, y, *" "$bin" fit tch_eta.toml --output o.h5
echo "ok: debye writes .xye counts that a powder fit reads; bad .xye requests and phases refused with one line"
