#!/usr/bin/python3
"""BornAgain 1.19's own fit of the GALAXI measurement, for comparison with
`nanoscatter fit bench/fits/galaxi/fit3.toml` (run outside CI; Debian's
python3-bornagain). The model is tools/gisaxs_bornagain_golden.py's GALAXI
multilayer (BornAgain's fit_galaxi_data example, Névot–Croce roughness as
in our golden files), the whole Pilatus detector with the example's region
of interest and specular mask, Minuit2 Migrad, BornAgain's default
objective. Usage:
    /usr/bin/python3 bench/fits/galaxi/bornagain_fit.py PATH/galaxi_data.tif.gz [threads]
"""
import os
import sys
import time

import bornagain as ba

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
import gisaxs_bornagain_golden as golden  # noqa: E402

data_path = sys.argv[1]
threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
P = golden.PILATUS
calls = 0


def simulation(params):
    global calls
    calls += 1
    p = dict(golden.GALAXI, radius=params["radius"], sigma=params["sigma"], distance=params["distance"])
    det = ba.RectangularDetector(P["columns"], P["columns"] * P["pixel"], P["rows"], P["rows"] * P["pixel"])
    det.setPerpendicularToDirectBeam(P["distance"], P["beam_x"] * P["pixel"], P["beam_y"] * P["pixel"])
    sim = ba.GISASSimulation()
    sim.setDetector(det)
    sim.setBeamParameters(p["wavelength"], p["alpha_i"] * ba.deg, 0.0)
    sim.beam().setIntensity(p["intensity"])
    sim.setRegionOfInterest(85.0, 70.0, 120.0, 92.0)
    sim.addMask(ba.Rectangle(101.9, 82.1, 103.7, 85.2), True)
    sim.setSample(golden.galaxi_multilayer(p=p))
    sim.getOptions().setNumberOfThreads(threads)
    return sim


data = ba.IntensityDataIOFactory.readIntensityData(data_path)
objective = ba.FitObjective()
objective.addSimulationAndData(simulation, data.array(), 1.0)
params = ba.Parameters()
params.add("radius", 5.0, min=4.0, max=6.0, step=0.1)
params.add("sigma", 0.55, min=0.2, max=0.8, step=0.01)
params.add("distance", 27.0, min=20.0, max=70.0)
minimizer = ba.Minimizer()
start = time.time()
result = minimizer.minimize(objective.evaluate, params)
seconds = time.time() - start
objective.finalize(result)
print(result.toString())
print("simulations %d, wall %.1f s, threads %d" % (calls, seconds, threads))
