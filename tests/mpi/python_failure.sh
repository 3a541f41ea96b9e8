#!/usr/bin/env bash
# Failures of Python scripts under mpirun end every rank, none hangs (each
# run is limited by `timeout`), exits are non-zero, and rank 0 prints the
# failing rank's line once (python/src/mpi.cpp's protocol):
#  1. rank 1 raises before an engine call while rank 0 waits in the
#     engine's reduction: rank 0 raises nanoscatter.RankFailure;
#  2. rank 1 passes an option the library refuses (nanoscatter.Error);
#  3. rank 0 ends its script normally (no collective at all) while rank 1
#     fails later: the agreement at exit makes rank 0 exit non-zero too;
#  4. rank 1 catches RankFailure-free errors of its own and goes on: no
#     failure, exit 0 on both (the protocol does not fire on handled errors).
set -u
source "$(dirname "$0")/lib.bash"
module_dir=$(realpath "$(dirname "$bin")/../python")
[ -d "$module_dir/nanoscatter" ] || { echo "skip: the Python module is not built"; exit 77; }
export PYTHONPATH="$module_dir"

# run_case NAME EXPECTED_RC_NONZERO(1|0) EXPECTED_STDERR_SUBSTRING
run_case() {
  local name=$1 want_fail=$2 expect=$3 rc
  timeout 120 mpirun -q --oversubscribe -np 2 $py "$name.py" > "$name.out" 2> "$name.err"
  rc=$?
  [ $rc -ne 124 ] || fail "$name: hung (killed after 120 s): $(cat "$name.err")"
  if [ "$want_fail" = 1 ]; then
    [ $rc -ne 0 ] || fail "$name: exit 0, expected a failure"
    grep -qF -- "$expect" "$name.err" || fail "$name: stderr lacks '$expect': $(cat "$name.err")"
    [ "$(grep -cF -- "nanoscatter: error:" "$name.err")" = 1 ] ||
      fail "$name: the failure line is not printed exactly once: $(cat "$name.err")"
  else
    [ $rc -eq 0 ] || fail "$name: exit $rc: $(cat "$name.err")"
  fi
  echo "$name: ok (exit $rc)"
}

cat > before_reduce.py <<'PY'
import numpy as np
import nanoscatter as ns
world = ns.world()
s = ns.build(lattice="fcc", a=4.078, elements=["Au"], shape="sphere", radius=8)
if world.rank == 1:
    raise ValueError("boom on rank one")
ns.DebyePlan(s, device="cpu", comm=world).execute(np.linspace(0.5, 5, 20))
PY
run_case before_reduce 1 "nanoscatter: error: rank 1 of 2: ValueError: boom on rank one"

cat > bad_option.py <<'PY'
import numpy as np
import nanoscatter as ns
world = ns.world()
s = ns.build(lattice="fcc", a=4.078, elements=["Au"], shape="sphere", radius=8)
width = -1.0 if world.rank == 1 else 1e-3
ns.DebyePlan(s, method="histogram", bin_width=width, device="cpu", comm=world).execute(np.linspace(0.5, 5, 20))
PY
run_case bad_option 1 "nanoscatter: error: rank 1 of 2: Error: bin_width"

cat > late_failure.py <<'PY'
import time
import nanoscatter as ns
world = ns.world()
if world.rank == 1:
    time.sleep(1)
    raise RuntimeError("late failure")
PY
run_case late_failure 1 "nanoscatter: error: rank 1 of 2: RuntimeError: late failure"

cat > handled.py <<'PY'
import numpy as np
import nanoscatter as ns
world = ns.world()
s = ns.build(lattice="fcc", a=4.078, elements=["Au"], shape="sphere", radius=8)
try:
    ns.DebyePlan(s, method="histogram", bin_width=-1, device="cpu")
except ns.Error:
    pass
r = ns.DebyePlan(s, device="cpu", comm=world).execute(np.linspace(0.5, 5, 20))
print("ok", world.rank, r.intensity[0])
PY
run_case handled 0 ""
echo "ok: Python failures under mpirun end every rank with one line"
