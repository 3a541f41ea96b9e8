#!/usr/bin/env python3
"""Issue 22 experiment (bench/results/2026-11-26-rmc-targets.md): the best case for disc (cluster) moves.
The target is made of K known objects (discs of radius 2.5, additive density, so F is a sum of object
terms); the fit knows their shapes and only has to find their positions. Each move takes one object out
and puts it back at the position drawn from the Boltzmann weights of the chi2 of every position (all N^2
at once by two FFTs, as relocation_heat_bath.py), T falling linearly to 0 over 80 % of the run. If this
does not find the positions, moves of whole discs in the RMC cannot either.
usage: object_relocation.py N LOADING SEED SWEEPS T0"""
import sys, time

import numpy as np

N, load, seed, sweeps, T0 = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
rng = np.random.default_rng(seed)
x, y = np.meshgrid(np.arange(N), np.arange(N), indexing="ij")
disc = ((np.remainder(x + N / 2, N) - N / 2) ** 2 + (np.remainder(y + N / 2, N) - N / 2) ** 2 <= 2.5**2).astype(float)
K = int(round(load * N * N / disc.sum()))
G = np.fft.fft2(disc)
q = np.arange(N)
E = lambda r: np.exp(-2j * np.pi * (q[:, None] * r[0] + q[None, :] * r[1]) / N)
true_pos = rng.integers(0, N, (K, 2))
Ftrue = sum(G * E(r) for r in true_pos)
P = np.abs(Ftrue) ** 2
w = np.ones((N, N)); w[0, 0] = 0
w[np.hypot(*np.meshgrid(np.fft.fftfreq(N) * N, np.fft.fftfreq(N) * N, indexing="ij")) <= 1.5] = 0
norm = np.sum(w * P**2)
pos = rng.integers(0, N, (K, 2))
F = sum(G * E(r) for r in pos)
chi = lambda F: np.sum(w * (P - np.abs(F) ** 2) ** 2) / norm
start = chi(F); t0 = time.time()
ii = (2 * np.arange(N)) % N
moves = int(sweeps * K)
for m in range(moves):
    j = rng.integers(K)
    Fr = F - G * E(pos[j])
    R = P - np.abs(Fr) ** 2 - np.abs(G) ** 2
    A = np.conj(Fr) * G
    c = np.sum(w * R**2) + 2 * np.sum(w * np.abs(A) ** 2)
    tot = (c - 4 * np.real(np.fft.fft2(w * R * A)) + 2 * np.real(np.fft.fft2(w * A**2))[np.ix_(ii, ii)]) / norm
    T = T0 * max(0.0, 1 - m / (0.8 * moves))
    if T > 0:
        p = np.exp(-(tot - tot.min()) / T).ravel(); p /= p.sum()
        b = np.unravel_index(rng.choice(N * N, p=p), (N, N))
    else:
        b = np.unravel_index(np.argmin(tot), (N, N))
    pos[j] = b
    F = Fr + G * E(b)
print(f"N={N} load={load} K={K} seed={seed} sweeps={sweeps} T0={T0}: chi2_rel {start:.3f} -> {chi(F):.5f} [{time.time() - t0:.0f}s]")
