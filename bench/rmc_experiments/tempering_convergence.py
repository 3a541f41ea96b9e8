#!/usr/bin/env python3
"""Issue 22 experiment (bench/results/2026-11-26-rmc-targets.md): convergence on random sites with
parallel tempering. Target as tests/physics/test_rmc_loading_scan.cpp's convergence test: uncorrelated
sites at loading 0.25, noise-free |FFT2|^2, q = 0 masked, absolute chi2, a random start.
Prints the reduction 1 - chi2_final/chi2_initial of the best replica.
usage: tempering_convergence.py N SEED MOVES_PER_SITE REPLICAS RATIO EXCHANGE [KEY=VALUE ...]"""
import sys, time

import numpy as np

import nanoscatter as ns

n, seed, moves, replicas, ratio, exchange = (int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]),
                                             int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6]))
extra = {k: (float(v) if v.replace(".", "").replace("e-", "").isdigit() else v)
         for k, v in (a.split("=") for a in sys.argv[7:])}
rng = np.random.default_rng(seed)
truth = np.zeros(n * n, np.uint8)
truth[: round(0.25 * n * n)] = 1
rng.shuffle(truth)
target = np.asarray(ns.rmc_model_intensity(truth.reshape(n, n)))
t0 = time.time()
r = ns.rmc(target, loading=0.25, chi2_scale="absolute", steps=int(moves * n * n), replicas=replicas,
           replica_ratio=ratio, exchange_interval=exchange, seed=seed, device="cpu", quiet=True, **extra)
best = min(r.tiles, key=lambda t: t["chi2_final"])
print(f"N={n} seed={seed} moves/site={moves} replicas={replicas} ratio={ratio} exchange={exchange} {extra}: "
      f"chi2 {best['chi2_initial']:.4f} -> {best['chi2_final']:.5f} reduction {1 - best['chi2_final'] / best['chi2_initial']:.4f} "
      f"T0 {r.tiles[0]['temperature']:.3g} [{time.time() - t0:.0f}s]")
