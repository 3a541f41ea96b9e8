"""dda and mie bindings against the CLI's outputs (ADDA files print 10
significant digits: 1e-9 relative), DDA against Mie (a 16-dipole sphere,
x = 1: |ΔQext|/Qext < 3%, the known LDR discretisation error at this grid;
docs/dda.md) and Mie against the Rayleigh limit
Qsca = (8/3) x⁴ |(m²−1)/(m²+2)|² (relative error O(x²): 1e-4 at x = 0.01)."""
import os
import unittest

import numpy as np

import nanoscatter as ns
from common import ScratchTestCase, cli, cli_error


def adda_value(path, key):
    with open(path) as f:
        for line in f:
            if line.startswith(key):
                return float(line.split("=")[1])
    raise KeyError(key)


class DdaBinding(ScratchTestCase):
    def test_cross_sections_and_mueller_equal_cli(self):
        plan = ns.DdaPlan(shape="sphere", grid=10, m=(1.5, 0.01), eq_rad=1.0, mueller=True, ntheta=19,
                          device="cpu")
        r = plan.execute()
        out = self.path("cli")
        cli("dda", "--shape", "sphere", "--grid", 10, "--m", 1.5, 0.01, "--eq-rad", 1.0, "--mueller", "--ntheta", 19,
            "--device", "cpu", "--output-dir", out, "-q")
        self.assertAlmostEqual(r.qext / adda_value(os.path.join(out, "CrossSec-Y"), "Qext"), 1, delta=1e-9)
        self.assertAlmostEqual(r.qabs / adda_value(os.path.join(out, "CrossSec-Y"), "Qabs"), 1, delta=1e-9)
        table = np.loadtxt(os.path.join(out, "mueller"), skiprows=1)
        np.testing.assert_allclose(r.mueller_theta, table[:, 0], atol=1e-9)
        np.testing.assert_allclose(r.mueller.reshape(-1, 16), table[:, 1:], rtol=1e-9, atol=1e-9 * table[:, 1].max())
        # The binding writes the same files.
        plan.write_adda_outputs(self.path("py"))
        self.assertEqual(adda_value(self.path("py/CrossSec-Y"), "Qext"),
                         adda_value(os.path.join(out, "CrossSec-Y"), "Qext"))

    def test_sphere_against_mie(self):
        r = ns.dda(shape="sphere", grid=16, m=1.5, eq_rad=1.0, device="cpu")  # λ = 2π: x = 1
        exact = ns.mie(x=1.0, m=(1.5, 0))
        self.assertLess(abs(r.qext / exact.qext - 1), 0.03)

    def test_errors_carry_the_cli_message(self):
        with self.assertRaises(ns.Error) as e:
            ns.DdaPlan(shape="sphere", grid=8, pol="magic")
        self.assertEqual(str(e.exception), cli_error("dda", "--shape", "sphere", "--grid", 8, "--pol", "magic",
                                                     "--output-dir", self.path("x")))


class MieBinding(ScratchTestCase):
    def test_equals_cli(self):
        r = ns.mie(x=5, m=(1.5, 0.1), ntheta=7)
        p = cli("mie", "--x", 5, "--m", 1.5, 0.1, "--ntheta", 7, "--output", self.path("m.dat"))
        values = {k.strip(): float(v) for k, v in (line.split("=") for line in p.stdout.strip().splitlines())}
        for key, name in (("qext", "Qext"), ("qsca", "Qsca"), ("qabs", "Qabs"), ("qback", "Qback"), ("g", "g")):
            self.assertAlmostEqual(getattr(r, key) / values[name], 1, delta=1e-9)
        table = np.loadtxt(self.path("m.dat"), comments="#")
        np.testing.assert_allclose(np.c_[r.theta, r.s11, r.s12, r.s33, r.s34], table, rtol=1e-13, atol=1e-13)

    def test_rayleigh_limit(self):
        x, m = 0.01, 1.5
        r = ns.mie(x=x, m=m)
        rayleigh = 8 / 3 * x**4 * abs((m**2 - 1) / (m**2 + 2)) ** 2
        self.assertAlmostEqual(r.qsca / rayleigh, 1, delta=1e-4)

    def test_errors_carry_the_cli_message(self):
        with self.assertRaises(ns.Error) as e:
            ns.mie(x=-1)
        self.assertEqual(str(e.exception), cli_error("mie", "--x", -1))


if __name__ == "__main__":
    unittest.main()
