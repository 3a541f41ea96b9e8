"""pattern2d binding against the CLI's text output (same code: 1e-12
relative) and against a NumPy float64 amplitude sum for one species with
neutrons (constant b): I(q)/I(0) = |Σ_j exp(i q·r_j)|²/N² to 1e-10."""
import unittest

import numpy as np

import nanoscatter as ns
from common import ScratchTestCase, cli, cli_error, read_table


class Pattern2DBinding(ScratchTestCase):
    def setUp(self):
        super().setUp()
        self.au = ns.build(lattice="fcc", a=4.078, elements="Au", shape="cube", edge=12)
        ns.write_structure(self.path("au.xyz"), self.au)

    def test_polar_equals_cli(self):
        r = ns.pattern2d(self.au, wavelength=0.5, qmax=4, nq=16, nphi=24, euler=(10, 20, 30), device="cpu")
        cli("pattern2d", self.path("au.xyz"), "--wavelength", 0.5, "--qmax", 4, "--nq", 16, "--nphi", 24,
            "--euler", 10, 20, 30, "--device", "cpu", "--output", self.path("p.dat"), "-q")
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


if __name__ == "__main__":
    unittest.main()
