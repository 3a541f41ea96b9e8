"""nanoscatter.fit and GisaxsModel: a synthetic GISAXS recovery from NumPy
arrays, GisaxsModel as a callable for scipy, and one bad input giving the
CLI's message."""
import os
import subprocess
import tempfile
import unittest

import numpy as np

import nanoscatter as ns
from nanoscatter.fit import description_toml

SOURCE = os.environ.get("NS_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SAMPLE = os.path.join(SOURCE, "tests", "data", "fit", "cylinders_paracrystal.toml")


def description(**objective):
    return {
        "data": {"orientation": "bottom"},
        "model": {"engine": "gisaxs", "sample": SAMPLE},
        "parameter": [
            {"path": "particle[0].radius", "start": 4.6, "min": 2.0, "max": 10.0},
            {"path": "interference.peak_distance", "start": 21.0, "min": 10.0, "max": 40.0},
        ],
        "objective": dict({"kind": "deviance"}, **objective),
    }


class FitTest(unittest.TestCase):
    def test_recovery_from_arrays(self):
        model = ns.GisaxsModel(SAMPLE, ["particle[0].radius"])
        truth = model(5.0)
        self.assertEqual(truth.shape, (40, 48))
        seed = int.from_bytes(os.urandom(4), "little")
        print("seed", seed)
        counts = np.random.default_rng(seed).poisson(2e4 * truth / truth.max() + 5).astype(float)
        r = ns.fit(description(), data=counts)
        self.assertTrue(r.converged, r.message)
        self.assertLess(abs(r.parameters["particle[0].radius"] - 5.0), 3 * r.sigma["particle[0].radius"], r)
        self.assertLess(abs(r.parameters["interference.peak_distance"] - 20.0),
                        3 * r.sigma["interference.peak_distance"], r)
        self.assertEqual(r.model.shape, (40, 48))
        self.assertAlmostEqual(r.chi2_red, r.chi2 / r.dof)

    def test_model_for_scipy(self):
        from scipy.optimize import least_squares
        model = ns.GisaxsModel(SAMPLE, ["particle[0].radius", "particle[0].height"], region=(0, 20, 10, 24))
        target = model(5.0, 5.0)
        self.assertEqual(target.shape, (20, 24))
        fit = least_squares(lambda p: (model(*p) - target).ravel() / target.ravel(), [4.7, 5.3],
                            bounds=([2, 2], [10, 10]))
        np.testing.assert_allclose(fit.x, [5.0, 5.0], rtol=1e-4)

    def test_bad_path_same_message_as_cli(self):
        with tempfile.TemporaryDirectory() as tmp:
            import h5py
            image = ns.GisaxsModel(SAMPLE, [])()
            with h5py.File(os.path.join(tmp, "data.h5"), "w") as f:
                f["image"] = image
            d = description()
            d["data"]["file"] = "data.h5:/image"
            d["parameter"][0]["path"] = "particle[0].radiuss"
            path = os.path.join(tmp, "bad.toml")
            with open(path, "w") as f:
                f.write(description_toml(d))
            with self.assertRaises(ns.Error) as e:
                ns.fit(path)
            cli = subprocess.run([os.environ["NS_CLI"], "fit", path, "--quiet"], capture_output=True, text=True)
            self.assertNotEqual(cli.returncode, 0)
            self.assertEqual(cli.stderr.strip(), "nanoscatter: error: " + str(e.exception))
            self.assertIn("unknown model path 'particle[0].radiuss'", str(e.exception))


if __name__ == "__main__":
    unittest.main()
