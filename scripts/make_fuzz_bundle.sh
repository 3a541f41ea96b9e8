#!/usr/bin/env bash
# The fuzzers of scripts/fuzz.sh on a machine with more cores than this one:
# build the named harnesses here (scripts/sanitize_build.sh, clang, ASan +
# UBSan), then copy them, their seeds, the sanitizers' options and the
# shared libraries they load into .fuzz-bundle/ (git-ignored). On the other
# machine, from a copy of the repository holding .fuzz-bundle/, run
#   bash .fuzz-bundle/run.sh RUNS SECONDS
# which fuzzes each harness in turn on every core (libFuzzer's -jobs and
# -workers, one job per core, each job RUNS/cores executions or SECONDS of
# wall time), writes the findings and logs under $OUT (or .fuzz-bundle/out)
# and prints, per fuzzer, the executions summed over the jobs, the seconds
# and the findings. The contained fuzzers (detector_hdf5, detector_cbf) fork
# a child per input, which is why they need the cores: ~10–30 executions/s
# per core.
#   scripts/make_fuzz_bundle.sh FUZZER...
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
[ $# -gt 0 ] || { echo "nanoscatter: error: make_fuzz_bundle.sh: name the fuzzers (see scripts/fuzz.sh)"; exit 2; }
bash "$root/scripts/sanitize_build.sh" "${@/#/fuzz_}"
build="$root/${NANOSCATTER_SANITIZE_BUILD:-build-sanitize}"
bundle="$root/.fuzz-bundle"
rm -rf "$bundle"
mkdir -p "$bundle/bin" "$bundle/seeds"
/usr/bin/python3 "$root/fuzz/make_seeds.py" "$bundle/seeds" >/dev/null
for name in "$@"; do
  cp "$build/fuzz/fuzz_$name" "$bundle/bin/"
  mkdir -p "$bundle/seeds/$name"
  # The same seeds as scripts/fuzz.sh (its table), for the fuzzers named.
  case $name in
    detector_hdf5 | detector_hdf5_inprocess) cp "$root/examples/rmc/discs_64.h5" "$bundle/seeds/$name/" ;;
  esac
  case $name in
    *_inprocess) cp -r "$bundle/seeds/${name%_inprocess}/." "$bundle/seeds/$name/" ;;
  esac
done
cp "$root/scripts/asan.supp" "$root/scripts/lsan.supp" "$bundle/"
bash "$root/scripts/bundle_libs.sh" --keep-symbols "$bundle" "$bundle"/bin/*
cat >"$bundle/run.sh" <<'RUN'
#!/usr/bin/env bash
# Written by scripts/make_fuzz_bundle.sh: bash .fuzz-bundle/run.sh RUNS SECONDS [FUZZER...]
set -uo pipefail
b=$(cd "$(dirname "$0")" && pwd)
runs=${1:?executions per fuzzer}
seconds=${2:?wall-time limit per fuzzer}
shift 2
out=${OUT:-$b/out}
[ -d "$b/lib" ] || tar xJf "$b/lib.tar.xz" -C "$b"
export LD_LIBRARY_PATH=$b/lib
# As scripts/sanitizer_env.sh, with the bundle's suppression files.
export ASAN_OPTIONS="suppressions=$b/asan.supp:detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$b/lsan.supp:print_suppressions=0"
cores=$(nproc)
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(cd "$b/bin" && ls | sed 's/^fuzz_//'))
printf '%-24s %5s %12s %8s %s\n' fuzzer jobs executions seconds findings
status=0
for name in "${names[@]}"; do
  work=$out/$name
  mkdir -p "$work/corpus" "$work/findings"
  start=$(date +%s)
  # Options as scripts/fuzz.sh's (max_len, limits), one job per core.
  max_len=4096 extra=()
  case $name in detector_hdf5*) max_len=16384 ;; esac
  case $name in
    detector_hdf5 | detector_cbf) extra=(-malloc_limit_mb=1048576) ;;
    detector_hdf5_inprocess) extra=(-detect_leaks=0 -timeout=1) ;;
    detector_cbf_inprocess) extra=(-detect_leaks=0) ;;
  esac
  (cd "$work" && "$b/bin/fuzz_$name" -jobs="$cores" -workers="$cores" -runs=$((runs / cores + 1)) \
     -max_total_time="$seconds" -max_len=$max_len -timeout=10 "${extra[@]}" -rss_limit_mb=2048 \
     -print_final_stats=1 -artifact_prefix="$work/findings/" "$work/corpus" "$b/seeds/$name" >/dev/null 2>&1)
  executions=$(cat "$work"/fuzz-*.log | awk '/^stat::number_of_executed_units:/ {n += $2} END {print n}')
  found=$(find "$work/findings" -type f | wc -l)
  [ "$found" -eq 0 ] || status=1
  printf '%-24s %5s %12s %8s %s\n' "$name" "$cores" "${executions:-?}" "$(($(date +%s) - start))" "$found"
  [ "$found" -eq 0 ] || grep -h -m1 -A30 -E 'ERROR: |SUMMARY: |deadly signal' "$work"/fuzz-*.log | head -40
done
exit $status
RUN
du -sh "$bundle"
