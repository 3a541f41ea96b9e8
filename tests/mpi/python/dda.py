"""DdaPlan(comm=world()) under mpirun: the two polarisations of an
ellipsoid (no 90° symmetry) are solved on different ranks and every rank
gets the whole result, equal to the single-process plan's within 1e-10
(each solve is the same computation as alone; the CLI's test, tests/mpi/
dda.sh, finds the files identical); the files written with output= are
rank 0's and hold the same numbers."""
import os

import numpy as np
import nanoscatter as ns

world = ns.world()
options = dict(shape=("ellipsoid", 0.8, 1.3), grid=6, m=(1.5, 0.01), mueller=True, ntheta=19, csca=True,
               device="cpu")
alone = ns.DdaPlan(**options).execute()
out = f"dda_shared_{world.size}"
shared = ns.DdaPlan(comm=world, **options).execute(output=out)
assert [r["name"] for r in shared.runs] == ["Y", "X"], shared.runs
for a, s in zip(alone.runs, shared.runs):
    for key in ("cext", "cabs", "qext", "qabs", "csca_int"):
        np.testing.assert_allclose(s[key], a[key], rtol=1e-10, atol=0, err_msg=key)
    assert s["iterations"] == a["iterations"]
np.testing.assert_allclose(shared.mueller, alone.mueller, rtol=1e-10, atol=1e-10 * np.abs(alone.mueller).max())
if world.root:
    with open(os.path.join(out, "CrossSec-X")) as f:
        qext = float(next(line for line in f if line.startswith("Qext")).split("=")[1])
    np.testing.assert_allclose(qext, alone.runs[1]["qext"], rtol=1e-9)
print(f"ok {world.size} ranks (rank {world.rank}): dda polarisations Y and X, 1e-10")
