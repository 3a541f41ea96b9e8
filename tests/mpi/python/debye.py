"""DebyePlan(comm=world()) under mpirun: every rank gets the whole I(Q) and
its partials, equal to the single-process plan's within 1e-11 (only the
order of float64 additions differs: parts added in rank order); the file
written with output= is rank 0's and holds the same numbers."""
import os
import sys

import numpy as np
import nanoscatter as ns

world = ns.world()
s = ns.build(lattice="rocksalt", a=4.26, elements=["Co", "O"], shape="sphere", radius=12)
q = np.linspace(0.1, 10, 150)
for method in ("exact", "histogram"):
    alone = ns.DebyePlan(s, method=method, partials=True, device="cpu").execute(q)
    out = f"shared_{method}_{world.size}.dat"
    shared = ns.DebyePlan(s, method=method, partials=True, device="cpu", comm=world).execute(q, output=out)
    np.testing.assert_allclose(shared.intensity, alone.intensity, rtol=1e-11, atol=0)
    np.testing.assert_allclose(shared.partials, alone.partials, rtol=1e-11, atol=0)
    if world.root:
        written = np.loadtxt(out, comments="#")
        np.testing.assert_allclose(written[:, 1], alone.intensity, rtol=1e-9)
print(f"ok {world.size} ranks (rank {world.rank}): debye exact and histogram, 1e-11")
