#!/usr/bin/env bash
# Build in Release for sm_90 and run every GPU benchmark (bench/*_bench_gpu*),
# then print one table: engine, case, time, throughput, fraction of floor.
#
#   bench/gpu_suite.sh [BUILD_DIR]
#
# With BUILD_DIR holding an already built tree (the device machine has CUDA
# but not our Debian libraries, so we build on a Debian host with
# bench/make_gpu_bundle.sh and carry the result), the build step is skipped.
# Raw JSON goes to $NS_BENCH_OUT (default: BUILD_DIR/bench-results).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-gpu}"
if [ ! -d "$build/bench" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNANOSCATTER_CUDA=ON \
        -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
  cmake --build "$build" -j"$(nproc)"
fi
out="${NS_BENCH_OUT:-$build/bench-results}"
mkdir -p "$out"
[ -d "$build/lib" ] && export LD_LIBRARY_PATH="$build/lib:${LD_LIBRARY_PATH:-}"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
shopt -s nullglob
benches=("$build"/bench/*_bench_gpu*)
if [ ${#benches[@]} -eq 0 ]; then
  echo "gpu_suite: no GPU benchmarks built yet (build only)"
  exit 0
fi
for b in "${benches[@]}"; do
  name=$(basename "$b")
  echo "== $name" >&2
  # A filter that matches nothing in one program is not an error for the suite.
  "$b" --benchmark_out="$out/$name.json" --benchmark_out_format=json ${NS_BENCH_FILTER:+--benchmark_filter="$NS_BENCH_FILTER"} >&2 ||
    { echo "gpu_suite: $name ran nothing or failed" >&2; rm -f "$out/$name.json"; }
done
# One table from every benchmark's counters: each benchmark sets the
# counters `throughput` (per second), `floor` (per second) and a label
# "engine/case/unit".
python3 - "$out" <<'PY'
import glob, json, sys
rows = []
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    try:
        runs = json.load(open(f))["benchmarks"]
    except (ValueError, KeyError):  # a program whose filter matched nothing leaves no JSON
        continue
    for b in runs:
        if b.get("run_type") == "aggregate":
            continue
        label = b.get("label", b["name"])
        engine, case, unit = (label.split("|") + ["", "", ""])[:3]
        t = b["real_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        thr = b.get("throughput", float("nan"))
        floor = b.get("floor", float("nan"))
        rows.append((engine, case, t, thr, unit, thr / floor if floor == floor and floor else float("nan")))
print(f"{'engine':8} {'case':44} {'time/s':>10} {'throughput':>12} {'unit':16} {'of floor':>8}")
for e, c, t, thr, u, fr in rows:
    print(f"{e:8} {c:44} {t:10.4f} {thr:12.4g} {u:16} {fr:8.3f}")
PY
