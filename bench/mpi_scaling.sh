#!/usr/bin/env bash
# Strong scaling of nanoscatter under mpirun, one rank per GPU (docs/mpi.md):
# the same job on 1, 2, 4 ranks, a table of time, speed-up and parallel
# efficiency, and a check that every result equals the 1-rank result.
#
#   bench/mpi_scaling.sh [BUILD_DIR]
#
# Cases (NS_CASES, default all three):
#   debye150k  the Debye seed case: CoO sphere R = 70 Å (150,117 atoms),
#              exact sums, 1456 Q in [0.1, 12] Å⁻¹, float32
#   debye1m    a CoO sphere of 999,665 atoms (R ≈ 133.5 Å), same grid
#              (~210 s on one H200: run it alone, NS_CASES=debye1m)
#   gisaxs     NS_GISAXS_SAMPLE (the 91,753-triangle × 90 × 800 × 800 case
#              when given), else pyramids on a paracrystal on an 800 × 800
#              detector (analytic shapes: CPU work, OMP threads split over ranks)
# Environment: NS_RANKS (default "1 2 4"), NS_DEVICE (gpu), NS_PRECISION
# (single), NS_BENCH_OUT (default BUILD_DIR/mpi-scaling), MPIRUN (mpirun),
# NS_SMOKE=1 (tiny particles and detector: checks the script on a CPU).
# On a GPU machine without MPI unpack bench/make_mpi_bundle.sh's tarball
# first. Time is the compute phase, the slowest rank's (from the load
# report); wall is the whole mpirun, reading the structure included.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(realpath -m "${1:-$root/build}")"
bin="$build/bin/nanoscatter"
out="$(realpath -m "${NS_BENCH_OUT:-$build/mpi-scaling}")"
ranks=(${NS_RANKS:-1 2 4})
cases=(${NS_CASES:-debye150k debye1m gisaxs})
device=${NS_DEVICE:-gpu}
precision=${NS_PRECISION:-single}
mpirun=${MPIRUN:-mpirun}
mkdir -p "$out"
cd "$out"
[ -d "$build/lib" ] && export LD_LIBRARY_PATH="$build/lib:${LD_LIBRARY_PATH:-}"
"$bin" info | grep -q '^mpi: built' || { echo "mpi_scaling: $bin is built without MPI" >&2; exit 1; }
# Root in containers; no ssh there (one node: the isolated launcher); shared
# memory without the ptrace-based single copy gVisor/Firecracker may forbid.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_plm=isolated OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
cores=$(nproc)
py=python3  # with numpy (and h5py for gisaxs): the device's, or Debian's here
python3 -c "import numpy, h5py" 2> /dev/null || py=/usr/bin/python3
r150k=70 r1m=133.5 bins=800
[ "${NS_SMOKE:-0}" = 1 ] && { r150k=12; r1m=14; bins=60; rm -f coo_r70.xyz coo_r133.xyz; }
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
echo "nanoscatter $("$bin" --version | awk '{print $2}'), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $cores cores"

coo() {  # coo RADIUS FILE
  [ -s "$2" ] || "$bin" build --lattice rocksalt --a 4.26 --elements Co O --shape sphere --radius "$1" --output "$2" --quiet
}

gisaxs_sample() {
  if [ -n "${NS_GISAXS_SAMPLE:-}" ]; then
    realpath "$NS_GISAXS_SAMPLE"
    return
  fi
  sed -e "s/bins = 200 }/bins = $bins }/" -e "s/bins = 100 }/bins = $bins }/" \
    "$root/examples/gisaxs/pyramids_paracrystal.toml" > pyramids_800.toml
  realpath pyramids_800.toml
}

# compute_seconds LOG: the slowest rank's time from the load report, or the
# one rank's time from the summary line.
compute_seconds() {
  local line
  line=$(grep "load over" "$1" || true)
  if [ -n "$line" ]; then
    sed -e 's/.*: time //' -e 's/ s;.*//' <<< "$line" | tr ' ' '\n' | sort -g | tail -1
  else
    grep -oE ', [0-9.]+ s (→|->)' "$1" | grep -oE '[0-9.]+' | tail -1
  fi
}

# same_result A B: max relative difference of two results (text or HDF5).
same_result() {
  "$py" - "$1" "$2" <<'PY'
import sys, numpy as np
def load(p):
    if p.endswith(".h5"):
        import h5py
        with h5py.File(p) as f: return f["intensity"][...].ravel()
    return np.loadtxt(p, comments="#").ravel()
a, b = load(sys.argv[1]), load(sys.argv[2])
d = np.abs(a - b) / np.maximum(np.abs(b), 1e-300)
print(f"{np.max(d):.2e}")
PY
}

table=()
for c in "${cases[@]}"; do
  case $c in
    debye150k) coo "$r150k" coo_r70.xyz; ext=dat
      args=(debye coo_r70.xyz --qmin 0.1 --qmax 12 --qpoints 1456 --precision "$precision") ;;
    debye1m) coo "$r1m" coo_r133.xyz; ext=dat
      args=(debye coo_r133.xyz --qmin 0.1 --qmax 12 --qpoints 1456 --precision "$precision") ;;
    gisaxs) sample=$(gisaxs_sample); ext=h5
      args=(gisaxs "$sample" --precision "$precision") ;;
    *) echo "mpi_scaling: unknown case $c" >&2; exit 1 ;;
  esac
  t1=""
  for np in "${ranks[@]}"; do
    # GPU runs: one rank per GPU, all cores' threads shared out; CPU-only
    # gisaxs work is threads: split the cores over the ranks.
    threads=$(( cores / np > 0 ? cores / np : 1 ))
    log="$c.np$np.log"
    start=$(date +%s.%N)
    OMP_NUM_THREADS=$threads $mpirun -q -np "$np" --bind-to none "$bin" "${args[@]}" --device "$device" \
      --output "$c.np$np.$ext" 2> "$log" || { echo "$c np $np failed:"; cat "$log"; exit 1; }
    wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    t=$(compute_seconds "$log")
    [ -z "$t1" ] && t1=$t
    diff=$([ "$np" = "${ranks[0]}" ] && echo "-" || same_result "$c.np$np.$ext" "$c.np${ranks[0]}.$ext")
    imbalance=$(grep -oE 'imbalance [0-9.]+%' "$log" | grep -oE '[0-9.]+%' || echo "-")
    row=$(awk -v c="$c" -v np="$np" -v t="$t" -v t1="$t1" -v w="$wall" -v d="$diff" -v im="$imbalance" -v r0="${ranks[0]}" \
      'BEGIN { s = t1 / t * r0; printf "| %s | %d | %.3f | %.3f | %.2f | %.0f%% | %s | %s |", c, np, t, w, s, 100 * s / np, im, d }')
    echo "$row"
    table+=("$row")
  done
done
echo
echo "| case | ranks | time/s | wall/s | speed-up | efficiency | imbalance | max rel. diff to ${ranks[0]} rank(s) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
printf '%s\n' "${table[@]}"
