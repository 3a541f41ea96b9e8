#!/usr/bin/env bash
# Failures under mpirun end every rank with one message and a non-zero exit,
# and no rank hangs (each run is limited to 120 s by lib.bash's mpi()):
#  1. bad input seen by every rank: the single-process line, once;
#  2. an input file only rank 0 can see (rank 1 starts in another directory,
#     as on a node without the file): rank 0 computes and waits in the
#     reduction, rank 1 fails reading; the line names rank 1;
#  3. the reverse, rank 0 fails before the work (its output directory is
#     missing) while rank 1 computes and waits;
#  4. 4 ranks, rank 3 alone cannot read the RMC target.
# No output file may be left behind in any case.
set -u
source "$(dirname "$0")/lib.bash"

"$bin" build --lattice rocksalt --a 4.26 --elements Co O --shape sphere --radius 8 --output coo.xyz --quiet ||
  fail "build failed"
mkdir -p elsewhere other/out
cp coo.xyz other/
q="--qmax 5 --qpoints 40 --device cpu --quiet"

# check_failure EXPECTED_LINE: stdout empty, stderr exactly that line, exit ≠ 0.
check_failure() {
  local rc=$1 expected=$2
  [ $rc -ne 0 ] || fail "exit 0, expected: $expected"
  [ -s stdout.txt ] && fail "stdout not empty: $(cat stdout.txt)"
  [ "$(wc -l < stderr.txt)" = 1 ] || fail "not one line on stderr: $(cat stderr.txt)"
  [ "$(cat stderr.txt)" = "$expected" ] || fail "got '$(cat stderr.txt)', expected '$expected'"
}

# 1. Bad input on every rank: the same line as the single process.
"$bin" debye coo.xyz --qmax -1 --qpoints 40 --output one.dat > stdout.txt 2> stderr.txt
alone=$(cat stderr.txt)
[ -n "$alone" ] || fail "no error alone"
for np in 2 4; do
  mpi $np debye coo.xyz --qmax -1 --qpoints 40 --output x.dat > stdout.txt 2> stderr.txt
  check_failure $? "$alone"
done
mpi 2 debye missing.xyz $q --output x.dat > stdout.txt 2> stderr.txt
check_failure $? "nanoscatter: error: missing.xyz: no such file"

# 2. Only rank 1 cannot see the structure (it starts in ./elsewhere).
timeout 120 mpirun -q -np 1 "$bin" debye coo.xyz $q --output x.dat : \
  -np 1 -wdir elsewhere "$bin" debye coo.xyz $q --output x.dat > stdout.txt 2> stderr.txt
rc=$?
[ $rc -eq 124 ] && fail "hang when rank 1 fails"
check_failure $rc "nanoscatter: error: rank 1 of 2: coo.xyz: no such file"

# 3. Only rank 0 fails (no out/ directory where it runs); rank 1 (in ./other,
# which has out/) computes its part first.
timeout 120 mpirun -q -np 1 "$bin" debye coo.xyz $q --output out/x.dat : \
  -np 1 -wdir other "$bin" debye coo.xyz $q --output out/x.dat > stdout.txt 2> stderr.txt
rc=$?
[ $rc -eq 124 ] && fail "hang when rank 0 fails"
check_failure $rc "nanoscatter: error: out/x.dat: --output: directory 'out' does not exist"
[ -z "$(ls -A other/out)" ] || fail "rank 1 wrote: $(ls -A other/out)"

# 4. Four ranks, rank 3 alone lacks the RMC target.
$py -c "
import numpy as np
n = 16
a = (np.random.default_rng(1).random((n, n)) < 0.3).astype(float)
np.savetxt('target.txt', np.fft.fftshift(np.abs(np.fft.fft2(a)) ** 2))" || fail "no target"
r="rmc --target target.txt --loading 0.3 --tiles 4 --steps 500 --device cpu --output fit --quiet"
timeout 120 mpirun -q --oversubscribe -np 3 "$bin" $r : -np 1 -wdir elsewhere "$bin" $r > stdout.txt 2> stderr.txt
rc=$?
[ $rc -eq 124 ] && fail "hang when rank 3 fails"
[ $rc -ne 0 ] || fail "rmc: exit 0 although rank 3 failed"
grep -q "^nanoscatter: error: rank 3 of 4: target.txt" stderr.txt || fail "rmc: $(cat stderr.txt)"
[ "$(wc -l < stderr.txt)" = 1 ] || fail "rmc: not one line on stderr: $(cat stderr.txt)"
[ -e fit ] && fail "rmc wrote fit/ although a rank failed"

ls x.dat one.dat elsewhere/x.dat 2> /dev/null && fail "output files left behind"
echo "ok: failures on any rank end all ranks with one line and a non-zero exit"
