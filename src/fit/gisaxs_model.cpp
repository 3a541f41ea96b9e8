// GISAXS as a FitModel (fit_gisaxs.hpp).
#include <algorithm>
#include <optional>
#include <utility>

#include "nanoscatter/fit_gisaxs.hpp"
#include "nanoscatter/units.hpp"

namespace nanoscatter::fit {

namespace {
// Whether a key path is part of a layout (the sample's [[layout]] tables,
// or the top-level keys a sample without them gathers into its one layout):
// such edits go to the plan by set_layouts; any other needs a new plan.
bool layout_path(const std::string& path) {
  const std::string head = path.substr(0, path.find_first_of(".["));
  for (const char* key : {"layout", "particle", "interference", "density", "mixture", "position_variance"})
    if (head == key) return true;
  return false;
}

std::vector<double> edges_slice(const std::vector<double>& edges, std::size_t first, std::size_t bins) {
  return std::vector<double>(edges.begin() + long(first), edges.begin() + long(first + bins + 1));
}

// Whether a string value is a number with its unit (units.hpp).
bool has_unit(const std::string& text) {
  try {
    return units::has_unit(text, {});
  } catch (const Error&) {
    return false;  // not a number at all: a name, a file
  }
}
}  // namespace

PixelRect detector_rect(const gisaxs::Detector& detector) {
  PixelRect r;
  if (const auto* a = std::get_if<gisaxs::AngularDetector>(&detector)) {
    r.rows = a->alpha_edges.size() - 1, r.cols = a->phi_edges.size() - 1;
  } else if (const auto* q = std::get_if<gisaxs::QGridDetector>(&detector)) {
    r.rows = q->qz_edges.size() - 1, r.cols = q->qy_edges.size() - 1;
  } else {
    const auto& f = std::get<gisaxs::FlatDetector>(detector);
    r.rows = f.rows, r.cols = f.columns;
  }
  return r;
}

PixelRect default_region(const gisaxs::Detector& detector) {
  const auto* f = std::get_if<gisaxs::FlatDetector>(&detector);
  if (!f || f->region_columns == 0) return detector_rect(detector);
  // The sample's region counts from the lower-left corner, as the model's rows do.
  return PixelRect{f->region_y0, f->region_rows, f->region_x0, f->region_columns};
}

gisaxs::Detector cropped_detector(const gisaxs::Detector& detector, const PixelRect& rect) {
  const PixelRect whole = detector_rect(detector);
  if (rect.row0 + rect.rows > whole.rows || rect.col0 + rect.cols > whole.cols || !rect.rows || !rect.cols)
    fail("region rows [", rect.row0, ", ", rect.row0 + rect.rows, ") × columns [", rect.col0, ", ",
         rect.col0 + rect.cols, ") is empty or leaves the ", whole.rows, " × ", whole.cols, " detector");
  if (const auto* a = std::get_if<gisaxs::AngularDetector>(&detector))
    return gisaxs::AngularDetector{edges_slice(a->phi_edges, rect.col0, rect.cols),
                                   edges_slice(a->alpha_edges, rect.row0, rect.rows)};
  if (const auto* q = std::get_if<gisaxs::QGridDetector>(&detector))
    return gisaxs::QGridDetector{edges_slice(q->qy_edges, rect.col0, rect.cols),
                                 edges_slice(q->qz_edges, rect.row0, rect.rows)};
  gisaxs::FlatDetector f = std::get<gisaxs::FlatDetector>(detector);
  // The same pixels: the direct beam keeps its place relative to them.
  f.columns = rect.cols, f.rows = rect.rows;
  f.region_x0 = f.region_y0 = f.region_columns = f.region_rows = 0;  // the crop replaces the sample's region
  f.beam_x -= double(rect.col0), f.beam_y -= double(rect.row0);
  return f;
}

GisaxsFitModel::GisaxsFitModel(gisaxs::SampleDocument document, PixelRect region, gisaxs::GisaxsOptions options)
    : document_(std::move(document)), region_(region), options_(std::move(options)) {
  options_.validate();
  if (!region_.rows || !region_.cols) region_ = default_region(document_.sample().detector);
  cropped_detector(document_.sample().detector, region_);  // checks the region
}

std::vector<std::string> GisaxsFitModel::paths() const {
  std::vector<std::string> out;
  for (const std::string& p : document_.paths()) {
    const ConfigValue v = document_.get(p);
    // A value with its unit ("50 Å") is fitted too: the fit's numbers are
    // in the sample's bare units (nm, degrees), and set() writes one.
    const auto* text = std::get_if<std::string>(&v);
    if (std::holds_alternative<double>(v) || std::holds_alternative<std::int64_t>(v) || (text && has_unit(*text)))
      out.push_back(p);
  }
  return out;
}

void GisaxsFitModel::set(const std::string& path, double value) {
  // Each edit re-reads the sample: skip values that did not change (the
  // Jacobian's batches change one parameter per image).
  const auto it = current_.find(path);
  if (it != current_.end() && it->second == value) return;
  pending_.emplace_back(path, value);
  current_[path] = value;
  if (layout_path(path)) layouts_changed_ = true;
  else plan_stale_ = true;
}

gisaxs::Sample GisaxsFitModel::cropped_sample() const {
  gisaxs::Sample sample = document_.sample();
  sample.detector = cropped_detector(sample.detector, region_);
  sample.validated = false;  // a changed field: the plan checks again (gisaxs.hpp)
  return sample;
}

void GisaxsFitModel::sync_plan() {
  if (!pending_.empty()) {
    auto edits = std::move(pending_);
    pending_.clear();
    try {
      document_.set(edits);
    } catch (...) {
      for (const auto& e : edits) current_.erase(e.first);  // not applied: set them again next time
      throw;
    }
  }
  gisaxs::GisaxsOptions options = options_;
  options.compute.quiet = true;  // one line per fit iteration, not a bar per image
  if (!plan_ || plan_stale_) {
    plan_.emplace(cropped_sample(), options);
    plan_stale_ = layouts_changed_ = false;
  } else if (layouts_changed_) {
    plan_->set_layouts(document_.sample().layouts);
    layouts_changed_ = false;
  }
}

void GisaxsFitModel::evaluate(std::span<double> out) {
  if (out.size() != size()) fail("GisaxsFitModel::evaluate: output of ", out.size(), " values for ", size(), " pixels");
  sync_plan();
  const gisaxs::GisaxsResult result = plan_->execute();
  std::copy(result.intensity.begin(), result.intensity.end(), out.begin());
}

std::vector<std::vector<double>> GisaxsFitModel::evaluate_batch(const std::vector<std::string>& names,
                                                                const std::vector<std::vector<double>>& sets) {
  // Sets that change only layout values go to the plan together (on the
  // analytic GPU path, one launch); any other value needs a new plan per set.
  const bool layouts_only = std::all_of(names.begin(), names.end(), layout_path);
  if (!layouts_only || sets.size() < 2) return FitModel::evaluate_batch(names, sets);
  sync_plan();
  std::vector<std::vector<gisaxs::Layout>> layouts;
  std::optional<gisaxs::SampleDocument> last;
  for (const auto& values : sets) {
    if (values.size() != names.size())
      fail("GisaxsFitModel::evaluate_batch: a set of ", values.size(), " values for ", names.size(), " names");
    std::vector<std::pair<std::string, ConfigValue>> edits;
    for (std::size_t j = 0; j < names.size(); ++j) edits.emplace_back(names[j], values[j]);
    last.emplace(document_);
    last->set(edits);
    layouts.push_back(last->sample().layouts);
  }
  std::vector<std::vector<double>> images = plan_->execute_batch(layouts);
  // The values set last stay set (FitModel::evaluate_batch), and the plan
  // already holds their layouts.
  document_ = std::move(*last);
  for (std::size_t j = 0; j < names.size(); ++j) current_[names[j]] = sets.back()[j];
  return images;
}

gisaxs::PixelGrid GisaxsFitModel::region_pixels() const {
  const gisaxs::Sample sample = cropped_sample();
  return gisaxs::make_pixel_grid(sample.detector, sample.beam);
}

}  // namespace nanoscatter::fit
