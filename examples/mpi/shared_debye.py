"""I(Q) of a CoO sphere with the pair sums shared over MPI ranks.

    mpirun -np 2 -x PYTHONPATH=build/python /usr/bin/python3 examples/mpi/shared_debye.py

Each rank sums its part of the pairs (the CLI's dealing); every rank gets
the whole I(Q); rank 0 writes shared_debye.dat and a plot, shared_debye.png:
the files `nanoscatter debye ... --output` would write. Without mpirun it
runs as rank 0 of 1. --quick: a smaller sphere; --output-dir: where to write.
"""
import argparse
import os

import numpy as np

import nanoscatter as ns

args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
args.add_argument("--quick", action="store_true", help="a smaller sphere (tests)")
args.add_argument("--output-dir", default=".", help="folder for the files")
a = args.parse_args()

world = ns.world()
particle = ns.build(lattice="rocksalt", a=4.26, elements=["Co", "O"], shape="sphere", radius=8 if a.quick else 15)
plan = ns.DebyePlan(particle, device="cpu", partials=True, comm=world)
q = np.linspace(0.2, 10, 400)
for name in ("shared_debye.dat", "shared_debye.png"):
    path = os.path.join(a.output_dir, name)
    result = plan.execute(q, output=path)  # the second call reuses the pair sums
    if world.root:
        print(f"wrote {path}")
if world.root:
    print(f"{world.size} rank(s): {len(particle)} atoms, I(Q = 0.2) = {result.intensity[0]:.6g}, "
          f"pair sums computed {plan.stats['pair_sum_runs']} time(s)")
