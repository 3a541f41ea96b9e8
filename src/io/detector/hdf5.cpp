// HDF5 and NeXus detector images: the dataset named in the spec, or found
// by NeXus's @default/@signal chain, Eiger's /entry/data/data(_000001)
// (external links into the data files, which HDF5 follows), or the first
// numeric dataset of rank 2 or 3. Rank 3 is a stack of frames (frame, row,
// col); one frame is read through a hyperslab. Compressed chunks are
// decoded by HDF5 filter plugins (bitshuffle, LZ4, ...): Debian installs
// them outside HDF5's default search path, so the directories are added
// once per process where they exist.
#include <hdf5.h>

#include <filesystem>
#include <mutex>

#include "io/detector/formats.hpp"
#include "io/hdf5_util.hpp"

namespace nanoscatter::detector {
namespace {

using namespace hdf5;

// Where Debian 12's hdf5-filter-plugin and python3-bitshuffle put their
// HDF5 plugins. Appended after HDF5_PLUGIN_PATH, which therefore still wins.
constexpr const char* kDebianPluginDirs[] = {
    "/usr/lib/x86_64-linux-gnu/hdf5/serial/plugins",
    "/usr/lib/python3/dist-packages/bitshuffle/plugin",
};

void add_plugin_dirs() {
  static std::once_flag once;
  std::call_once(once, [] {
    ErrorSilencer quiet;
    std::error_code ec;
    for (const char* dir : kDebianPluginDirs)
      if (std::filesystem::is_directory(dir, ec)) H5PLappend(dir);
  });
}

// A string attribute (variable or fixed length), or "" when absent or not
// one string.
std::string string_attribute(hid_t object, const char* name) {
  if (H5Aexists(object, name) <= 0) return "";
  Handle attr(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
  Handle type(H5Aget_type(attr.get()), H5Tclose);
  if (!type.valid() || H5Tget_class(type.get()) != H5T_STRING) return "";
  // H5Aread writes every element of the attribute: the buffers below hold
  // one (an array of strings would overrun them).
  Handle space(H5Aget_space(attr.get()), H5Sclose);
  if (!space.valid() || H5Sget_simple_extent_npoints(space.get()) != 1) return "";
  if (H5Tis_variable_str(type.get()) > 0) {
    char* text = nullptr;
    Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(mem.get(), H5T_VARIABLE);
    H5Tset_cset(mem.get(), H5Tget_cset(type.get()));
    if (H5Aread(attr.get(), mem.get(), &text) < 0 || !text) return "";
    std::string out = text;
    H5free_memory(text);
    return out;
  }
  const std::size_t size = H5Tget_size(type.get());
  std::string out(size, '\0');
  Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(mem.get(), size);
  if (H5Aread(attr.get(), mem.get(), out.data()) < 0) return "";
  return out.substr(0, out.find('\0'));
}

std::string join(const std::string& group, const std::string& name) {
  return group == "/" ? "/" + name : group + "/" + name;
}

bool is_group(hid_t file, const std::string& path) {
  if (!link_exists(file, path)) return false;
  H5O_info_t info;
  return H5Oget_info_by_name(file, path.c_str(), &info, H5P_DEFAULT) >= 0 && info.type == H5O_TYPE_GROUP;
}

bool is_dataset(hid_t file, const std::string& path) {
  if (!link_exists(file, path)) return false;
  H5O_info_t info;
  return H5Oget_info_by_name(file, path.c_str(), &info, H5P_DEFAULT) >= 0 && info.type == H5O_TYPE_DATASET;
}

// NeXus: /@default names the NXentry, its @default the NXdata, whose
// @signal names the dataset. "" when the file has no /@default.
std::string nexus_default(hid_t file, const std::string& name) {
  std::string group = "/";
  for (int depth = 0; depth < 2; ++depth) {
    Handle g(H5Oopen(file, group.c_str(), H5P_DEFAULT), H5Oclose);
    const std::string next = string_attribute(g.get(), "default");
    if (next.empty()) {
      if (depth == 0) return "";
      break;  // an entry without @default may itself be the NXdata
    }
    const std::string path = join(group, next);
    if (!is_group(file, path)) fail_at({name, 0, group + "@default"}, "names '", next, "', which is not a group");
    group = path;
  }
  Handle g(H5Oopen(file, group.c_str(), H5P_DEFAULT), H5Oclose);
  const std::string signal = string_attribute(g.get(), "signal");
  if (signal.empty()) fail_at({name, 0, group + "@signal"}, "the NXdata group names no signal dataset");
  return join(group, signal);
}

bool numeric_frame_dataset(hid_t dset) {
  Handle type(H5Dget_type(dset), H5Tclose);
  Handle space(H5Dget_space(dset), H5Sclose);
  if (!type.valid() || !space.valid()) return false;
  const H5T_class_t cls = H5Tget_class(type.get());
  const int rank = H5Sget_simple_extent_ndims(space.get());
  return (cls == H5T_INTEGER || cls == H5T_FLOAT) && (rank == 2 || rank == 3);
}

herr_t find_first(hid_t group, const char* name, const H5L_info_t* info, void* client) {
  if (info->type != H5L_TYPE_HARD) return 0;  // soft/external links would double-visit
  const hid_t object = H5Oopen(group, name, H5P_DEFAULT);
  if (object < 0) return 0;
  const bool found = H5Iget_type(object) == H5I_DATASET && numeric_frame_dataset(object);
  H5Oclose(object);
  if (!found) return 0;
  try {
    *static_cast<std::string*>(client) = std::string("/") + name;
  } catch (...) {
    return -1;  // no C++ exception may cross the C library
  }
  return 1;  // stop the visit
}

std::string find_dataset(hid_t file, const std::string& name) {
  if (std::string nx = nexus_default(file, name); !nx.empty()) return nx;
  for (const char* eiger : {"/entry/data/data", "/entry/data/data_000001"})
    if (link_exists(file, eiger)) return eiger;
  std::string first;
  if (H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, find_first, &first) < 0)
    fail_at({name, 0, ""}, "cannot list the file's contents", hdf5_reason());
  if (first.empty()) fail_at({name, 0, ""}, "no 2D or 3D numeric dataset in the file; name one as ", name, ":/path");
  return first;
}

// Throws naming the filter when a chunk filter cannot be loaded (a missing
// plugin would otherwise surface as a vague "can't read data").
void check_filters(hid_t dset, const Where& where) {
  Handle dcpl(H5Dget_create_plist(dset), H5Pclose);
  if (!dcpl.valid()) return;
  const int n = H5Pget_nfilters(dcpl.get());
  for (int i = 0; i < n; ++i) {
    unsigned flags = 0, config = 0;
    std::size_t nvalues = 0;
    char filter_name[128] = {};
    const H5Z_filter_t id =
        H5Pget_filter2(dcpl.get(), unsigned(i), &flags, &nvalues, nullptr, sizeof filter_name, filter_name, &config);
    if (id < 0) continue;
    if (H5Zfilter_avail(id) <= 0)
      fail_at(where, "compression filter ", id, filter_name[0] ? std::string(" (") + filter_name + ")" : "",
              " is not available; install its HDF5 plugin or set HDF5_PLUGIN_PATH");
  }
}

std::optional<double> scalar(hid_t file, const char* path, double scale_if_mm = 1) {
  if (!is_dataset(file, path)) return std::nullopt;
  Handle d(H5Dopen2(file, path, H5P_DEFAULT), H5Dclose);
  Handle space(H5Dget_space(d.get()), H5Sclose);
  if (!space.valid() || H5Sget_simple_extent_npoints(space.get()) != 1) return std::nullopt;
  double v = 0;
  if (H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) < 0) return std::nullopt;
  const std::string units = string_attribute(d.get(), "units");
  if (units == "mm") v *= scale_if_mm;
  return v;
}

constexpr double kMetresPerMillimetre = 1e-3;

// NeXus NXdetector / NXbeam fields, as Eiger and most NeXus writers use them.
DetectorMetadata read_metadata(hid_t file) {
  DetectorMetadata m;
  m.pixel_size_x_m = scalar(file, "/entry/instrument/detector/x_pixel_size", kMetresPerMillimetre);
  m.pixel_size_y_m = scalar(file, "/entry/instrument/detector/y_pixel_size", kMetresPerMillimetre);
  m.distance_m = scalar(file, "/entry/instrument/detector/detector_distance", kMetresPerMillimetre);
  m.wavelength_a = scalar(file, "/entry/instrument/beam/incident_wavelength");
  m.exposure_s = scalar(file, "/entry/instrument/detector/count_time");
  return m;
}

// In the child process of read_contained.
DetectorImage read_hdf5_uncontained(const std::string& name, const std::string& requested,
                                    const DetectorReadOptions& options) {
  add_plugin_dirs();
  ErrorSilencer quiet;
  Handle f(H5Fopen(name.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!f.valid()) fail_at({name, 0, requested}, "cannot open as HDF5", hdf5_reason());
  const std::string dataset = requested.empty() ? find_dataset(f.get(), name) : requested;
  const Where where{name, 0, dataset};
  if (!link_exists(f.get(), dataset)) fail_at(where, "no such dataset in the file");
  // Opening follows soft and external links (Eiger data_000001 → data file).
  Handle object(H5Oopen(f.get(), dataset.c_str(), H5P_DEFAULT), H5Oclose);
  if (!object.valid()) fail_at(where, "cannot open", hdf5_reason());
  if (H5Iget_type(object.get()) != H5I_DATASET) fail_at(where, "is a group, not a dataset");
  Handle type(H5Dget_type(object.get()), H5Tclose);
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls != H5T_INTEGER && cls != H5T_FLOAT) fail_at(where, "holds non-numeric values; expected integers or floats");
  Handle space(H5Dget_space(object.get()), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank != 2 && rank != 3) fail_at(where, "has rank ", rank, "; expected an image (2) or a stack of frames (3)");
  hsize_t dims[3] = {1, 0, 0};
  H5Sget_simple_extent_dims(space.get(), rank == 3 ? dims : dims + 1, nullptr);
  const std::size_t frames = dims[0];
  if (options.frame >= frames)
    fail_at({name, 0, "frame"}, "frame ", options.frame, " requested; ", dataset, " holds ", frames,
            frames == 1 ? " frame" : " frames");
  check_size(where, dims[1], dims[2], options);
  check_filters(object.get(), where);

  DetectorImage img;
  img.rows = dims[1];
  img.cols = dims[2];
  img.values.resize(img.rows * img.cols);
  // One frame of the stack: the hyperslab [frame, :, :].
  hsize_t start[3] = {options.frame, 0, 0};
  hsize_t count[3] = {1, dims[1], dims[2]};
  const int offset = rank == 3 ? 0 : 1;
  if (H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start + offset, nullptr, count + offset, nullptr) < 0)
    fail_at(where, "cannot select the frame", hdf5_reason());
  Handle memspace(H5Screate_simple(2, count + 1, nullptr), H5Sclose);
  // HDF5 converts integer and single-precision data to double on the fly.
  if (H5Dread(object.get(), H5T_NATIVE_DOUBLE, memspace.get(), space.get(), H5P_DEFAULT, img.values.data()) < 0)
    fail_at(where, "cannot read data", hdf5_reason());
  img.source = name + ":" + dataset + (rank == 3 ? "[" + std::to_string(options.frame) + "]" : "");
  img.metadata = read_metadata(f.get());
  return img;
}

}  // namespace

// libhdf5 cannot be trusted with a corrupt file (finding 6,
// bench/results/2026-11-26-fuzz.md): the whole read, open included, runs
// contained.
DetectorImage read_hdf5(const std::string& name, const std::string& requested, const DetectorReadOptions& options) {
  // The library's start-up (H5open, reading no file) and the plugin folders
  // once in this process, which every child then inherits ready, instead of
  // once in every child.
  add_plugin_dirs();
  return read_contained(name, "the HDF5 library", options,
                        [&] { return read_hdf5_uncontained(name, requested, options); });
}

}  // namespace nanoscatter::detector
