#!/usr/bin/env python3
"""Issue 22 experiment (bench/results/2026-11-26-rmc-targets.md): a loading scan whose fits are re-started
from the best structure found at any loading (sites added or removed at random to reach each loading), so
that every loading sees the same, best-converged structure. Targets as cluster_moves_scan.py.
usage: cross_seeded_scan.py KIND LOADING N SEED MOVES ROUNDS RESTART_MOVES [GRID]"""
import sys, time

import numpy as np

import nanoscatter as ns
sys.path.insert(0, __file__.rsplit("/", 2)[0])
from rmc_loading_diagnosis import discs, random_sites, noisy_target, adjusted  # noqa: E402

kind, loading, n, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
moves, rounds, restart = float(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7])
grid = np.arange(0.05, 0.4501, 0.05) if len(sys.argv) <= 8 else np.array([float(x) for x in sys.argv[8].split(",")])
rng = np.random.default_rng(seed)
truth = (discs if kind == "discs" else random_sites)(n, loading, rng)
target = noisy_target(truth, rng)
common = dict(chi2_scale="absolute", device="cpu", quiet=True)
t0 = time.time()
fits = [ns.rmc(target, loading=c, steps=int(moves * n * n), seed=seed, **common).tiles[0] for c in grid]
chi = np.array([f["chi2_final"] for f in fits])
print(f"{kind} true {truth.mean():.4f} round 0: " + " ".join(f"{x:.4f}" for x in chi), f"min {grid[chi.argmin()]:.2f}")
for k in range(rounds):
    best = np.asarray(fits[chi.argmin()]["occupancy"])
    for i, c in enumerate(grid):
        start = adjusted(best, c, rng)
        f = ns.rmc(target, initial_model=start, steps=int(restart * n * n), seed=seed + 1 + k, temperature=0, **common).tiles[0]
        if f["chi2_final"] < chi[i]:
            fits[i], chi[i] = f, f["chi2_final"]
    print(f"round {k + 1}: " + " ".join(f"{x:.4f}" for x in chi), f"min {grid[chi.argmin()]:.2f} [{time.time() - t0:.0f}s]")
