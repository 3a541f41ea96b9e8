#!/usr/bin/env python3
"""Separates "objective biased" from "optimiser not converged" in a loading scan (issue 22).

For one synthetic target (the forward model |FFT2(A)|² of discs or random
sites, Poisson noise at 1e4 counts in the brightest ring, q = 0 and a
beamstop of radius 1.5 pixels masked; as tests/physics/test_rmc_loading_scan.cpp)
it prints, per loading of a small grid, the absolute χ²_rel of
  scan:  a fit from a random start (the scan's tiles, MOVES moves per site);
  truth: the true occupancy with random sites added or removed to reach the
         loading, then quenched (temperature 0) for 10 moves per site.
The truth column has its minimum at the true loading when the objective is
unbiased; the scan column is what the loading scan sees.

usage: rmc_loading_diagnosis.py KIND LOADING [N] [SEED] [MOVES]   (KIND: discs | random)
"""
import sys

import numpy as np

import nanoscatter as ns

DISC_RADIUS, BEAMSTOP, RING_COUNTS = 2.5, 1.5, 1e4


def discs(n, c, rng):
    occ = np.zeros((n, n), np.uint8)
    x, y = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    while occ.mean() < c:
        cx, cy = rng.uniform(0, n, 2)
        dx, dy = (np.remainder(x - cx + n / 2, n) - n / 2, np.remainder(y - cy + n / 2, n) - n / 2)
        occ[dx * dx + dy * dy <= DISC_RADIUS**2] = 1
    return occ


def random_sites(n, c, rng):
    occ = np.zeros(n * n, np.uint8)
    occ[: round(c * n * n)] = 1
    rng.shuffle(occ)
    return occ.reshape(n, n)


def noisy_target(occ, rng):
    n = occ.shape[0]
    intensity = np.asarray(ns.rmc_model_intensity(occ))
    r = np.hypot(*np.meshgrid(np.arange(n) - n // 2, np.arange(n) - n // 2, indexing="ij"))
    rings = np.asarray(ns.radial_average(intensity))
    counts_per_unit = RING_COUNTS / np.nanmax(rings[int(np.ceil(BEAMSTOP)):])
    target = rng.poisson(intensity * counts_per_unit) / counts_per_unit
    target[r <= BEAMSTOP] = np.nan
    return target


def adjusted(occ, loading, rng):
    """The occupancy with random sites added or removed to reach `loading`."""
    flat = occ.ravel().copy()
    change = round(loading * flat.size) - int(flat.sum())
    pool = np.flatnonzero(flat == (0 if change > 0 else 1))
    flat[rng.choice(pool, abs(change), replace=False)] = 1 if change > 0 else 0
    return flat.reshape(occ.shape)


def main():
    kind, loading = sys.argv[1], float(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 64
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    moves = int(sys.argv[5]) if len(sys.argv) > 5 else 30
    rng = np.random.default_rng(seed)
    truth = (discs if kind == "discs" else random_sites)(n, loading, rng)
    target = noisy_target(truth, rng)
    common = dict(chi2_scale="absolute", seed=seed, device="cpu", quiet=True)
    print(f"{kind}, true loading {truth.mean():.4f}, N = {n}, {moves} moves per site")
    print("loading   scan      truth")
    for c in loading + np.array([-0.04, -0.02, 0.0, 0.02, 0.04, 0.05]):
        fit = ns.rmc(target, loading=c, steps=moves * n * n, **common).tiles[0]["chi2_final"]
        start = adjusted(truth, c, rng)
        near = ns.rmc(target, initial_model=start, temperature=0, steps=10 * n * n, **common).tiles[0]["chi2_final"]
        print(f"{c:.3f}   {fit:.5f}   {near:.5f}")


if __name__ == "__main__":
    main()
