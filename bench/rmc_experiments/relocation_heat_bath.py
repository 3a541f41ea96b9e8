#!/usr/bin/env python3
"""Issue 22 experiment (bench/results/2026-11-26-rmc-convergence-attempts.md): rejection-free relocation moves.
Each move takes one particle out and puts it back on the site chosen from the Boltzmann weights of the
chi2 change of every empty site, all computed at once with two FFTs (the change of |F|^2 by one site is
linear in F and in F^2 shifted to 2r). Absolute-scale chi2, q = 0 masked, Poisson noise 1e4.
usage: relocation_heat_bath.py N LOADING SEED MOVES_PER_PARTICLE T0"""
import numpy as np, sys, time
N=int(sys.argv[1]); load=float(sys.argv[2]); seed=int(sys.argv[3]); sweeps=float(sys.argv[4]); T0=float(sys.argv[5])
kind=sys.argv[6] if len(sys.argv)>6 else 'random'
rng=np.random.default_rng(seed)
K=int(round(load*N*N))
truth=np.zeros(N*N); truth[rng.choice(N*N,K,replace=False)]=1; truth=truth.reshape(N,N)
F=np.fft.fft2(truth); I=np.abs(F)**2
Iq=I.copy(); Iq[0,0]=0
c=1e4/Iq.max(); data=rng.poisson(I*c)/c
m=np.ones((N,N)); m[0,0]=0
x=np.zeros(N*N); x[rng.choice(N*N,K,replace=False)]=1; x=x.reshape(N,N)
F=np.fft.fft2(x)
def chi(F): return np.sum(m*(np.abs(F)**2-data)**2)
norm=np.sum(m*data**2)
ii=(2*np.arange(N))%N
def add_delta(F):
    R=np.abs(F)**2-data
    const=np.sum(m*(2*R+1+2*np.abs(F)**2))
    A=np.real(np.fft.fft2(m*(R+1)*np.conj(F)))
    B=np.real(np.fft.fft2(m*np.conj(F)**2))[np.ix_(ii,ii)]
    return const, A, B
qx=np.arange(N)
E=lambda s: np.exp(-2j*np.pi*(qx[:,None]*s[0]+qx[None,:]*s[1])/N)
start=chi(F)/norm; t0=time.time()
moves=int(sweeps*K)  # moves per particle
occ=list(zip(*np.nonzero(x)))
chi_now=chi(F)
# temperature: relative to chi
T=T0*chi_now
for mv in range(moves):
    k=rng.integers(K); a=occ[k]
    Fr=F-E(a)
    const,A,B=add_delta(Fr)
    d=const+4*A+2*B  # add at each site, sigma=+1
    chi_r=chi(Fr)
    tot=chi_r+d
    tot=np.where(x==1,np.inf,tot); tot[a]=chi_r+d[a]
    if T>0:
        w=np.exp(-(tot-tot.min())/T); p=w.ravel()/w.sum(); b=np.unravel_index(rng.choice(N*N,p=p),(N,N))
    else:
        b=np.unravel_index(np.argmin(tot),(N,N))
    x[a]=0; x[b]=1; occ[k]=b; F=Fr+E(b); chi_now=tot[b]
    T=T0*chi_now*max(0,1-mv/(0.8*moves))
print(f"N={N} load={load} seed={seed} sweeps={sweeps} T0={T0}: start {start:.3f} final {chi(F)/norm:.5f} truth-overlap {np.sum(x*truth)/K:.3f} {time.time()-t0:.1f}s")
