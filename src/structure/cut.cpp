// Cutting a crystal by a shape centred on the lattice origin (docs/design.md).
#include <algorithm>
#include <cmath>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/resource_guard.hpp"

namespace nanoscatter {

Structure cut_crystal(const UnitCellSpec& unit_cell, const Shape& shape, const CutOptions& options) {
  validate_shape(shape);
  validate_cell(unit_cell.cell);
  if (unit_cell.basis.empty()) fail_at({"", 0, "basis"}, "the unit cell holds no atoms");
  if (!(std::isfinite(options.tolerance) && options.tolerance >= 0))
    fail_at({"", 0, "tolerance"}, "must be non-negative, got ", options.tolerance);

  const Mat3 lattice = unit_cell.cell.lattice_vectors();
  const Mat3 to_fractional = inverse(lattice);
  const double reach = bounding_radius(shape) + options.tolerance;
  // Every kept atom has |r| ≤ reach, so its fractional coordinate g = L⁻¹r
  // obeys |g_i| ≤ ‖row_i(L⁻¹)‖·reach; with g = n + f this bounds the cell index n.
  double lo_d[3], hi_d[3], cells = 1;
  for (int i = 0; i < 3; ++i) {
    const double extent = norm(to_fractional.row[i]) * reach;
    double f_min = unit_cell.basis[0].fractional[i], f_max = f_min;
    for (const auto& site : unit_cell.basis) {
      f_min = std::min(f_min, site.fractional[i]);
      f_max = std::max(f_max, site.fractional[i]);
    }
    lo_d[i] = std::floor(-extent - f_max) - 1;
    hi_d[i] = std::ceil(extent - f_min) + 1;
    cells *= hi_d[i] - lo_d[i] + 1;
  }
  // 1e10 cells take minutes to scan and yield more atoms than fit in memory
  // (≥ 10¹⁰ × sizeof(Atom) ≈ 0.6 TB): refuse instead of running for hours.
  constexpr double kMaxCells = 1e10;
  if (!(cells <= kMaxCells))
    fail_at({"", 0, "shape"}, "the shape spans ", cells, " unit cells (more than ", kMaxCells, "); make it smaller");
  // The atoms the shape will hold, from the lattice density: they must fit
  // memory before the scan makes them.
  const double expected_atoms = shape_volume(shape) / unit_cell.cell.volume() * double(unit_cell.basis.size());
  require_host_memory({"", 0, "shape"}, detail::concat("~", expected_atoms, " atoms (", describe_shape(shape), ")"),
                      expected_atoms * sizeof(Atom));
  int lo[3], hi[3];
  for (int i = 0; i < 3; ++i) {
    lo[i] = static_cast<int>(lo_d[i]);
    hi[i] = static_cast<int>(hi_d[i]);
  }

  Structure out;
  out.cell = unit_cell.cell;
  out.periodic = false;
  out.title = unit_cell.name.empty() ? describe_shape(shape) : unit_cell.name + ", " + describe_shape(shape);
  for (int na = lo[0]; na <= hi[0]; ++na)
    for (int nb = lo[1]; nb <= hi[1]; ++nb)
      for (int nc = lo[2]; nc <= hi[2]; ++nc) {
        const Vec3 n{static_cast<double>(na), static_cast<double>(nb), static_cast<double>(nc)};
        for (const auto& site : unit_cell.basis) {
          const Vec3 r = lattice * (n + site.fractional);
          if (!shape_contains(shape, r, options.tolerance)) continue;
          out.atoms.push_back(Atom{site.element, site.charge, r, site.occupancy, site.b_iso});
        }
      }
  return out;
}

Structure crop_structure(const Structure& structure, const Shape& shape, const CutOptions& options) {
  validate_shape(shape);
  Structure out;
  out.title = structure.title.empty() ? describe_shape(shape) : structure.title + ", " + describe_shape(shape);
  out.cell = structure.cell;
  out.periodic = false;
  for (const Atom& atom : structure.atoms)
    if (shape_contains(shape, atom.position, options.tolerance)) out.atoms.push_back(atom);
  return out;
}

}  // namespace nanoscatter
