// The GISAXS engine as a FitModel: parameters are the sample file's key
// paths ("particle[0].radius", "interference.lattice.length",
// "layer[1].thickness", "beam.alpha_i"), in the file's units (nm, degrees),
// set through a SampleDocument, so a fitted value means what it means in
// the file. Only the region of interest is computed: the detector is cropped
// to the region's rectangle before planning (angular and q-grid detectors:
// the bin range; flat detectors: the pixel range with the direct beam
// shifted), so a 204 × 129 region of a 981 × 1043 detector costs 204 × 129
// pixels.
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nanoscatter/fit.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_sample_document.hpp"

namespace nanoscatter::fit {

// A rectangle of pixels in the model's orientation (row 0 = the lowest
// detector row, α_f or q_z), [row0, row0 + rows) × [col0, col0 + cols).
struct PixelRect {
  std::size_t row0 = 0, rows = 0, col0 = 0, cols = 0;
};

// rows × cols of a sample's detector (the whole detector: a flat
// detector's `region` is not applied).
PixelRect detector_rect(const gisaxs::Detector& detector);
// The rectangle a fit uses when it is given none: a flat detector's
// `region` (docs/gisaxs.md) where the sample sets one, else the whole
// detector.
PixelRect default_region(const gisaxs::Detector& detector);
// The detector restricted to a rectangle of its pixels (same pixel geometry).
gisaxs::Detector cropped_detector(const gisaxs::Detector& detector, const PixelRect& rect);

class GisaxsFitModel : public FitModel {
 public:
  // region.rows == 0 or region.cols == 0: default_region of the sample.
  GisaxsFitModel(gisaxs::SampleDocument document, PixelRect region, gisaxs::GisaxsOptions options);

  std::vector<std::string> paths() const override;  // the numeric values of the sample file
  void set(const std::string& path, double value) override;
  std::size_t rows() const override { return region_.rows; }
  std::size_t cols() const override { return region_.cols; }
  void evaluate(std::span<double> out) override;
  // Sets that change only layout values ("layout[…]", or the top-level
  // particle, interference, density, mixture and position_variance keys of a
  // sample without [[layout]]) in one
  // GisaxsPlan::execute_batch (one launch on the analytic GPU path); others
  // one after the other.
  std::vector<std::vector<double>> evaluate_batch(const std::vector<std::string>& names,
                                                  const std::vector<std::vector<double>>& sets) override;
  // The plan, once an evaluation has made it (tests: its stats).
  const gisaxs::GisaxsPlan* plan() const { return plan_ ? &*plan_ : nullptr; }

  const gisaxs::SampleDocument& document() const { return document_; }
  const PixelRect& region() const { return region_; }
  // The pixel grid of the region (axes for figures).
  gisaxs::PixelGrid region_pixels() const;

 private:
  gisaxs::Sample cropped_sample() const;
  // Applies the pending values and makes or updates the plan.
  void sync_plan();
  gisaxs::SampleDocument document_;
  PixelRect region_;
  gisaxs::GisaxsOptions options_;
  std::map<std::string, double> current_;  // values set, to skip unchanged ones
  // Values set since the last evaluation: applied together (one check of
  // the whole sample, so tied values may move together).
  std::vector<std::pair<std::string, ConfigValue>> pending_;
  // The plan of the last evaluation, kept while only layout values (paths
  // "layout[…]" or their top-level forms: particles, distributions,
  // interference) change: those go
  // in by set_layouts, which keeps the pixel geometry and the layers'
  // fields (on the GPU, resident); any other change makes a new plan.
  std::optional<gisaxs::GisaxsPlan> plan_;
  bool plan_stale_ = true, layouts_changed_ = false;
};

}  // namespace nanoscatter::fit
