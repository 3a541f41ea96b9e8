#!/usr/bin/env bash
# `nanoscatter fit` with [model] engine = "powder" (docs/fitting.md, "Powder
# fits"): bad input (data whose 2θ does not increase or repeats, negative σ,
# a 2θ axis without a wavelength, bad model keys) is one line naming the
# file, line and key, with no output left behind; the example fit runs,
# prints R_wp and χ²_red and writes its .h5 file and PNG. With [model] size
# (log-normal spheres): a finite particle as structure and bad size keys
# are refused, and a fit from a periodic cell runs and reports size_median
# and size_sigma.
set -u
bin=$1 work=$2
examples="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../examples/powder" && pwd)"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

cp "$examples/fit_powder.toml" "$examples/coo_particle.xye" .
"$bin" build --lattice rocksalt --a 4.26 --elements Co O --shape sphere --radius 8 --output coo_sphere.xyz 2> /dev/null ||
  fail "build failed"
variant() { sed "$2" fit_powder.toml > "$1"; }
# Data files with one fault each, on their fourth line.
sed '4s/^15.05 /15.00 /' coo_particle.xye > duplicate.xye
sed '4s/^15.05 /14.00 /' coo_particle.xye > decreasing.xye
sed '4s/ \([0-9.]*\)$/ -\1/' coo_particle.xye > negative.xye
awk 'NR > 2 { print $1, $2 }' coo_particle.xye > plain.xy
variant duplicate.toml 's/^file = "coo_particle.xye"/file = "duplicate.xye"/'
variant decreasing.toml 's/^file = "coo_particle.xye"/file = "decreasing.xye"/'
variant negative.toml 's/^file = "coo_particle.xye"/file = "negative.xye"/'
variant nowavelength.toml 's/^file = "coo_particle.xye"/file = "plain.xy"/; s/^radiation = "cu_ka"/radiation = "xray"/'
variant path.toml 's/^path = "b\[O\]"/path = "b[Ni]"/'
variant range.toml 's/^two_theta = \[15.0, 85.0\]/two_theta = [100.0, 120.0]/'
variant polarisation.toml 's/^engine = "powder"/engine = "powder"\npolarisation = "circular"/'
variant structure.toml 's/^structure = "coo_sphere.xyz"/structure = "none.xyz"/'
variant sigma.toml 's/^file = "coo_particle.xye"/file = "coo_particle.xye"\nsigma = "s.h5:\/sigma"/'
# The CoO conventional cell, periodic: the size model cuts it to r_max.
cat > coo_cell.xyz <<'CELL'
8
Lattice="4.26 0 0 0 4.26 0 0 0 4.26" Properties=species:S:1:pos:R:3 pbc="T T T"
Co 0 0 0
Co 0 2.13 2.13
Co 2.13 0 2.13
Co 2.13 2.13 0
O 2.13 0 0
O 0 2.13 0
O 0 0 2.13
O 2.13 2.13 2.13
CELL
variant size.toml 's/^structure = "coo_sphere.xyz"/structure = "coo_cell.xyz"\nsize = { r_min = 5.0, r_max = 12.0, count = 8 }/'
cat >> size.toml <<'SIZE'

[[parameter]]
path = "size_median"
start = 8.0
min = 5.5
max = 11.0

[[parameter]]
path = "size_sigma"
start = 0.15
min = 0.05
max = 0.5
SIZE
sed 's/^structure = "coo_cell.xyz"/structure = "coo_sphere.xyz"/' size.toml > size_finite.toml
sed 's/count = 8 }/count = 1 }/' size.toml > size_count.toml
sed 's/count = 8 }/count = 8, bins = 3 }/' size.toml > size_key.toml
inputs=$(ls -A | sort)

expect_error() { expect_cli_error "$1" "$bin" fit "$2" --output out.h5 --quiet; }
expect_error "duplicate.xye:4: x: duplicate x 15 (as on line 3)" duplicate.toml
expect_error "decreasing.xye:4: x: x not increasing: 14 after 15 on line 3" decreasing.toml
expect_error "negative.xye:4: sigma: negative σ: -90.5759" negative.toml
expect_error "nowavelength.toml:3: data.file: plain.xy is on a 2θ axis without a wavelength: give [model] wavelength (Å) or radiation = \"cu_ka\"" nowavelength.toml
expect_error "path.toml:25: parameter[2].path: unknown model path 'b[Ni]' *" path.toml
expect_error "range.toml:9: model.two_theta: fewer than 2 points of coo_particle.xye lie in [100, 120] degrees" range.toml
expect_error "polarisation.toml:7: model.polarisation: unknown polarisation 'circular' (unpolarised, monochromator, synchrotron)" polarisation.toml
expect_error "structure.toml:7: model.structure: no such file: none.xyz" structure.toml
expect_error "sigma.toml:4: data.sigma: a powder fit takes σ from the data file (.xye), else σ² = max(y, 1)" sigma.toml
expect_error "size_finite.toml:7: model.structure: with [model] size, the structure is not the periodic contents of its cell *" size_finite.toml
expect_error "size_count.toml:8: model.size.count: must be in [2, 1000] radii, got 1" size_count.toml
expect_error "size_key.toml:8: model.size: unknown key 'bins'; allowed: r_min, r_max, count, distribution" size_key.toml
"$bin" fit size.toml --output size.h5 2> stderr.txt || fail "size fit failed: $(cat stderr.txt)"
grep -q "converged" stderr.txt || fail "size fit: no converged line: $(cat stderr.txt)"
grep -q "^  size_median  *[0-9.]* +- " stderr.txt || fail "size fit: no size_median line: $(cat stderr.txt)"
grep -q "^  size_sigma  *[0-9.]* +- " stderr.txt || fail "size fit: no size_sigma line: $(cat stderr.txt)"
rm -f size.h5

"$bin" fit fit_powder.toml --output out.h5 --png out.png 2> stderr.txt || fail "good fit failed: $(cat stderr.txt)"
[ -s out.h5 ] || fail "out.h5 missing"
[ "$(head -c 8 out.png | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] || fail "out.png is not a PNG"
grep -q "converged" stderr.txt || fail "no converged line: $(cat stderr.txt)"
grep -q "^fit: R_wp = 0.01[0-9]*, chi2_red = 0.9[0-9]*$" stderr.txt || fail "no R_wp line: $(cat stderr.txt)"
echo "ok: bad powder fit input rejected with one line; the example fit converges and draws its figure; the size fit runs"
