// An occupancy image as the start of every tile (rmc.hpp, rmc_initial_model):
// shape, 0/1 values and the loading are checked here, once, for the CLI
// and Python alike.
#include <cmath>

#include "nanoscatter/error.hpp"
#include "nanoscatter/rmc.hpp"

namespace nanoscatter {

std::vector<std::uint8_t> rmc_initial_model(const Image2D& image, std::size_t size, RmcOptions& options,
                                            const std::string& name) {
  const Where where{name, 0, "initial_model", true};
  if (!options.loading_scan.empty()) fail_at(where, "a loading scan cannot start from one initial model");
  if (image.rows != size || image.cols != size)
    fail_at(where, "initial model is ", image.rows, "×", image.cols, ", the model is ", size, "×", size);
  std::vector<std::uint8_t> occupancy(size * size);
  std::size_t occupied = 0;
  for (std::size_t p = 0; p < occupancy.size(); ++p) {
    const double v = image.data[p];
    if (v != 0 && v != 1)
      fail_at(where, "initial model must hold only 0 and 1, got ", v, " at row ", p / size, ", column ", p % size);
    occupancy[p] = v == 1 ? 1 : 0;
    occupied += occupancy[p];
  }
  const double sites = double(size) * double(size);
  if (occupied == 0 || double(occupied) == sites)
    fail_at(where, "initial model has ", occupied, " of ", size * size, " sites occupied; a move needs both kinds");
  const double loading = double(occupied) / sites;
  if (options.loading.empty()) {
    options.loading = {loading};
    return occupancy;
  }
  for (double l : options.loading)
    if (std::round(l * sites) != double(occupied))
      fail_at(where, "initial model has ", occupied, " occupied sites (loading ", loading, "), loading ", l, " needs ",
              std::round(l * sites));
  return occupancy;
}

}  // namespace nanoscatter
