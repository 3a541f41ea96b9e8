// Summary of a loading scan (rmc.hpp, RmcLoadingScan): χ² per loading and
// its minimum, refined by a parabola through the lowest grid point and its
// two neighbours.
#include <algorithm>
#include <cmath>
#include <limits>

#include "nanoscatter/error.hpp"
#include "nanoscatter/rmc.hpp"

namespace nanoscatter {

RmcLoadingScan rmc_loading_scan(const RmcResult& result, const RmcOptions& options) {
  const std::vector<double>& grid = options.loading_scan;
  if (grid.empty()) fail_option("loading_scan", "the run was not a loading scan");
  // Tiles per loading: the plan's expanded options have tiles·L tiles.
  const std::size_t per = result.tiles.size() / grid.size();
  if (per == 0 || per * grid.size() != result.tiles.size())
    fail("rmc_loading_scan: ", result.tiles.size(), " tiles do not divide into ", grid.size(), " loadings");
  RmcLoadingScan scan;
  scan.loading = grid;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    double best = std::numeric_limits<double>::infinity(), free = best;
    for (std::size_t k = 0; k < per; ++k) {
      const RmcTileResult& tile = result.tiles[i * per + k];
      if (tile.chi2_final < best) {
        best = tile.chi2_final;
        free = tile.chi2_free;
      }
    }
    scan.chi2.push_back(best);
    scan.chi2_free.push_back(free);
  }
  const std::size_t m = std::size_t(std::min_element(scan.chi2.begin(), scan.chi2.end()) - scan.chi2.begin());
  scan.best_loading = scan.refined_loading = grid[m];
  scan.best_chi2 = scan.chi2[m];
  if (m == 0 || m + 1 == grid.size()) return scan;
  // Vertex of the parabola through (x0, y0), (x1, y1), (x2, y2), x0 < x1 < x2
  // (the grid need not be even): x1 − ½·[(x1−x0)²(y1−y2) − (x1−x2)²(y1−y0)] /
  // [(x1−x0)(y1−y2) − (x1−x2)(y1−y0)]; the denominator is < 0 exactly when
  // the parabola opens upwards.
  const double x0 = grid[m - 1], x1 = grid[m], x2 = grid[m + 1];
  const double y0 = scan.chi2[m - 1], y1 = scan.chi2[m], y2 = scan.chi2[m + 1];
  const double num = (x1 - x0) * (x1 - x0) * (y1 - y2) - (x1 - x2) * (x1 - x2) * (y1 - y0);
  const double den = (x1 - x0) * (y1 - y2) - (x1 - x2) * (y1 - y0);
  if (!(den < 0)) return scan;
  scan.refined_loading = std::clamp(x1 - 0.5 * num / den, x0, x2);
  scan.refined = true;
  return scan;
}

}  // namespace nanoscatter
