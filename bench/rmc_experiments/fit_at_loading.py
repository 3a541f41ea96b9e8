#!/usr/bin/env python3
"""Issue 22 experiment (bench/results/2026-11-26-rmc-targets.md): one fit at the true loading of a synthetic
target (as scan_variants.py), printing the absolute chi2_rel at the start and the end. Extra keywords of
nanoscatter.rmc as KEY=VALUE (cluster_moves, cluster_shift: branch rmc-cluster-moves; replicas,
replica_ratio, exchange_interval: branch rmc-tempering).
usage: fit_at_loading.py KIND LOADING N SEED MOVES_PER_SITE [KEYWORD=VALUE ...]"""
import ast, sys, time

import numpy as np

import nanoscatter as ns
sys.path.insert(0, __file__.rsplit("/", 2)[0])
from rmc_loading_diagnosis import discs, random_sites, noisy_target  # noqa: E402

kind, loading, n, seed, moves = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
extra = {k: ast.literal_eval(v) for k, v in (a.split("=", 1) for a in sys.argv[6:])}
rng = np.random.default_rng(seed)
truth = (discs if kind == "discs" else random_sites)(n, loading, rng)
target = noisy_target(truth, rng)
t0 = time.time()
r = ns.rmc(target, loading=truth.mean(), chi2_scale="absolute", steps=int(moves * n * n), seed=seed, device="cpu",
           quiet=True, **extra)
t = min(r.tiles, key=lambda tile: tile["chi2_final"])
print(f"{kind} {truth.mean():.4f} moves={moves} {extra}: chi2 {t['chi2_initial']:.4f} -> {t['chi2_final']:.5f} "
      f"accepted {t['accepted']}/{t['tried']} blocked {t['blocked']} [{time.time() - t0:.0f}s]")
