"""rmc binding against the CLI with the same seed (the run is reproducible
for a seed: identical χ² traces to 1e-12) and the analysis functions against
NumPy: |FFT2|² (fftshifted) to 1e-9 relative, χ²_rel recomputed from the
fitted occupancy as 1 − (P·I)²/(|P|²|I|²) to 1e-9."""
import os
import unittest

import numpy as np

import nanoscatter as ns
from common import ScratchTestCase, cli, cli_error, read_table


def synthetic_target(n=32, particles=80, seed=3):
    rng = np.random.default_rng(seed)
    a = np.zeros((n, n))
    a.flat[rng.choice(n * n, particles, replace=False)] = 1
    return a, np.fft.fftshift(np.abs(np.fft.fft2(a)) ** 2)


class RmcBinding(ScratchTestCase):
    def setUp(self):
        super().setUp()
        self.truth, self.image = synthetic_target()
        np.savetxt(self.path("t.txt"), self.image)

    def test_equals_cli_with_the_same_seed(self):
        r = ns.rmc(self.image, loading=80 / 1024, tiles=2, steps=3000, seed=4, device="cpu")
        cli("rmc", "--target", self.path("t.txt"), "--loading", 80 / 1024, "--tiles", 2, "--steps", 3000,
            "--seed", 4, "--device", "cpu", "--output-dir", self.path("out"), "-q")
        trace = read_table(self.path("out/chi2_trace.dat"))
        np.testing.assert_allclose(r.trace_moves, trace[0])
        np.testing.assert_allclose(r.trace, trace[1:], rtol=1e-12)
        stats = read_table(self.path("out/acceptance.dat"))
        np.testing.assert_allclose([t["chi2_final"] for t in r.tiles], stats[9], rtol=1e-12)

    def test_chi2_and_model_against_numpy(self):
        r = ns.rmc(self.path("t.txt"), loading=80 / 1024, steps=2000, seed=2, device="cpu")
        occ = r.tiles[0]["occupancy"]
        self.assertEqual(int(occ.sum()), 80)
        model = np.fft.fftshift(np.abs(np.fft.fft2(occ.astype(float))) ** 2)
        np.testing.assert_allclose(ns.rmc_model_intensity(occ), model, rtol=1e-9, atol=1e-9 * model.max())
        p, i = self.image.ravel(), model.ravel()
        chi2 = 1 - (p @ i) ** 2 / ((p @ p) * (i @ i))
        self.assertAlmostEqual(r.tiles[0]["chi2_final"], chi2, delta=1e-9)

    def test_mask_from_array(self):
        mask = np.ones_like(self.image)
        mask[16, 16] = 0  # the q = 0 pixel
        plan = ns.RmcPlan(self.image, mask, loading=0.078125, steps=500, device="cpu")
        self.assertTrue(np.isnan(plan.target[16, 16]))
        self.assertEqual(int(np.isnan(plan.target).sum()), 1)

    def test_errors_carry_the_cli_message(self):
        with self.assertRaises(ns.Error) as e:
            ns.rmc(self.path("t.txt"), loading=1.5)
        self.assertEqual(str(e.exception), cli_error("rmc", "--target", self.path("t.txt"), "--loading", 1.5,
                                                     "--output-dir", self.path("x")))


if __name__ == "__main__":
    unittest.main()
