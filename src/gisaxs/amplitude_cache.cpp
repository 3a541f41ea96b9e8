#include "gisaxs/amplitude_cache.hpp"

#include <algorithm>

namespace nanoscatter::gisaxs {

namespace {

bool same_vec(const Vec3& a, const Vec3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

// The same placed mesh: one object, or two reads of the same file (a
// SampleDocument edit reads the sample again) with the same vertices and
// triangles.
bool same_mesh(const MeshFormFactor* a, const MeshFormFactor* b) {
  if (a == b) return true;
  if (!a || !b) return false;
  const TriangleMesh &ma = a->mesh(), &mb = b->mesh();
  return ma.triangles == mb.triangles &&
         std::equal(ma.vertices.begin(), ma.vertices.end(), mb.vertices.begin(), mb.vertices.end(), same_vec);
}

}  // namespace

bool same_amplitude(const ParticleKind& a, const ParticleKind& b) {
  if (a.shape != b.shape || a.parameters != b.parameters || a.layer != b.layer || a.depth != b.depth ||
      a.rotated != b.rotated || a.components.size() != b.components.size())
    return false;
  for (int r = 0; r < 3; ++r)
    if (!same_vec(a.to_particle.row[r], b.to_particle.row[r])) return false;
  // A catalogue shape's components follow from its name and parameters;
  // the contrasts carry the materials and the host layer.
  for (std::size_t c = 0; c < a.components.size(); ++c) {
    const Component &ca = a.components[c], &cb = b.components[c];
    if (ca.contrast != cb.contrast || ca.has_offset != cb.has_offset || !same_vec(ca.offset, cb.offset) ||
        !same_mesh(ca.mesh.get(), cb.mesh.get()))
      return false;
  }
  return true;
}

AmplitudeCache::AmplitudeCache(std::size_t slot_values, std::size_t budget_bytes, Storage storage)
    : slot_values_(slot_values),
      capacity_(slot_values == 0 ? 0 : budget_bytes / (slot_values * sizeof(Complex))),
      storage_(storage) {}

void AmplitudeCache::bind(const std::vector<LayoutPlan>& layouts) {
  ++clock_;
  std::vector<const ParticleKind*> kinds;
  for (const LayoutPlan& l : layouts)
    for (const ParticleKind& k : l.kinds) kinds.push_back(&k);
  bound_.assign(kinds.size(), -1);
  std::vector<bool> taken(slots_.size(), false);
  for (std::size_t k = 0; k < kinds.size(); ++k)
    for (std::size_t s = 0; s < slots_.size(); ++s)
      if (!taken[s] && slots_[s].ready && same_amplitude(slots_[s].kind, *kinds[k])) {
        bound_[k] = std::ptrdiff_t(s);
        taken[s] = true;
        break;
      }
  // Earlier slots kept beside the bound ones: as many as the kinds.
  const std::size_t keep = std::min(capacity_, 2 * kinds.size());
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    if (bound_[k] >= 0) continue;
    std::ptrdiff_t s = -1;
    if (slots_.size() < keep) {
      // The lowest position no living slot holds.
      std::vector<bool> held(slots_.size() + 1, false);
      for (const Slot& other : slots_)
        if (other.position < held.size()) held[other.position] = true;
      slots_.emplace_back();
      slots_.back().position = std::size_t(std::find(held.begin(), held.end(), false) - held.begin());
      taken.push_back(false);
      s = std::ptrdiff_t(slots_.size() - 1);
    } else {
      for (std::size_t t = 0; t < slots_.size(); ++t)
        if (!taken[t] && (s < 0 || slots_[t].used < slots_[std::size_t(s)].used)) s = std::ptrdiff_t(t);
      if (s < 0) continue;  // over the budget: computed on every execute
    }
    Slot& slot = slots_[std::size_t(s)];
    slot.kind = *kinds[k];
    for (Component& c : slot.kind.components) c.table.reset();  // the plan's tables are not the cache's
    if (storage_ == Storage::host) slot.values.resize(slot_values_);
    slot.ready = false;
    taken[std::size_t(s)] = true;
    bound_[k] = s;
  }
  for (std::ptrdiff_t s : bound_)
    if (s >= 0) slots_[std::size_t(s)].used = clock_;
  // Drop the least recently used unbound slots beyond `keep`.
  while (slots_.size() > keep) {
    std::size_t oldest = slots_.size();
    for (std::size_t t = 0; t < slots_.size(); ++t)
      if (slots_[t].used != clock_ && (oldest == slots_.size() || slots_[t].used < slots_[oldest].used)) oldest = t;
    if (oldest == slots_.size()) break;
    slots_.erase(slots_.begin() + std::ptrdiff_t(oldest));
    for (std::ptrdiff_t& s : bound_)
      if (s > std::ptrdiff_t(oldest)) --s;
  }
  bound_valid_ = true;
}

Complex* AmplitudeCache::slot(std::size_t kind) {
  if (!bound_valid_ || bound_[kind] < 0 || storage_ != Storage::host) return nullptr;
  return slots_[std::size_t(bound_[kind])].values.data();
}

std::ptrdiff_t AmplitudeCache::position(std::size_t kind) const {
  if (!bound_valid_ || bound_[kind] < 0) return -1;
  return std::ptrdiff_t(slots_[std::size_t(bound_[kind])].position);
}

bool AmplitudeCache::ready(std::size_t kind) const {
  return bound_valid_ && bound_[kind] >= 0 && slots_[std::size_t(bound_[kind])].ready;
}

void AmplitudeCache::mark_filled() {
  if (!bound_valid_) return;
  for (std::ptrdiff_t s : bound_)
    if (s >= 0) slots_[std::size_t(s)].ready = true;
}

}  // namespace nanoscatter::gisaxs
