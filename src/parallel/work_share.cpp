// WorkShare ranges and the cost-model dealing (work_share.hpp).
#include "nanoscatter/work_share.hpp"

#include <algorithm>
#include <numeric>

#include "nanoscatter/error.hpp"

namespace nanoscatter {

std::pair<std::size_t, std::size_t> WorkShare::range(std::size_t n) const {
  const auto parts = static_cast<std::size_t>(count), k = static_cast<std::size_t>(index);
  const std::size_t base = n / parts, extra = n % parts;
  const std::size_t begin = k * base + std::min(k, extra);
  return {begin, begin + base + (k < extra ? 1 : 0)};
}

void validate_work_share(const WorkShare& share) {
  if (share.count < 1 || share.index < 0 || share.index >= share.count)
    fail("work share ", share.index, " of ", share.count, " (need 0 ≤ index < count)");
}

std::vector<int> deal_by_cost(std::span<const double> cost, int parts) {
  if (parts < 1) fail("deal_by_cost: ", parts, " parts");
  std::vector<std::size_t> order(cost.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return cost[a] > cost[b]; });
  std::vector<double> load(static_cast<std::size_t>(parts), 0.0);
  std::vector<int> owner(cost.size(), 0);
  for (std::size_t item : order) {
    const auto least = std::min_element(load.begin(), load.end()) - load.begin();  // first minimum: lowest part
    owner[item] = static_cast<int>(least);
    load[static_cast<std::size_t>(least)] += cost[item];
  }
  return owner;
}

}  // namespace nanoscatter
