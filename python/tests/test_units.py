"""Values with their unit from Python (docs/conventions.md): nanoscatter.units
converts strings into a stated unit with the library's parser, and the
engines' length keywords take the same strings, giving the same numbers as
the bare form in each engine's unit."""
import os
import unittest

import numpy as np

import nanoscatter as ns
from common import SOURCE_DIR, ScratchTestCase


class UnitsModule(unittest.TestCase):
    def test_conversions(self):
        self.assertEqual(ns.units.length("2 nm", "angstrom"), 20.0)
        self.assertEqual(ns.units.length("2nm", "Å"), 20.0)
        self.assertEqual(ns.units.length("50 Å", "nm"), 5.0)
        self.assertEqual(ns.units.length("0.5 µm", "nm"), 500.0)
        self.assertEqual(ns.units.length("75 um", "mm"), 0.075)
        self.assertEqual(ns.units.length(3, "nm"), 3.0)  # a number is in the unit named
        self.assertAlmostEqual(ns.units.angle("3.5 mrad", "deg"), np.degrees(3.5e-3), places=14)
        self.assertEqual(ns.units.angle("0.2 deg", "deg"), 0.2)
        self.assertAlmostEqual(ns.units.wavelength("12.398419843320026 keV", "angstrom"), 1.0, places=15)
        self.assertEqual(ns.units.energy("8040 eV"), 8.04)

    def test_errors_are_one_line_and_name_the_field(self):
        cases = [
            (lambda: ns.units.length("50 A", "nm", name="radius"),
             "radius: 'A' in '50 A' is not a unit here (A is the ampere): write Å or angstrom"),
            (lambda: ns.units.length("5 furlong", "nm", name="radius"),
             "radius: unknown unit 'furlong' in '5 furlong'; give a length (Å, angstrom, nm, um, µm, mm, cm, m)"),
            (lambda: ns.units.length("nan nm", "nm", name="radius"), "radius: must be a finite number, got 'nan nm'"),
            (lambda: ns.units.angle("1 nm", "deg", name="alpha_i"),
             "alpha_i: '1 nm' is a length; give an angle (deg, °, rad, mrad, urad, µrad)"),
            (lambda: ns.units.length("1 nm", "parsec"), "unit: unknown length unit 'parsec' (Å, angstrom, nm, um, µm, mm, m)"),
            (lambda: ns.build(lattice="fcc", a=4.078, elements="Au", shape="sphere", radius="1 inch"),
             "radius: unknown unit 'inch' in '1 inch'; give a length (Å, angstrom, nm, um, µm, mm, cm, m)"),
            (lambda: ns.mie(radius="250 nm", wavelength=500, m=(1.5, 0)),
             "wavelength: '500' has no unit while radius has one ('250 nm'): give units to all lengths or to none"),
        ]
        for call, message in cases:
            with self.assertRaises(ns.Error) as e:
                call()
            self.assertEqual(str(e.exception), message)
            self.assertNotIn("\n", str(e.exception))


class EnginesTakeUnits(ScratchTestCase):
    def test_build_and_debye(self):
        bare = ns.build(lattice="fcc", a=4.078, elements="Au", shape="sphere", radius=10)
        with_units = ns.build(lattice="fcc", a="0.4078 nm", elements="Au", shape="sphere", radius="1 nm")
        np.testing.assert_array_equal(bare.positions, with_units.positions)
        grid = dict(qpoints=12, device="cpu", quiet=True)
        r1 = ns.debye(bare, two_theta_min=10, two_theta_max=80, wavelength=1.54, **grid)
        r2 = ns.debye(bare, two_theta_min="10 deg", two_theta_max="80deg", wavelength="0.154 nm", **grid)
        np.testing.assert_array_equal(r1.q, r2.q)
        np.testing.assert_array_equal(r1.intensity, r2.intensity)
        a1 = ns.debye(bare, qmax=6, anomalous=True, energy=8.04, **grid)
        a2 = ns.debye(bare, qmax=6, anomalous=True, energy="8040 eV", **grid)
        np.testing.assert_array_equal(a1.intensity, a2.intensity)

    def test_pattern2d(self):
        au = ns.build(lattice="fcc", a=4.078, elements="Au", shape="sphere", radius=6)
        common = dict(flat=True, nx=8, ny=6, device="cpu")
        r1 = ns.pattern2d(au, wavelength=1.0, distance=100, pixel_size=2, euler_zyz=(30, 20, 10), **common)
        r2 = ns.pattern2d(au, wavelength="0.1 nm", distance="10 cm", pixel_size="2000 um",
                          euler_zyz=("30 deg", 20, 10), **common)
        np.testing.assert_array_equal(r1.intensity, r2.intensity)

    def test_dda_and_mie(self):
        m1 = ns.mie(radius=250, wavelength=500, m=(1.5, 0))
        m2 = ns.mie(radius="0.25 um", wavelength="500 nm", m=(1.5, 0))
        self.assertEqual((m1.qext, m1.qsca), (m2.qext, m2.qsca))
        d1 = ns.dda(grid=6, size=1000, wavelength=500, device="cpu", quiet=True)
        d2 = ns.dda(grid=6, size="1 um", wavelength="0.5 um", device="cpu", quiet=True)
        self.assertEqual(d1.qext, d2.qext)
        self.assertEqual(d1.runs[0]["cext"], d2.runs[0]["cext"])

    def test_gisaxs_sample_in_angstrom_strings(self):
        sample = os.path.join(SOURCE_DIR, "examples", "gisaxs", "cylinders_on_substrate.toml")
        with open(sample) as f:
            text = f.read().replace("bins = 200", "bins = 24")
        nm = ns.gisaxs(ns.parse_sample(text, "nm.toml"), device="cpu")
        a_text = text.replace("radius = 5.0", 'radius = "50 Å"').replace("height = 5.0", 'height = "50 angstrom"')
        self.assertNotEqual(a_text, text)
        angstrom = ns.gisaxs(ns.parse_sample(a_text, "a.toml"), device="cpu")
        np.testing.assert_array_equal(nm.intensity, angstrom.intensity)


if __name__ == "__main__":
    unittest.main()
