"""One naming scheme across engines from Python (docs/conventions.md): image
results share their axis names, the old keywords and attributes still work
with a DeprecationWarning and give the same numbers, B factors are set from
Python, to_ase gives a finite particle no cell, and a CIF with only a
space-group symbol reads as ASE reads it."""
import os
import unittest
import warnings

import numpy as np

import nanoscatter as ns
from common import SOURCE_DIR, ScratchTestCase

SAMPLE = os.path.join(SOURCE_DIR, "examples", "gisaxs", "cylinders_on_substrate.toml")
IMAGE_AXES = ("row_axis", "col_axis", "row_name", "col_name", "row_unit", "col_unit")

NACL_SYMBOL_ONLY = """data_NaCl
_cell_length_a 5.62
_cell_length_b 5.62
_cell_length_c 5.62
_cell_angle_alpha 90
_cell_angle_beta 90
_cell_angle_gamma 90
_symmetry_space_group_name_H-M 'F m -3 m'
loop_
_atom_site_type_symbol
_atom_site_fract_x
_atom_site_fract_y
_atom_site_fract_z
Na 0 0 0
Cl 0.5 0.5 0.5
"""


def deprecated(test, call):
    """call()'s value, checking that it warned exactly one DeprecationWarning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = call()
    kinds = [w.category for w in caught]
    test.assertEqual(kinds, [DeprecationWarning], [str(w.message) for w in caught])
    return value


class ImageAxes(ScratchTestCase):
    def setUp(self):
        super().setUp()
        self.au = ns.build(lattice="fcc", a=4.078, elements="Au", shape="sphere", radius=6)

    def test_pattern2d_and_gisaxs_share_the_axis_names(self):
        p = ns.pattern2d(self.au, wavelength=1.0, flat=True, distance=100, pixel_size=2, nx=8, ny=6, device="cpu")
        g = ns.gisaxs(SAMPLE)
        for r in (p, g):
            for name in IMAGE_AXES:
                self.assertIn(name, r.keys(), type(r).__name__)
            self.assertEqual(r.intensity.shape, (len(r.row_axis), len(r.col_axis)))
        self.assertEqual((g.col_name, g.row_name), ("phi_f", "alpha_f"))

    def test_old_gisaxs_axis_names_warn_and_alias(self):
        g = ns.gisaxs(SAMPLE)
        np.testing.assert_array_equal(deprecated(self, lambda: g.horizontal), g.col_axis)
        np.testing.assert_array_equal(deprecated(self, lambda: g.vertical_edges), g.row_edges)
        self.assertNotIn("horizontal", g.keys())
        with self.assertRaises(AttributeError):
            g.no_such_axis


class RenamedKeywords(ScratchTestCase):
    def setUp(self):
        super().setUp()
        self.au = ns.build(lattice="fcc", a=4.078, elements="Au", shape="sphere", radius=6)

    def test_euler_zyz_and_old_euler(self):
        polar = dict(wavelength=1.2, qmax=6, nq=9, nphi=12, device="cpu")
        new = ns.pattern2d(self.au, euler_zyz=(10, 20, 30), **polar).intensity
        old = deprecated(self, lambda: ns.pattern2d(self.au, euler=(10, 20, 30), **polar).intensity)
        np.testing.assert_array_equal(new, old)
        self.assertFalse(np.array_equal(new, ns.pattern2d(self.au, **polar).intensity))

    def test_direct_beam_from_the_corner_and_old_beam_center(self):
        flat = dict(wavelength=1.0, flat=True, distance=100, pixel_size=2, nx=8, ny=6, device="cpu")
        new = ns.pattern2d(self.au, direct_beam=(3, 2), **flat)
        old = deprecated(self, lambda: ns.pattern2d(self.au, beam_center=(2.5, 1.5), **flat))
        np.testing.assert_array_equal(new.intensity, old.intensity)
        # Pixel i's centre lies at i + 0.5 from the corner.
        np.testing.assert_allclose(new.col_axis, (np.arange(8) + 0.5 - 3) * 2.0, atol=1e-12)

    def test_dda_output_folder_and_old_output_dir(self):
        ns.dda(shape="sphere", grid=8, m=1.5, device="cpu", output=self.path("new"))
        deprecated(self, lambda: ns.dda(shape="sphere", grid=8, m=1.5, device="cpu", output_dir=self.path("old")))
        for d in ("new", "old"):
            self.assertTrue(os.path.isfile(os.path.join(self.path(d), "CrossSec-Y")), d)

    def test_wavelength_and_old_lambda_in_dda_and_mie(self):
        new = ns.mie(radius=1, wavelength=2, m=1.5)
        old = deprecated(self, lambda: ns.mie(radius=1, lambda_=2, m=1.5))
        self.assertEqual(new.qext, old.qext)
        new = ns.dda(shape="sphere", grid=6, size=2, wavelength=3, m=1.5, device="cpu")
        old = deprecated(self, lambda: ns.dda(shape="sphere", grid=6, size=2, lambda_=3, m=1.5, device="cpu"))
        self.assertEqual(new.wavelength, 3)
        self.assertEqual(new.runs[0]["qext"], old.runs[0]["qext"])

    def test_debye_anomalous_and_old_energy_alone(self):
        q = np.linspace(0.5, 6, 12)
        new = ns.debye(self.au, q=q, anomalous=True, energy=11.9, device="cpu").intensity
        old = deprecated(self, lambda: ns.debye(self.au, q=q, energy=11.9, device="cpu").intensity)
        np.testing.assert_array_equal(new, old)
        self.assertFalse(np.array_equal(new, ns.debye(self.au, q=q, device="cpu").intensity))
        with self.assertRaises(ns.Error) as e:
            ns.debye(self.au, q=q, anomalous=True, device="cpu")
        self.assertEqual(e.exception.field, "anomalous")

    def test_gisaxs_old_euler_key_warns(self):
        with open(SAMPLE) as f:  # a smaller detector; the rotation goes to the last [[particle]]
            text = f.read().replace("bins = 200", "bins = 16") + "rotation = { euler = [30, 20, 10] }\n"
        new = ns.gisaxs(ns.parse_sample(text.replace("euler =", "euler_zxz ="))).intensity
        old = deprecated(self, lambda: ns.gisaxs(ns.parse_sample(text)).intensity)
        np.testing.assert_array_equal(new, old)


class Structures(ScratchTestCase):
    def test_b_factors_from_python_equal_the_cli(self):
        s = ns.build(lattice="rocksalt", a=5.62, elements=["Na", "Cl"], shape="sphere", radius=6,
                     b_factor={"Na": 0.8, "Cl": 1.2})
        b = dict(zip(s.symbols, s.b_iso))
        self.assertEqual(b, {"Na": 0.8, "Cl": 1.2})
        again = ns.set_b_factors(s, {"Cl": 0.0})
        self.assertEqual(dict(zip(again.symbols, again.b_iso)), {"Na": 0.8, "Cl": 0.0})
        with self.assertRaises(ns.Error) as e:
            ns.set_b_factors(s, {"Au": 1.0})
        self.assertEqual(e.exception.field, "b_factor")

    def test_to_ase_of_a_finite_particle_has_no_cell(self):
        particle = ns.build(lattice="fcc", a=4.078, elements="Au", shape="sphere", radius=6)
        atoms = ns.to_ase(particle)
        self.assertFalse(any(atoms.pbc))
        self.assertEqual(atoms.cell.rank, 0)
        cell = ns.to_ase(ns.read_structure(self.write("nacl.cif", NACL_SYMBOL_ONLY)))
        self.assertTrue(all(cell.pbc))
        np.testing.assert_allclose(cell.cell.lengths(), [5.62] * 3)

    def test_cif_with_only_a_symbol_reads_as_ase(self):
        import ase.io

        path = self.write("nacl.cif", NACL_SYMBOL_ONLY)
        ours = ns.read_structure(path)
        theirs = ase.io.read(path)
        self.assertEqual(sorted(ours.symbols), sorted(theirs.get_chemical_symbols()))
        def fractional(rows):  # in [0, 1), rounded far above float noise
            return sorted(map(tuple, np.round(np.asarray(rows) / 5.62, 6) % 1.0))

        self.assertEqual(fractional(ours.positions), fractional(theirs.get_positions()))

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)


if __name__ == "__main__":
    unittest.main()
