// nanoscatter::Error → nanoscatter.Error (a ValueError: bad input is what it
// reports) with the library's message unchanged, i.e. the text the CLI
// prints after "nanoscatter: error: ". The location is kept as attributes
// file, line, field and reason so notebooks can act on it.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "nanoscatter/device.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/parallel.hpp"

namespace nanoscatter::python {

void bind_errors(py::module_& m) {
  static py::exception<Error> error_type(m, "Error", PyExc_ValueError);
  // Raised under MPI on the ranks that did not fail when another did
  // (python/src/mpi.cpp): the failing rank's line, "rank R of P: …".
  static py::exception<parallel::RankFailure> rank_failure_type(m, "RankFailure", error_type.ptr());
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const parallel::RankFailure& f) {
      PyErr_SetString(rank_failure_type.ptr(), f.what());
    } catch (const Error& e) {
      // An engine option's field is its keyword here (Where::option).
      py::object instance = py::handle(error_type)(py::str(e.what()));
      instance.attr("file") = e.where().file;
      instance.attr("line") = e.where().line;
      instance.attr("field") = e.where().field;
      instance.attr("option") = e.where().option;
      instance.attr("reason") = e.reason();
      PyErr_SetObject(error_type.ptr(), instance.ptr());
    }
  });
  m.def("cuda_device_count", &cuda_device_count, "Usable CUDA devices (0 without CUDA or a GPU).");
  m.def("cuda_device_name", &cuda_device_name, "Short description of GPU 0, or ''.");
  m.attr("have_cuda") = bool(NANOSCATTER_HAVE_CUDA);
}

std::vector<double> to_vector(const py::handle& values, const char* name) {
  py::array_t<double, py::array::c_style | py::array::forcecast> a;
  try {
    a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(values);
  } catch (const py::error_already_set&) {
  }
  if (!a || a.ndim() > 1) fail_at({"", 0, name}, "expected a 1D sequence of numbers");
  return std::vector<double>(a.data(), a.data() + a.size());
}

std::string python_command() {
  std::string out = "python:";
  const py::module_ sys = py::module_::import("sys");
  if (py::hasattr(sys, "argv"))
    for (const auto& a : sys.attr("argv")) out += " " + py::str(a).cast<std::string>();
  return out;
}


}  // namespace nanoscatter::python
