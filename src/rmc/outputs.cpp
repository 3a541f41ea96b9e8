// The files of an RMC run (rmc_output.hpp). Everything is written into a
// staging folder inside the output directory first and moved into place
// only when every file was written, so a failure leaves no partial set
// behind.
#include "nanoscatter/rmc_output.hpp"

#include <unistd.h>

#include <cmath>
#include <optional>
#include <sstream>
#include <string>

#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/io_figure.hpp"
#include "nanoscatter/io_nexus.hpp"
#include "nanoscatter/io_text.hpp"

namespace nanoscatter {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTitle = "nanoscatter rmc: reverse Monte Carlo fit of 2D particle arrangements to a small-angle image";
// What chi2 means in the files, per RmcOptions::chi2_scale.
std::string chi2_line(const RmcOptions& o) {
  std::ostringstream os;
  os << "chi2 is relative: sum over unmasked pixels of (P - s I)^2 / sum P^2, I = |FFT2(occupancy)|^2, ";
  switch (o.chi2_scale) {
    case Chi2Scale::free: os << "with the best scale s (chi2_scale free)"; break;
    case Chi2Scale::absolute: os << "with s = 1 (chi2_scale absolute)"; break;
    case Chi2Scale::fixed: os << "with s = " << o.scale << " (chi2_scale fixed)"; break;
  }
  return os.str();
}

// Errors about the output folder name it as the option (output).
Where at_output(const fs::path& path) { return {path.string(), 0, "output", true}; }

// Removes the staging folder unless its files were moved out.
class StagingDir {
 public:
  explicit StagingDir(const fs::path& dir) : path_(dir / (".rmc.tmp." + std::to_string(getpid()))) {
    std::error_code ec;
    fs::remove_all(path_, ec);
    if (!fs::create_directory(path_, ec))
      fail_at(at_output(dir), "cannot create a folder in it: ", ec.message());
    signal_handle_ = register_staging_directory(path_);
  }
  ~StagingDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
    release_staging_directory(signal_handle_);
  }
  const fs::path& path() const { return path_; }
  // Moves every file into `dir` (same file system: plain renames).
  void commit(const fs::path& dir) {
    for (const auto& entry : fs::directory_iterator(path_)) {
      std::error_code ec;
      fs::rename(entry.path(), dir / entry.path().filename(), ec);
      if (ec) fail_at(at_output(dir / entry.path().filename()), "cannot write: ", ec.message());
    }
  }

 private:
  fs::path path_;
  int signal_handle_ = -1;  // a signal removes the folder (atomic_file.hpp)
};

std::string tile_name(std::size_t t, std::size_t tiles) {
  const std::size_t width = std::to_string(tiles > 0 ? tiles - 1 : 0).size();
  std::string s = std::to_string(t);
  return std::string(width - s.size(), '0') + s;
}

}  // namespace

void check_rmc_output_dir(const fs::path& dir) {
  if (dir.empty()) fail_option("output", "required (the folder for the files)");
  if (fs::exists(dir)) {
    if (!fs::is_directory(dir)) fail_at(at_output(dir), "exists and is not a directory");
  } else {
    const auto parent = dir.parent_path();
    if (!parent.empty() && !fs::is_directory(parent))
      fail_at(at_output(dir), "parent directory '", parent.string(), "' does not exist");
  }
  check_output_directory(dir, "output");
}

std::vector<std::string> rmc_run_lines(const RmcTarget& target, const RmcOptions& options, const RmcResult& result) {
  std::vector<std::string> lines;
  lines.push_back("target: " + target.source);
  std::ostringstream os;
  os << "model: " << result.size << "x" << result.size << " sites, " << result.tiles.size() << " tiles, seed "
     << options.seed << ", device " << to_string(result.device);
  lines.push_back(os.str());
  os.str("");
  os << "moves: " << options.steps << " per tile, " << to_string(options.schedule) << " cooling";
  if (options.multires_levels > 0) os << ", multi-resolution levels " << options.multires_levels;
  if (options.max_distance > 0) os << ", at most " << options.max_distance << " sites far";
  lines.push_back(os.str());
  os.str("");
  os << "chi2 scale: " << to_string(options.chi2_scale);
  if (options.chi2_scale == Chi2Scale::fixed) os << " (s = " << options.scale << ")";
  os << (options.keep_zero_q ? ", q = 0 pixel kept" : ", q = 0 pixel masked");
  if (!options.loading_scan.empty())
    os << ", loading scan " << options.loading_scan.front() << " ... " << options.loading_scan.back() << " ("
       << options.loading_scan.size() << " loadings)";
  lines.push_back(os.str());
  os.str("");
  os << "time: " << result.seconds << " s";
  lines.push_back(os.str());
  return lines;
}

void write_rmc_outputs(const fs::path& dir, const RmcResult& result, const RmcTarget& target,
                       const RmcOptions& options, const RunRecord& record) {
  check_rmc_output_dir(dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) fail_at(at_output(dir), "cannot create: ", ec.message());
  const std::size_t n = result.size, tiles = result.tiles.size();
  if (tiles == 0) fail("write_rmc_outputs: no tiles");
  StagingDir staging(dir);
  const fs::path s = staging.path();
  std::vector<std::string> lines = record.header_lines(kTitle);
  lines.push_back(chi2_line(options));
  std::optional<RmcLoadingScan> scan;
  if (!options.loading_scan.empty()) scan = rmc_loading_scan(result, options);

  std::vector<std::vector<double>> models(tiles);
  std::vector<PairCorrelation> g(tiles);
  for (std::size_t t = 0; t < tiles; ++t) {
    models[t] = rmc_model_intensity(result.tiles[t].occupancy, n, result.tiles[t].scale);
    g[t] = pair_correlation(result.tiles[t].occupancy, n);
  }

  {  // rmc.h5: everything in one file
    nexus::Writer nx(s / "rmc.h5", record, lines);
    H5Writer& h5 = nx.h5();
    const auto in_entry = nexus::Writer::in_entry;
    // Reciprocal-space pixels counted from q = 0 at (N/2, N/2): the RMC
    // image has no physical q scale of its own.
    std::vector<double> from_zero_q(n);
    for (std::size_t k = 0; k < n; ++k) from_zero_q[k] = double(k) - double(n / 2);
    nx.field("data/target", target.intensity.data(), {n, n}, {"", "target intensity"});
    h5.set_attribute(in_entry("data/target"), "layout", "q = 0 at (N/2, N/2); NaN where masked");
    nx.field("data/row", from_zero_q.data(), {n}, {"pixel", "row - N/2 (pixels from q = 0)"});
    nx.field("data/column", from_zero_q.data(), {n}, {"pixel", "column - N/2 (pixels from q = 0)"});
    // The target's rows in its file's order: no physical up (the rmc PNGs
    // draw row 0 at the top, NeXus viewers at the bottom).
    const std::string orientation =
        "row index: the target's rows in file order, row - N/2; column index: its columns, column - N/2; q = 0 at "
        "(N/2, N/2)";
    nx.data_group({.name = "data", .signal = "target", .axes = {"row", "column"}, .orientation = orientation});
    std::vector<std::uint8_t> occ;
    std::vector<double> model;
    for (std::size_t t = 0; t < tiles; ++t) {
      occ.insert(occ.end(), result.tiles[t].occupancy.begin(), result.tiles[t].occupancy.end());
      model.insert(model.end(), models[t].begin(), models[t].end());
    }
    nx.field("model/model", model.data(), {tiles, n, n}, {"", "model intensity"});
    h5.set_attribute(in_entry("model/model"), "layout", "[tile][row][col], s*|FFT2(occupancy)|^2, q = 0 at (N/2, N/2)");
    h5.link(in_entry("model/row"), in_entry("data/row"));
    h5.link(in_entry("model/column"), in_entry("data/column"));
    nx.data_group({.name = "model",
                   .signal = "model",
                   .axes = {".", "row", "column"},
                   .orientation = "first index: tile; then as /entry/data: " + orientation,
                   .interpretation = "image"});
    nx.field("occupancy", occ.data(), {tiles, n, n}, {"", "occupancy (1 = occupied)"});
    h5.set_attribute(in_entry("occupancy"), "layout", "[tile][x][y], 1 = occupied");
    std::vector<std::uint8_t> mask(n * n);
    for (std::size_t p = 0; p < n * n; ++p) mask[p] = std::isnan(target.intensity[p]) ? 0 : 1;
    nx.field("mask", mask.data(), {n, n}, {"", "1 = pixel used"});
    std::vector<double> moves(result.trace_moves.begin(), result.trace_moves.end()), trace;
    for (const auto& tr : result.trace) trace.insert(trace.end(), tr.begin(), tr.end());
    nx.field("chi2_trace/moves", moves.data(), {moves.size()}, {"", "trial moves"});
    nx.field("chi2_trace/chi2", trace.data(), {tiles, moves.size()}, {"", "chi2"});
    nx.data_group({.name = "chi2_trace", .signal = "chi2", .axes = {".", "moves"}, .interpretation = "spectrum"});
    std::vector<double> gg;
    for (const auto& gt : g) gg.insert(gg.end(), gt.g.begin(), gt.g.end());
    nx.field("pair_correlation/r", g[0].r.data(), {g[0].r.size()}, {"pixel", "r (pixels)"});
    nx.field("pair_correlation/g", gg.data(), {tiles, g[0].r.size()}, {"", "g(r)"});
    nx.data_group({.name = "pair_correlation", .signal = "g", .axes = {".", "r"}, .interpretation = "spectrum"});
    auto column = [&](auto field) {
      std::vector<double> v;
      for (const auto& tr : result.tiles) v.push_back(double(field(tr)));
      return v;
    };
    const std::pair<const char*, std::vector<double>> stats[] = {
        {"loading", column([](const RmcTileResult& r) { return r.loading; })},
        {"particles", column([](const RmcTileResult& r) { return r.particles; })},
        {"temperature", column([](const RmcTileResult& r) { return r.temperature; })},
        {"chi2_initial", column([](const RmcTileResult& r) { return r.chi2_initial; })},
        {"chi2_final", column([](const RmcTileResult& r) { return r.chi2_final; })},
        {"scale", column([](const RmcTileResult& r) { return r.scale; })},
        {"chi2_free", column([](const RmcTileResult& r) { return r.chi2_free; })},
        {"final_acceptance", column([](const RmcTileResult& r) { return r.final_acceptance; })},
        {"tried", column([](const RmcTileResult& r) { return r.tried; })},
        {"accepted", column([](const RmcTileResult& r) { return r.accepted; })},
        {"blocked", column([](const RmcTileResult& r) { return r.blocked; })}};
    for (const auto& [name, values] : stats) nx.field(std::string("tiles/") + name, values.data(), {tiles}, {});
    h5.set_attribute(in_entry("tiles"), "NX_class", "NXcollection");
    for (const auto& [legacy, now] : {std::pair{"/target", "data/target"}, std::pair{"/model", "model/model"},
                                      std::pair{"/occupancy", "occupancy"}, std::pair{"/mask", "mask"},
                                      std::pair{"/chi2_trace", "chi2_trace"},
                                      std::pair{"/pair_correlation", "pair_correlation"}, std::pair{"/tiles", "tiles"}})
      nx.alias(legacy, now);
    h5.set_attribute("/", "command", record.command);
    h5.set_attribute("/", "version", library_version());
    h5.set_attribute("/", "target", target.source);
    h5.set_attribute("/", "seed", std::int64_t(options.seed));
    h5.set_attribute("/", "steps", std::int64_t(options.steps));
    h5.set_attribute("/", "schedule", to_string(options.schedule));
    h5.set_attribute("/", "chi2_scale", to_string(options.chi2_scale));
    h5.set_attribute("/", "scale", options.fixed_scale());
    h5.set_attribute("/", "keep_zero_q", std::int64_t(options.keep_zero_q));
    if (scan) {
      nx.field("loading_scan/loading", scan->loading.data(), {scan->loading.size()}, {"", "loading"});
      nx.field("loading_scan/chi2", scan->chi2.data(), {scan->chi2.size()}, {"", "chi2"});
      nx.field("loading_scan/chi2_free", scan->chi2_free.data(), {scan->chi2_free.size()}, {"", "chi2 (free pixels)"});
      nx.data_group({.name = "loading_scan", .signal = "chi2", .axes = {"loading"}, .auxiliary_signals = {"chi2_free"}});
      const std::string group = in_entry("loading_scan");
      h5.set_attribute(group, "best_loading", scan->best_loading);
      h5.set_attribute(group, "best_chi2", scan->best_chi2);
      h5.set_attribute(group, "refined_loading", scan->refined_loading);
      h5.set_attribute(group, "refined", std::int64_t(scan->refined));
      nx.alias("/loading_scan", "loading_scan");
    }
    h5.set_attribute("/", "max_distance", options.max_distance);
    h5.set_attribute("/", "device", to_string(result.device));
    h5.set_attribute("/", "seconds", result.seconds);
    nx.commit();
  }

  {  // χ² trace
    TextTable table;
    table.header_lines = lines;
    table.column_names.push_back("move");
    table.columns.emplace_back(result.trace_moves.begin(), result.trace_moves.end());
    for (std::size_t t = 0; t < tiles; ++t) {
      table.column_names.push_back("chi2_tile" + tile_name(t, tiles));
      table.columns.push_back(result.trace[t]);
    }
    write_text_table(s / "chi2_trace.dat", table);
  }
  {  // acceptance statistics
    TextTable table;
    table.header_lines = lines;
    table.header_lines.push_back("acceptance = accepted / tried; reduction = 1 - chi2_final / chi2_initial");
    table.header_lines.push_back("chi2_free: the final occupancy's chi2 with the best scale; final_acceptance: over the last tenth of the moves");
    table.column_names = {"tile", "loading", "particles", "temperature", "tried", "accepted", "blocked",
                          "acceptance", "chi2_initial", "chi2_final", "reduction", "scale", "chi2_free",
                          "final_acceptance"};
    table.columns.resize(table.column_names.size());
    for (std::size_t t = 0; t < tiles; ++t) {
      const RmcTileResult& r = result.tiles[t];
      const double row[] = {double(t), r.loading, double(r.particles), r.temperature, double(r.tried),
                            double(r.accepted), double(r.blocked), r.tried ? double(r.accepted) / double(r.tried) : 0.0,
                            r.chi2_initial, r.chi2_final, r.chi2_initial > 0 ? 1 - r.chi2_final / r.chi2_initial : 0.0,
                            r.scale, r.chi2_free, r.final_acceptance};
      for (std::size_t c = 0; c < table.columns.size(); ++c) table.columns[c].push_back(row[c]);
    }
    write_text_table(s / "acceptance.dat", table);
  }
  if (scan) {  // loading scan
    TextTable table;
    table.header_lines = lines;
    table.header_lines.push_back("loading scan: per loading the lowest final chi2 of its tiles (chi2_free: the same tile's, best scale)");
    std::ostringstream os;
    os << "minimum: loading " << scan->best_loading << " (chi2 " << scan->best_chi2 << "); refined by a parabola: "
       << scan->refined_loading << (scan->refined ? "" : " (not refined: minimum at an end, or no upward parabola)");
    table.header_lines.push_back(os.str());
    table.column_names = {"loading", "chi2", "chi2_free"};
    table.columns = {scan->loading, scan->chi2, scan->chi2_free};
    write_text_table(s / "loading_scan.dat", table);
  }
  {  // pair correlation
    TextTable table;
    table.header_lines = lines;
    table.header_lines.push_back("g(r): pair-correlation function of the fitted occupancy, rings r +- 1/2 (lattice units)");
    table.column_names.push_back("r");
    table.columns.push_back(g[0].r);
    for (std::size_t t = 0; t < tiles; ++t) {
      table.column_names.push_back("g_tile" + tile_name(t, tiles));
      table.columns.push_back(g[t].g);
    }
    write_text_table(s / "pair_correlation.dat", table);
  }
  // Figures, arrays as rmc.h5 holds them (row 0 at the top, as an image
  // viewer shows the target): the target and each tile's model on the
  // target's log colour scale, and each tile's occupancy.
  const FigureOptions figure = [&] {
    FigureOptions f = quick_look_figure();
    f.text = png_header_entries(lines);
    return f;
  }();
  const std::string centre = std::to_string(n / 2);
  ImagePanel target_panel;
  target_panel.rows = target_panel.cols = n;
  target_panel.origin_upper = target_panel.equal_aspect = true;
  // q = 0 at pixel (N/2, N/2): axes count pixels from it, to the pixel edges.
  target_panel.x_min = target_panel.y_min = -double(n / 2) - 0.5;
  target_panel.x_max = target_panel.y_max = double(n - 1 - n / 2) + 0.5;
  target_panel.x_label = "column − " + centre + " (pixels from q = 0)";
  target_panel.y_label = "row − " + centre + " (pixels from q = 0)";
  ImagePanel model_panel = target_panel;
  target_panel.title = "RMC target P (" + std::to_string(n) + "×" + std::to_string(n) + ", masked pixels grey)";
  target_panel.colour_label = "P";
  target_panel.values = target.intensity;
  const ColourBar target_bar = colour_bar(target_panel);
  write_figure_png(s / "target.png", {target_panel}, figure);
  model_panel.colour_label = "s·I";  // I = |FFT2(occupancy)|², s the tile's scale
  model_panel.vmin = target_bar.vmin, model_panel.vmax = target_bar.vmax;

  ImagePanel occupancy_panel;
  occupancy_panel.rows = occupancy_panel.cols = n;
  occupancy_panel.origin_upper = occupancy_panel.equal_aspect = true;
  occupancy_panel.x_min = occupancy_panel.y_min = -0.5;
  occupancy_panel.x_max = occupancy_panel.y_max = double(n) - 0.5;
  occupancy_panel.x_label = "column (sites)";
  occupancy_panel.y_label = "row (sites)";
  occupancy_panel.colour_label = "occupied";
  occupancy_panel.scale = ColourScale::linear_viridis;
  occupancy_panel.vmin = 0, occupancy_panel.vmax = 1;
  for (std::size_t t = 0; t < tiles; ++t) {
    const RmcTileResult& r = result.tiles[t];
    std::ostringstream title;
    title.precision(4);
    title << "RMC tile " << t << ": loading " << r.loading << ", " << r.particles << " particles";
    occupancy_panel.title = title.str();
    occupancy_panel.values.assign(r.occupancy.begin(), r.occupancy.end());
    write_figure_png(s / ("occupancy_tile" + tile_name(t, tiles) + ".png"), {occupancy_panel}, figure);
    title.str("");
    title << "RMC model, tile " << t << ": χ²_rel = " << r.chi2_final;
    model_panel.title = title.str();
    model_panel.values = models[t];
    write_figure_png(s / ("model_tile" + tile_name(t, tiles) + ".png"), {model_panel}, figure);
  }
  staging.commit(dir);
}

}  // namespace nanoscatter
