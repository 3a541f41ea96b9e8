#!/usr/bin/env bash
# The serial subcommands under mpirun: build, mie and info run on rank 0
# alone, which writes and prints once; the results equal the single process.
set -u
source "$(dirname "$0")/lib.bash"

b="build --lattice rocksalt --a 4.26 --elements Co O --shape sphere --radius 9 --vacancies 0.1 --seed 3"
"$bin" $b --output one.xyz --quiet || fail "build alone failed"
mpi 4 $b --output np4.xyz --quiet || fail "build np 4 failed"
# Header comments name the output file; the atoms must be identical.
diff <(tail -n +3 one.xyz) <(tail -n +3 np4.xyz) > /dev/null || fail "build under mpirun differs"
[ "$(head -1 one.xyz)" = "$(head -1 np4.xyz)" ] || fail "atom counts differ"

"$bin" mie --x 3 --m 1.5 0.01 > one_mie.txt || fail "mie alone failed"
mpi 2 mie --x 3 --m 1.5 0.01 > np2_mie.txt || fail "mie np 2 failed"
cmp one_mie.txt np2_mie.txt || fail "mie under mpirun printed: $(cat np2_mie.txt)"

mpi 2 info > info.txt || fail "info np 2 failed"
[ "$(grep -c '^nanoscatter' info.txt)" = 1 ] || fail "info printed more than once: $(cat info.txt)"
grep -q '^mpi: built (2 ranks)' info.txt || fail "info: $(cat info.txt)"
echo "ok: build, mie and info under mpirun run once on rank 0"
