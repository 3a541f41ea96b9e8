#include "refractive_index.hpp"

#include <pybind11/complex.h>
#include <pybind11/stl.h>

#include "nanoscatter/error.hpp"

namespace nanoscatter::python {

namespace {
bool is_sequence(const py::handle& v) { return py::isinstance<py::tuple>(v) || py::isinstance<py::list>(v); }
}  // namespace

std::complex<double> refractive_index(const py::handle& value, const char* keyword) {
  try {
    if (is_sequence(value)) {
      const auto pair = value.cast<std::vector<double>>();
      if (pair.size() != 2) fail_option(keyword, "expected 're im' pairs, got ", pair.size(), " values");
      return {pair[0], pair[1]};
    }
    return value.cast<std::complex<double>>();
  } catch (const py::cast_error&) {
    fail_option(keyword, "expected a complex number or a pair (re, im), got ",
                py::str(py::type::of(value)).cast<std::string>());
  }
}

std::vector<std::complex<double>> refractive_indices(const py::handle& value, const char* keyword) {
  if (!is_sequence(value)) return {refractive_index(value, keyword)};
  const py::sequence seq = value.cast<py::sequence>();
  // (1.5, 0.01) is one index; [(1.5, 0), 1.33] or [1.5+0j, 1.2] are several.
  const bool pair_of_reals = seq.size() == 2 && !is_sequence(seq[0]) && !is_sequence(seq[1]) &&
                             !PyComplex_Check(seq[0].ptr()) && !PyComplex_Check(seq[1].ptr());
  if (pair_of_reals) return {refractive_index(value, keyword)};
  std::vector<std::complex<double>> out;
  for (const auto& v : seq) out.push_back(refractive_index(v, keyword));
  return out;
}

}  // namespace nanoscatter::python
