// Measured 1D patterns: read_pattern(path, axis=None, wavelength=None,
// format=None) → dict with x, y, sigma (NumPy; sigma None when the file has
// none), axis, wavelength (Å or None), metadata, source, format; and
// write_pattern(path, x, y, sigma=None, axis="two_theta", wavelength=None,
// metadata=None, columns="native"). The readers, writers and their checks
// are the library's (pattern1d.hpp).
#include <pybind11/stl.h>

#include <map>
#include <optional>
#include <string>

#include "bindings.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/pattern1d.hpp"

namespace nanoscatter::python {

void bind_pattern1d(py::module_& m) {
  m.def(
      "read_pattern",
      [](const py::object& path, const std::optional<std::string>& axis, const std::optional<double>& wavelength,
         const std::optional<std::string>& format) {
        PatternReadOptions o;
        if (axis) o.axis = parse_pattern_axis(*axis);
        if (format) o.format = parse_pattern_format(*format);
        o.wavelength = wavelength;
        Pattern1D p = read_pattern(py::str(path).cast<std::string>(), o);
        py::dict d;
        d["axis"] = pattern_axis_name(p.axis);
        d["x"] = to_numpy(std::move(p.x));
        d["y"] = to_numpy(std::move(p.y));
        if (p.sigma.empty()) d["sigma"] = py::none();
        else d["sigma"] = to_numpy(std::move(p.sigma));
        if (p.wavelength) d["wavelength"] = *p.wavelength;
        else d["wavelength"] = py::none();
        py::dict meta;
        for (const auto& [k, v] : p.metadata) meta[py::str(k)] = v;
        d["metadata"] = meta;
        d["source"] = p.source;
        d["format"] = p.format;
        return d;
      },
      py::arg("path"), py::arg("axis") = py::none(), py::arg("wavelength") = py::none(),
      py::arg("format") = py::none(),
      "Reads a 1D pattern (.xy .dat .txt .xye .chi .gr .fxye); returns a dict with x, y, sigma (None if absent), "
      "axis ('two_theta' [deg], 'q' [1/Å], 'd' [Å], 'r' [Å]), wavelength (Å or None), metadata (strings: "
      "Qmax, Qdamp, stype, ...), source and format. axis: the axis of a file that does not say (default two_theta).");
  m.def(
      "write_pattern",
      [](const py::object& path, const py::handle& x, const py::handle& y, const py::handle& sigma,
         const std::string& axis, const std::optional<double>& wavelength,
         const std::optional<std::map<std::string, std::string>>& metadata, const std::string& columns) {
        Pattern1D p;
        p.axis = parse_pattern_axis(axis);
        p.x = to_vector(x, "x");
        p.y = to_vector(y, "y");
        if (!sigma.is_none()) p.sigma = to_vector(sigma, "sigma");
        p.wavelength = wavelength;
        if (metadata) p.metadata = *metadata;
        PatternWriteOptions o;
        if (columns == "native") o.columns = PatternColumns::native;
        else if (columns == "q") o.columns = PatternColumns::q;
        else if (columns == "two_theta") o.columns = PatternColumns::two_theta;
        else if (columns == "both") o.columns = PatternColumns::both;
        else fail_option("columns", "unknown columns '", columns, "'; expected native, q, two_theta or both");
        o.header_lines.push_back("written by " + python_command());
        write_pattern(py::str(path).cast<std::string>(), p, o);
      },
      py::arg("path"), py::arg("x"), py::arg("y"), py::arg("sigma") = py::none(), py::arg("axis") = "two_theta",
      py::arg("wavelength") = py::none(), py::arg("metadata") = py::none(), py::arg("columns") = "native",
      "Writes a 1D pattern as .xy/.dat/.txt/.xye ('#' header with axis, wavelength, metadata); columns: native, "
      "q, two_theta or both (2θ, y, σ, Q). read_pattern reads it back exactly.");
}

}  // namespace nanoscatter::python
