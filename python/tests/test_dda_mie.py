"""dda and mie bindings against the CLI's outputs (ADDA files print 10
significant digits: 1e-9 relative), DDA against Mie (a 16-dipole sphere,
x = 1: |ΔQext|/Qext < 3%, the known LDR discretisation error at this grid;
docs/dda.md) and Mie against the Rayleigh limit
Qsca = (8/3) x⁴ |(m²−1)/(m²+2)|² (relative error O(x²): 1e-4 at x = 0.01)."""
import os
import re
import unittest

import numpy as np

import nanoscatter as ns
from common import ScratchTestCase, cli, cli_error


def cli_error_at(*args):
    """cli_error for a message about a file an option names ("PATH: --save-geom:
    ..."): that flag too is named by its keyword."""
    return re.sub(r": --([a-z0-9-]+): ", lambda m: ": " + m.group(1).replace("-", "_") + ": ", cli_error(*args),
                  count=1)


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
            "--device", "cpu", "--output", out, "-q")
        self.assertAlmostEqual(r.qext / adda_value(os.path.join(out, "CrossSec-Y"), "Qext"), 1, delta=1e-9)
        self.assertAlmostEqual(r.qabs / adda_value(os.path.join(out, "CrossSec-Y"), "Qabs"), 1, delta=1e-9)
        table = np.loadtxt(os.path.join(out, "mueller"), skiprows=1)
        np.testing.assert_allclose(r.mueller_theta, table[:, 0], atol=1e-9)
        np.testing.assert_allclose(r.mueller.reshape(-1, 16), table[:, 1:], rtol=1e-9, atol=1e-9 * table[:, 1].max())
        # The binding writes the same files (write_dda), after or with execute().
        plan.write_adda_outputs(self.path("py"))
        self.assertEqual(adda_value(self.path("py/CrossSec-Y"), "Qext"),
                         adda_value(os.path.join(out, "CrossSec-Y"), "Qext"))
        plan.execute(output=self.path("py2"), save_geom="s.geom")
        for name in ("CrossSec-Y", "CrossSec-X", "mueller"):
            with open(os.path.join(out, name)) as a, open(self.path("py2/" + name)) as b:
                self.assertEqual(a.read(), b.read(), name)
        with open(self.path("py2/log")) as f:
            self.assertTrue(f.read().splitlines()[1].startswith("command: python:"))
        self.assertTrue(os.path.exists(self.path("py2/s.geom")))

    def test_sphere_against_mie(self):
        r = ns.dda(shape="sphere", grid=16, m=1.5, eq_rad=1.0, device="cpu")  # λ = 2π: x = 1
        exact = ns.mie(x=1.0, m=(1.5, 0))
        self.assertLess(abs(r.qext / exact.qext - 1), 0.03)

    def test_errors_carry_the_cli_message(self):
        # The same bad value through the CLI and Python: one check
        # (DdaOptions::validate, the library's parsers), one message, the
        # flag named as the keyword.
        cases = [
            (dict(pol="magic"), ["--pol", "magic"]),          # enum parse
            (dict(iter="gmres"), ["--iter", "gmres"]),
            (dict(sym="maybe"), ["--sym", "maybe"]),
            (dict(eps=2.0), ["--eps", 2.0]),                  # validate()
            (dict(grid=[8, 0, 8]), ["--grid", 8, 0, 8]),
            (dict(maxiter=0), ["--maxiter", 0]),
            (dict(size=1.0, eq_rad=1.0), ["--size", 1.0, "--eq-rad", 1.0]),
            (dict(threads=-1), ["--threads", -1]),
            (dict(shape=("ellipsoid", 1, "a")), ["--shape", "ellipsoid", 1, "a"]),
        ]
        for keywords, flags in cases:
            with self.subTest(keywords=keywords):
                with self.assertRaises(ns.Error) as e:
                    ns.DdaPlan(device="cpu", **keywords)
                self.assertEqual(str(e.exception),
                                 cli_error("dda", "--device", "cpu", *flags, "--output", self.path("x")))
        with self.assertRaises(ns.Error) as e:
            ns.DdaPlan(grid=8, device="cpu").execute(output=self.path("x"), save_geom="no/such/dir/s.geom")
        self.assertEqual(str(e.exception), cli_error_at("dda", "--grid", 8, "--device", "cpu", "--output",
                                                     self.path("x"), "--save-geom", "no/such/dir/s.geom"))

    def test_non_convergence_raises_or_warns(self):
        # A polarisation that does not converge (2 iterations cannot reach
        # eps) raises ConvergenceError, an Error, with the partial result;
        # accept_unconverged=True returns it with a ConvergenceWarning whose
        # text is the CLI's warning line. Both name the polarisation, the
        # solver, the iterations and the residual.
        with self.assertRaises(ns.ConvergenceError) as e:
            ns.dda(grid=8, maxiter=2, device="cpu")
        self.assertIsInstance(e.exception, ns.Error)
        self.assertRegex(str(e.exception), r"^Y polarization: QMR \(complex symmetric\) did not converge after 2 "
                                           r"iterations, relative residual \S+ \(eps 1e-05\): no convergence within")
        self.assertFalse(e.exception.result.runs[0]["converged"])
        with self.assertWarns(ns.ConvergenceWarning) as w:
            r = ns.dda(grid=8, maxiter=2, accept_unconverged=True, device="cpu")
        self.assertEqual(str(w.warning), r.runs[0]["failure"])
        p = cli("dda", "--grid", 8, "--maxiter", 2, "--accept-unconverged", "--device", "cpu", "--output",
                self.path("nc"), "-q")
        self.assertEqual(p.stderr, "nanoscatter: warning: dda: " + str(w.warning) + "\n")

    def test_user_case_in_nanometres_converges(self):
        # The report: a polystyrene sphere in nm stopped after 2 QMR
        # iterations with Qext 1.80 and nothing said so (Mie: 4.01).
        r = ns.dda(shape="sphere", grid=16, eq_rad=400, wavelength=660, m=1.59 + 0.001j, device="cpu")
        self.assertTrue(r.converged)
        self.assertAlmostEqual(r.qext, 4.137116, delta=1e-5)

    def test_unknown_keyword_lists_the_valid_ones(self):
        with self.assertRaises(ns.Error) as e:
            ns.DdaPlan(shape="sphere", gird=8)
        message = str(e.exception)
        self.assertIn("unknown keyword 'gird'", message)
        for name in ("grid", "eq_rad", "wavelength", "pol", "device", "comm"):
            self.assertIn(name, message)


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
        # MieOptions::validate: one check, one message through both.
        cases = [
            (dict(x=-1), ["--x", -1]),
            (dict(x=1, radius=1), ["--x", 1, "--radius", 1]),
            (dict(radius=1, wavelength=0), ["--radius", 1, "--wavelength", 0]),
            (dict(x=1, m=(1.5, -0.1)), ["--x", 1, "--m", 1.5, -0.1]),
            (dict(x=1, core_ratio=2, m_core=(1.2, 0)), ["--x", 1, "--core-ratio", 2, "--m-core", 1.2, 0]),
            (dict(x=1, core_ratio=0.5), ["--x", 1, "--core-ratio", 0.5]),
            (dict(x=1, ntheta=1), ["--x", 1, "--ntheta", 1]),
            (dict(x=1, ntheta=3, output=self.path("m.h5")), ["--x", 1, "--ntheta", 3, "--output", self.path("m.h5")]),
        ]
        for keywords, flags in cases:
            with self.subTest(keywords=keywords):
                with self.assertRaises(ns.Error) as e:
                    ns.mie(**keywords)
                self.assertEqual(str(e.exception), cli_error_at("mie", *flags))

    def test_unknown_keyword_lists_the_valid_ones(self):
        with self.assertRaises(ns.Error) as e:
            ns.mie(x=1, n_theta=5)
        message = str(e.exception)
        self.assertIn("unknown keyword 'n_theta'", message)
        for name in ("x", "radius", "wavelength", "m_core", "ntheta", "theta", "output"):
            self.assertIn(name, message)

    def test_output_is_the_cli_table(self):
        ns.mie(x=5, m=(1.5, 0.1), ntheta=7, output=self.path("py.dat"))
        cli("mie", "--x", 5, "--m", 1.5, 0.1, "--ntheta", 7, "--output", self.path("cli.dat"))
        with open(self.path("py.dat")) as a, open(self.path("cli.dat")) as b:
            py_lines, cli_lines = a.read().splitlines(), b.read().splitlines()
        self.assertTrue(py_lines[1].startswith("# command: python:"))
        self.assertEqual(py_lines[:1] + py_lines[2:], cli_lines[:1] + cli_lines[2:])


if __name__ == "__main__":
    unittest.main()
