// Q-grid helpers shared by the Debye kernels (CPU and CUDA).
#pragma once
#include <optional>
#include <span>

namespace nanoscatter::debye {

// Relative tolerance for "uniform": |q_k − (q_0 + k·Δq)| ≤ 1e-12·max|q| for
// every k. At Q·r ≤ 1e4 rad the recurrence then evaluates sin at a Q that is
// off by ≤ 1e-8 rad in phase, far below float64 summation noise of the
// pair sums (and float32 rounding altogether).
inline constexpr double kUniformGridTolerance = 1e-12;

// Δq when q is a uniform grid of at least 2 points (within the tolerance
// above), nothing otherwise. The fast kernels then run the trigonometric
// recurrence along Q; other grids fall back to a direct sin per (pair, Q).
std::optional<double> uniform_q_step(std::span<const double> q);

}  // namespace nanoscatter::debye
