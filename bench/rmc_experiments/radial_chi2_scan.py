#!/usr/bin/env python3
"""Issue 22 experiment (bench/results/2026-11-26-rmc-convergence-attempts.md): the loading scan read through
the azimuthal average. Fits each loading with nanoscatter.rmc (absolute chi2) and prints the 2D chi2 and
the chi2 of the fitted model radial profile against the data radial profile.
usage (PYTHONPATH=build/python): radial_chi2_scan.py KIND LOADING N SEED MOVES_PER_SITE"""
import sys, numpy as np, nanoscatter as ns
sys.path.insert(0, __import__('os').path.join(__import__('os').path.dirname(__import__('os').path.abspath(__file__)), '..'))
from rmc_loading_diagnosis import discs, random_sites, noisy_target
kind, loading = sys.argv[1], float(sys.argv[2]); n=int(sys.argv[3]); seed=int(sys.argv[4]); moves=int(sys.argv[5])
rng=np.random.default_rng(seed)
truth=(discs if kind=="discs" else random_sites)(n, loading, rng)
target=noisy_target(truth, rng)
# radial bins of the centred image
r=np.hypot(*np.meshgrid(np.arange(n)-n//2, np.arange(n)-n//2, indexing="ij"))
rb=np.floor(r+0.5).astype(int)
ok=~np.isnan(target)
nb=rb.max()+1
def radial(img):
    s=np.bincount(rb[ok], img[ok], nb); c=np.bincount(rb[ok], None, nb); return s, c
ts, tc = radial(target)
use = tc>0
tprof = ts[use]/tc[use]
def chi_rad(model):
    ms, mc = radial(model); mprof=ms[use]/mc[use]
    # weights: number of pixels per ring / variance ~ prof^2/ ... use relative squared error weighted by ring size
    return np.sum(tc[use]*(mprof-tprof)**2)/np.sum(tc[use]*tprof**2)
print(f"{kind} true {truth.mean():.4f}")
grid = loading + np.array([-0.06,-0.04,-0.02,0,0.02,0.04,0.06])
for c in grid:
    res=ns.rmc(target, loading=c, steps=moves*n*n, chi2_scale="absolute", seed=seed, device="cpu", quiet=True).tiles[0]
    occ=np.asarray(res["occupancy"])
    model=np.asarray(ns.rmc_model_intensity(occ))
    print(f"{c:.3f} 2D {res['chi2_final']:.5f} radial {chi_rad(model):.6f}")
