#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/, clang, ASan + UBSan) and runs each
# for a budget, seeded from the repository's own inputs; prints the
# executions per fuzzer and fails on any finding (crash, sanitizer report,
# leak, hang over 10 s, an exception other than nanoscatter::Error, a
# multi-line error message).
#   scripts/fuzz.sh [--runs N] [SECONDS_PER_FUZZER] [FUZZER ...]
# SECONDS defaults to 60; --runs stops a fuzzer after N executions (whichever
# comes first). Findings: $dir/fuzz-findings/, logs: $dir/fuzz-logs/; the
# corpus grown in $dir/fuzz-corpus/ is reused by the next run.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=0
if [ "${1:-}" = "--runs" ]; then runs=$2; shift 2; fi
seconds=${1:-60}
[ $# -gt 0 ] && shift
all=(xyz pdb cif gisaxs_sample fit_file adda_shape mesh_stl mesh_obj
     detector_hdf5 detector_tiff detector_cbf detector_edf pattern_gr pattern_xy)
fuzzers=("$@")
[ ${#fuzzers[@]} -gt 0 ] || fuzzers=("${all[@]}")

dir=${NANOSCATTER_SANITIZE_BUILD:-build-sanitize}
bash scripts/sanitize_build.sh "${fuzzers[@]/#/fuzz_}"
source scripts/sanitizer_env.sh

# Seeds: the tests' and examples' inputs (referenced, not copied into the
# repository), fuzz/seeds/ for formats the repository has no file of, and
# tiny binary images written by fuzz/make_seeds.py.
declare -A seeds=(
  [xyz]="fuzz/seeds/xyz"
  [pdb]="tests/data/small.pdb"
  [cif]="tests/data/*.cif examples/structures/NaCl.cif"
  [gisaxs_sample]="examples/gisaxs/*.toml tests/data/gisaxs/*.toml tests/data/fit/*.toml examples/fit/sample.toml"
  [fit_file]="examples/fit/fit.toml examples/pdf/fit_pdf.toml examples/powder/fit_powder.toml bench/fits/*/*.toml"
  [adda_shape]="fuzz/seeds/adda_shape"
  [mesh_stl]="fuzz/seeds/mesh_stl"
  [mesh_obj]="fuzz/seeds/mesh_obj"
  [detector_hdf5]="examples/rmc/discs_64.h5"
  [detector_tiff]=""
  [detector_cbf]=""
  [detector_edf]=""
  [pattern_gr]="fuzz/seeds/pattern_gr examples/pdf/ni_particle.gr"
  [pattern_xy]="fuzz/seeds/pattern_xy examples/powder/coo_particle.xye"
)
# HDF5 files are mostly structure around the header: give them room.
declare -A max_len=([detector_hdf5]=16384)
default_max_len=4096
seed_root=$dir/fuzz-seeds
rm -rf "$seed_root"
/usr/bin/python3 fuzz/make_seeds.py "$seed_root"
mkdir -p "$dir/fuzz-corpus" "$dir/fuzz-findings" "$dir/fuzz-logs"

failed=()
printf '%-16s %12s %8s %s\n' fuzzer executions seconds result
for name in "${fuzzers[@]}"; do
  [ -n "${seeds[$name]+set}" ] || { echo "nanoscatter: error: fuzz.sh: no fuzzer named '$name' (${all[*]})"; exit 2; }
  mkdir -p "$seed_root/$name" "$dir/fuzz-corpus/$name"
  for s in ${seeds[$name]}; do
    if [ -d "$s" ]; then cp "$s"/* "$seed_root/$name/"; else cp "$s" "$seed_root/$name/"; fi
  done
  log=$dir/fuzz-logs/$name.log
  start=$(date +%s)
  result=ok
  "$dir/fuzz/fuzz_$name" -max_total_time="$seconds" -runs="$((runs > 0 ? runs : -1))" \
    -max_len="${max_len[$name]:-$default_max_len}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/fuzz-findings/$name-" \
    "$dir/fuzz-corpus/$name" "$seed_root/$name" >"$log" 2>&1 || result="FINDING (see $log)"
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  printf '%-16s %12s %8s %s\n' "$name" "${executions:-?}" "$(($(date +%s) - start))" "$result"
  if [ "$result" != ok ]; then
    failed+=("$name")
    # CI keeps only this script's output: show the report itself.
    grep -n -m1 -A40 -E 'ERROR: |SUMMARY: |deadly signal|Test unit written' "$log" | head -60 || tail -40 "$log"
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "nanoscatter: error: fuzz.sh: findings in ${failed[*]}"
  exit 1
fi
