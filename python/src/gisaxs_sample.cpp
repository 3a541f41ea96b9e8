// nanoscatter.SampleDocument: a GISAXS sample as an editable object
// (gisaxs_sample_document.hpp): doc["particle[0].radius"] = 4.0 checks the
// edit as a file is checked, doc.sample is what the engine runs, and
// doc.write(path) gives the TOML of the edited sample.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "nanoscatter/gisaxs_sample_document.hpp"

namespace nanoscatter::python {

namespace {

py::object to_python(const ConfigValue& v) {
  return std::visit([](const auto& x) -> py::object { return py::cast(x); }, v);
}

ConfigValue from_python(const py::handle& value, const std::string& path) {
  // bool before int: Python's True is an int too.
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
  if (py::isinstance<py::int_>(value)) return value.cast<std::int64_t>();
  if (py::isinstance<py::float_>(value)) return value.cast<double>();
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  fail_at({"", 0, path}, "a sample value is a number, a bool or a string, got ",
          py::str(py::type::of(value)).cast<std::string>());
}

}  // namespace

void bind_gisaxs_sample(py::module_& m) {
  using gisaxs::SampleDocument;
  py::class_<SampleDocument>(m, "SampleDocument",
                             "A GISAXS sample file as an editable object: doc['particle[0].radius'] = 4.0, "
                             "doc.sample, doc.write(path). Key paths as in the TOML file (docs/gisaxs.md).")
      .def_static("read", [](const std::string& path) { return SampleDocument::read(path); }, py::arg("path"))
      .def_static("parse", &SampleDocument::parse, py::arg("text"), py::arg("source_name") = "<string>")
      .def("__getitem__", [](const SampleDocument& d, const std::string& path) { return to_python(d.get(path)); })
      .def("__setitem__", [](SampleDocument& d, const std::string& path, const py::handle& value) {
        d.set(path, from_python(value, path));
      })
      .def("keys", &SampleDocument::paths, "Every value's key path, in file order.")
      .def_property_readonly("sample", &SampleDocument::sample, "The Sample the engine runs (a copy).")
      .def_property_readonly("toml", &SampleDocument::toml)
      .def("write", [](const SampleDocument& d, const std::string& path) { d.write(path); }, py::arg("path"))
      .def("__repr__", [](const SampleDocument& d) { return "<nanoscatter.SampleDocument " + d.source() + ">"; });
}

}  // namespace nanoscatter::python
