#!/usr/bin/python3
"""Independent reference for nanoscatter's CIF reader: read a CIF with ASE
(which expands the symmetry operations) and print the cell as
"cell ax ay az bx by bz cx cy cz" (Cartesian lattice vectors, Angstrom), then
one line per atom, "<element> <fx> <fy> <fz>", fractional coordinates
wrapped into [0, 1).
Run with Debian's /usr/bin/python3 (python3-ase)."""
import sys

import ase.io


def main(path):
    atoms = ase.io.read(path, format="cif")
    print("cell " + " ".join(f"{v:.12f}" for v in atoms.cell.array.reshape(-1)))
    for symbol, f in zip(atoms.get_chemical_symbols(), atoms.get_scaled_positions(wrap=True)):
        print(f"{symbol} {f[0]:.12f} {f[1]:.12f} {f[2]:.12f}")


if __name__ == "__main__":
    main(sys.argv[1])
