// The GISAXS engine's keywords, shared by GisaxsPlan (gisaxs.cpp) and the
// fit model behind GisaxsModel (fit.cpp): one mapping of keywords onto
// GisaxsOptions, one dict of GisaxsPlan::Stats.
#pragma once
#include <string>
#include <vector>

#include "keywords.hpp"
#include "nanoscatter/gisaxs.hpp"

namespace nanoscatter::python {

// approximation and the device keywords (Keywords::device_keywords).
std::vector<std::string> gisaxs_keywords();
// GisaxsOptions from those keywords; the checks are GisaxsOptions::validate's.
gisaxs::GisaxsOptions gisaxs_options(const Keywords& kw);
// GisaxsPlan::Stats as a dict of the same field names.
py::dict stats_dict(const gisaxs::GisaxsPlan::Stats& stats);

}  // namespace nanoscatter::python
