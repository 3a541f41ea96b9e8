#include "gisaxs/dwba.hpp"

namespace nanoscatter::gisaxs {

ScatteringTerms dwba_terms(double qx, double qy, const LayerField& in, const LayerField& out) {
  ScatteringTerms s;
  s.count = 4;
  // q_z = k_i,z − k_f,z for each path: down-going incident k_i,z = −k_z,i,
  // reflected +k_z,i; the outgoing wave leaves upwards (+k_z,f) or is
  // reflected before leaving (−k_z,f).
  s.q[0] = {qx, qy, -in.kz - out.kz};
  s.q[1] = {qx, qy, in.kz - out.kz};
  s.q[2] = {qx, qy, -in.kz + out.kz};
  s.q[3] = {qx, qy, in.kz + out.kz};
  s.coefficient = {in.t * out.t, in.r * out.t, in.t * out.r, in.r * out.r};
  return s;
}

ScatteringTerms born_terms(double qx, double qy, double qz) {
  ScatteringTerms s;
  s.count = 1;
  s.q[0] = {qx, qy, qz};
  s.coefficient[0] = 1;
  return s;
}

}  // namespace nanoscatter::gisaxs
