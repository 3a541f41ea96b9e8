"""pattern2d binding against the CLI's text output (same code: 1e-12
relative) and against a NumPy float64 amplitude sum for one species with
neutrons (constant b): I(q)/I(0) = |Σ_j exp(i q·r_j)|²/N² to 1e-10. The
files written with output= are the CLI's; bad values give the CLI's
messages with the keyword in place of the flag; unknown keywords are
nanoscatter.Error listing the valid ones."""
import os
import re
import unittest

try:
    import h5py
except ImportError:  # the file comparisons need it
    h5py = None

import numpy as np

import nanoscatter as ns
from common import ScratchTestCase, cli, cli_error, read_table


def cli_file_error(*args):
    """cli_error for messages that name a file first ("out.png: --amplitude:
    ..."): the flag after the file becomes its keyword too."""
    message = cli_error(*args)
    return re.sub(r"^([^ ]+: )--([a-z0-9-]+): ", lambda m: m.group(1) + m.group(2).replace("-", "_") + ": ",
                  message)


class Pattern2DBinding(ScratchTestCase):
    def setUp(self):
        super().setUp()
        self.au = ns.build(lattice="fcc", a=4.078, elements="Au", shape="cube", edge=12)
        ns.write_structure(self.path("au.xyz"), self.au)

    def test_polar_equals_cli(self):
        r = ns.pattern2d(self.au, wavelength=0.5, qmax=4, nq=16, nphi=24, euler_zyz=(10, 20, 30), device="cpu")
        cli("pattern2d", self.path("au.xyz"), "--wavelength", 0.5, "--qmax", 4, "--nq", 16, "--nphi", 24,
            "--euler-zyz", 10, 20, 30, "--device", "cpu", "--output", self.path("p.dat"), "-q")
        q, phi, qx, qy, qz, intensity = read_table(self.path("p.dat"))
        self.assertEqual(r.intensity.shape, (16, 24))
        np.testing.assert_allclose(r.intensity.ravel(), intensity, rtol=1e-12, atol=1e-12 * intensity.max())
        np.testing.assert_allclose(r.q[..., 0].ravel(), qx, rtol=1e-14, atol=1e-14)

    def test_flat_detector_against_numpy_sum_with_ase_input(self):
        atoms = ns.to_ase(self.au)
        r = ns.pattern2d(atoms, wavelength=1.0, flat=True, distance=100, pixel_size=2, nx=9, ny=7,
                         radiation="neutron", device="cpu", precision="double")
        q = r.q.reshape(-1, 3)
        amplitude = np.exp(1j * q @ self.au.positions.T).sum(axis=1)
        expected = np.abs(amplitude) ** 2 / len(self.au) ** 2
        centre = ns.pattern2d(atoms, wavelength=1.0, qmax=1e-9, nq=1, nphi=1, radiation="neutron",
                              device="cpu").intensity[0, 0]  # |q| ≈ 0: I = N² b²
        np.testing.assert_allclose(r.intensity.ravel() / centre, expected, rtol=1e-10)

    def test_errors_carry_the_cli_message(self):
        with self.assertRaises(ns.Error) as e:
            ns.pattern2d(self.au, wavelength=1.0, qmax=40, nq=4, nphi=4)
        self.assertEqual(str(e.exception), cli_error("pattern2d", self.path("au.xyz"), "--wavelength", 1.0,
                                                     "--qmax", 40, "--nq", 4, "--nphi", 4,
                                                     "--output", self.path("x.h5")))

    def test_same_bad_value_same_message_as_the_cli(self):
        polar = dict(wavelength=1.0, qmax=4, nq=4, nphi=4)
        cli_polar = ["--wavelength", 1.0, "--qmax", 4, "--nq", 4, "--nphi", 4, "--output", self.path("x.h5")]
        cases = [
            # Pattern2DOptions::validate (DeviceOptions::validate for threads).
            (dict(threads=-2), ["--threads", -2]),
            (dict(radiation="neutron", anomalous=True), ["--radiation", "neutron", "--anomalous"]),
            # Enum parsers.
            (dict(radiation="light"), ["--radiation", "light"]),
            (dict(precision="half"), ["--precision", "half"]),
            (dict(device="tpu"), ["--device", "tpu"]),
        ]
        for options, flags in cases:
            with self.subTest(options=options):
                with self.assertRaises(ns.Error) as e:
                    ns.pattern2d(self.au, **polar, **options)
                self.assertEqual(str(e.exception), cli_error("pattern2d", self.path("au.xyz"), *cli_polar, *flags))
                self.assertTrue(e.exception.option)

    def test_geometry_rules_give_the_cli_messages(self):
        cases = [
            (dict(qmax=4, nq=4, nphi=4), ["--qmax", 4, "--nq", 4, "--nphi", 4]),  # no wavelength
            (dict(wavelength=1, qmax=4, nq=4), ["--wavelength", 1, "--qmax", 4, "--nq", 4]),
            (dict(wavelength=1, flat=True, nq=8), ["--wavelength", 1, "--flat", "--nq", 8]),
            (dict(wavelength=1, flat=True, distance=100, pixel_size=-0.1, nx=4, ny=4),
             ["--wavelength", 1, "--flat", "--distance", 100, "--pixel-size", -0.1, "--nx", 4, "--ny", 4]),
            (dict(wavelength=1, qmax=4, nq=4, nphi=4, direct_beam=(1, 2)),
             ["--wavelength", 1, "--qmax", 4, "--nq", 4, "--nphi", 4, "--direct-beam", 1, 2]),
            (dict(wavelength=1, qmax=4, nq=4, nphi=4, euler_zyz=(1, 2, 3), rotation=np.eye(3)),
             ["--wavelength", 1, "--qmax", 4, "--nq", 4, "--nphi", 4, "--euler-zyz", 1, 2, 3,
              "--rotation", 1, 0, 0, 0, 1, 0, 0, 0, 1]),
        ]
        for geometry, flags in cases:
            with self.subTest(geometry=geometry):
                with self.assertRaises(ns.Error) as e:
                    ns.pattern2d(self.au, **geometry)
                self.assertEqual(str(e.exception),
                                 cli_error("pattern2d", self.path("au.xyz"), *flags, "--output", self.path("x.h5")))

    def test_output_errors_give_the_cli_messages(self):
        polar = ["--wavelength", 1.0, "--qmax", 4, "--nq", 4, "--nphi", 4]
        plan = ns.Pattern2DPlan(self.au, amplitude=True)
        for kwargs, flags in [(dict(output=self.path("x.png")), ["--amplitude", "--output", self.path("x.png")]),
                              (dict(output=self.path("x.xyz")), ["--amplitude", "--output", self.path("x.xyz")]),
                              (dict(png=self.path("x.h5")), ["--amplitude", "--output", self.path("x.h5"),
                                                             "--png", self.path("x.h5")])]:
            with self.subTest(kwargs=kwargs):
                with self.assertRaises(ns.Error) as e:
                    plan.execute(wavelength=1.0, qmax=4, nq=4, nphi=4, **kwargs)
                self.assertEqual(str(e.exception),
                                 cli_file_error("pattern2d", self.path("au.xyz"), *polar, *flags))
        self.assertEqual(os.listdir(self.dir), ["au.xyz"])

    def test_unknown_keywords_list_the_valid_ones(self):
        with self.assertRaises(ns.Error) as e:
            ns.Pattern2DPlan(self.au, radiaton="neutron")
        message = str(e.exception)
        self.assertIn("unknown keyword 'radiaton'", message)
        for valid in ("radiation", "anomalous", "amplitude", "device", "threads", "comm"):
            self.assertIn(valid, message)
        with self.assertRaises(ns.Error) as e:
            ns.pattern2d(self.au, wavelength=1.0, qmax=4, nq=4, nphi=4, pixelsize=1)
        self.assertIn("unknown keyword 'pixelsize'", str(e.exception))
        with self.assertRaises(ns.Error) as e:
            ns.Pattern2DPlan(self.au).execute(wavelength=1.0, qmax=4, nq=4, nphi=4, nx_=3)
        self.assertIn("unknown keyword 'nx_'", str(e.exception))
        for valid in ("wavelength", "qmax", "pixel_size", "direct_beam", "output", "png"):
            self.assertIn(valid, str(e.exception))
        with self.assertRaises(ns.Error) as e:
            ns.pattern2d(self.au, wavelength="one", qmax=4, nq=4, nphi=4)
        self.assertTrue(str(e.exception).startswith("wavelength: expected a number"), str(e.exception))
        # None is "not given": comm (this process alone) and the geometry keywords.
        r = ns.Pattern2DPlan(self.au, comm=None, device="cpu").execute(wavelength=1.0, qmax=4, nq=3, nphi=4,
                                                                       euler_zyz=None, distance=None)
        self.assertEqual(r.intensity.shape, (3, 4))

    @unittest.skipIf(h5py is None, "h5py missing")
    def test_output_writes_the_cli_files(self):
        common = dict(wavelength=1.2, qmax=6, nq=9, nphi=12, euler_zyz=(10, 20, 30), device="cpu")
        flags = ["--wavelength", 1.2, "--qmax", 6, "--nq", 9, "--nphi", 12, "--euler-zyz", 10, 20, 30,
                 "--device", "cpu", "--amplitude", "-q"]
        r = ns.pattern2d(self.au, amplitude=True, output=self.path("py.h5"), png=self.path("py.png"), **common)
        ns.pattern2d(self.au, amplitude=True, output=self.path("py.dat"), **common)
        cli("pattern2d", self.path("au.xyz"), *flags, "--output", self.path("cli.h5"), "--png", self.path("cli.png"))
        cli("pattern2d", self.path("au.xyz"), *flags, "--output", self.path("cli.dat"))
        with h5py.File(self.path("py.h5"), "r") as p, h5py.File(self.path("cli.h5"), "r") as c:
            self.assertEqual(sorted(p.keys()), sorted(c.keys()))
            np.testing.assert_array_equal(p["intensity"][...], c["intensity"][...])
            np.testing.assert_array_equal(p["amplitude"][...], c["amplitude"][...])
            np.testing.assert_array_equal(p["intensity"][...], r.intensity)
            self.assertEqual(sorted(p.attrs.keys()), sorted(c.attrs.keys()))
            for key in ("engine", "version", "wavelength_angstrom", "detector", "nq", "nphi", "precision"):
                self.assertEqual(p.attrs[key], c.attrs[key], key)
            self.assertTrue(p.attrs["command"].startswith("python:"), p.attrs["command"])
            record = p["entry/process/parameters/data"][()].decode().split("\n")  # the run record (docs/nexus.md)
            self.assertIn("structure: (Python) (" + self.au.title + ")" if self.au.title else "structure: (Python)",
                          record)
        np.testing.assert_array_equal(read_table(self.path("py.dat")), read_table(self.path("cli.dat")))
        for png in ("py.png", "cli.png"):
            with open(self.path(png), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    @unittest.skipIf(h5py is None, "h5py missing")
    def test_anomalous_follows_the_wavelength(self):
        # f', f'' at hc/λ of each execute: one plan gives what a plan per λ did.
        plan = ns.Pattern2DPlan(self.au, anomalous=True, device="cpu")
        for wavelength in (1.0, 1.3):
            with self.subTest(wavelength=wavelength):
                r = plan.execute(wavelength=wavelength, qmax=4, nq=5, nphi=6, output=self.path("a.h5"))
                cli("pattern2d", self.path("au.xyz"), "--wavelength", wavelength, "--qmax", 4, "--nq", 5,
                    "--nphi", 6, "--anomalous", "--device", "cpu", "-q", "--output", self.path("c.h5"))
                with h5py.File(self.path("a.h5"), "r") as a, h5py.File(self.path("c.h5"), "r") as c:
                    np.testing.assert_array_equal(a["intensity"][...], c["intensity"][...])
                    self.assertEqual(a.attrs["anomalous_energy_kev"], ns.photon_energy_kev(wavelength))
                np.testing.assert_array_equal(r.intensity, h5py.File(self.path("c.h5"), "r")["intensity"][...])


if __name__ == "__main__":
    unittest.main()
