// The bodies of a particle as the DWBA sums them: the catalogue's shapes
// built from their parameters, or a mesh taken as it is.
#pragma once
#include <span>
#include <vector>

#include "nanoscatter/gisaxs.hpp"

namespace nanoscatter::gisaxs {

// Throws Error (field = the parameter) like ShapeInfo::build.
std::vector<ShapeComponent> particle_components(const ParticleSpec& particle, std::span<const double> parameters);

}  // namespace nanoscatter::gisaxs
