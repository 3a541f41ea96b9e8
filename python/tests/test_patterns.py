"""Measured 1D patterns from Python (read_pattern): NumPy arrays, axis,
wavelength and header metadata of files the test writes; the library's
one-line errors as nanoscatter.Error. Real PDFs are read when
NS_REAL_DATA_DIR names the folder holding pdf_ni/ and pdf_c60/."""
import os
import shutil
import tempfile
import unittest

import numpy as np

import nanoscatter


class Patterns(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ns-patterns-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_xye_round_trip_values(self):
        rng = np.random.default_rng()
        x = np.cumsum(rng.uniform(1e-3, 1.0, 200)) + 5
        y = rng.normal(size=200) * 1e4
        s = rng.uniform(0, 3, 200)
        path = os.path.join(self.dir, "p.xye")
        np.savetxt(path, np.column_stack([x, y, s]), fmt="%.17g", header="wavelength = 0.7093")
        p = nanoscatter.read_pattern(path)
        self.assertEqual(p["axis"], "two_theta")
        self.assertEqual(p["wavelength"], 0.7093)
        np.testing.assert_array_equal(p["x"], x)
        np.testing.assert_array_equal(p["y"], y)
        np.testing.assert_array_equal(p["sigma"], s)
        q = nanoscatter.read_pattern(path, axis="q")
        self.assertEqual(q["axis"], "q")

    def test_write_read_back(self):
        x = np.linspace(10, 80, 301)
        y = np.exp(-x / 30)
        path = os.path.join(self.dir, "w.xye")
        nanoscatter.write_pattern(path, x, y, sigma=np.sqrt(y), wavelength=1.5406, metadata={"sample": "Si"},
                                  columns="both")
        p = nanoscatter.read_pattern(path)
        np.testing.assert_array_equal(p["x"], x)
        np.testing.assert_array_equal(p["sigma"], np.sqrt(y))
        self.assertEqual(p["metadata"], {"sample": "Si"})
        q = os.path.join(self.dir, "q.dat")
        nanoscatter.write_pattern(q, x, y, wavelength=1.5406, columns="q")
        pq = nanoscatter.read_pattern(q)
        self.assertEqual(pq["axis"], "q")
        np.testing.assert_allclose(pq["x"], 4 * np.pi * np.sin(np.radians(x / 2)) / 1.5406, rtol=1e-14)
        with self.assertRaises(nanoscatter.Error) as e:
            nanoscatter.write_pattern(q, x, y, columns="q")
        self.assertIn("wavelength", str(e.exception))

    def test_gr_metadata_and_chi_units(self):
        g = nanoscatter.read_pattern(self.write(
            "a.gr", "qmax=30 qdamp=0.05\nstype=X\n#### start data\n#L r G\n1 2\n2 3\n"))
        self.assertEqual(g["axis"], "r")
        self.assertIsNone(g["sigma"])
        self.assertEqual(g["metadata"], {"Qmax": "30", "Qdamp": "0.05", "stype": "X"})
        c = nanoscatter.read_pattern(self.write("a.chi", "# Wavelength: 1e-10 m\n#  q_nm^-1  I\n10 1\n20 2\n"))
        self.assertEqual(c["axis"], "q")
        np.testing.assert_allclose(c["x"], [1.0, 2.0])
        self.assertAlmostEqual(c["wavelength"], 1.0)

    def test_errors(self):
        path = self.write("bad.xy", "1 2\n1 3\n")
        with self.assertRaises(nanoscatter.Error) as e:
            nanoscatter.read_pattern(path)
        self.assertIn("bad.xy:2: x: duplicate x 1", str(e.exception))
        with self.assertRaises(nanoscatter.Error) as e:
            nanoscatter.read_pattern(path, axis="k")
        self.assertIn("axis", str(e.exception))

    def test_real_pdfs(self):
        root = os.environ.get("NS_REAL_DATA_DIR")
        if not root or not os.path.exists(os.path.join(root, "pdf_ni", "Ni-xray.gr")):
            self.skipTest("set NS_REAL_DATA_DIR to the folder with pdf_ni/ and pdf_c60/")
        ni = nanoscatter.read_pattern(os.path.join(root, "pdf_ni", "Ni-xray.gr"))
        self.assertEqual(len(ni["x"]), 2000)
        self.assertEqual(float(ni["metadata"]["Qmax"]), 40.0)
        c60 = nanoscatter.read_pattern(os.path.join(root, "pdf_c60", "C60.gr"))
        self.assertEqual(len(c60["sigma"]), 1999)


if __name__ == "__main__":
    unittest.main()
