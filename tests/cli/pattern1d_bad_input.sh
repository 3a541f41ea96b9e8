#!/usr/bin/env bash
# `nanoscatter debye --q-file`: the Q list read from a measured pattern
# (pattern1d.hpp). Good files give the file's Q points (from Q, from 2θ with
# the file's or --wavelength's λ, from d); bad ones exit non-zero with one
# line naming file:line and field, and leave no output behind.
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

printf '2\ntwo atoms\nAu 0 0 0\nAu 2.88 0 0\n' > au2.xyz
printf '# axis = q\n0.5 1\n1.0 2\n1.5 3\n' > q.xy
printf '# 2theta I sigma\n10 1 0.1\n20 2 0.1\n30 3 0.1\n' > tth.xye
printf '# wavelength = 1.5406\n10 1 0.1\n20 2 0.1\n' > tthw.xye
printf '1 2\n2 3\n2 4\n' > dup.xy
printf '1 2 0.1\n2 3 -0.5\n' > neg.xye
printf '# header only\n' > empty.dat
printf '1 2 3 4\n' > wide.xy
printf '1 nan\n2 3\n' > nan.xy
printf 'title\nBANK 1 3 3 CONS 1000 500 0 0 FXYE\n1000 1 1\n1500 2 1\n2000 3 1\n' > s.fxye
printf '#### start data\n1 2\n2 3\n' > g.gr
inputs=$(ls | sort)

expect_error() {
  local expected=$1
  shift
  expect_cli_error "$expected*" "$bin" debye au2.xyz "$@" --output o.dat --quiet
}

expect_error "dup.xy:3: x: duplicate x 2" --q-file dup.xy --q-file-axis q
expect_error "neg.xye:2: sigma: negative σ: -0.5" --q-file neg.xye --q-file-axis q
expect_error "empty.dat:1: no data rows" --q-file empty.dat --q-file-axis q
expect_error "wide.xy:1: columns: row has 4 values" --q-file wide.xy
expect_error "nan.xy:1: y: not a finite number" --q-file nan.xy --q-file-axis q
expect_error "missing.xy: cannot open file" --q-file missing.xy
expect_error "tth.xye: --wavelength: the file's axis is 2θ and it gives no wavelength: give one" --q-file tth.xye
expect_error "g.gr: --q-file: the file is a PDF (axis r)" --q-file g.gr
expect_error "q.xy:1: axis: the file's axis is q, not two_theta" --q-file q.xy --q-file-axis two_theta
expect_error "--q-file-axis: unknown axis 'k'" --q-file q.xy --q-file-axis k
expect_error "--qmax: give either --q-file or a Q grid" --q-file q.xy --qmax 3
expect_error "--qpoints: give either --q-file or a Q grid" --q-file q.xy --qpoints 3
expect_error "--wavelength: must be > 0 Å, got -1" --q-file tth.xye --wavelength -1
expect_error "--q-file-axis: applies to --q-file only" --qmin 1 --qmax 2 --qpoints 3 --q-file-axis q

# Good files: the output's Q column is the file's Q.
q_of() { grep -v '^#' "$1" | awk '{printf "%.6f\n", $1}' | paste -sd' '; }
"$bin" debye au2.xyz --q-file q.xy --output o1.dat --quiet || fail "q.xy"
[ "$(q_of o1.dat)" = "0.500000 1.000000 1.500000" ] || fail "q.xy Q: $(q_of o1.dat)"
"$bin" debye au2.xyz --q-file tth.xye --wavelength 1.5406 --output o2.dat --quiet || fail "tth.xye"
[ "$(q_of o2.dat)" = "0.710912 1.416414 2.111136" ] || fail "tth.xye Q: $(q_of o2.dat)"
"$bin" debye au2.xyz --q-file tthw.xye --output o3.dat --quiet || fail "tthw.xye"
[ "$(q_of o3.dat)" = "0.710912 1.416414" ] || fail "tthw.xye Q: $(q_of o3.dat)"
"$bin" debye au2.xyz --q-file s.fxye --wavelength 1.5406 --output o4.dat --quiet || fail "s.fxye"
[ "$(q_of o4.dat)" = "0.710912 1.064676 1.416414" ] || fail "s.fxye Q: $(q_of o4.dat)"
# A debye output ("# Q I") is a Q list as it is.
"$bin" debye au2.xyz --q-file o1.dat --output o5.dat --quiet || fail "debye output as --q-file"
[ "$(q_of o5.dat)" = "0.500000 1.000000 1.500000" ] || fail "o1.dat Q: $(q_of o5.dat)"
echo ok
