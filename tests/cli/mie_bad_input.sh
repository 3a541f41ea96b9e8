#!/usr/bin/env bash
# Bad input to `nanoscatter mie`: one line "nanoscatter: error: ..." naming
# the flag (MieOptions::validate's messages), non-zero exit, no table written.
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

expect_error() {
  local expected=$1
  shift
  "$bin" mie "$@" > stdout.txt 2> stderr.txt
  local rc=$?
  [ $rc -ne 0 ] || fail "exit 0 for: $*"
  [ "$(cat stderr.txt)" = "nanoscatter: error: $expected" ] ||
    fail "for: $*
  got:      $(cat stderr.txt)
  expected: nanoscatter: error: $expected"
  [ -s stdout.txt ] && fail "printed results for: $*"
  ls ./*.dat ./*.h5 > /dev/null 2>&1 && fail "a table was written for: $*"
  rm -f stdout.txt stderr.txt
}

expect_error "--x: give either --x or --radius (with --wavelength)" --m 1.5 0
expect_error "--x: give either --x or --radius (with --wavelength)" --x 1 --radius 1
expect_error "--x: size parameter must be a finite value > 0, got -1" --x -1
expect_error "--radius: must be > 0, got 0" --radius 0
expect_error "--wavelength: must be > 0, got 0" --radius 1 --wavelength 0
expect_error "--m: Im(m) must be ≥ 0 (absorption, exp(−iωt) convention), got -0.1" --x 1 --m 1.5 -0.1
expect_error "--m-core: --core-ratio and --m-core go together" --x 1 --core-ratio 0.5
expect_error "--core-ratio: must lie in [0, 1], got 2" --x 1 --core-ratio 2 --m-core 1.2 0
expect_error "--ntheta: must be ≥ 2, got 1" --x 1 --ntheta 1
expect_error "--output: required with --ntheta" --x 1 --ntheta 5
expect_error "m.h5: --output: expects a text file name" --x 1 --ntheta 5 --output m.h5
expect_error "no/m.dat: --output: directory 'no' does not exist" --x 1 --ntheta 5 --output no/m.dat

"$bin" mie --x 1 --ntheta 5 --output m.dat > /dev/null || fail "good run"
[ "$(grep -c '^#' m.dat)" = 5 ] || fail "header: $(head -6 m.dat)"
grep -q "^# command: .*mie --x 1 --ntheta 5 --output m.dat" m.dat || fail "no command line in the header"
[ "$(grep -vc '^#' m.dat)" = 5 ] || fail "rows"
echo ok
