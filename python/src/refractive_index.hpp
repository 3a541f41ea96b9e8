// Refractive-index keywords of the light-scattering engines (dda, mie): a
// complex, a real number, or a (re, im) pair, as Python users write them.
#pragma once
#include <pybind11/pybind11.h>

#include <complex>
#include <vector>

namespace nanoscatter::python {

namespace py = pybind11;

// One index; errors name `keyword`.
std::complex<double> refractive_index(const py::handle& value, const char* keyword);
// One index, or a list of them (one per domain).
std::vector<std::complex<double>> refractive_indices(const py::handle& value, const char* keyword);

}  // namespace nanoscatter::python
