// Writes ni_particle.gr, the synthetic G(r) that docs/fitting.md ("PDF
// fits") fits: fcc Ni (a = 3.524 Å) cut to a sphere of R = 12 Å, X-ray,
// PdfModel with scale 0.9, U = 0.0065 Å², δ2 = 2.5 Å², ε = 0.003,
// Qdamp = 0.05 Å⁻¹, Qmax = 30 Å⁻¹, plus Gaussian noise of σ = 0.01 max|G|
// (seed 2026). Built as the target make_ni_particle_gr; the test
// examples.ni_particle_gr checks that the committed file is its output.
#include <cmath>
#include <cstdio>
#include <random>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/pdf_model.hpp"

using namespace nanoscatter;

int main() {
  LatticeOptions l;
  l.type = LatticeType::fcc, l.a = 3.524, l.elements = {"Ni"};
  const Structure s = cut_crystal(make_lattice(l), Sphere{12.0});
  PdfModelOptions o;
  o.qmax = 30;
  const PdfModel model(s, DebyeOptions{}, o);
  PdfParameters p = model.default_parameters();
  p.scale = 0.9, p.u = {0.0065}, p.delta2 = 2.5, p.lattice_expansion = 0.003, p.qdamp = 0.05;
  std::vector<double> r;
  for (int k = 0; k <= 1500; ++k) r.push_back(0.5 + 0.01 * k);
  const std::vector<double> g = model.evaluate(p, r);
  double largest = 0;
  for (double v : g) largest = std::max(largest, std::abs(v));
  const double sigma = 0.01 * largest;
  std::mt19937_64 rng(2026);
  std::normal_distribution<double> noise(0, sigma);
  std::FILE* f = std::fopen("ni_particle.gr", "w");
  std::fprintf(f, "# synthetic G(r): fcc Ni sphere R = 12 A (%zu atoms), examples/pdf/make_ni_particle_gr.cpp\n",
               s.atoms.size());
  std::fprintf(f, "stype=X  qmax=30.0  qdamp=0.05\n");
  std::fprintf(f, "# truth: scale 0.9, u[Ni] 0.0065, delta2 2.5, lattice_expansion 0.003, qdamp 0.05\n");
  std::fprintf(f, "##### start data\n#L r G dG\n");
  for (std::size_t k = 0; k < r.size(); ++k) std::fprintf(f, "%.4f %.6f %.6f\n", r[k], g[k] + noise(rng), sigma);
  std::fclose(f);
}
