// What a GisaxsPlan fixes when it is made (the pixel grid, the Parratt
// fields): the sample's beam, detector, resolution, background and layers —
// its frame. set_layouts(sample) takes an edited sample's layouts only, so
// it refuses a sample whose frame is not the plan's rather than ignore the
// edit.
#pragma once
#include <string>

#include "nanoscatter/gisaxs.hpp"

namespace nanoscatter::gisaxs {

// The first field of the frame where the samples differ ("beam.alpha_i",
// "layer[1].thickness", "detector", ...), or "" when they have one frame.
// Names (of layers, materials) and the source do not count.
std::string frame_difference(const Sample& a, const Sample& b);

}  // namespace nanoscatter::gisaxs
