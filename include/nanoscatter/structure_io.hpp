// Reading and writing structures: XYZ (plain and extended), PDB, CIF.
// Every reader throws Error naming the file, the 1-based line and the field
// at fault; every writer writes through AtomicOutput, so a failed write
// leaves no file behind.
#pragma once
#include <string>

#include "nanoscatter/structure.hpp"

namespace nanoscatter {

// Dispatch on the extension (case-insensitive): .xyz, .extxyz, .pdb, .ent, .cif.
Structure read_structure(const std::string& path);

// XYZ: line 1 the atom count, line 2 a comment, then "El x y z" per atom
// (Å; extra columns ignored). An extended-XYZ comment line is understood:
// Lattice="ax ay az bx by bz cx cy cz" sets the cell (positions are rotated
// into the cell's standard orientation when the file's lattice is not in it),
// Properties=species:S:1:pos:R:3[...] names the columns (charge:I:1,
// occupancy:R:1 and b_iso:R:1 are read when present), pbc="T T T" marks a
// periodic cell. A species may carry a charge ("Na1+") or be an atomic number.
Structure read_xyz(const std::string& path);

// PDB: ATOM/HETATM records (element from columns 77–78, else from the atom
// name; occupancy; B-factor as b_iso; charge from columns 79–80) of the first
// MODEL, CRYST1 as the cell (the placeholder 1 1 1 90 90 90 means no cell).
Structure read_pdb(const std::string& path);

// CIF 1.1: the first data block with a cell or atom sites. Returns the full
// unit cell: the atom sites expanded by the symmetry operations
// (_space_group_symop_operation_xyz or _symmetry_equiv_pos_as_xyz; none
// given means P1 unless a space group other than P1 is named), fractional
// coordinates wrapped into [0, 1), images of one site closer than 1e-4
// (fractional, periodic) merged. B = 8π² U_iso when U is given.
Structure read_cif(const std::string& path);

// Writes XYZ: plain when the structure has no cell and all atoms are neutral
// with occupancy 1 and B = 0; otherwise extended XYZ with Lattice, pbc and
// only the extra columns the atoms need (charge, occupancy, b_iso). The
// comment is stored as comment="..." in the extended form.
void write_xyz(const std::string& path, const Structure& structure, const std::string& comment);

// Writes PDB HETATM records, plus CRYST1 (space group P 1) when the atoms are
// one periodic cell; a finite particle gets no CRYST1. Coordinates must fit
// the format's 8.3 columns (|x| < 10000 Å).
void write_pdb(const std::string& path, const Structure& structure, const std::string& title);

// Dispatch on the extension: .xyz/.extxyz, .pdb. Error naming `field` for others.
void write_structure(const std::string& path, const Structure& structure, const std::string& comment,
                     const std::string& field = "--output");

}  // namespace nanoscatter
