// Neutron Debye intensity of two Ni atoms 2.5 Å apart at Q = 2 Å⁻¹, through
// the installed headers and library. Exactly I = 2 b² (1 + sin(Qd)/(Qd)) with
// b(Ni) = 10.3 fm (the library's neutron table), 171.487089480395 fm²;
// check_install.sh compares the printed value with that number.
#include <cstdio>

#include "nanoscatter/debye.hpp"

int main() {
  nanoscatter::Structure s;
  s.atoms.push_back({.element = "Ni", .position = {0, 0, 0}});
  s.atoms.push_back({.element = "Ni", .position = {0, 0, 2.5}});
  nanoscatter::DebyeOptions options;
  options.radiation = nanoscatter::Radiation::neutron;
  const nanoscatter::DebyeResult r = nanoscatter::DebyePlan(s, options).execute({2.0});
  std::printf("%.12f\n", r.intensity.at(0));
}
