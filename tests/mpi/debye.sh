#!/usr/bin/env bash
# `nanoscatter debye` under mpirun: pair blocks dealt to 2 and 4 ranks, parts
# added in rank order in float64. Against the run without mpirun: double
# precision (exact with partials, histogram) within 1e-12 relative (only the
# order of float64 additions differs), the PDF from histograms added over
# the ranks too; single precision also within 1e-12: its pieces are those
# of one process, dealt out, so every block's float32 sums are the same.
set -u
source "$(dirname "$0")/lib.bash"

"$bin" build --lattice rocksalt --a 4.26 --elements Co O --shape sphere --radius 14 --output coo.xyz --quiet ||
  fail "build failed"
q="--qmin 0 --qmax 10 --qpoints 120"
"$bin" debye coo.xyz $q --partials --pdf one_pdf.dat --device cpu --output one.dat --quiet || fail "debye alone failed"
"$bin" debye coo.xyz $q --method histogram --device cpu --output one_h.h5 --quiet || fail "histogram alone failed"
"$bin" debye coo.xyz $q --precision single --device cpu --output one_s.dat --quiet || fail "single alone failed"
for np in 2 4; do
  mpi $np debye coo.xyz $q --partials --pdf np${np}_pdf.dat --device cpu --output np$np.dat 2> log$np.txt ||
    fail "np $np: $(cat log$np.txt)"
  load_report log$np.txt $np
  same_numbers np$np.dat one.dat 1e-12
  same_numbers np${np}_pdf.dat one_pdf.dat 1e-12
  mpi $np debye coo.xyz $q --method histogram --device cpu --output np${np}_h.h5 --quiet || fail "histogram np $np"
  same_h5 np${np}_h.h5 one_h.h5 1e-12
  mpi $np debye coo.xyz $q --precision single --device cpu --output np${np}_s.dat --quiet || fail "single np $np"
  same_numbers np${np}_s.dat one_s.dat 1e-12
done
# Every rank got pair blocks (the dealing is not degenerate at this size).
grep "load over 4 ranks" log4.txt | grep -q " 0.0%" && fail "a rank got no work: $(cat log4.txt)"
echo "ok: debye under mpirun -np 2 and 4 agrees with the single process"
