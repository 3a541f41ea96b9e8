"""The bindings' GPU paths against their CPU paths (skipped without a CUDA
build and device; labels python and gpu). Tolerances as the C++ GPU tests
(tests/gpu): Debye and pattern2d float64 GPU vs CPU 1e-11 relative (summation
order; Debye histograms 5e-8, the fast path's quantised moments), DDA 3e-5 in Qext (both solves stop at the residual 1e-5), a GISAXS mesh
particle float64 GPU vs CPU 2e-10 relative where I > 1e-6 max I (the mesh
tests' 1e-10 on F, doubled for |F|²), RMC on the
GPU: χ²_rel reported at the end equals χ²_rel recomputed in NumPy from the
fitted occupancy (q = 0 pixel masked, as by default) to 1e-6 (float32 rank-1
updates refreshed by exact FFTs)."""
import os
import tempfile
import unittest

import numpy as np

import nanoscatter as ns

HAVE_GPU = ns.have_cuda and ns.cuda_device_count() > 0


@unittest.skipUnless(HAVE_GPU, "no CUDA build or no GPU")
class GpuAgainstCpu(unittest.TestCase):
    def setUp(self):
        self.coo = ns.build(lattice="rocksalt", a=4.26, elements=["Co", "O"], shape="sphere", radius=12,
                            displace=0.05, seed=3)

    def test_debye(self):
        q = np.linspace(0.05, 12, 300)
        # Histogram: occupancy 1 takes the GPU's fast path (float hi/lo
        # distances, quantised moments), 5e-8 as tests/gpu/test_debye_gpu_physics.cpp.
        for method, tol in (("exact", 1e-11), ("histogram", 5e-8)):
            cpu = ns.DebyePlan(self.coo, method=method, partials=True, device="cpu").execute(q)
            gpu = ns.DebyePlan(self.coo, method=method, partials=True, device="gpu",
                               precision="double").execute(q)
            np.testing.assert_allclose(gpu.intensity, cpu.intensity, rtol=tol, atol=tol * cpu.intensity.max(),
                                       err_msg=method)
        # The default precision (auto) is single for Debye on a GPU, within
        # its bound of 1e-5 where I > 1e-3 max I (docs/debye.md).
        cpu_plan, auto_plan = ns.DebyePlan(self.coo, device="cpu"), ns.DebyePlan(self.coo, device="gpu")
        self.assertEqual((cpu_plan.precision, auto_plan.precision), ("double", "single"))
        cpu, auto = cpu_plan.execute(q).intensity, auto_plan.execute(q).intensity
        above = cpu > 1e-3 * cpu.max()
        self.assertLessEqual(np.max(np.abs(auto[above] / cpu[above] - 1)), 1e-5)
        # auto ran single: the numbers of asking for single, to the order of
        # the kernels' float64 atomics (1e-13 of max I; single and double
        # differ by ~1e-11 of it here, as below Q·D = 100 single sums in
        # float64 and this particle's intensity peaks there).
        single = ns.DebyePlan(self.coo, device="gpu", precision="single").execute(q).intensity
        double = ns.DebyePlan(self.coo, device="gpu", precision="double").execute(q).intensity
        self.assertLessEqual(np.max(np.abs(auto - single)), 1e-13 * cpu.max())
        self.assertGreater(np.max(np.abs(double - single)), 1e-13 * cpu.max(), "single ran as double")

    def test_pattern2d(self):
        kw = dict(wavelength=0.3, qmax=5, nq=64, nphi=90, euler_zyz=(5, 30, 60))
        cpu = ns.pattern2d(self.coo, device="cpu", **kw)
        gpu = ns.pattern2d(self.coo, device="gpu", **kw)
        np.testing.assert_allclose(gpu.intensity, cpu.intensity, rtol=1e-11, atol=1e-11 * cpu.intensity.max())

    def test_dda(self):
        kw = dict(shape="sphere", grid=24, m=(1.5, 0.01), eq_rad=2.0)
        cpu = ns.dda(device="cpu", **kw)
        gpu = ns.dda(device="gpu", **kw)
        self.assertLess(abs(gpu.qext / cpu.qext - 1), 3e-5)

    def test_gisaxs_mesh(self):
        # A 6 × 4 × 3 nm box as 12 triangles (outward, counter-clockwise).
        v = np.array([[x, y, z] for x in (0, 6) for y in (0, 4) for z in (0, 3)], float)
        quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
        with tempfile.TemporaryDirectory() as d:
            stl = os.path.join(d, "box.stl")
            with open(stl, "w") as f:
                f.write("solid box\n")
                for a, b, c, e in quads:
                    for tri in ((a, b, c), (a, c, e)):
                        f.write("facet normal 0 0 0\n outer loop\n")
                        for k in tri:
                            f.write(f"  vertex {v[k, 0]} {v[k, 1]} {v[k, 2]}\n")
                        f.write(" endloop\nendfacet\n")
                f.write("endsolid box\n")
            text = f"""density = 0.01
[beam]
wavelength = 0.1
alpha_i = 0.2
[detector]
phi_f = {{ min = -2.0, max = 2.0, bins = 40 }}
alpha_f = {{ min = 0.0, max = 2.0, bins = 30 }}
[material.particle]
delta = 6e-4
beta = 2e-8
[material.substrate]
delta = 6e-6
beta = 2e-8
[[layer]]
[[layer]]
material = "substrate"
[[particle]]
shape = "mesh"
file = "{stl}"
material = "particle"
"""
            sample = ns.parse_sample(text, "mesh.toml")
            cpu = ns.gisaxs(sample, device="cpu")
            gpu = ns.gisaxs(sample, device="gpu")
        big = cpu.intensity > 1e-6 * cpu.intensity.max()
        np.testing.assert_allclose(gpu.intensity[big], cpu.intensity[big], rtol=2e-10)

    def test_rmc(self):
        rng = np.random.default_rng(1)
        truth = np.zeros((64, 64))
        truth.flat[rng.choice(4096, 300, replace=False)] = 1
        target = np.fft.fftshift(np.abs(np.fft.fft2(truth)) ** 2)
        r = ns.rmc(target, loading=300 / 4096, tiles=4, steps=20000, seed=2, device="gpu")
        self.assertEqual(r.device, "gpu")
        for t in r.tiles:
            model = np.fft.fftshift(np.abs(np.fft.fft2(t["occupancy"].astype(float))) ** 2)
            keep = np.ones(target.shape, bool)
            keep[32, 32] = False  # the q = 0 pixel, masked by default (keep_zero_q)
            model, p = model[keep], target[keep]
            chi2 = 1 - (p @ model) ** 2 / ((p @ p) * (model @ model))
            self.assertAlmostEqual(t["chi2_final"] / chi2, 1, delta=1e-6)
            self.assertLess(t["chi2_final"], t["chi2_initial"])


if __name__ == "__main__":
    unittest.main()
