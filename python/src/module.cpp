// nanoscatter._core: the pybind11 module under the `nanoscatter` package.
// Thin, like the CLI: it converts arguments, calls the library, and hands
// results back as NumPy arrays. Keyword names follow the CLI's options
// (--bin-width → bin_width), so library errors, which name those options,
// read the same in Python as on the command line.
#include "bindings.hpp"

PYBIND11_MODULE(_core, m) {
  using namespace nanoscatter::python;
  m.doc() = "nanoscatter C++ engines (use the `nanoscatter` package rather than this module)";
  m.attr("__version__") = NANOSCATTER_VERSION;
  bind_errors(m);
  bind_mpi(m);
  bind_structure(m);
  bind_debye(m);
  bind_pattern2d(m);
  bind_gisaxs(m);
  bind_gisaxs_sample(m);
  bind_dda(m);
  bind_mie(m);
  bind_rmc(m);
  bind_detector(m);
  bind_pattern1d(m);
  bind_fit(m);
  bind_units(m);
}
