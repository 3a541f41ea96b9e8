#!/usr/bin/env bash
# `nanoscatter fit` with [model] engine = "pdf" (docs/fitting.md, "PDF fits"):
# bad input is one line naming the fit file, line and key, with no output
# left behind; the example fit runs, prints Rw and writes its .h5 file and PNG.
set -u
bin=$1 work=$2
examples="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../examples/pdf" && pwd)"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

cp "$examples/fit_pdf.toml" "$examples/ni_particle.gr" .
"$bin" build --lattice fcc --a 3.524 --elements Ni --shape sphere --radius 12 --output ni_sphere.xyz > /dev/null ||
  fail "build failed"
variant() { sed "$2" fit_pdf.toml > "$1"; }
variant path.toml 's/^path = "u\[Ni\]"/path = "u[Co]"/'
variant range.toml 's/^r = \[1.5, 12.0\]/r = [30.0, 40.0]/'
variant envelope.toml 's/^engine = "pdf"/engine = "pdf"\nenvelope = "cube"/'
variant qmin.toml 's/^engine = "pdf"/engine = "pdf"\nqmax = 0.5\nqmin = 1.0/'
variant structure.toml 's/^structure = "ni_sphere.xyz"/structure = "none.xyz"/'
variant sample.toml 's/^engine = "pdf"/engine = "pdf"\nsample = "x.toml"/'
variant bulk.toml 's/^engine = "pdf"/engine = "pdf"\nenvelope = "bulk"/; s/^r = \[1.5, 12.0\]/r = [1.5, 14.0]/'
variant sigma.toml 's/^file = "ni_particle.gr"/file = "ni_particle.gr"\nsigma = "s.h5:\/sigma"/'
inputs=$(ls -A | sort)

expect_error() { expect_cli_error "$1" "$bin" fit "$2" --output out.h5 --quiet; }
expect_error "path.toml:11: parameter[0].path: unknown model path 'u[Co]' (the model has: scale, background, delta1, delta2, qdamp, qbroad, lattice_expansion, sphere_radius, sphere_sigma, u[Ni], b[Ni])" path.toml
expect_error "range.toml:8: model.r: fewer than 2 points of ni_particle.gr lie in [30, 40] Å" range.toml
expect_error "envelope.toml:7: model.envelope: unknown envelope 'cube' (sphere, bulk)" envelope.toml
expect_error "qmin.toml:8: model.qmin: must be ≥ 0 and below qmax = 0.5 Å⁻¹, got 1" qmin.toml
expect_error "structure.toml:7: model.structure: no such file: none.xyz" structure.toml
expect_error "sample.toml:7: model: unknown key 'sample'; *" sample.toml
expect_error "bulk.toml:9: model.r: the bulk envelope holds for r up to the particle's radius R = 12.0711 Å *" bulk.toml
expect_error "sigma.toml:4: data.sigma: a PDF fit takes σ from the data file's dG column" sigma.toml

"$bin" fit fit_pdf.toml --output out.h5 --png out.png 2> stderr.txt || fail "good fit failed: $(cat stderr.txt)"
[ -s out.h5 ] || fail "out.h5 missing"
[ "$(head -c 8 out.png | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] || fail "out.png is not a PNG"
grep -q "converged" stderr.txt || fail "no converged line: $(cat stderr.txt)"
grep -q "^fit: Rw = 0.0" stderr.txt || fail "no Rw line: $(cat stderr.txt)"
echo "ok: bad PDF fit input rejected with one line; the example fit converges and draws its figure"
