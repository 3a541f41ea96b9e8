#!/usr/bin/python3
"""Issue 22's CPU target: nanoscatter's CPU path on the 1024 x 1024 SSCA image of
bench/gisaxs_analytic_bench_gpu.cpp (spheres, 20 log-normal radii, radial
paracrystal with kappa = 1, DWBA on a substrate) against BornAgain 1.19, both on
one thread of this machine. Run outside CI (Debian's python3-bornagain):
    /usr/bin/python3 bench/gisaxs_issue22_bornagain.py build/bin/nanoscatter [pixels]
Prints both wall times, the ratio, and the mean/max relative difference of the
two images (a check that the same sample was computed). For farm-bench (pairs of
runs, alternated, on a quiet machine):
    /usr/bin/python3 bench/gisaxs_issue22_bornagain.py --write-toml /tmp/issue22.toml
    farm-bench -n 3 --timeout 600 --vs '/usr/bin/python3 bench/gisaxs_issue22_bornagain.py --bornagain-only' -- \
        build/bin/nanoscatter gisaxs /tmp/issue22.toml --device cpu --threads 1 --quiet --output /tmp/issue22.h5
"""
import os
import subprocess
import sys
import tempfile
import time

import bornagain as ba
import h5py
import numpy as np

mode = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1].startswith("--") else None
cli = None if mode else sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 and not mode else 1024
deg = ba.deg

sample_toml = f"""
[beam]
wavelength = 0.1
alpha_i = 0.2
[detector]
phi_f = {{ min = -2.0, max = 2.0, bins = {n} }}
alpha_f = {{ min = 0.0, max = 2.0, bins = {n} }}
[[layer]]
[[layer]]
material = {{ delta = 6e-6, beta = 2e-8 }}
[[layout]]
density = 0.0025
mixture = "ssca"
[[layout.particle]]
shape = "sphere"
radius = 5.0
material = {{ delta = 6e-4, beta = 2e-8 }}
distribution = {{ parameter = "radius", type = "lognormal", scale = 0.2, samples = 20, sigma_factor = 2 }}
[layout.interference]
type = "radial_paracrystal"
peak_distance = 20.0
damping_length = 1000.0
size_spacing_coupling = 1.0
pdf = {{ type = "gauss", omega = 3.0 }}
"""


def bornagain_simulation():
    vacuum = ba.HomogeneousMaterial("vacuum", 0, 0)
    substrate = ba.HomogeneousMaterial("substrate", 6e-6, 2e-8)
    particle = ba.HomogeneousMaterial("particle", 6e-4, 2e-8)
    sphere = ba.Particle(particle, ba.FormFactorFullSphere(5.0))
    dist = ba.ParameterDistribution("/Particle/FullSphere/Radius", ba.DistributionLogNormal(5.0, 0.2), 20, 2.0)
    iff = ba.InterferenceFunctionRadialParaCrystal(20.0, 1000.0)
    iff.setKappa(1.0)
    iff.setProbabilityDistribution(ba.FTDistribution1DGauss(3.0))
    layout = ba.ParticleLayout()
    layout.addParticle(ba.ParticleDistribution(sphere, dist), 1.0)
    layout.setInterferenceFunction(iff)
    # BornAgain 1.19 takes the SSCA by itself when kappa > 0 (no setter)
    layout.setTotalParticleSurfaceDensity(0.0025)
    top = ba.Layer(vacuum)
    top.addLayout(layout)
    ml = ba.MultiLayer()
    ml.addLayer(top)
    ml.addLayer(ba.Layer(substrate))
    sim = ba.GISASSimulation()
    sim.setDetectorParameters(n, -2.0 * deg, 2.0 * deg, n, 0.0 * deg, 2.0 * deg)
    sim.setBeamParameters(0.1, 0.2 * deg, 0.0)
    sim.setSample(ml)
    sim.getOptions().setNumberOfThreads(1)
    return sim


if mode == "--write-toml":
    with open(sys.argv[2], "w") as f:
        f.write(sample_toml)
    sys.exit(0)
if mode == "--bornagain-only":
    bornagain_simulation().runSimulation()
    sys.exit(0)

with tempfile.TemporaryDirectory() as tmp:
    toml = os.path.join(tmp, "issue22.toml")
    with open(toml, "w") as f:
        f.write(sample_toml)
    out = os.path.join(tmp, "ns.h5")
    t0 = time.time()
    subprocess.run([cli, "gisaxs", toml, "--device", "cpu", "--threads", "1", "--quiet", "--output", out], check=True)
    t_ns = time.time() - t0
    ours = h5py.File(out, "r")["intensity"][...]

sim = bornagain_simulation()
t0 = time.time()
sim.runSimulation()
t_ba = time.time() - t0
theirs = sim.result().array()[::-1]  # BornAgain's row 0 is the highest alpha_f; ours the lowest

keep = theirs > 1e-6 * theirs.max()
if os.environ.get("NS_DEBUG_RATIO"):
    r = ours[keep] / theirs[keep]
    print("ratio ours/theirs: median %.4g, 5%% %.4g, 95%% %.4g" % (np.median(r), np.percentile(r, 5), np.percentile(r, 95)))
    print("theirs rows 0,1,mid,last (col mid):", theirs[[0, 1, n // 2, n - 1], n // 2], "ours:", ours[[0, 1, n // 2, n - 1], n // 2])
rel = np.abs(ours[keep] - theirs[keep]) / theirs[keep]
print(f"{n}x{n} SSCA image, one thread: nanoscatter {t_ns:.2f} s (whole CLI run), BornAgain 1.19 {t_ba:.2f} s, "
      f"ratio {t_ba / t_ns:.1f}x; images: mean rel. diff {rel.mean():.2e}, max {rel.max():.2e}")
