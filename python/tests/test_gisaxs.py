"""gisaxs binding against the CLI's text output (BornAgain layout, same
code: 1e-12 relative) and, in the Born approximation, against the cylinder's
closed-form form factor: I/ΔΩ ∝ |F(q)|² with
F = 2πR²H · J1(q∥R)/(q∥R) · sinc(q_z H/2) (1e-9: J1 by a 400-point
trapezoidal rule of its periodic integral, exact to rounding)."""
import unittest

import numpy as np

import nanoscatter as ns
from common import ScratchTestCase, cli, cli_error

SAMPLE = """
density = 0.01
[beam]
wavelength = 0.1
alpha_i = 0.2
[detector]
type = "angular"
phi_f = { min = -1.5, max = 1.5, bins = 21 }
alpha_f = { min = 0.05, max = 2.0, bins = 17 }
[material.substrate]
delta = 6e-6
beta = 2e-8
[material.particle]
delta = 6e-4
beta = 2e-8
[[layer]]
name = "vacuum"
[[layer]]
name = "substrate"
material = "substrate"
[[particle]]
shape = "cylinder"
radius = 5.0
height = 4.0
material = "particle"
layer = "vacuum"
"""


def bessel_j1(x):
    # J1(x) = (1/π) ∫_0^π cos(τ − x sin τ) dτ; the trapezoidal rule converges
    # geometrically for this smooth periodic integrand.
    tau = np.linspace(0, np.pi, 401)
    values = np.cos(tau[None, :] - np.asarray(x).reshape(-1, 1) * np.sin(tau)[None, :])
    return np.trapz(values, tau, axis=1).reshape(np.shape(x)) / np.pi


class GisaxsBinding(ScratchTestCase):
    def setUp(self):
        super().setUp()
        with open(self.path("s.toml"), "w") as f:
            f.write(SAMPLE)

    def test_dwba_equals_cli(self):
        r = ns.gisaxs(self.path("s.toml"), threads=1)
        cli("gisaxs", self.path("s.toml"), "--output", self.path("i.txt"), "--threads", 1, "-q")
        text = np.loadtxt(self.path("i.txt"), comments="#")
        self.assertEqual(r.intensity.shape, (17, 21))
        np.testing.assert_allclose(r.intensity, text.T, rtol=1e-12)
        np.testing.assert_allclose(np.degrees(r.phi_f[0]), r.col_axis, rtol=1e-12)

    def test_parse_sample_equals_file(self):
        a = ns.gisaxs(ns.parse_sample(SAMPLE, "inline.toml"), approximation="born")
        b = ns.GisaxsPlan(self.path("s.toml"), approximation="born").execute()
        np.testing.assert_array_equal(a.intensity, b.intensity)

    def test_born_against_cylinder_form_factor(self):
        r = ns.gisaxs(ns.parse_sample(SAMPLE), approximation="born")
        radius, height = 5.0, 4.0
        q_par = np.hypot(r.qx, r.qy)
        x = q_par * radius
        f = 2 * np.pi * radius**2 * height * bessel_j1(x) / x * np.sinc(r.qz * height / 2 / np.pi)
        ratio = r.intensity / r.solid_angle / np.abs(f) ** 2
        np.testing.assert_allclose(ratio / ratio.mean(), 1.0, rtol=1e-9)

    def test_errors_carry_the_cli_message(self):
        bad = SAMPLE.replace("radius = 5.0", "radius = -5.0")
        with open(self.path("bad.toml"), "w") as f:
            f.write(bad)
        with self.assertRaises(ns.Error) as e:
            ns.gisaxs(self.path("bad.toml"))
        self.assertEqual(str(e.exception), cli_error("gisaxs", self.path("bad.toml"), "--output", self.path("x.h5")))
        self.assertEqual(e.exception.line, bad.splitlines().index("radius = -5.0") + 1)

    def test_option_errors_read_as_the_cli_prints_them(self):
        # The same bad value through both front ends: one library message,
        # naming the keyword in Python and the flag on the command line.
        sample = self.path("s.toml")
        out = ("--output", self.path("x.h5"))
        for keyword, value, flag in (("threads", -1, "--threads"),  # GisaxsOptions::validate
                                     ("approximation", "kinematic", "--approximation"),  # parse_approximation
                                     ("device", "tpu", "--device")):  # parse_device
            with self.subTest(keyword=keyword):
                with self.assertRaises(ns.Error) as e:
                    ns.GisaxsPlan(sample, **{keyword: value})
                self.assertEqual(str(e.exception), cli_error("gisaxs", sample, flag, value, *out))
                self.assertTrue(str(e.exception).startswith(keyword + ": "), str(e.exception))
                self.assertEqual(e.exception.field, keyword)

    def test_unknown_keyword_lists_the_valid_ones(self):
        with self.assertRaises(ns.Error) as e:
            ns.GisaxsPlan(self.path("s.toml"), aproximation="born")
        message = str(e.exception)
        self.assertIn("unknown keyword 'aproximation'", message)
        for valid in ("approximation", "comm", "device", "max_device_memory", "precision", "quiet", "threads"):
            self.assertIn(valid, message)

    def test_output_writes_the_cli_file(self):
        # execute(output=...) calls the CLI's writer: the same numbers and
        # header lines (but for the command that made them).
        sample = self.path("s.toml")
        ns.gisaxs(sample, approximation="born", output=self.path("py.txt"))
        cli("gisaxs", sample, "--approximation", "born", "--output", self.path("cli.txt"), "-q")
        np.testing.assert_array_equal(np.loadtxt(self.path("py.txt")), np.loadtxt(self.path("cli.txt")))

        def header(name):
            with open(self.path(name)) as f:
                return [line for line in f if line.startswith("#") and not line.startswith(("# command:", "# layers:"))]

        self.assertEqual(header("py.txt"), header("cli.txt"))
        with open(self.path("py.txt")) as f:
            self.assertTrue(f.readline().startswith("# nanoscatter gisaxs: Born approximation"))
            self.assertTrue(f.readline().startswith("# command: python:"))
        with self.assertRaises(ns.Error) as e:
            ns.gisaxs(sample, output=self.path("x.xyz"))
        # "x.xyz: output: ..." (cli_error maps a leading flag only).
        expected = cli_error("gisaxs", sample, "--output", self.path("x.xyz"))
        self.assertEqual(str(e.exception), expected.replace(": --output: ", ": output: "))

    def test_comm_of_one_rank_is_the_plan_alone(self):
        alone = ns.gisaxs(self.path("s.toml"))
        for comm in (ns.world(), None):
            shared = ns.gisaxs(self.path("s.toml"), comm=comm)
            np.testing.assert_array_equal(shared.intensity, alone.intensity)


if __name__ == "__main__":
    unittest.main()
