#!/usr/bin/python3
"""Golden images from BornAgain 1.19 for the gisaxs tests (issue 22).

Run OUTSIDE CI with Debian's /usr/bin/python3 and python3-bornagain 1.19:

    /usr/bin/python3 tools/gisaxs_bornagain_golden.py tests/data/gisaxs

For each case it writes the sample file CASE.toml (the single description
both codes read: this script writes the TOML text and builds the same model
in BornAgain from the same numbers) and CASE.txt, BornAgain's image in the
engine's layout (one line per detector row from the lowest alpha_f / y,
one column per phi_f / x pixel), 17 digits. The CI test
(tests/physics/test_gisaxs_bornagain_golden.cpp) runs nanoscatter on
CASE.toml and compares.

Cases:
  ssca_spheres      Ag spheres, log-normal radii (20 samples, factor 2, max 9.25 nm),
                    radial paracrystal with kappa (SSCA), on Si; angular detector.
  galaxi_region     The GALAXI model of BornAgain's fit example (HMDSO 18.5 nm on PTFE
                    22.1 nm on Si, Nevot-Croce roughness, spheres on the PTFE inside the
                    HMDSO, SSCA), flat Pilatus detector, pixels x 560-599, y 440-469.
                    Roughness: sigma only (lateral correlation length 0, so that
                    BornAgain adds no diffuse scattering from the rough interfaces, which
                    nanoscatter does not model; the report gives its size).
  resolution        Cylinders + radial paracrystal, angular detector, Gaussian detector
                    resolution sigma 0.03 deg x 0.02 deg, constant background 5.
  alpha_divergence  The same sample, alpha_i Gaussian divergence 0.02 deg, 5 samples,
                    factor 2; phi_i divergence 0.05 deg, 3 samples.

`--time N` times BornAgain (1 and 2 threads, N runs each) on the GALAXI fit
region, 204 x 129 pixels (bench/results/2026-11-25-gisaxs-galaxi-model.md).
`--report` also prints what BornAgain's own defaults would change on the GALAXI
region (tanh roughness model; diffuse roughness scattering with xi = 5 nm).
"""
import argparse
import os
import sys

import numpy as np

import bornagain as ba

deg = ba.deg

MATERIALS = {  # delta, beta (README of the GALAXI data)
    "Si": (5.78164736e-6, 1.02294578e-7),
    "Ag": (2.24749529e-5, 1.61528396e-6),
    "PTFE": (5.20508729e-6, 1.96944292e-8),
    "HMDSO": (2.0888308e-6, 1.32605651e-8),
}
PILATUS = dict(pixel=0.172, distance=1730.0, beam_x=597.1, beam_y=323.4, columns=981, rows=1043)
GALAXI = dict(radius=5.0, sigma=0.55, distance=27.0, disorder=10.5, kappa=17.5, ptfe=22.1, hmdso=18.5,
              wavelength=0.134, alpha_i=0.463, intensity=1.2e7)


def material_toml():
    return "".join("[material.%s]\ndelta = %r\nbeta = %r\n" % (n, d, b) for n, (d, b) in MATERIALS.items())


def mat(name):
    d, b = MATERIALS[name]
    return ba.HomogeneousMaterial(name, d, b)


# ---------------------------------------------------------------- ssca_spheres
def ssca_spheres():
    toml = ('[beam]\nwavelength = 0.134\nalpha_i = 0.463\nintensity = 1e7\n'
            '[detector]\nphi_f = { min = -0.6, max = 1.2, bins = 36 }\nalpha_f = { min = -0.1, max = 1.5, bins = 32 }\n'
            + material_toml() +
            '[[layer]]\n[[layer]]\nmaterial = "Si"\n'
            '[[layout]]\ndensity = 0.002\nmixture = "ssca"\n'
            '[[layout.particle]]\nshape = "sphere"\nradius = 5.0\nmaterial = "Ag"\n'
            'distribution = { parameter = "radius", type = "lognormal", scale = 0.3, samples = 20, '
            'sigma_factor = 2, max = 9.25 }\n'
            '[layout.interference]\ntype = "radial_paracrystal"\npeak_distance = 27\ndamping_length = 1e6\n'
            'domain_size = 20000\nsize_spacing_coupling = 17.5\npdf = { type = "gauss", omega = 10.5 }\n')
    sphere = ba.Particle(mat("Ag"), ba.FormFactorFullSphere(5.0))
    dist = ba.ParameterDistribution("/Particle/FullSphere/Radius", ba.DistributionLogNormal(5.0, 0.3), 20, 2.0,
                                    ba.RealLimits.limited(0.0, 9.25))
    layout = ba.ParticleLayout()
    layout.addParticle(ba.ParticleDistribution(sphere, dist), 1.0)
    layout.setInterferenceFunction(radial(27.0, 10.5, 17.5))
    layout.setTotalParticleSurfaceDensity(0.002)
    top = ba.Layer(ba.HomogeneousMaterial("Air", 0, 0))
    top.addLayout(layout)
    ml = ba.MultiLayer()
    ml.addLayer(top)
    ml.addLayer(ba.Layer(mat("Si")))
    sim = ba.GISASSimulation()
    sim.setDetectorParameters(36, -0.6 * deg, 1.2 * deg, 32, -0.1 * deg, 1.5 * deg)
    sim.setBeamParameters(0.134, 0.463 * deg, 0.0)
    sim.beam().setIntensity(1e7)
    sim.setSample(ml)
    return toml, sim


def radial(distance, disorder, kappa):
    iff = ba.InterferenceFunctionRadialParaCrystal(distance, 1e6)
    iff.setKappa(kappa)
    iff.setDomainSize(20000.0)
    iff.setProbabilityDistribution(ba.FTDistribution1DGauss(disorder))
    return iff


# ---------------------------------------------------------------- GALAXI
def galaxi_multilayer(xi=0.0, model=ba.RoughnessModel.NEVOT_CROCE, p=GALAXI):
    sphere = ba.Particle(mat("Ag"), ba.FormFactorFullSphere(p["radius"]))
    sphere.setPosition(ba.kvector_t(0, 0, -p["hmdso"]))
    dist = ba.ParameterDistribution("/Particle/FullSphere/Radius", ba.DistributionLogNormal(p["radius"], p["sigma"]),
                                    20, 2.0, ba.RealLimits.limited(0.0, p["hmdso"] / 2.0))
    layout = ba.ParticleLayout()
    layout.addParticle(ba.ParticleDistribution(sphere, dist), 1.0)
    layout.setInterferenceFunction(radial(p["distance"], p["disorder"], p["kappa"]))
    layout.setTotalParticleSurfaceDensity(1)
    hmdso = ba.Layer(mat("HMDSO"), p["hmdso"])
    hmdso.addLayout(layout)
    ml = ba.MultiLayer()
    ml.addLayer(ba.Layer(ba.HomogeneousMaterial("Air", 0, 0)))
    ml.addLayerWithTopRoughness(hmdso, ba.LayerRoughness(1.1, 0.3, xi))
    ml.addLayerWithTopRoughness(ba.Layer(mat("PTFE"), p["ptfe"]), ba.LayerRoughness(2.3, 0.3, xi))
    ml.addLayer(ba.Layer(mat("Si")))
    ml.setRoughnessModel(model)
    return ml


def galaxi_toml(region=None, extra_detector=""):
    p = GALAXI
    det = ('[detector]\ntype = "flat"\ndistance = %r\npixel_size = %r\npixels = [%d, %d]\ndirect_beam = [%r, %r]\n'
           % (PILATUS["distance"], PILATUS["pixel"], PILATUS["columns"], PILATUS["rows"], PILATUS["beam_x"],
              PILATUS["beam_y"]))
    if region:
        det += "region = [%d, %d, %d, %d]\n" % region
    return ('[beam]\nwavelength = %r\nalpha_i = %r\nintensity = %r\n' % (p["wavelength"], p["alpha_i"], p["intensity"])
            + det + extra_detector + material_toml() +
            '[[layer]]\nname = "air"\n'
            '[[layer]]\nname = "hmdso"\nmaterial = "HMDSO"\nthickness = %r\nroughness = 1.1\n'
            '[[layer]]\nname = "ptfe"\nmaterial = "PTFE"\nthickness = %r\nroughness = 2.3\n'
            '[[layer]]\nname = "si"\nmaterial = "Si"\n'
            '[[layout]]\ndensity = 1\nmixture = "ssca"\n'
            '[[layout.particle]]\nshape = "sphere"\nradius = %r\nmaterial = "Ag"\nlayer = "hmdso"\ndepth = %r\n'
            'distribution = { parameter = "radius", type = "lognormal", scale = %r, samples = 20, sigma_factor = 2, '
            'max = %r }\n'
            '[layout.interference]\ntype = "radial_paracrystal"\npeak_distance = %r\ndamping_length = 1e6\n'
            'domain_size = 20000\nsize_spacing_coupling = %r\npdf = { type = "gauss", omega = %r }\n'
            % (p["hmdso"], p["ptfe"], p["radius"], p["hmdso"], p["sigma"], p["hmdso"] / 2, p["distance"], p["kappa"],
               p["disorder"]))


def galaxi_simulation(region, ml):
    """BornAgain's GALAXI set-up on the pixels of `region` (x0, y0, x1, y1): a detector of just those
    pixels, its direct beam shifted accordingly (the same geometry as the full detector's)."""
    x0, y0, x1, y1 = region
    px = PILATUS["pixel"]
    nx, ny = x1 - x0 + 1, y1 - y0 + 1
    det = ba.RectangularDetector(nx, nx * px, ny, ny * px)
    det.setPerpendicularToDirectBeam(PILATUS["distance"], (PILATUS["beam_x"] - x0) * px, (PILATUS["beam_y"] - y0) * px)
    sim = ba.GISASSimulation()
    sim.setDetector(det)
    sim.setBeamParameters(GALAXI["wavelength"], GALAXI["alpha_i"] * deg, 0.0)
    sim.beam().setIntensity(GALAXI["intensity"])
    sim.setSample(ml)
    return sim


GALAXI_REGION = (560, 440, 599, 469)


def galaxi_region():
    return galaxi_toml(GALAXI_REGION), galaxi_simulation(GALAXI_REGION, galaxi_multilayer())


# ------------------------------------------------------ instrument effects
def cylinders(extra_beam="", extra_detector=""):
    toml = ('density = 0.01\n[beam]\nwavelength = 0.1\nalpha_i = 0.2\n' + extra_beam +
            '[detector]\nphi_f = { min = -1.5, max = 1.5, bins = 40 }\nalpha_f = { min = 0.0, max = 2.0, bins = 30 }\n'
            + extra_detector +
            '[[layer]]\n[[layer]]\nmaterial = { delta = 6e-6, beta = 2e-8 }\n'
            '[[particle]]\nshape = "cylinder"\nradius = 5\nheight = 5\n'
            'material = { delta = 6e-4, beta = 2e-8 }\n'
            '[interference]\ntype = "radial_paracrystal"\npeak_distance = 20\ndamping_length = 1000\n'
            'pdf = { type = "gauss", omega = 7 }\n')
    layout = ba.ParticleLayout()
    layout.addParticle(ba.Particle(ba.HomogeneousMaterial("p", 6e-4, 2e-8), ba.FormFactorCylinder(5, 5)), 1.0)
    iff = ba.InterferenceFunctionRadialParaCrystal(20.0, 1000.0)
    iff.setProbabilityDistribution(ba.FTDistribution1DGauss(7.0))
    layout.setInterferenceFunction(iff)
    layout.setTotalParticleSurfaceDensity(0.01)
    top = ba.Layer(ba.HomogeneousMaterial("vac", 0, 0))
    top.addLayout(layout)
    ml = ba.MultiLayer()
    ml.addLayer(top)
    ml.addLayer(ba.Layer(ba.HomogeneousMaterial("sub", 6e-6, 2e-8)))
    sim = ba.GISASSimulation()
    sim.setDetectorParameters(40, -1.5 * deg, 1.5 * deg, 30, 0.0, 2.0 * deg)
    sim.setBeamParameters(0.1, 0.2 * deg, 0.0)
    sim.setSample(ml)
    return toml, sim


def resolution():
    toml, sim = cylinders(extra_detector="resolution = { sigma_x = 0.03, sigma_y = 0.02 }\nbackground = 5\n")
    sim.setDetectorResolutionFunction(ba.ResolutionFunction2DGaussian(0.03 * deg, 0.02 * deg))
    sim.setBackground(ba.ConstantBackground(5.0))
    return toml, sim


def alpha_divergence():
    toml, sim = cylinders(extra_beam='alpha_i_divergence = { type = "gaussian", sigma = 0.02, samples = 5, '
                                     'sigma_factor = 2 }\n'
                                     'phi_i_divergence = { type = "gaussian", sigma = 0.05, samples = 3, '
                                     'sigma_factor = 2 }\n')
    sim.addParameterDistribution("*/Beam/InclinationAngle", ba.DistributionGaussian(0.2 * deg, 0.02 * deg), 5, 2.0)
    sim.addParameterDistribution("*/Beam/AzimuthalAngle", ba.DistributionGaussian(0.0, 0.05 * deg), 3, 2.0)
    return toml, sim


CASES = {"ssca_spheres": ssca_spheres, "galaxi_region": galaxi_region, "resolution": resolution,
         "alpha_divergence": alpha_divergence}


def image(sim):
    sim.runSimulation()
    return sim.result().array()[::-1]  # BornAgain's first row is the highest alpha_f / y


def report():
    base = image(galaxi_simulation(GALAXI_REGION, galaxi_multilayer()))
    for name, ml in [("tanh roughness model (BornAgain 1.19's default)", galaxi_multilayer(model=ba.RoughnessModel.TANH)),
                     ("diffuse roughness scattering, xi = 5 nm, H = 0.3", galaxi_multilayer(xi=5.0))]:
        other = image(galaxi_simulation(GALAXI_REGION, ml))
        rel = np.abs(other - base) / base
        print("%-52s mean %.3e  max %.3e (relative to the golden image)" % (name, rel.mean(), rel.max()))


FIT_REGION = (494, 406, 697, 534)  # README: x 494-697, y 406-534


def time_fit_region(repeats):
    """Wall time of BornAgain on the GALAXI fit region (204 x 129 pixels), 1 and 2 threads."""
    import time
    for threads in (1, 2):
        best = []
        for _ in range(repeats):
            sim = galaxi_simulation(FIT_REGION, galaxi_multilayer())
            sim.getOptions().setNumberOfThreads(threads)
            start = time.perf_counter()
            sim.runSimulation()
            best.append(time.perf_counter() - start)
        print("BornAgain 1.19, %d thread(s): %s s (min %.3f s)" % (threads, " ".join("%.3f" % t for t in best),
                                                                  min(best)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir")
    parser.add_argument("--only", choices=sorted(CASES))
    parser.add_argument("--report", action="store_true")
    parser.add_argument("--time", type=int, metavar="REPEATS", help="time BornAgain on the GALAXI fit region")
    args = parser.parse_args()
    if args.time:
        time_fit_region(args.time)
        return 0
    if args.report:
        report()
        return 0
    for name, make in CASES.items():
        if args.only and name != args.only:
            continue
        toml, sim = make()
        with open(os.path.join(args.outdir, "ba_%s.toml" % name), "w") as f:
            f.write("# Written by tools/gisaxs_bornagain_golden.py (%s); golden image ba_%s.txt\n" % (name, name))
            f.write(toml)
        img = image(sim)
        with open(os.path.join(args.outdir, "ba_%s.txt" % name), "w") as f:
            f.write("# BornAgain 1.19 (python3-bornagain), tools/gisaxs_bornagain_golden.py case %s\n" % name)
            f.write("# rows: detector rows from the lowest alpha_f / y; columns: phi_f / x\n")
            np.savetxt(f, img, fmt="%.17e")
        print(name, img.shape)
    return 0


if __name__ == "__main__":
    sys.exit(main())
