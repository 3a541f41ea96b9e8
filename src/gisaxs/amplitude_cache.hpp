// The CPU pixel loop's amplitudes kept per particle kind between executes
// (api.cpp), so that a re-evaluation after GisaxsPlan::set_layouts computes
// only the kinds whose amplitude changed: a fit that moves one particle's
// radius pays for that particle's kinds, not for the whole sample.
//
// A kind's amplitude A(pixel, beam) = Σ_components contrast · Σ_terms
// coefficient · F(R⁻¹ q) e^{i q·offset} depends on its shape and sampled
// parameters (or mesh), its components' contrasts (materials, host layer)
// and offsets, its layer, depth and rotation — not on its weight (abundance,
// distribution weight) nor on the layout's interference, density or
// mixture. Slots are matched to the plan's kinds by that description
// (same_amplitude), so the order of the particles, or edits elsewhere in
// the sample, do not matter.
//
// The analytic GPU path keeps its amplitudes on the device with the same
// binding (api.cpp, analytic_cuda.cu): a cache with external storage holds
// no values here, and each slot's stable position names the device buffer
// that holds its kind's amplitudes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gisaxs/plan_state.hpp"

namespace nanoscatter::gisaxs {

// Whether two kinds scatter with the same amplitude at every pixel of a
// plan (the same beams, layers and approximation).
bool same_amplitude(const ParticleKind& a, const ParticleKind& b);

class AmplitudeCache {
 public:
  // Where the values live: in the slots (host) or in buffers the caller
  // keeps, one per position (external).
  enum class Storage { host, external };
  // slot_values: complex values of one kind (beams × pixels, index
  // beam · pixels + pixel); budget_bytes: what all slots may hold.
  AmplitudeCache(std::size_t slot_values, std::size_t budget_bytes, Storage storage = Storage::host);

  // Binds the kinds of `layouts` (plan order) to slots: a filled slot of
  // the same description where there is one (its amplitudes are reused),
  // else an empty slot while the budget allows, else the least recently
  // used slot no kind holds now; a kind left without a slot is computed on
  // every execute. Besides the bound slots it keeps at most as many earlier
  // ones (least recently used dropped first), so a finite-difference
  // Jacobian, whose sets go back to the base values, finds the base kinds.
  void bind(const std::vector<LayoutPlan>& layouts);
  bool bound() const { return bound_valid_; }
  // Forgets the binding (new layouts); the slots stay for the next bind.
  void unbind() { bound_valid_ = false; }

  // The kind's slot, or nullptr (no binding, or over the budget; external
  // storage).
  Complex* slot(std::size_t kind);
  // The kind's slot's position, or −1 (no binding, or over the budget): a
  // slot keeps its position while it lives, and positions stay below
  // capacity(), so that external buffers need not move.
  std::ptrdiff_t position(std::size_t kind) const;
  std::size_t capacity() const { return capacity_; }
  bool ready(std::size_t kind) const;
  // After an execute() that filled every bound slot (its pixels).
  void mark_filled();

 private:
  struct Slot {
    ParticleKind kind;  // the description (tables dropped)
    std::vector<Complex> values;
    bool ready = false;
    std::uint64_t used = 0;  // bind() count of its last binding
    std::size_t position = 0;
  };
  std::vector<Slot> slots_;
  std::vector<std::ptrdiff_t> bound_;  // per kind: its slot, or −1
  bool bound_valid_ = false;
  std::size_t slot_values_ = 0, capacity_ = 0;  // capacity_: slots the budget holds
  Storage storage_ = Storage::host;
  std::uint64_t clock_ = 0;
};

}  // namespace nanoscatter::gisaxs
