// The NeXus layout every HDF5 output of nanoscatter follows (docs/nexus.md),
// on top of H5Writer, so that NeXus readers (silx, NeXpy, pyFAI's viewers,
// h5web) plot any of them without knowing the engine:
//
//   /                 @NX_class=NXroot  @default=entry
//   /entry            NXentry  @default=<first NXdata>  title, program_name
//   /entry/process    NXprocess: program, version, command, engine,
//                     parameters (NXnote: the run record's lines)
//   /entry/<data>     NXdata  @signal @axes @<axis>_indices
//                     [@auxiliary_signals] [@orientation]; every dataset
//                     with @units (the spellings below) and @long_name
//
// An engine states its fields, its NXdata groups and the aliases that keep
// the paths of earlier versions readable (soft links at the old paths).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "nanoscatter/io_hdf5.hpp"
#include "nanoscatter/run_record.hpp"

namespace nanoscatter::nexus {

// The one spelling of each unit in HDF5 files (UDUNITS-2 names, as NeXus
// asks); "" is a dimensionless quantity (no @units written).
inline constexpr std::array<std::string_view, 16> kUnits{
    "1/angstrom",      "1/nm",      "deg",             "angstrom",     "nm",   "mm",   "sr",   "electron^2",
    "fm^2",            "angstrom^2", "electron^2/atom", "fm^2/atom",   "angstrom^2/atom", "1/angstrom^2",
    "nm^3",            "pixel"};

// Whether `units` is "" or one of kUnits.
bool known_units(std::string_view units);

// What a dataset is: @units (from kUnits, or "" for none) and @long_name
// (the axis label a viewer shows; "" for none).
struct Field {
  std::string units;
  std::string long_name;
};

// One NXdata group /entry/<name>: the signal and, per dimension of the
// signal (slowest first), the name of its axis dataset in the same group or
// "." for none. An image states its orientation in words (@orientation of
// the group): which index runs along which axis and which way is up.
struct DataGroup {
  std::string name;
  std::string signal;
  std::vector<std::string> axes;
  std::vector<std::string> auxiliary_signals{};  // curves plotted with the signal (same axes)
  std::string orientation{};
  // The signal's @interpretation where its rank alone misleads a viewer:
  // "image" for a stack of images, "spectrum" for a stack of curves.
  std::string interpretation{};
};

class Writer {
 public:
  // Creates `path` (see H5Writer) with /, /entry and /entry/process;
  // `header` is the run record's lines (RunRecord::header_lines), the first
  // being the title.
  Writer(const std::filesystem::path& path, const RunRecord& record, const std::vector<std::string>& header);

  // A dataset at /entry/<path> (groups on the way are created) with the
  // field's @units and @long_name. Units outside kUnits are a bug: fail().
  template <class T>
  void field(const std::string& path, const T* data, const std::vector<std::size_t>& dims, const Field& what) {
    h5_.write(in_entry(path), data, dims);
    describe(in_entry(path), what);
  }

  // The NXdata group's attributes, its datasets written already by field();
  // the first group stated is the entry's @default (what a viewer opens).
  void data_group(const DataGroup& group);

  // A soft link at `legacy_path` (from the root) to /entry/<entry_path>, so
  // that readers of the earlier layout keep working.
  void alias(const std::string& legacy_path, const std::string& entry_path);

  // "/entry/" + path: for attributes the writer does not set itself.
  static std::string in_entry(const std::string& path);

  H5Writer& h5() { return h5_; }
  void commit() { h5_.commit(); }

 private:
  void describe(const std::string& path, const Field& what);
  H5Writer h5_;
  bool has_default_ = false;
};

}  // namespace nanoscatter::nexus
