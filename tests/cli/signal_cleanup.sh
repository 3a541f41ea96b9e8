#!/usr/bin/env bash
# An interrupted run leaves no output, not even its hidden temporary
# (atomic_file.hpp): SIGINT and SIGTERM during a large `build` write end the
# process within a second with exit status 130 and 143, and the directory
# is empty afterwards.
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

# Job control: without it a script's background jobs ignore SIGINT, and
# the CLI (rightly) leaves an ignored signal ignored.
set -m
# Big enough that writing takes a while (~4 million atoms, ~180 MB of text).
build=("$bin" build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 250 --output big.xyz --quiet)
max_ms=1000  # from the signal to the exit

for case in "INT 130" "TERM 143"; do
  read -r signal expected <<< "$case"
  "${build[@]}" &
  pid=$!
  # Signal once the temporary output exists, i.e. during the write.
  for _ in $(seq 1 1200); do
    compgen -G ".big.xyz.tmp*" > /dev/null && break
    sleep 0.05
  done
  compgen -G ".big.xyz.tmp*" > /dev/null || fail "no temporary output appeared ($signal)"
  start=$(date +%s%N)
  kill -"$signal" $pid
  wait $pid
  rc=$?
  elapsed_ms=$((($(date +%s%N) - start) / 1000000))
  [ $rc = "$expected" ] || fail "SIG$signal: exit $rc, expected $expected"
  [ $elapsed_ms -lt $max_ms ] || fail "SIG$signal: exit took $elapsed_ms ms"
  [ -z "$(ls -A)" ] || fail "SIG$signal left: $(ls -A)"
  echo "ok: SIG$signal, exit $rc after $elapsed_ms ms, nothing left"
done
