#!/usr/bin/env bash
# `nanoscatter build` reproduces the exact particle sizes of the task and
# docs/design.md: fcc Au (a = 4.078 Å) in a sphere of R = 16 Å has 959 atoms;
# rock-salt CoO (a = 4.26 Å, Co at 0,0,0 and O at ½,0,0) with R = 14 Å has 1213.
# The same counts come from independent enumerations in
# tests/unit/test_structure_builder.cpp.
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

summary=$("$bin" build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 16 \
          --device cpu --output au.xyz 2>&1) || fail "fcc Au exited non-zero: $summary"
[ "$summary" = "959 atoms → au.xyz" ] || fail "summary line: '$summary'"
[ "$(head -n1 au.xyz)" = 959 ] || fail "au.xyz count line: $(head -n1 au.xyz)"
[ "$(tail -n +3 au.xyz | grep -c '^Au ')" = 959 ] || fail "au.xyz does not hold 959 Au lines"

"$bin" build --lattice rocksalt --a 4.26 --elements Co O --shape sphere --radius 14 --output coo.xyz --quiet \
  > quiet.txt 2>&1 || fail "rocksalt CoO exited non-zero: $(cat quiet.txt)"
[ -s quiet.txt ] && fail "--quiet printed: $(cat quiet.txt)"
[ "$(head -n1 coo.xyz)" = 1213 ] || fail "coo.xyz count line: $(head -n1 coo.xyz)"
co=$(tail -n +3 coo.xyz | grep -c '^Co ')
o=$(tail -n +3 coo.xyz | grep -c '^O ')
[ "$((co + o))" = 1213 ] || fail "Co $co + O $o != 1213"
# Co sits on the origin: the centre atom of the particle is Co.
grep -Eq '^Co +0\.00000000 +0\.00000000 +0\.00000000$' coo.xyz || fail "no Co at the origin"
echo "ok: 959 Au, 1213 CoO ($co Co + $o O)"
