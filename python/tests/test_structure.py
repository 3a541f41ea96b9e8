"""build(), file I/O and ASE conversion against `nanoscatter build` and ASE.

Tolerances: the CLI writes XYZ with enough digits for 1e-8 Å; ASE round
trips are exact up to the cell rotation (1e-10 Å)."""
import unittest

import numpy as np
from ase.build import bulk

import nanoscatter as ns
from common import ScratchTestCase, cli, cli_error


def sorted_rows(p):
    p = np.round(np.asarray(p), 6)
    return p[np.lexsort(p.T[::-1])]


class BuildAgainstCli(ScratchTestCase):
    def test_rocksalt_sphere_with_defects_equals_cli(self):
        kw = dict(lattice="rocksalt", a=4.26, elements=["Co", "O"], shape="sphere", radius=9,
                  vacancies=0.1, displace=0.05, seed=7)
        s = ns.build(**kw)
        out = self.path("coo.xyz")
        cli("build", "--lattice", "rocksalt", "--a", 4.26, "--elements", "Co", "O", "--shape", "sphere",
            "--radius", 9, "--vacancies", 0.1, "--displace", 0.05, "--seed", 7, "--output", out, "-q")
        ref = ns.read_structure(out)
        self.assertEqual(len(s), len(ref))
        self.assertEqual(s.symbols, ref.symbols)
        np.testing.assert_allclose(s.positions, ref.positions, rtol=0, atol=1e-8)

    def test_ase_cell_in_any_orientation_builds_the_same_particle(self):
        # ASE's primitive fcc cell is not in the standard orientation; the
        # conversion goes through fractional coordinates.
        # The primitive cell's standard orientation is a rotated crystal, and
        # a sphere about a lattice point is rotation invariant: same atoms,
        # same distances from the centre (1e-9 Å).
        primitive = bulk("Au", "fcc", a=4.078)
        from_ase = ns.build(cif=primitive, shape="sphere", radius=10)
        named = ns.build(lattice="fcc", a=4.078, elements="Au", shape="sphere", radius=10)
        self.assertEqual(len(from_ase), len(named))
        np.testing.assert_allclose(np.sort(np.linalg.norm(from_ase.positions, axis=1)),
                                   np.sort(np.linalg.norm(named.positions, axis=1)), atol=1e-9)

    def test_to_ase_and_back(self):
        s = ns.build(lattice="rocksalt", a=4.26, elements=["Na1+", "Cl1-"], shape="cube", edge=12)
        atoms = ns.to_ase(s)
        self.assertEqual(atoms.get_chemical_symbols(), s.symbols)
        np.testing.assert_allclose(atoms.get_positions(), s.positions, atol=1e-12)
        np.testing.assert_array_equal(atoms.get_initial_charges(), s.charges)
        back = ns.from_ase(atoms)
        np.testing.assert_array_equal(back.charges, s.charges)
        np.testing.assert_allclose(sorted_rows(back.positions), sorted_rows(s.positions), atol=1e-9)

    def test_write_and_read(self):
        s = ns.build(lattice="fcc", a=4.078, elements="Au", shape="octahedron", radius=10)
        ns.write_structure(self.path("p.xyz"), s, "octahedron")
        np.testing.assert_allclose(ns.read_structure(self.path("p.xyz")).positions, s.positions, atol=1e-8)

    def test_errors_carry_the_cli_message(self):
        with self.assertRaises(ns.Error) as e:
            ns.build(lattice="fcc", a=4.078, elements=["Au"], shape="sphere", radius=-3)
        expected = cli_error("build", "--lattice", "fcc", "--a", 4.078, "--elements", "Au", "--shape", "sphere",
                             "--radius", -3, "--output", self.path("x.xyz"))
        self.assertEqual(str(e.exception), expected)
        self.assertEqual(e.exception.field, "radius")
        self.assertTrue(e.exception.option)
        self.assertIsInstance(e.exception, ValueError)

    def test_unknown_keyword_is_named_with_the_valid_ones(self):
        with self.assertRaises(ns.Error) as e:
            ns.build(lattice="fcc", a=4.078, elements="Au", shape="sphere", radus=10)
        self.assertIn("unknown keyword 'radus'", str(e.exception))
        self.assertIn("radius", str(e.exception))
        with self.assertRaises(ns.Error) as e:
            ns.build(lattice="fcc", a="four", elements="Au", shape="sphere", radius=10)
        self.assertIn("a:", str(e.exception))

    def test_bad_options_give_the_cli_message(self):
        # BuildOptions::validate and build_structure hold the checks: each
        # bad value reads the same from both sides, flag or keyword named.
        lattice = dict(lattice="sc", a=3, elements="Po")
        lattice_flags = ["--lattice", "sc", "--a", 3, "--elements", "Po"]
        cases = [
            (dict(lattice, shape="sphere", radius=5, vacancy_elements=["Po"]),
             [*lattice_flags, "--shape", "sphere", "--radius", 5, "--vacancy-elements", "Po"], "vacancy_elements"),
            (dict(lattice, shape="sphere", radius=5, vacancies=1.5),
             [*lattice_flags, "--shape", "sphere", "--radius", 5, "--vacancies", 1.5], "vacancies"),
            (dict(lattice, shape="sphere", radius=5, displace=-1),
             [*lattice_flags, "--shape", "sphere", "--radius", 5, "--displace", -1], "displace"),
            (dict(lattice, shape="cuboid", size=[10, 10]),
             [*lattice_flags, "--shape", "cuboid", "--size", 10, 10], "size"),
            (dict(lattice, shape="sphere", radius=5, edge=3),
             [*lattice_flags, "--shape", "sphere", "--radius", 5, "--edge", 3], "edge"),
            (dict(lattice, shape="cylinder", radius=5), [*lattice_flags, "--shape", "cylinder", "--radius", 5], "height"),
            (dict(lattice, radius=5), [*lattice_flags, "--radius", 5], "shape"),
            (dict(lattice="fcc", elements="Au", shape="sphere", radius=5),
             ["--lattice", "fcc", "--elements", "Au", "--shape", "sphere", "--radius", 5], "a"),
            (dict(a=3, input=self.path("p.xyz")), ["--a", 3, "--input", self.path("p.xyz")], "a"),
            (dict(input=self.path("p.xyz"), radius=3), ["--input", self.path("p.xyz"), "--radius", 3], "radius"),
            (dict(lattice, shape="sphere", radius=5, b_factor={"Au": 0.5}),
             [*lattice_flags, "--shape", "sphere", "--radius", 5, "--b-factor", "Au=0.5"], "b_factor"),
        ]
        ns.write_structure(self.path("p.xyz"), ns.build(lattice="sc", a=3, elements="Po", shape="sphere", radius=4))
        for keywords, flags, field in cases:
            with self.subTest(field=field, flags=flags):
                with self.assertRaises(ns.Error) as e:
                    ns.build(**keywords)
                self.assertEqual(str(e.exception), cli_error("build", *flags, "--output", self.path("x.xyz")))
                self.assertEqual(e.exception.field, field)
                self.assertTrue(e.exception.option)
        # The planes: given as rows or as a file, and not with a shape.
        with open(self.path("cube.planes"), "w") as f:
            f.write("1 0 0 6\n-1 0 0 6\n0 1 0 6\n0 -1 0 6\n0 0 1 6\n0 0 -1 6\n")
        rows = [(1, 0, 0, 6), (-1, 0, 0, 6), (0, 1, 0, 6), (0, -1, 0, 6), (0, 0, 1, 6), (0, 0, -1, 6)]
        self.assertEqual(len(ns.build(**lattice, planes=rows)), len(ns.build(**lattice, planes=self.path("cube.planes"))))
        with self.assertRaises(ns.Error) as e:
            ns.build(**lattice, planes=rows, radius=4)
        self.assertEqual(str(e.exception), cli_error("build", *lattice_flags, "--planes", self.path("cube.planes"),
                                                     "--radius", 4, "--output", self.path("x.xyz")))


if __name__ == "__main__":
    unittest.main()
