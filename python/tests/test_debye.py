"""Debye binding against the CLI's output (same code path: agreement to
1e-13 relative, the CLI's text keeps 17 digits) and against an independent
float64 NumPy double sum (1e-10 relative: summation order only)."""
import unittest

import numpy as np

import nanoscatter as ns
from common import ScratchTestCase, cli, cli_error, read_table


def numpy_debye(positions, f):
    """Σ_i Σ_j f_i f_j sinc(Q r_ij) with constant (neutron) f, float64."""
    d = np.linalg.norm(positions[:, None, :] - positions[None, :, :], axis=-1)
    def at(q):
        x = q * d
        s = np.where(x > 0, np.sin(x) / np.where(x > 0, x, 1), 1.0)
        return f @ s @ f
    return at


class DebyeBinding(ScratchTestCase):
    def setUp(self):
        super().setUp()
        self.coo = ns.build(lattice="rocksalt", a=4.26, elements=["Co", "O"], shape="sphere", radius=7)
        ns.write_structure(self.path("coo.xyz"), self.coo)

    def test_comm_none_is_this_process_alone(self):
        # Every engine reads comm the same way (Keywords::communicator).
        q = np.linspace(0.5, 5, 20)
        np.testing.assert_array_equal(ns.DebyePlan(self.coo, comm=None).execute(q).intensity,
                                      ns.DebyePlan(self.coo).execute(q).intensity)
        ns.DdaPlan(shape="sphere", grid=8, m=(1.5, 0), eq_rad=1.0, comm=None, quiet=True)

    def test_plan_names_the_precision_it_runs_in(self):
        # auto resolves on the device (double on the CPU); asked-for precisions stay.
        self.assertEqual(ns.DebyePlan(self.coo, device="cpu").precision, "double")
        self.assertEqual(ns.DebyePlan(self.coo, device="cpu", precision="single").precision, "single")
        self.assertEqual(ns.DebyePlan(self.coo, device="cpu", precision="double").precision, "double")

    def test_partials_equal_cli(self):
        r = ns.debye(self.coo, qmin=0.1, qmax=8, qpoints=40, partials=True, device="cpu")
        cli("debye", self.path("coo.xyz"), "--qmin", 0.1, "--qmax", 8, "--qpoints", 40, "--partials",
            "--device", "cpu", "--output", self.path("i.dat"), "-q")
        cols = read_table(self.path("i.dat"))
        np.testing.assert_allclose(r.q, cols[0], rtol=1e-15)
        np.testing.assert_allclose(r.intensity, cols[1], rtol=1e-13)
        for k in range(len(r.partial_names)):
            np.testing.assert_allclose(r.partials[k], cols[2 + k], rtol=1e-12, atol=1e-12 * cols[1].max())
        np.testing.assert_allclose(r.partials.sum(axis=0), r.intensity, rtol=1e-12)

    def test_histogram_and_normalisation_equal_cli(self):
        r = ns.debye(self.coo, qmin=0.5, qmax=6, qpoints=12, method="histogram", normalize="sq",
                     radiation="neutron", device="cpu")
        cli("debye", self.path("coo.xyz"), "--qmin", 0.5, "--qmax", 6, "--qpoints", 12, "--method", "histogram",
            "--normalize", "sq", "--radiation", "neutron", "--device", "cpu", "--output", self.path("s.dat"), "-q")
        np.testing.assert_allclose(r.intensity, read_table(self.path("s.dat"))[1], rtol=1e-12)

    def test_fast_histogram_mode_equals_cli_and_stays_near_precise(self):
        fast = ns.debye(self.coo, qmin=0.5, qmax=12, qpoints=60, method="histogram", histogram_mode="fast",
                        device="cpu")
        precise = ns.debye(self.coo, qmin=0.5, qmax=12, qpoints=60, method="histogram", device="cpu")
        cli("debye", self.path("coo.xyz"), "--qmin", 0.5, "--qmax", 12, "--qpoints", 60, "--method", "histogram",
            "--histogram-mode", "fast", "--device", "cpu", "--output", self.path("f.dat"), "-q")
        np.testing.assert_allclose(fast.intensity, read_table(self.path("f.dat"))[1], rtol=1e-12)
        # Another function (δ to 511 dithered levels), within its 1e-4 of precise (docs/debye.md).
        self.assertFalse(np.array_equal(fast.intensity, precise.intensity))
        np.testing.assert_allclose(fast.intensity, precise.intensity, rtol=1e-4)

    def test_pdf_equals_cli(self):
        r = ns.debye(self.coo, qmax=5, qpoints=5, pdf=True, pdf_dr=0.05, device="cpu")
        cli("debye", self.path("coo.xyz"), "--qmax", 5, "--qpoints", 5, "--pdf", self.path("g.dat"),
            "--pdf-dr", 0.05, "--device", "cpu", "--output", self.path("i.dat"), "-q")
        r_cli, rdf_cli, g_cli = read_table(self.path("g.dat"))
        np.testing.assert_allclose(r.pdf.r, r_cli, rtol=1e-14)
        np.testing.assert_allclose(r.pdf.g, g_cli, rtol=1e-12, atol=1e-12 * np.abs(g_cli).max())

    def test_against_numpy_double_sum_with_ase_input(self):
        atoms = ns.to_ase(self.coo)
        q = np.linspace(0.05, 10, 30)
        r = ns.DebyePlan(atoms, radiation="neutron", device="cpu", precision="double").execute(q)
        # Neutron b is constant in Q; a one-atom structure gives I = b²
        # (b_Co = 2.49 fm, b_O = 5.80 fm, both positive, so b = √I).
        b = {}
        for el in ("Co", "O"):
            one = ns.Structure([el], np.zeros((1, 3)))
            b[el] = np.sqrt(ns.debye(one, q=[1.0], radiation="neutron", device="cpu").intensity[0])
        f = np.array([b[s] for s in self.coo.symbols])
        oracle = numpy_debye(self.coo.positions, f)
        np.testing.assert_allclose(r.intensity, [oracle(x) for x in q], rtol=1e-10)

    def test_result_arrays_view_the_engine_output(self):
        r = ns.debye(self.coo, qmax=2, qpoints=4, device="cpu")
        self.assertFalse(r.intensity.flags.owndata)  # a view of the engine's vector
        self.assertIsNotNone(r.intensity.base)

    def test_errors_carry_the_cli_message(self):
        with self.assertRaises(ns.Error) as e:
            ns.debye(self.coo, qmax=5, qpoints=10, method="histogram", bin_width=-1)
        self.assertEqual(str(e.exception), cli_error("debye", self.path("coo.xyz"), "--qmax", 5, "--qpoints", 10,
                                                     "--method", "histogram", "--bin-width", -1,
                                                     "--output", self.path("x.dat")))
        with self.assertRaises(ns.Error) as e:
            ns.debye(self.coo, qmax=5, qpoints=10, radiation="gamma")
        self.assertEqual(str(e.exception), cli_error("debye", self.path("coo.xyz"), "--qmax", 5, "--qpoints", 10,
                                                     "--radiation", "gamma", "--output", self.path("x.dat")))

        self.assertEqual(e.exception.field, "radiation")
        self.assertTrue(e.exception.option)
        with self.assertRaises(ns.Error) as e:
            ns.debye(self.coo, qmax=5, qpoints=10, method="histogram", histogram_mode="exact")
        self.assertEqual(str(e.exception), cli_error("debye", self.path("coo.xyz"), "--qmax", 5, "--qpoints", 10,
                                                     "--method", "histogram", "--histogram-mode", "exact",
                                                     "--output", self.path("x.dat")))
        self.assertEqual(e.exception.field, "histogram_mode")
        # Memory sizes: the CLI's parser on both sides, numbers and its text.
        for bad in (-1, "-2G", "3X"):
            with self.assertRaises(ns.Error) as e:
                ns.debye(self.coo, qmax=5, qpoints=10, device="cpu", max_device_memory=bad)
            self.assertEqual(str(e.exception), cli_error("debye", self.path("coo.xyz"), "--qmax", 5, "--qpoints", 10,
                                                         "--device", "cpu", "--max-device-memory", bad,
                                                         "--output", self.path("x.dat")))
        for good in (0, 1 << 30, "512M", "1.5G"):
            ns.debye(self.coo, qmax=5, qpoints=10, device="cpu", max_device_memory=good)
        # anomalous without a photon energy: anomalous_energy_kev's one message.
        with self.assertRaises(ns.Error) as e:
            ns.debye(self.coo, qmax=5, qpoints=10, device="cpu", anomalous=True)
        self.assertEqual(str(e.exception), cli_error("debye", self.path("coo.xyz"), "--qmax", 5, "--qpoints", 10,
                                                     "--device", "cpu", "--anomalous", "--output", self.path("x.dat")))
        self.assertEqual(e.exception.field, "anomalous")

    def test_q_grid_errors_are_the_cli_messages(self):
        # One set of grid rules (make_q_grid): each bad grid gives the CLI's
        # message with the keyword for the flag, and names the field.
        cases = [
            (dict(qmax=5), ["--qmax", 5], "qpoints"),
            (dict(qmin=0.2, qpoints=10), ["--qmin", 0.2, "--qpoints", 10], "qmax"),
            (dict(qmin=-0.1, qmax=5, qpoints=10), ["--qmin", -0.1, "--qmax", 5, "--qpoints", 10], "qmin"),
            (dict(qmin=5, qmax=1, qpoints=10), ["--qmin", 5, "--qmax", 1, "--qpoints", 10], "qmax"),
            (dict(qpoints=0, qmax=5), ["--qpoints", 0, "--qmax", 5], "qpoints"),
            (dict(qmax=5, two_theta_min=10, two_theta_max=80, wavelength=1.5, qpoints=10),
             ["--qmax", 5, "--two-theta-min", 10, "--two-theta-max", 80, "--wavelength", 1.5, "--qpoints", 10], "qmax"),
            (dict(two_theta_min=10, two_theta_max=80, qpoints=10),
             ["--two-theta-min", 10, "--two-theta-max", 80, "--qpoints", 10], "wavelength"),
            (dict(two_theta_min="10 deg", wavelength="0.154 nm", qpoints=10),
             ["--two-theta-min", "10deg", "--wavelength", "0.154nm", "--qpoints", 10], "two_theta_max"),
            (dict(two_theta_min=30, two_theta_max=20, wavelength=1.5, qpoints=10),
             ["--two-theta-min", 30, "--two-theta-max", 20, "--wavelength", 1.5, "--qpoints", 10], "two_theta_max"),
        ]
        for keywords, flags, field in cases:
            with self.subTest(keywords=keywords):
                with self.assertRaises(ns.Error) as e:
                    ns.debye(self.coo, device="cpu", **keywords)
                self.assertEqual(str(e.exception), cli_error("debye", self.path("coo.xyz"), *flags, "--device", "cpu",
                                                             "--output", self.path("x.dat")))
                self.assertEqual(e.exception.field, field)

    def test_anomalous_energy_from_the_wavelength_as_the_cli(self):
        # hc/λ of a 2θ grid's wavelength, as `--anomalous --wavelength`.
        grid = dict(two_theta_min=20, two_theta_max=60, qpoints=5, wavelength=1.7, device="cpu")
        from_wavelength = ns.debye(self.coo, anomalous=True, **grid).intensity
        from_energy = ns.debye(self.coo, anomalous=True, energy=12.398419843320026 / 1.7, **grid).intensity
        plain = ns.debye(self.coo, **grid).intensity
        np.testing.assert_allclose(from_wavelength, from_energy, rtol=1e-14)
        self.assertGreater(np.max(np.abs(from_wavelength / plain - 1)), 1e-3)  # Co near its K edge (7.3 keV)
        cli("debye", self.path("coo.xyz"), "--two-theta-min", 20, "--two-theta-max", 60, "--qpoints", 5,
            "--wavelength", 1.7, "--anomalous", "--device", "cpu", "--output", self.path("a.dat"), "-q")
        np.testing.assert_allclose(read_table(self.path("a.dat"))[1], from_wavelength, rtol=1e-8)

    def test_unknown_keyword_lists_the_valid_ones(self):
        with self.assertRaises(ns.Error) as e:
            ns.DebyePlan(self.coo, bin_widht=1e-3)
        message = str(e.exception)
        self.assertIn("unknown keyword 'bin_widht'", message)
        for valid in ("bin_width", "histogram_mode", "method", "radiation", "device", "threads", "comm"):
            self.assertIn(valid, message)
        with self.assertRaises(ns.Error) as e:
            ns.DebyePlan(self.coo, threads="many")
        self.assertEqual(str(e.exception), "threads: expected an integer, got <class 'str'>")

    def test_output_file_equals_the_cli_file(self):
        q = ns.uniform_q_grid(0.2, 8, 30)
        ns.DebyePlan(self.coo, device="cpu", partials=True).execute(q, output=self.path("py.dat"))
        cli("debye", self.path("coo.xyz"), "--qmin", 0.2, "--qmax", 8, "--qpoints", 30, "--partials",
            "--device", "cpu", "--output", self.path("cli.dat"), "-q")
        np.testing.assert_allclose(read_table(self.path("py.dat")), read_table(self.path("cli.dat")), rtol=1e-14)
        header = [l for l in open(self.path("py.dat"), encoding="utf-8") if l.startswith("#")]
        self.assertTrue(any(l.startswith("# command: python:") for l in header), header)
        self.assertTrue(any(l.startswith("# version: nanoscatter") for l in header), header)

    def test_a_plan_with_new_factors_reuses_its_pair_sums(self):
        q = np.linspace(0.1, 8, 50)
        plan = ns.DebyePlan(self.coo, device="cpu")
        plan.execute(q)
        plan.set_factors(anomalous=True, energy=7.7, no_debye_waller=True)  # near the Co K edge
        changed = plan.execute(q).intensity
        fresh = ns.DebyePlan(self.coo, device="cpu", anomalous=True, energy=7.7, no_debye_waller=True).execute(q).intensity
        np.testing.assert_allclose(changed, fresh, rtol=1e-12)
        self.assertEqual(plan.stats["pair_sum_runs"], 1)
        with self.assertRaises(ns.Error):  # anomalous terms are X-ray only
            plan.set_radiation("neutron")
        plan.set_factors()
        plan.set_radiation("neutron")
        np.testing.assert_allclose(plan.execute(q).intensity,
                                   ns.DebyePlan(self.coo, device="cpu", radiation="neutron").execute(q).intensity,
                                   rtol=1e-12)
        smaller = ns.build(lattice="rocksalt", a=4.26, elements=["Co", "O"], shape="sphere", radius=5)
        plan.set_structure(smaller)
        np.testing.assert_allclose(plan.execute(q).intensity,
                                   ns.DebyePlan(smaller, device="cpu", radiation="neutron").execute(q).intensity,
                                   rtol=1e-12)
        self.assertEqual(plan.stats["pair_sum_runs"], 2)


if __name__ == "__main__":
    unittest.main()
