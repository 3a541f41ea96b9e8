# Shared helpers of the MPI tests (sourced; CTest runs tests/mpi/*.sh only).
# Each test runs an engine alone (no mpirun: the same binary) and under
# `mpirun -np 2` and `-np 4 --oversubscribe`, and compares the outputs.
# Arguments of every test: BIN WORKDIR DATADIR (as tests/cli).

fail() { echo "FAIL: $*"; exit 1; }

bin=$(realpath "$1") work=$2 data=$(realpath "$3")
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

# Skip (exit 77), not fail, where this build or machine cannot run MPI; a
# binary that does not run at all is a failure, not a skip.
info=$("$bin" info) || fail "cannot run $bin"
grep -q '^mpi: built' <<< "$info" || { echo "skip: nanoscatter built without MPI"; exit 77; }
command -v mpirun > /dev/null || { echo "skip: no mpirun"; exit 77; }
# Debian's python3 holds numpy and h5py here; elsewhere (the GPU machines)
# the python3 on PATH does.
py=/usr/bin/python3
$py -c "import numpy, h5py" 2> /dev/null || py=python3
$py -c "import numpy, h5py" 2> /dev/null || { echo "skip: no python3 with numpy and h5py"; exit 77; }

# OpenMPI refuses root without these (CI containers run as root); in a
# container the shared-memory single-copy path (CMA) may be forbidden;
# one OpenMP thread per rank keeps 4 ranks on 2 cores honest.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# One node: the launcher that needs no ssh/rsh agent (containers lack one).
export OMPI_MCA_plm=isolated
export OMP_NUM_THREADS=1

# mpi NP ARGS...: nanoscatter under mpirun with NP ranks (oversubscribed),
# -q for no launcher banners, and a time limit so that a hang fails.
mpi() {
  local np=$1
  shift
  timeout 120 mpirun -q --oversubscribe -np "$np" "$bin" "$@"
  local rc=$?
  [ $rc -eq 124 ] && fail "mpirun -np $np timed out (hang?): $*"
  return $rc
}

# same_numbers A B RTOL: the numbers of two text files (lines starting with
# '#' left out) agree to RTOL relative (absolute below 1e-300).
same_numbers() {
  $py - "$1" "$2" "$3" <<'PY' || fail "$1 and $2 differ"
import sys, numpy as np
def numbers(path):
    rows = [l.split() for l in open(path, encoding="utf-8") if l.strip() and not l.startswith("#")]
    vals = []
    for r in rows:
        for t in r:
            try: vals.append(float(t))
            except ValueError: pass
    return np.array(vals)
a, b, rtol = numbers(sys.argv[1]), numbers(sys.argv[2]), float(sys.argv[3])
assert a.shape == b.shape and a.size > 0, (a.shape, b.shape)
err = np.abs(a - b) / np.maximum(np.abs(b), 1e-300)
err[(a == b)] = 0
print(f"{sys.argv[1]}: {a.size} numbers, max relative difference {err.max():.3g} (limit {rtol:g})")
assert err.max() <= rtol
PY
}

# same_h5 A B RTOL: every numeric dataset of A is in B and agrees to RTOL.
same_h5() {
  $py - "$1" "$2" "$3" <<'PY' || fail "$1 and $2 differ"
import sys, numpy as np, h5py
rtol, worst, count = float(sys.argv[3]), 0.0, 0
with h5py.File(sys.argv[1]) as a, h5py.File(sys.argv[2]) as b:
    def visit(name, obj):
        global worst, count
        if not isinstance(obj, h5py.Dataset) or obj.dtype.kind not in "fciu": return
        x, y = obj[...], b[name][...]
        assert x.shape == y.shape, name
        same = (x == y) | (np.isnan(x) & np.isnan(y)) if x.dtype.kind in "fc" else (x == y)
        err = np.where(same, 0, np.abs(x - y) / np.maximum(np.abs(y), 1e-300))
        worst, count = max(worst, float(err.max(initial=0))), count + 1
    a.visititems(visit)
print(f"{sys.argv[1]}: {count} datasets, max relative difference {worst:.3g} (limit {rtol:g})")
assert count > 0 and worst <= rtol
PY
}

# load_report LOG RANKS: the load-balance line of a run with RANKS ranks.
load_report() {
  grep -q "load over $2 ranks: time.*imbalance" "$1" || fail "no load report for $2 ranks in $1: $(cat "$1")"
}
