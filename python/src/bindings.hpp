// Shared helpers of the pybind11 bindings: one bind_* function per area
// (one file each), and the conversions between std::vector and NumPy.
//
// Outputs are handed to NumPy without a copy: the vector is moved into a heap
// object that a capsule owns, and the array views its memory. Inputs are
// read through NumPy's buffer protocol; they are copied once where the C++
// API takes a std::vector (the engines keep their own packed layouts anyway).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "nanoscatter/device.hpp"
#include "nanoscatter/structure.hpp"

namespace nanoscatter::python {

namespace py = pybind11;

void bind_errors(py::module_& m);
void bind_mpi(py::module_& m);
void bind_structure(py::module_& m);
void bind_debye(py::module_& m);
void bind_pattern2d(py::module_& m);
void bind_gisaxs(py::module_& m);
void bind_gisaxs_sample(py::module_& m);
void bind_dda(py::module_& m);
void bind_mie(py::module_& m);
void bind_rmc(py::module_& m);
void bind_detector(py::module_& m);
void bind_pattern1d(py::module_& m);
void bind_fit(py::module_& m);
void bind_units(py::module_& m);

// A NumPy array of the given shape that owns `values` (moved, not copied).
template <class T>
py::array_t<T> to_numpy(std::vector<T>&& values, std::vector<py::ssize_t> shape) {
  auto* owner = new std::vector<T>(std::move(values));
  py::capsule free_when_done(owner, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(shape, owner->data(), free_when_done);
}
template <class T>
py::array_t<T> to_numpy(std::vector<T>&& values) {
  const auto n = static_cast<py::ssize_t>(values.size());
  return to_numpy(std::move(values), {n});
}

// A 1D float64 sequence (list, tuple, array of any numeric dtype) as a vector.
std::vector<double> to_vector(const py::handle& values, const char* name);

// A structure argument: a Structure or a file name (.xyz, .pdb, .cif). The
// package turns ase.Atoms into a Structure before calling in.
Structure structure_from(const py::handle& obj, const char* field);

// How this Python run started, for RunRecord::command: "python: " and
// sys.argv joined.
std::string python_command();

// "auto" | "cpu" | "gpu" resolved to a device (an Error names `--device`).

}  // namespace nanoscatter::python
