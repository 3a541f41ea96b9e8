#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/, clang, ASan + UBSan) and runs each
# for a budget, seeded from the repository's own inputs; prints the
# executions per fuzzer and fails on any finding (crash, sanitizer report,
# leak, hang over 10 s, an exception other than nanoscatter::Error, a
# multi-line error message).
#   scripts/fuzz.sh [--runs N] [--keep-going] [SECONDS_PER_FUZZER] [FUZZER ...]
# SECONDS defaults to 60; --runs stops a fuzzer after N executions (whichever
# comes first). --keep-going runs libFuzzer's fork mode (-fork, on
# $FUZZ_WORKERS processes, default 1) past crashes, hangs and out-of-memory
# inputs, each kept in the findings folder for triage; it still fails at the
# end when any was found. Findings: $dir/fuzz-findings/, logs:
# $dir/fuzz-logs/; the corpus grown in $dir/fuzz-corpus/ is reused by the
# next run.
#
# Besides the fuzzers of `all` (run when none is named), by name only:
# detector_hdf5_inprocess and detector_cbf_inprocess, the HDF5 and CBF
# readers with the library in this process instead of a forked child
# (fuzz/detector_image.cpp). libhdf5 still crashes and hangs on some inputs
# there (bench/results/2026-11-26-fuzz.md): run it with --keep-going.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=0
keep_going=0
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --keep-going) keep_going=1; shift ;;
    *) break ;;
  esac
done
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
  [detector_hdf5_inprocess]="examples/rmc/discs_64.h5"
  [detector_tiff]=""
  [detector_cbf]=""
  [detector_cbf_inprocess]=""
  [detector_edf]=""
  [pattern_gr]="fuzz/seeds/pattern_gr examples/pdf/ni_particle.gr"
  [pattern_xy]="fuzz/seeds/pattern_xy examples/powder/coo_particle.xye"
)
# HDF5 files are mostly structure around the header: give them room.
declare -A max_len=([detector_hdf5]=16384 [detector_hdf5_inprocess]=16384)
default_max_len=4096
# In process, CBFlib leaks on nearly every refused file (scripts/lsan.supp)
# and libhdf5 keeps free lists: libFuzzer would then run a whole-heap leak
# scan after nearly every input (27 instead of ~900 executions/s). Without
# its per-input check, LeakSanitizer still checks the whole run at exit. A
# hang there is libhdf5's loop, which the contained read stops at 2 s: 1 s
# is long for a few kB (~1 ms in the ASan build).
#
# The contained fuzzers' children inherit libFuzzer's malloc hook: a
# library's multi-GB malloc in the child made the child's copy of libFuzzer
# report an out-of-memory and write an artifact (libhdf5's H5T__conv_vlen,
# 3.5 GB) instead of meeting the contained read's memory limit. No single
# malloc limit there: -rss_limit_mb still holds the parent, whose own sizes
# are checked before they are allocated.
declare -A extra_flags=([detector_hdf5_inprocess]="-detect_leaks=0 -timeout=1"
                        [detector_cbf_inprocess]="-detect_leaks=0"
                        [detector_hdf5]="-malloc_limit_mb=1048576"
                        [detector_cbf]="-malloc_limit_mb=1048576")
seed_root=$dir/fuzz-seeds
rm -rf "$seed_root"
/usr/bin/python3 fuzz/make_seeds.py "$seed_root"
# The in-process fuzzers start from their contained twins' seeds.
for twin in detector_hdf5 detector_cbf; do
  cp -r "$seed_root/$twin" "$seed_root/${twin}_inprocess"
done
mkdir -p "$dir/fuzz-corpus" "$dir/fuzz-findings" "$dir/fuzz-logs"

failed=()
printf '%-24s %12s %8s %s\n' fuzzer executions seconds result
for name in "${fuzzers[@]}"; do
  [ -n "${seeds[$name]+set}" ] || { echo "nanoscatter: error: fuzz.sh: no fuzzer named '$name' (${all[*]})"; exit 2; }
  mkdir -p "$seed_root/$name" "$dir/fuzz-corpus/$name"
  for s in ${seeds[$name]}; do
    if [ -d "$s" ]; then cp "$s"/* "$seed_root/$name/"; else cp "$s" "$seed_root/$name/"; fi
  done
  log=$dir/fuzz-logs/$name.log
  start=$(date +%s)
  result=ok
  mode=()
  [ "$keep_going" = 1 ] && mode=(-fork="${FUZZ_WORKERS:-1}" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  findings_before=$(find "$dir/fuzz-findings" -name "$name-*" | wc -l)
  # shellcheck disable=SC2086  # extra_flags holds several flags
  "$dir/fuzz/fuzz_$name" "${mode[@]}" -max_total_time="$seconds" -runs="$((runs > 0 ? runs : -1))" \
    -max_len="${max_len[$name]:-$default_max_len}" -timeout=10 ${extra_flags[$name]:-} -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$dir/fuzz-findings/$name-" \
    "$dir/fuzz-corpus/$name" "$seed_root/$name" >"$log" 2>&1 || result="FINDING (see $log)"
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ "$keep_going" = 1 ]; then
    # Fork mode counts in its progress lines ("#N: cov: ..."), not in the stats.
    executions=$(sed -n 's/^#\([0-9]*\): cov:.*/\1/p' "$log" | tail -1)
    kept=$(($(find "$dir/fuzz-findings" -name "$name-*" | wc -l) - findings_before))
    [ "$kept" -gt 0 ] && result="$kept FINDINGS kept in $dir/fuzz-findings/$name-* (see $log)"
  fi
  printf '%-24s %12s %8s %s\n' "$name" "${executions:-?}" "$(($(date +%s) - start))" "$result"
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
