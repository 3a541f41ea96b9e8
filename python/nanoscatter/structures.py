"""Structures: conversion between nanoscatter.Structure and ase.Atoms, and
build() (``nanoscatter build``) taking ase.Atoms where the CLI takes a file.

Conventions: positions in Å. A periodic ase.Atoms (pbc all True) becomes a
periodic Structure whose cell is in the crystallographic standard orientation
(a along x, b in the xy plane); its atoms are carried over by their fractional
coordinates, so an ASE cell in any orientation gives the same crystal.
Charges come from ``atoms.get_initial_charges()`` (rounded to integers),
occupancy and B from the per-atom arrays ``occupancy`` and ``b_iso`` when
present (the names nanoscatter's extended XYZ uses).
"""
import os

import numpy as np

from . import _core, units


def _is_ase_atoms(obj):
    return hasattr(obj, "get_chemical_symbols") and hasattr(obj, "get_positions")


def from_ase(atoms, title=""):
    """A :class:`nanoscatter.Structure` from an ``ase.Atoms``."""
    symbols = atoms.get_chemical_symbols()
    charges = np.rint(atoms.get_initial_charges()).astype(int).tolist()
    occupancy = atoms.arrays.get("occupancy")
    b_iso = atoms.arrays.get("b_iso")
    periodic = bool(np.all(atoms.pbc)) and atoms.cell.rank == 3
    cell = None
    positions = atoms.get_positions()
    if atoms.cell.rank == 3:
        from ase.geometry import cellpar_to_cell

        cellpar = atoms.cell.cellpar()
        cell = tuple(float(v) for v in cellpar)
        # The same crystal in the standard orientation (a ∥ x, b in xy).
        standard = cellpar_to_cell(cellpar)
        positions = atoms.get_scaled_positions(wrap=False) @ standard
    return _core.Structure(
        symbols,
        np.ascontiguousarray(positions, dtype=float),
        charges=charges,
        occupancy=None if occupancy is None else np.asarray(occupancy, float).tolist(),
        b_iso=None if b_iso is None else np.asarray(b_iso, float).tolist(),
        cell=cell,
        title=title or atoms.get_chemical_formula(),
        periodic=periodic,
    )


def to_ase(structure):
    """An ``ase.Atoms`` of a Structure (or of anything as_structure takes).

    A periodic structure (a crystal's unit cell) gets its cell and pbc
    True; a finite one (a particle cut from a lattice) gets no cell and pbc
    False, since the lattice it was cut from does not repeat it. Charges go
    to the initial charges; occupancy and B to the arrays ``occupancy`` and
    ``b_iso`` when they differ from 1 and 0.
    """
    import ase

    s = as_structure(structure)
    cell = s.cell_vectors if s.periodic else None
    atoms = ase.Atoms(
        symbols=s.symbols,
        positions=s.positions,
        cell=cell if cell is not None else np.zeros((3, 3)),
        pbc=bool(s.periodic),
    )
    charges = s.charges
    if np.any(charges != 0):
        atoms.set_initial_charges(charges.astype(float))
    if np.any(s.occupancy != 1):
        atoms.set_array("occupancy", s.occupancy)
    if np.any(s.b_iso != 0):
        atoms.set_array("b_iso", s.b_iso)
    if s.title:
        atoms.info["title"] = s.title
    return atoms


def as_structure(obj):
    """A Structure from a Structure, an ase.Atoms or a structure file name."""
    if isinstance(obj, _core.Structure):
        return obj
    if _is_ase_atoms(obj):
        return from_ase(obj)
    if isinstance(obj, (str, os.PathLike)):
        return _core.read_structure(os.fspath(obj))
    raise _core.Error("structure: expected a file name, a nanoscatter.Structure or an ase.Atoms, got "
                      + type(obj).__name__)


def build(**options):
    """``nanoscatter build`` with the same options as keywords.

    Source (one of): ``lattice`` (with ``a``, ``elements``, optional ``c``,
    ``u``), ``cif`` (a cell file, or a periodic Structure/ase.Atoms), or
    ``input`` (a finite structure: file, Structure or ase.Atoms). Shape:
    ``shape`` = sphere|cube|cuboid|cylinder|octahedron with ``radius``,
    ``edge``, ``size`` (3 edges), ``height``; or ``planes`` (file, or rows
    (nx, ny, nz, d) with n·r ≤ d). Then ``placements`` (file, or rows
    (x, y, z[, α, β, γ])), ``vacancies``, ``vacancy_elements``,
    ``displace``, ``b_factor`` ({element: B in Å²}), ``seed``. Lengths in
    Å, or strings with their unit (``radius="2 nm"``). Returns a Structure.
    """
    for key in ("cif", "input"):
        value = options.get(key)
        if value is not None and not isinstance(value, (str, os.PathLike)):
            options[key] = as_structure(value)
        elif isinstance(value, os.PathLike):
            options[key] = os.fspath(value)
    for key in ("planes", "placements"):
        if isinstance(options.get(key), os.PathLike):
            options[key] = os.fspath(options[key])
    if isinstance(options.get("elements"), str):
        options["elements"] = options["elements"].split()
    # Lengths may carry their unit ("2 nm"); a number is Å.
    for key in ("a", "c", "radius", "edge", "height", "displace"):
        if isinstance(options.get(key), str):
            options[key] = units.length(options[key], "angstrom", name=key)
    if isinstance(options.get("size"), (list, tuple)):
        options["size"] = [units.length(v, "angstrom", name="size") if isinstance(v, str) else v
                           for v in options["size"]]
    return _core.build(**options)


def set_b_factors(structure, b_factor):
    """A copy of ``structure`` (Structure, ase.Atoms or file name) with the
    isotropic Debye–Waller B (Å²) of each element in ``b_factor`` set, e.g.
    ``{"Au": 0.5}``; ``nanoscatter build --b-factor Au=0.5`` does the same."""
    return _core.set_b_factors(as_structure(structure), b_factor)
