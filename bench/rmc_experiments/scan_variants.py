#!/usr/bin/env python3
"""Issue 22 experiment (bench/results/2026-11-26-rmc-targets.md): the loading scan with engine variants
(cluster moves, parallel tempering, more tiles per loading). Targets as
tests/physics/test_rmc_loading_scan.cpp (discs of radius 2.5 or random sites, Poisson noise at 1e4 counts
in the brightest ring, q = 0 and a beamstop of radius 1.5 masked), scanned over 0.05:0.45:0.05 with the
absolute chi2; prints the chi2 per loading, the grid and the refined minimum.
usage: scan_variants.py KIND LOADING N SEED MOVES_PER_SITE [KEYWORD=VALUE ...]  (keywords of nanoscatter.rmc)"""
import ast, sys, time

import numpy as np

import nanoscatter as ns
sys.path.insert(0, __file__.rsplit("/", 2)[0])
from rmc_loading_diagnosis import discs, random_sites, noisy_target  # noqa: E402

kind, loading, n, seed, moves = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
extra = {k: ast.literal_eval(v) for k, v in (a.split("=", 1) for a in sys.argv[6:])}
options = dict(loading_scan="0.05:0.45:0.05", tiles=3) | extra
rng = np.random.default_rng(seed)
truth = (discs if kind == "discs" else random_sites)(n, loading, rng)
target = noisy_target(truth, rng)
t0 = time.time()
r = ns.rmc(target, chi2_scale="absolute", steps=int(moves * n * n), seed=seed, device="cpu", quiet=True, **options)
s = r.loading_scan
print(f"{kind} true {truth.mean():.4f} N={n} seed={seed} moves={moves} {extra}: grid {s['best_loading']:.2f} "
      f"refined {s['refined_loading']:.4f} err {s['refined_loading'] - truth.mean():+.4f} [{time.time() - t0:.0f}s]\n"
      f"  chi2 " + " ".join(f"{c:.4f}" for c in s["chi2"]))
