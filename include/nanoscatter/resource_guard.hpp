// Resource guard: every size that comes from input (atom counts, image
// dimensions, detector bins, Q points, dipole grids, FFT boxes, histogram
// bins) is checked before anything is allocated for it, twice:
//  - against the data actually present (a file cannot hold more records
//    than it has bytes for), and
//  - against the memory the machine can give now, so that a request that
//    cannot fit fails at once with "needs ~X GB, Y GB available" naming the
//    file, line and field or the option, instead of ending in bad_alloc or
//    grinding for minutes.
// Estimates are doubles: products of untrusted sizes must not wrap around.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "nanoscatter/error.hpp"

namespace nanoscatter {

// Bytes of host memory this process can still obtain: /proc/meminfo's
// MemAvailable, lowered by the address-space and data-segment limits
// (`ulimit -v`, `ulimit -d`) when they are set. When none of these is
// known, a huge value (no check can fail for lack of knowledge).
double available_host_bytes();

// Bytes of memory free on the current GPU (cudaMemGetInfo); 0 without CUDA
// or a device.
double available_device_bytes();

// "12.3 GB" (decimal gigabytes, as `free -g` users read them), with enough
// digits to tell small requests apart.
std::string format_gigabytes(double bytes);

// Throws naming `where` when `bytes` exceed available_host_bytes():
// "<what> needs ~X GB, Y GB available".
void require_host_memory(const Where& where, std::string_view what, double bytes);

// The same against the current GPU's free memory.
void require_device_memory(const Where& where, std::string_view what, double bytes);

// Throws naming `where` unless `declared` records, each taking at least
// `min_bytes_each` bytes of the input, fit into the `bytes_present` bytes
// the input has: "<declared> <what> declared, but the file has only N bytes".
void require_present(const Where& where, std::string_view what, double declared, double min_bytes_each,
                     double bytes_present);

}  // namespace nanoscatter
