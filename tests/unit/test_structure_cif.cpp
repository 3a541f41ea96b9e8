// CIF reader: syntax (tokenizer), cell, symmetry expansion, atom-site fields
// and errors. The expansion is also checked against ASE in
// test_structure_cif_ase.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>

#include "io/cif_document.hpp"
#include "io/structure_text.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/structure_io.hpp"
#include "structure/symmetry.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

std::vector<Vec3> fractional_of(const Structure& s, const std::string& element) {
  std::vector<Vec3> out;
  for (const Atom& atom : s.atoms)
    if (atom.element == element) out.push_back(s.cell->to_fractional(atom.position));
  return out;
}

// Whether every expected position has a partner in `got` (periodic, ≤ tol).
bool same_positions(const std::vector<Vec3>& got, const std::vector<Vec3>& expected, double tol) {
  if (got.size() != expected.size()) return false;
  for (const Vec3& e : expected)
    if (std::none_of(got.begin(), got.end(), [&](const Vec3& g) { return periodic_distance(g, e) <= tol; }))
      return false;
  return true;
}

std::string error_of(const std::string& path) {
  try {
    read_cif(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(StructureCif, NaClFromTheCodExpandsToFourPlusFour) {
  const Structure s = read_structure(NS_TEST_DATA_DIR "/debye-xansons-nacl/NaCl.cif");
  ASSERT_TRUE(s.cell.has_value());
  EXPECT_EQ(s.cell->a, 5.62);
  EXPECT_TRUE(s.periodic);
  ASSERT_EQ(s.atoms.size(), 8u);
  for (const Atom& atom : s.atoms) {
    if (atom.element == "Na") EXPECT_EQ(atom.charge, 1);
    else if (atom.element == "Cl") EXPECT_EQ(atom.charge, -1);
    else ADD_FAILURE() << atom.element;
  }
  // Rock salt: Na on the fcc sites, Cl on the fcc sites shifted by (½,½,½).
  const std::vector<Vec3> fcc = {{0, 0, 0}, {0, 0.5, 0.5}, {0.5, 0, 0.5}, {0.5, 0.5, 0}};
  std::vector<Vec3> shifted;
  for (const Vec3& f : fcc) shifted.push_back(wrap_fractional(f + Vec3{0.5, 0.5, 0.5}));
  // 1e-12: exact fractions through one 3x3 product and its inverse.
  EXPECT_TRUE(same_positions(fractional_of(s, "Na"), fcc, 1e-12));
  EXPECT_TRUE(same_positions(fractional_of(s, "Cl"), shifted, 1e-12));
}

// A CIF naming its space group without listing the operations (as many
// older files and ASE's writer do): the group's operations come from gemmi's
// tables, so rock salt given by its symbol or by its number expands as the
// COD file with all 192 operations written out.
TEST(StructureCif, SpaceGroupSymbolOrNumberAloneIsExpanded) {
  test::TempDir dir("cif-symbol");
  const Structure cod = read_structure(NS_TEST_DATA_DIR "/debye-xansons-nacl/NaCl.cif");
  const std::string head =
      "data_NaCl\n_cell_length_a 5.62\n_cell_length_b 5.62\n_cell_length_c 5.62\n"
      "_cell_angle_alpha 90\n_cell_angle_beta 90\n_cell_angle_gamma 90\n";
  const std::string sites =
      "loop_\n_atom_site_type_symbol\n_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\n"
      "Na1+ 0 0 0\nCl1- 0.5 0.5 0.5\n";
  for (const std::string group : {"_symmetry_space_group_name_H-M 'F m -3 m'\n", "_space_group_name_H-M_alt Fm-3m\n",
                                  "_space_group_IT_number 225\n"}) {
    const auto path = (dir / "symbol.cif").string();
    std::ofstream(path) << head << group << sites;
    const Structure s = read_structure(path);
    ASSERT_EQ(s.atoms.size(), 8u) << group;
    EXPECT_TRUE(same_positions(fractional_of(s, "Na"), fractional_of(cod, "Na"), 1e-12)) << group;
    EXPECT_TRUE(same_positions(fractional_of(s, "Cl"), fractional_of(cod, "Cl"), 1e-12)) << group;
  }
}

TEST(StructureCif, MgOUncertaintiesChargesAndUiso) {
  const Structure s = read_cif(NS_TEST_DATA_DIR "/mgo_rocksalt.cif");
  EXPECT_EQ(s.title, "MgO_periclase");
  EXPECT_EQ(s.cell->a, 4.2112);  // "4.2112(2)"
  ASSERT_EQ(s.atoms.size(), 8u);
  const double eight_pi2 = 8 * std::numbers::pi * std::numbers::pi;
  for (const Atom& atom : s.atoms) {
    if (atom.element == "Mg") {
      EXPECT_EQ(atom.charge, 2);
      EXPECT_DOUBLE_EQ(atom.b_iso, eight_pi2 * 0.0048);  // B = 8π²U
    } else {
      EXPECT_EQ(atom.element, "O");
      EXPECT_EQ(atom.charge, -2);
      EXPECT_DOUBLE_EQ(atom.b_iso, eight_pi2 * 0.0061);
    }
  }
}

TEST(StructureCif, WurtziteMergesFiveDigitImages) {
  const Structure s = read_cif(NS_TEST_DATA_DIR "/zno_wurtzite.cif");
  EXPECT_EQ(s.cell->gamma, 120);
  ASSERT_EQ(s.atoms.size(), 4u);  // 2 Zn + 2 O, from 12 operators each
  EXPECT_EQ(fractional_of(s, "Zn").size(), 2u);
  EXPECT_EQ(s.atoms[0].b_iso, 0.55);  // _atom_site_B_iso_or_equiv taken as is
  // The O of the second Zn's site is at z = ½ + u.
  const auto o = fractional_of(s, "O");
  EXPECT_TRUE(same_positions(o, {{0.33333, 0.66667, 0.3819}, {0.66667, 0.33333, 0.8819}}, 1e-9));
}

TEST(StructureCif, MonoclinicGeneralPositionsLabelsAndMissingValues) {
  const Structure s = read_cif(NS_TEST_DATA_DIR "/zro2_monoclinic.cif");
  EXPECT_EQ(s.title, "ZrO2_baddeleyite");  // skips data_global, which has no cell
  EXPECT_EQ(s.cell->beta, 99.23);
  ASSERT_EQ(s.atoms.size(), 12u);  // 3 sites x 4 operators on general positions
  EXPECT_EQ(fractional_of(s, "Zr").size(), 4u);
  EXPECT_EQ(fractional_of(s, "O").size(), 8u);
  for (const Atom& atom : s.atoms) EXPECT_EQ(atom.occupancy, 1);  // '?' and '.' mean the default
  // Zr image under (−x, ½+y, ½−z).
  EXPECT_TRUE(same_positions({fractional_of(s, "Zr")[1]}, {{0.7246, 0.5395, 0.2917}}, 1e-12));
}

TEST(StructureCif, TriclinicSpecialPositionsKeepOneImage) {
  const Structure s = read_cif(NS_TEST_DATA_DIR "/triclinic_p-1.cif");
  ASSERT_EQ(s.atoms.size(), 6u);  // Fe and Ni on inversion centres, 2 x 2 O
  EXPECT_EQ(fractional_of(s, "Fe").size(), 1u);
  EXPECT_EQ(fractional_of(s, "Ni").size(), 1u);
  EXPECT_EQ(s.atoms[0].charge, 3);
}

TEST(StructureCif, TokenizerHandlesTheSyntax) {
  test::TempDir dir("cif-syntax");
  const auto path = (dir / "t.cif").string();
  std::ofstream(path) << "#\\#CIF_1.1\n"
                         "data_test   # comment after a block name\n"
                         "_publ_contact_author 'O'Neil, P.'   # quote inside a quoted value\n"
                         "_journal_title \"a 'b' \"c\"d\"\n"  // a quote closes only before whitespace
                         "_CELL_LENGTH_A 3.0(1)  _cell_length_b 3.0\n"
                         "_cell_length_c\n"
                         "3.0\n"
                         "_cell_angle_alpha 90 _cell_angle_beta 90 _cell_angle_gamma 90\n"
                         "_exptl_special_details\n"
                         ";\n"
                         "text field with 'quotes', # not a comment, and loop_ words\n"
                         "_not_a_tag either\n"
                         ";\n"
                         "loop_ _atom_site_label _atom_site_type_symbol\n"
                         "      _atom_site_fract_x _atom_site_fract_y _atom_site_fract_z\n"
                         "Au1 Au 0 0 0   Cu1 'Cu' 0.5 0.5\n"
                         "0.5\n";
  const auto blocks = io::parse_cif(io::read_lines(path), path);
  ASSERT_EQ(blocks.size(), 1u);
  const auto& b = blocks[0];
  EXPECT_EQ(b.item("_publ_contact_author")->text, "O'Neil, P.");
  EXPECT_EQ(b.item("_journal_title")->text, "a 'b' \"c\"d");
  EXPECT_EQ(b.item("_exptl_special_details")->text,
            "\ntext field with 'quotes', # not a comment, and loop_ words\n_not_a_tag either");
  EXPECT_EQ(b.item("_exptl_special_details")->line, 10);
  EXPECT_EQ(b.item("_cell_length_c")->text, "3.0");
  const auto* loop = b.loop_with("_atom_site_fract_z");
  ASSERT_NE(loop, nullptr);
  ASSERT_EQ(loop->rows.size(), 2u);
  EXPECT_EQ(loop->rows[1][4].text, "0.5");
  EXPECT_EQ(loop->rows[1][4].line, 17);
  EXPECT_TRUE(loop->rows[1][1].quoted);

  const Structure s = read_cif(path);  // no operators, no space group: P1
  ASSERT_EQ(s.atoms.size(), 2u);
  EXPECT_EQ(s.atoms[1].element, "Cu");
  EXPECT_NEAR(s.atoms[1].position.z, 1.5, 1e-15);
}

TEST(StructureCif, NumbersWithUncertainties) {
  auto number = [](const std::string& text, bool quoted = false) {
    return io::cif_number(io::CifValue{text, 1, quoted});
  };
  EXPECT_EQ(number("5.620(3)"), 5.62);
  EXPECT_EQ(number("-0.25(12)"), -0.25);
  EXPECT_EQ(number("1."), 1.0);
  EXPECT_EQ(number("1e-2"), 0.01);
  EXPECT_FALSE(number("5.62(3").has_value());
  EXPECT_FALSE(number("5.62(a)").has_value());
  EXPECT_FALSE(number("abc").has_value());
  EXPECT_TRUE(io::cif_missing({"?", 1, false}));
  EXPECT_TRUE(io::cif_missing({".", 1, false}));
  EXPECT_FALSE(io::cif_missing({"?", 1, true}));
}

TEST(StructureCif, ErrorsNameFileLineAndTag) {
  test::TempDir dir("cif-errors");
  const auto path = (dir / "p.cif").string();
  const std::string cell =
      "_cell_length_a 4\n_cell_length_b 4\n_cell_length_c 4\n"
      "_cell_angle_alpha 90\n_cell_angle_beta 90\n_cell_angle_gamma 90\n";  // lines 2-7
  const std::string sites = "loop_\n_atom_site_type_symbol\n_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\n";
  auto error_for = [&](const std::string& text) {
    std::ofstream(path) << text;
    return error_of(path);
  };
  EXPECT_EQ(error_for("data_x\n" + sites + "Au 0 0 0\n"), path + ": _cell_length_a: missing");
  EXPECT_EQ(error_for("data_x\n_cell_length_a ?\n"), path + ":2: _cell_length_a: missing");
  EXPECT_EQ(error_for("data_x\n_cell_length_a 4.x\n"), path + ":2: _cell_length_a: not a number '4.x'");
  EXPECT_EQ(error_for("data_x\n" + cell + "_symmetry_equiv_pos_as_xyz 'x,y,q'\n" + sites + "Au 0 0 0\n"),
            path + ":8: _symmetry_equiv_pos_as_xyz: unexpected 'q' in symmetry operation 'x,y,q'");
  EXPECT_EQ(error_for("data_x\n" + cell + "_space_group_name_H-M_alt 'F m -3 q'\n" + sites + "Au 0 0 0\n"),
            path + ":8: _space_group_name_H-M_alt: unknown space group 'F m -3 q' (give its operations as "
                   "_space_group_symop_operation_xyz)");
  EXPECT_EQ(error_for("data_x\n" + cell + "_space_group_IT_number 231\n" + sites + "Au 0 0 0\n"),
            path + ":8: _space_group_IT_number: not a space-group number 1–230: '231'");
  EXPECT_EQ(error_for("data_x\n" + cell + sites + "Au 0 0 0\nAu 0.5 abc 0\n"),
            path + ":14: _atom_site_fract_y: not a number 'abc'");
  EXPECT_EQ(error_for("data_x\n" + cell + sites + "Au 0 0 0\nXy 0.5 0.5 0\n"),
            path + ":14: _atom_site_type_symbol: unknown element in species label 'Xy'");
  EXPECT_EQ(error_for("data_x\n" + cell + sites + "Au 0 0 0\nAu 0.5 0.5\n"),
            path + ":8: _atom_site_type_symbol: loop_ has 7 values, not a multiple of its 4 tags");
  EXPECT_EQ(error_for("data_x\n" + cell + sites + "Au 0 0 nan\n"),
            path + ":13: _atom_site_fract_z: not a finite number 'nan'");
  EXPECT_EQ(error_for("data_x\n_cell_length_a 4\n;\nopen text\n"),
            path + ":3: unterminated text field (no closing ';' line)");
  EXPECT_EQ(error_for("data_x\n_title 'open\n"), path + ":2: unterminated quoted string starting ''open'");
  EXPECT_EQ(error_for("data_x\n" + cell), path + ": _atom_site_fract_x: missing");
  EXPECT_EQ(error_for("_cell_length_a 4\n"), path + ":1: data before the first data_ block");
  EXPECT_EQ(error_for("# nothing\n"), path + ": data_: no data_ block");
  EXPECT_EQ(error_for("data_x\n_cell_length_a 4\n_cell_length_b 4\n_cell_length_c 4\n_cell_angle_alpha 90\n"
                      "_cell_angle_beta 90\n_cell_angle_gamma 190\n"),
            path + ":2: gamma: cell angle must lie strictly between 0 and 180 degrees, got 190");
  // A whole oxidation number once went to int unchecked (the xyz charge
  // column's overflow, found by fuzz_xyz, in the CIF reader).
  const std::string types = "loop_\n_atom_type_symbol\n_atom_type_oxidation_number\nAu ";  // value on line 11
  EXPECT_EQ(error_for("data_x\n" + cell + types + "1e11\n" + sites + "Au 0 0 0\n"),
            path + ":11: _atom_type_oxidation_number: must lie within +-99, got 1e+11");
  EXPECT_EQ(error_for("data_x\n" + cell + types + "-100\n" + sites + "Au 0 0 0\n"),
            path + ":11: _atom_type_oxidation_number: must lie within +-99, got -100");
  EXPECT_EQ(error_for("data_x\n" + cell + types + "2.5\n" + sites + "Au 0 0 0\n"), "");
  EXPECT_EQ(read_cif(path).atoms.at(0).charge, 0);
  EXPECT_EQ(error_for("data_x\n" + cell + types + "-99\n" + sites + "Au 0 0 0\n"), "");
  EXPECT_EQ(read_cif(path).atoms.at(0).charge, -99);
  EXPECT_EQ(error_of((dir / "none.cif").string()), (dir / "none.cif").string() + ": no such file");
}
