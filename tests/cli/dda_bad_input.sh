#!/usr/bin/env bash
# Bad input to `nanoscatter dda`: one line "nanoscatter: error: ..." naming
# the file, line and field, non-zero exit, no output directory. A solver that
# does not converge within --maxiter exits non-zero and flags its partial
# results in CrossSec-Y.
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

printf '0 0 0\n1 0 0\n1 a 0\n' > bad.geom
printf 'Nmat=2\n0 0 0 1\n1 0 0\n' > short.geom

expect_error() {
  local expected=$1
  shift
  "$bin" dda "$@" --device cpu --output out > stdout.txt 2> stderr.txt
  local rc=$?
  [ $rc -ne 0 ] || fail "exit 0 for: $*"
  [ "$(wc -l < stderr.txt)" = 1 ] || fail "not one line for: $*: $(cat stderr.txt)"
  [ "$(cat stderr.txt)" = "nanoscatter: error: $expected" ] ||
    fail "for: $*
  got:      $(cat stderr.txt)
  expected: nanoscatter: error: $expected"
  [ -e out ] && fail "output directory created for: $*"
  rm -f stdout.txt stderr.txt
}

expect_error "--m: refractive index 1 for all dipoles: the particle does not scatter" --grid 8 --m 1 0
expect_error "--grid: must be ≥ 1, got 0" --grid 0
expect_error "--max-device-memory: must be ≥ 0, got '-1'" --grid 8 --max-device-memory -1
expect_error "bad.geom:3: y: not an integer 'a'" --shape read bad.geom
expect_error "short.geom:3: domain: expected 4 integers 'x y z domain', found 3 values" --shape-file short.geom
expect_error "--shape: unknown shape 'cone' (expected sphere, ellipsoid, cylinder, box, coated, capsule or read FILE)" --shape cone
expect_error "--m: Im(m) must be ≥ 0 (absorbing media have Im(m) > 0), got -0.1" --m 1.5 -0.1
expect_error "--iter: unknown iterative solver 'gmres' (expected qmr, bicg, bicgstab or cgnr)" --iter gmres
expect_error "--eq-rad: --size and --eq-rad cannot be used together" --size 2 --eq-rad 1
expect_error "--grid: expected 1 or 3 values, got 2" --grid 8 8
expect_error "--size: must be > 0, got 0" --size 0
expect_error "--maxiter: must be ≥ 1, got 0" --maxiter 0
expect_error "--sym: expected auto or no, got 'yes'" --sym yes
expect_error "--shape-file: give either --shape or --shape-file" --shape sphere --shape-file bad.geom
expect_error "--shape: not a number 'a'" --shape ellipsoid 1 a
expect_error "--threads: must be ≥ 0 (0: all cores), got -1" --threads -1
expect_error "no/x.geom: --save-geom: directory 'no' does not exist" --grid 8 --save-geom no/x.geom
"$bin" dda --grid 8 --output bad.geom 2> stderr.txt && fail "exit 0 for an output directory that is a file"
[ "$(cat stderr.txt)" = "nanoscatter: error: bad.geom: --output: exists and is not a directory" ] ||
  fail "output directory that is a file: $(cat stderr.txt)"

# non-convergence, even with -q: exit 1, one error line naming the
# polarization, solver, iterations and residual, partial results flagged;
# --accept-unconverged: exit 0 and the same report as one warning line
"$bin" dda --grid 16 --maxiter 2 --output nc -q > /dev/null 2> stderr.txt && fail "exit 0 without convergence"
[ "$(wc -l < stderr.txt)" = 1 ] || fail "non-convergence message: $(cat stderr.txt)"
report='Y polarization: QMR (complex symmetric) did not converge after 2 iterations, relative residual [^ ]* (eps 1e-05): no convergence within the maximum number of iterations (2)'
grep -q "^nanoscatter: error: $report; partial results flagged NOT CONVERGED in nc (--accept-unconverged" stderr.txt ||
  fail "message: $(cat stderr.txt)"
grep -q "^# NOT CONVERGED" nc/CrossSec-Y || fail "partial results not flagged"
grep -q "NOT CONVERGED" nc/log || fail "log does not flag non-convergence"
"$bin" dda --grid 16 --maxiter 2 --accept-unconverged --output nc -q > /dev/null 2> stderr.txt ||
  fail "non-zero exit with --accept-unconverged: $(cat stderr.txt)"
[ "$(wc -l < stderr.txt)" = 1 ] || fail "accepted non-convergence: $(cat stderr.txt)"
grep -q "^nanoscatter: warning: dda: $report\$" stderr.txt || fail "warning: $(cat stderr.txt)"
echo ok
