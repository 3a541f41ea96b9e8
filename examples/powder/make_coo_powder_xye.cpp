// Writes coo_particle.xye, the synthetic powder pattern that docs/fitting.md
// ("Powder fits") fits: rocksalt CoO (a = 4.26 Å) cut to a sphere of
// R = 8 Å, Cu Kα1/Kα2 (ratio 0.5), unpolarised, pseudo-Voigt with
// U = 0.004, V = −0.002, W = 0.003 deg², η = 0.4, zero 0; truth ε = 0.005,
// B[Co] = 0.6 Å², B[O] = 0.9 Å², Chebyshev background 30 − 8 T1(x) (in
// units of the unscaled pattern), scale 40; 2θ 15–85° in steps of 0.05°,
// Poisson noise (seed 2026), σ = √max(counts, 1). Built as the target
// make_coo_powder_xye; the test examples.coo_powder_xye checks that the
// committed file is its output.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/powder_model.hpp"

using namespace nanoscatter;

int main() {
  LatticeOptions l;
  l.type = LatticeType::rocksalt, l.a = 4.26, l.elements = {"Co", "O"};
  const Structure s = cut_crystal(make_lattice(l), Sphere{8.0});
  const PowderModel model(s, DebyeOptions{});
  PowderParameters p = model.default_parameters();
  p.lattice_expansion = 0.005;
  for (std::size_t m = 0; m < p.b.size(); ++m) p.b[m] = model.species()[m] == "Co" ? 0.6 : 0.9;
  PowderInstrument in;
  in.wavelength = 1.540562, in.wavelength2 = 1.544390, in.ratio = 0.5;
  InstrumentParameters ip;
  ip.u = 0.004, ip.v = -0.002, ip.w = 0.003, ip.eta = 0.4, ip.background = {30.0, -8.0};
  std::vector<double> two_theta;
  for (int k = 0; k <= 1400; ++k) two_theta.push_back(15 + 0.05 * k);
  PowderPattern pattern(model, in, two_theta);
  const std::vector<double> y = pattern.evaluate(p, ip);
  std::mt19937_64 rng(2026);
  std::FILE* f = std::fopen("coo_particle.xye", "w");
  std::fprintf(f, "# synthetic powder pattern: rocksalt CoO sphere R = 8 A (%zu atoms), Cu Ka1/Ka2,"
               " examples/powder/make_coo_powder_xye.cpp\n", s.atoms.size());
  std::fprintf(f, "# truth: scale 40, lattice_expansion 0.005, b[Co] 0.6, b[O] 0.9, bkg 30 -8 (over 15-85 deg),"
               " u 0.004, v -0.002, w 0.003, eta 0.4\n");
  for (std::size_t k = 0; k < y.size(); ++k) {
    const double counts = double(std::poisson_distribution<long>(40 * y[k])(rng));
    std::fprintf(f, "%.2f %.0f %.4f\n", two_theta[k], counts, std::sqrt(std::max(counts, 1.0)));
  }
  std::fclose(f);
}
