"""rmc binding against the CLI with the same seed (the run is reproducible
for a seed: identical χ² traces to 1e-12; output= writes the CLI's
files with the same numbers), the same messages for the same bad values
(checked once, in the library), and the analysis functions against NumPy:
|FFT2|² (fftshifted) to 1e-9 relative, χ²_rel recomputed from the fitted
occupancy as 1 − (P·I)²/(|P|²|I|²) to 1e-9."""
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
            "--seed", 4, "--device", "cpu", "--output", self.path("out"), "-q")
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
        keep = np.ones(self.image.shape, bool)
        keep[16, 16] = False  # the q = 0 pixel, masked by default
        p, i = self.image[keep], model[keep]
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
                                                     "--output", self.path("x")))

    def test_bad_values_give_the_cli_message(self):
        # RmcOptions::validate (steps, target_acceptance, cluster: a field
        # named as its flag), the library's parsers (schedule, layout,
        # temperature): one check each, the same words from both front ends.
        cases = [
            ({"steps": 0}, ["--steps", 0]),
            ({"target_acceptance": 1.5}, ["--target-acceptance", 1.5]),
            ({"cluster": 9}, ["--cluster", 9]),
            ({"schedule": "fast"}, ["--schedule", "fast"]),
            ({"layout": "diagonal"}, ["--layout", "diagonal"]),
            ({"temperature": "hot"}, ["--temperature", "hot"]),
        ]
        for keywords, flags in cases:
            with self.subTest(flags=flags):
                with self.assertRaises(ns.Error) as e:
                    ns.RmcPlan(self.path("t.txt"), loading=0.1, device="cpu", **keywords)
                expected = cli_error("rmc", "--target", self.path("t.txt"), "--loading", 0.1, "--device", "cpu",
                                     *flags, "--output", self.path("x"))
                self.assertEqual(str(e.exception), expected)
                self.assertTrue(expected.startswith(list(keywords)[0] + ": "), expected)

    def test_loading_scan_and_absolute_scale(self):
        # Same scan from Python (string or list) and the CLI: same chi2 per loading.
        r = ns.rmc(self.image, loading_scan="0.04:0.12:0.02", chi2_scale="absolute", steps=2000, seed=3,
                   device="cpu")
        scan = r.loading_scan
        np.testing.assert_allclose(scan["loading"], [0.04, 0.06, 0.08, 0.1, 0.12])
        r2 = ns.rmc(self.image, loading_scan=[0.04, 0.06, 0.08, 0.1, 0.12], chi2_scale="absolute", steps=2000,
                    seed=3, device="cpu")
        np.testing.assert_array_equal(scan["chi2"], r2.loading_scan["chi2"])
        cli("rmc", "--target", self.path("t.txt"), "--loading-scan", "0.04:0.12:0.02", "--chi2-scale", "absolute",
            "--steps", 2000, "--seed", 3, "--device", "cpu", "--output", self.path("scan"), "-q")
        table = read_table(self.path("scan/loading_scan.dat"))
        np.testing.assert_allclose(table[1], scan["chi2"], rtol=1e-12)
        self.assertEqual(len(r.tiles), 5)

    def test_initial_model_and_q0(self):
        plan = ns.RmcPlan(self.image, initial_model=self.truth, chi2_scale="absolute", temperature=0, steps=100,
                          device="cpu")
        self.assertTrue(np.isnan(plan.target[16, 16]))
        r = plan.execute()
        self.assertEqual(r.tiles[0]["particles"], 80)
        self.assertLess(r.tiles[0]["chi2_final"], 1e-12)
        kept = ns.RmcPlan(self.image, loading=0.1, keep_zero_q=True, device="cpu")
        self.assertFalse(np.isnan(kept.target).any())

    def test_new_bad_values_give_the_cli_message(self):
        np.savetxt(self.path("half.txt"), np.full((32, 32), 0.5))
        cases = [
            ({"initial_model": self.path("half.txt")}, ["--initial-model", self.path("half.txt")]),
            ({"loading_scan": "0.1:1.2:0.1"}, ["--loading-scan", "0.1:1.2:0.1"]),
            ({"chi2_scale": "fixed", "scale": 0, "loading": 0.1}, ["--chi2-scale", "fixed", "--scale", 0,
                                                                     "--loading", 0.1]),
        ]
        for keywords, flags in cases:
            with self.subTest(flags=flags):
                with self.assertRaises(ns.Error) as e:
                    ns.RmcPlan(self.path("t.txt"), device="cpu", **keywords)
                expected = cli_error("rmc", "--target", self.path("t.txt"), "--device", "cpu", *flags,
                                     "--output", self.path("x"))
                # After a file name the CLI names the flag, Python the keyword.
                self.assertEqual(str(e.exception), expected.replace("--initial-model", "initial_model"))

    def test_unknown_keyword_lists_the_valid_ones(self):
        with self.assertRaises(ns.Error) as e:
            ns.RmcPlan(self.image, loading=0.1, step=10)
        message = str(e.exception)
        self.assertIn("unknown keyword 'step'", message)
        for valid in ("steps", "loading", "tiles", "max_device_memory", "comm"):
            self.assertIn(valid, message)
        self.assertNotIn("precision", message)  # rmc has no precision choice

    def test_output_writes_the_cli_files(self):
        r = ns.rmc(self.image, loading=80 / 1024, tiles=2, steps=1000, seed=4, device="cpu",
                   output=self.path("py"))
        cli("rmc", "--target", self.path("t.txt"), "--loading", 80 / 1024, "--tiles", 2, "--steps", 1000,
            "--seed", 4, "--device", "cpu", "--output", self.path("cli"), "-q")
        for name in ("chi2_trace.dat", "acceptance.dat", "pair_correlation.dat"):
            np.testing.assert_allclose(read_table(self.path("py/" + name)), read_table(self.path("cli/" + name)),
                                       rtol=1e-12, err_msg=name)
        for name in ("rmc.h5", "target.png", "occupancy_tile1.png", "model_tile1.png"):
            self.assertTrue(os.path.getsize(self.path("py/" + name)) > 0, name)
        with open(self.path("py/acceptance.dat"), encoding="utf-8") as f:
            header = [line for line in f if line.startswith("#")]
        self.assertTrue(header[1].startswith("# command: python:"), header[1])
        self.assertTrue(header[2].startswith("# version: nanoscatter "), header[2])
        # write_outputs: the same files again, from the last run.
        plan = ns.RmcPlan(self.image, loading=80 / 1024, tiles=2, steps=1000, seed=4, device="cpu")
        plan.execute()
        plan.write_outputs(self.path("again"), command_line="test")
        np.testing.assert_array_equal(read_table(self.path("again/chi2_trace.dat")),
                                      read_table(self.path("py/chi2_trace.dat")))
        self.assertEqual(len(r.tiles), 2)

    def test_output_checked_before_the_run(self):
        with self.assertRaises(ns.Error) as e:
            ns.rmc(self.image, loading=0.1, steps=10, device="cpu", output=self.path("no/such/dir"))
        self.assertEqual(e.exception.field, "output")
        self.assertIn("parent directory", str(e.exception))


if __name__ == "__main__":
    unittest.main()
