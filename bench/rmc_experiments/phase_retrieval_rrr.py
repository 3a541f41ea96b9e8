#!/usr/bin/env python3
"""Issue 22 experiment (bench/results/2026-11-26-rmc-convergence-attempts.md): RRR / difference-map
phase retrieval of a random binary occupancy (periodic N x N, loading K/N^2) from noisy |FFT|^2 with q = 0
masked, binary-with-fixed-count projection.
usage: phase_retrieval_rrr.py N LOADING SEED [kind] [beta] [iterations] [MS|SM]"""
import numpy as np, sys, time
N=int(sys.argv[1]); load=float(sys.argv[2]); seed=int(sys.argv[3]); kind=sys.argv[4] if len(sys.argv)>4 else 'random'
rng=np.random.default_rng(seed)
K=int(round(load*N*N))
truth=np.zeros(N*N); truth[rng.choice(N*N,K,replace=False)]=1; truth=truth.reshape(N,N)
F=np.fft.fft2(truth); I=np.abs(F)**2
# Poisson noise: 1e4 counts in brightest (non q=0) pixel
Iq=I.copy(); Iq[0,0]=0
c=1e4/Iq.max(); data=rng.poisson(I*c)/c
mask=np.ones((N,N),bool); mask[0,0]=False
A=np.sqrt(np.maximum(data,0))
def PM(x):
    G=np.fft.fft2(x); mag=np.abs(G); G2=np.where(mask, A*G/np.maximum(mag,1e-30), G)
    return np.real(np.fft.ifft2(G2))
def PS(x):
    y=np.zeros(N*N); idx=np.argpartition(-x.ravel(),K)[:K]; y[idx]=1; return y.reshape(N,N)
def chi(y):
    G=np.abs(np.fft.fft2(y))**2; return np.sum(((G-data)**2)[mask])/np.sum((data**2)[mask])
x=rng.random((N,N))
start=chi(PS(x)); beta=float(sys.argv[5]) if len(sys.argv)>5 else 0.5
order=sys.argv[7] if len(sys.argv)>7 else "MS"
best=1e9; t0=time.time()
for it in range(int(sys.argv[6]) if len(sys.argv)>6 else 3000):
    if order=="MS":
        pm=PM(x); x=x+beta*(PS(2*pm-x)-pm)
    else:
        ps=PS(x); x=x+beta*(PM(2*ps-x)-ps)
    if it%20==0:
        y=PS(PM(x)); c2=chi(y); best=min(best,c2)
        if c2<1e-3: break
print(f"N={N} load={load} seed={seed}: start {start:.3f} best {best:.5f} it {it} {time.time()-t0:.1f}s")
