#!/usr/bin/env bash
# Issue 7 acceptance through the CLI: a sphere of x = 5, m = 1.5 on a 32-dipole
# grid converges and its Qext (CrossSec-Y, ADDA format "Qext\t= v") is within
# 0.3% of Mie (3.92783); CrossSec-X (by symmetry), mueller and log are written;
# `nanoscatter mie` prints the exact value.
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$bin" dda --shape sphere --grid 32 --m 1.5 0 --eq-rad 5 --mueller --output out -q || fail "dda exited non-zero"
for f in CrossSec-Y CrossSec-X mueller log; do [ -s "out/$f" ] || fail "missing out/$f"; done
grep -qP '^Cext\t= ' out/CrossSec-Y || fail "CrossSec-Y has no 'Cext\\t= ' line"
qext=$(awk -F'\t= ' '$1=="Qext"{print $2}' out/CrossSec-Y)
qx=$(awk -F'\t= ' '$1=="Qext"{print $2}' out/CrossSec-X)
[ "$qext" = "$qx" ] || fail "X and Y differ for a sphere: $qext vs $qx"
awk -v q="$qext" 'BEGIN{e=q/3.92783-1; if (e<0) e=-e; exit !(e<3e-3)}' || fail "Qext $qext not within 0.3% of Mie 3.92783"
[ "$(head -1 out/mueller)" = "theta s11 s12 s13 s14 s21 s22 s23 s24 s31 s32 s33 s34 s41 s42 s43 s44" ] || fail "mueller header"
# ADDA's θ grid for a 32³ box: 361 points over 0..180° (plus the header)
[ "$(wc -l < out/mueller)" = 362 ] || fail "mueller rows: $(wc -l < out/mueller)"
[ "$(tail -1 out/mueller | cut -d' ' -f1)" = "180.00" ] || fail "last theta"
grep -q "Total number of occupied dipoles: 17256" out/log || fail "log dipole count"

mie=$("$bin" mie --x 5 --m 1.5 0 | awk -F'\t= ' '$1=="Qext"{print $2}')
awk -v q="$mie" 'BEGIN{e=q-3.92783; if (e<0) e=-e; exit !(e<5e-6)}' || fail "mie Qext $mie"
echo ok
