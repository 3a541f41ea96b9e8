#!/usr/bin/env bash
# Strong scaling of nanoscatter under mpirun, one rank per GPU (docs/mpi.md):
# the same job on 1, 2, 4 ranks, a table of time, speed-up and parallel
# efficiency, and a check that every result equals the 1-rank result.
#
#   bench/mpi_scaling.sh [BUILD_DIR]
#
# Cases (NS_CASES, default all four):
#   debye150k   the Debye seed case: CoO sphere R = 70 Å (150,117 atoms),
#               exact sums, 1456 Q in [0.1, 12] Å⁻¹, float32
#   debye1m     a CoO sphere of 999,665 atoms (R ≈ 133.5 Å), same grid
#               (minutes on one GPU: run it alone, NS_CASES=debye1m)
#   gisaxs_mesh HipGISAXS's problem: the form factor of a 91,752-triangle
#               ellipsoid (NS_MESH_TRIANGLES; a closed mesh has an even
#               count) on a 90 × 800 × 800 q grid (NS_MESH_GRID),
#               --formfactor-only, qx planes split over the ranks
#   gisaxs      NS_GISAXS_SAMPLE, else pyramids on a paracrystal on an
#               800 × 800 detector (analytic shapes: CPU work, OMP threads
#               split over ranks)
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
cases=(${NS_CASES:-debye150k debye1m gisaxs_mesh gisaxs})
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

# mesh_sample TRIANGLES: an ellipsoid (semi-axes 20, 20, 12 nm) of exactly
# TRIANGLES triangles as binary STL (icosphere, then centroid splits, as
# sphere_mesh_with_triangles in the benchmarks) in a sample file; the
# gisaxs_mesh case computes its form factor on the HipGISAXS grid.
mesh_sample() {
  "$py" - "$1" <<'PY'
import math, struct, sys
want = int(sys.argv[1])
t = (1 + 5 ** 0.5) / 2
v = [(-1,t,0),(1,t,0),(-1,-t,0),(1,-t,0),(0,-1,t),(0,1,t),(0,-1,-t),(0,1,-t),(t,0,-1),(t,0,1),(-t,0,-1),(-t,0,1)]
f = [(0,11,5),(0,5,1),(0,1,7),(0,7,10),(0,10,11),(1,5,9),(5,11,4),(11,10,2),(10,7,6),(7,1,8),
     (3,9,4),(3,4,2),(3,2,6),(3,6,8),(3,8,9),(4,9,5),(2,4,11),(6,2,10),(8,6,7),(9,8,1)]
def unit(p):
    n = math.sqrt(sum(c * c for c in p)); return tuple(c / n for c in p)
v = [unit(p) for p in v]
while len(f) * 4 <= want:
    cache, g = {}, []
    def mid(a, b):
        k = (min(a, b), max(a, b))
        if k not in cache:
            v.append(unit(tuple((x + y) / 2 for x, y in zip(v[a], v[b])))); cache[k] = len(v) - 1
        return cache[k]
    for a, b, c in f:
        ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
        g += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
    f = g
base, splits = len(f), (want - len(f)) // 2
for k in range(splits):
    i = k * base // splits
    a, b, c = f[i]
    v.append(unit(tuple((v[a][j] + v[b][j] + v[c][j]) / 3 for j in range(3))))
    n = len(v) - 1
    f[i] = (a, b, n); f += [(b, c, n), (c, a, n)]
assert len(f) == want
P = [(20 * x, 20 * y, 12 * z + 12) for x, y, z in v]
with open("ellipsoid.stl", "wb") as out:
    out.write(b"\0" * 80 + struct.pack("<I", len(f)))
    for tri in f:
        out.write(struct.pack("<3f", 0, 0, 0))
        for i in tri: out.write(struct.pack("<3f", *P[i]))
        out.write(b"\0\0")
PY
  sed -e '/^\[\[particle\]\]/,$d' "$root/tests/data/gisaxs/benchmark_cylinders.toml" > mesh_sample.toml
  printf '[[particle]]\nshape = "mesh"\nfile = "ellipsoid.stl"\nmaterial = "particle"\nlayer = "vacuum"\n' >> mesh_sample.toml
  realpath mesh_sample.toml
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
        with h5py.File(p) as f: return f["intensity" if "intensity" in f else "formfactor"][...].ravel()
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
    gisaxs_mesh) sample=$(mesh_sample "${NS_MESH_TRIANGLES:-91752}"); ext=h5
      args=(gisaxs "$sample" --formfactor-only --qx -1,1,90 --qy -2,2,"${NS_MESH_GRID:-800}"
            --qz 0,3,"${NS_MESH_GRID:-800}" --precision "$precision") ;;
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
