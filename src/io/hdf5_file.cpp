// HDF5 writer and 2D reader over the HDF5 1.10 C API. Every HDF5 call runs
// with the library's automatic error printing switched off (restored
// afterwards, see ErrorSilencer) and failures become Errors that name the file
// and the dataset, with HDF5's innermost reason appended.
#include <hdf5.h>

#include <cstdint>
#include <limits>
#include <optional>

#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/resource_guard.hpp"
#include "nanoscatter/io_hdf5.hpp"
#include "io/contained_read.hpp"
#include "io/hdf5_util.hpp"

namespace nanoscatter {
using namespace hdf5;
namespace {

// Compound {double r; double i;} matching std::complex<double>'s layout
// (the standard guarantees it is array-of-two compatible).
Handle complex_type(hid_t part_type) {
  Handle t(H5Tcreate(H5T_COMPOUND, 2 * sizeof(double)), H5Tclose);
  if (!t.valid() || H5Tinsert(t.get(), "r", 0, part_type) < 0 ||
      H5Tinsert(t.get(), "i", sizeof(double), part_type) < 0)
    return Handle();
  return t;
}

// Variable-length UTF-8 strings: h5py returns them as str, tools show them as text.
Handle utf8_string_type(const std::string& file, const std::string& field) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  if (!type.valid() || H5Tset_size(type.get(), H5T_VARIABLE) < 0 || H5Tset_cset(type.get(), H5T_CSET_UTF8) < 0)
    fail_at({file, 0, field}, "cannot build string type", hdf5_reason());
  return type;
}

std::vector<const char*> c_strings(const std::vector<std::string>& values) {
  std::vector<const char*> out;
  for (const std::string& v : values) out.push_back(v.c_str());
  return out;
}

}  // namespace

struct H5Writer::Impl {
  AtomicOutput out;  // declared first: destroyed after the file is closed
  Handle file;
  bool committed = false;

  explicit Impl(const std::filesystem::path& path) : out(path) {}
  std::string name() const { return out.final_path().string(); }

  void require_open(const std::string& field) const {
    if (committed) fail_at({name(), 0, field}, "file already committed; no more writes");
  }

  // Empty `dims` with `scalar`: one value in a scalar dataspace (a string field).
  void write(const std::string& dataset_path, const void* data, const std::vector<std::size_t>& dims,
             hid_t mem_type, hid_t file_type, bool scalar = false) {
    const std::string path = absolute_object_path(dataset_path);
    const Where where{name(), 0, path};
    require_open(path);
    if (path.size() < 2 || path.back() == '/') fail_at(where, "not a valid dataset path");
    if (dims.empty() && !scalar) fail_at(where, "a dataset needs at least one dimension");
    std::vector<hsize_t> h5_dims(dims.begin(), dims.end());
    std::size_t count = 1;
    for (std::size_t d : dims) {
      if (d != 0 && count > std::numeric_limits<std::size_t>::max() / d)
        fail_at(where, "dimensions overflow");
      count *= d;
    }
    if (count > 0 && data == nullptr) fail_at(where, "no data given for ", count, " values");
    ErrorSilencer quiet;
    if (link_exists(file.get(), path)) fail_at(where, "dataset or group already exists");
    Handle space(scalar ? H5Screate(H5S_SCALAR)
                        : H5Screate_simple(static_cast<int>(h5_dims.size()), h5_dims.data(), nullptr),
                 H5Sclose);
    Handle lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
    if (!space.valid() || !lcpl.valid() || H5Pset_create_intermediate_group(lcpl.get(), 1) < 0)
      fail_at(where, "cannot set up dataset", hdf5_reason());
    Handle dset(H5Dcreate2(file.get(), path.c_str(), file_type, space.get(), lcpl.get(),
                           H5P_DEFAULT, H5P_DEFAULT),
                H5Dclose);
    if (!dset.valid()) fail_at(where, "cannot create dataset", hdf5_reason());
    if (count > 0 && H5Dwrite(dset.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
      fail_at(where, "cannot write dataset", hdf5_reason());
    if (!dset.close()) fail_at(where, "cannot close dataset", hdf5_reason());
  }

  // Replaces attribute `attr` of the object at `object_path` with a value of
  // `type` in `space`.
  void write_attribute(const std::string& object_path, const std::string& attr, hid_t type,
                       hid_t space, const void* value) {
    const std::string path = absolute_object_path(object_path);
    const Where where{name(), 0, path + "@" + attr};
    require_open(where.field);
    if (attr.empty()) fail_at(where, "empty attribute name");
    ErrorSilencer quiet;
    if (!link_exists(file.get(), path)) fail_at(where, "no dataset or group '", path, "'");
    Handle object(H5Oopen(file.get(), path.c_str(), H5P_DEFAULT), H5Oclose);
    if (!object.valid()) fail_at(where, "cannot open object", hdf5_reason());
    const htri_t exists = H5Aexists(object.get(), attr.c_str());
    if (exists < 0 || (exists > 0 && H5Adelete(object.get(), attr.c_str()) < 0))
      fail_at(where, "cannot replace attribute", hdf5_reason());
    Handle a(H5Acreate2(object.get(), attr.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT),
             H5Aclose);
    if (!a.valid() || H5Awrite(a.get(), type, value) < 0 || !a.close())
      fail_at(where, "cannot write attribute", hdf5_reason());
  }

  void write_scalar_attribute(const std::string& object_path, const std::string& attr, hid_t type,
                              const void* value) {
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    write_attribute(object_path, attr, type, space.get(), value);
  }
};

H5Writer::H5Writer(const std::filesystem::path& path) : impl_(std::make_unique<Impl>(path)) {
  ErrorSilencer quiet;
  // CLOSE_STRONG: closing the file closes anything still open in it, so the
  // file is complete on disk before commit() renames it.
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (!fapl.valid() || H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_STRONG) < 0)
    fail_at({impl_->name(), 0, "--output"}, "cannot set up HDF5 file access", hdf5_reason());
  impl_->file = Handle(
      H5Fcreate(impl_->out.temp_path().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose);
  if (!impl_->file.valid())
    fail_at({impl_->name(), 0, "--output"}, "cannot create HDF5 file", hdf5_reason());
}

H5Writer::~H5Writer() {
  if (impl_) {
    ErrorSilencer quiet;
    impl_->file.reset();
  }
}

const std::filesystem::path& H5Writer::path() const { return impl_->out.final_path(); }

void H5Writer::write(const std::string& p, const double* data, const std::vector<std::size_t>& dims) {
  impl_->write(p, data, dims, H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE);
}
void H5Writer::write(const std::string& p, const float* data, const std::vector<std::size_t>& dims) {
  impl_->write(p, data, dims, H5T_NATIVE_FLOAT, H5T_IEEE_F32LE);
}
void H5Writer::write(const std::string& p, const std::int32_t* data,
                     const std::vector<std::size_t>& dims) {
  impl_->write(p, data, dims, H5T_NATIVE_INT32, H5T_STD_I32LE);
}
void H5Writer::write(const std::string& p, const std::uint8_t* data,
                     const std::vector<std::size_t>& dims) {
  impl_->write(p, data, dims, H5T_NATIVE_UINT8, H5T_STD_U8LE);
}
void H5Writer::write(const std::string& p, const std::complex<double>* data,
                     const std::vector<std::size_t>& dims) {
  static_assert(sizeof(std::complex<double>) == 2 * sizeof(double));
  ErrorSilencer quiet;
  Handle mem = complex_type(H5T_NATIVE_DOUBLE);
  Handle disk = complex_type(H5T_IEEE_F64LE);
  if (!mem.valid() || !disk.valid())
    fail_at({impl_->name(), 0, absolute_object_path(p)}, "cannot build complex type", hdf5_reason());
  impl_->write(p, data, dims, mem.get(), disk.get());
}

void H5Writer::create_group(const std::string& group_path) {
  const std::string path = absolute_object_path(group_path);
  const Where where{impl_->name(), 0, path};
  impl_->require_open(path);
  ErrorSilencer quiet;
  if (link_exists(impl_->file.get(), path)) {
    Handle object(H5Oopen(impl_->file.get(), path.c_str(), H5P_DEFAULT), H5Oclose);
    if (!object.valid() || H5Iget_type(object.get()) != H5I_GROUP)
      fail_at(where, "exists and is not a group");
    return;
  }
  Handle lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
  if (!lcpl.valid() || H5Pset_create_intermediate_group(lcpl.get(), 1) < 0)
    fail_at(where, "cannot set up group creation", hdf5_reason());
  Handle group(H5Gcreate2(impl_->file.get(), path.c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
               H5Gclose);
  if (!group.valid()) fail_at(where, "cannot create group", hdf5_reason());
}

void H5Writer::set_attribute(const std::string& object_path, const std::string& name,
                             const std::string& value) {
  ErrorSilencer quiet;
  Handle type = utf8_string_type(impl_->name(), object_path + "@" + name);
  const char* text = value.c_str();
  impl_->write_scalar_attribute(object_path, name, type.get(), &text);
}
void H5Writer::set_attribute(const std::string& object_path, const std::string& name,
                             const std::vector<std::string>& values) {
  ErrorSilencer quiet;
  Handle type = utf8_string_type(impl_->name(), object_path + "@" + name);
  const hsize_t n = values.size();
  Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
  const std::vector<const char*> text = c_strings(values);
  impl_->write_attribute(object_path, name, type.get(), space.get(), text.data());
}

void H5Writer::write(const std::string& dataset_path, const std::string& value) {
  ErrorSilencer quiet;
  Handle type = utf8_string_type(impl_->name(), absolute_object_path(dataset_path));
  const char* text = value.c_str();
  impl_->write(dataset_path, &text, {}, type.get(), type.get(), true);
}

void H5Writer::link(const std::string& link_path, const std::string& target_path) {
  const std::string path = absolute_object_path(link_path), target = absolute_object_path(target_path);
  const Where where{impl_->name(), 0, path};
  impl_->require_open(path);
  ErrorSilencer quiet;
  if (link_exists(impl_->file.get(), path)) fail_at(where, "dataset or group already exists");
  if (!link_exists(impl_->file.get(), target)) fail_at(where, "link target '", target, "' does not exist");
  Handle lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
  if (!lcpl.valid() || H5Pset_create_intermediate_group(lcpl.get(), 1) < 0 ||
      H5Lcreate_soft(target.c_str(), impl_->file.get(), path.c_str(), lcpl.get(), H5P_DEFAULT) < 0)
    fail_at(where, "cannot create link", hdf5_reason());
}

void H5Writer::set_attribute(const std::string& object_path, const std::string& name,
                             const char* value) {
  set_attribute(object_path, name, std::string(value ? value : ""));
}
void H5Writer::set_attribute(const std::string& object_path, const std::string& name, double value) {
  impl_->write_scalar_attribute(object_path, name, H5T_NATIVE_DOUBLE, &value);
}
void H5Writer::set_attribute(const std::string& object_path, const std::string& name,
                             std::int64_t value) {
  impl_->write_scalar_attribute(object_path, name, H5T_NATIVE_INT64, &value);
}
void H5Writer::set_attribute(const std::string& object_path, const std::string& name, int value) {
  set_attribute(object_path, name, static_cast<std::int64_t>(value));
}
void H5Writer::set_attribute(const std::string& object_path, const std::string& name,
                             const std::vector<double>& values) {
  const hsize_t n = values.size();
  Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
  impl_->write_attribute(object_path, name, H5T_NATIVE_DOUBLE, space.get(), values.data());
}

void H5Writer::commit() {
  impl_->require_open("--output");
  {
    ErrorSilencer quiet;
    if (H5Fflush(impl_->file.get(), H5F_SCOPE_GLOBAL) < 0 || !impl_->file.close())
      fail_at({impl_->name(), 0, "--output"}, "cannot finish HDF5 file", hdf5_reason());
  }
  impl_->committed = true;
  impl_->out.commit();
}

// ---------------------------------------------------------------------------
// Reading

namespace {

// A numeric dataset of rank 2, or nullopt with the reason it is not.
std::optional<std::string> why_not_2d_numeric(hid_t dset) {
  Handle type(H5Dget_type(dset), H5Tclose);
  Handle space(H5Dget_space(dset), H5Sclose);
  if (!type.valid() || !space.valid()) return "cannot inspect dataset" + hdf5_reason();
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls != H5T_INTEGER && cls != H5T_FLOAT) {
    const bool is_compound = cls == H5T_COMPOUND;
    return std::string("holds ") + (is_compound ? "compound (e.g. complex)" : "non-numeric") +
           " values; expected integer or floating-point numbers";
  }
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank != 2) return "has rank " + std::to_string(rank) + ", expected a 2D dataset";
  return std::nullopt;
}

struct FirstDataset {
  std::string name;  // relative to the root, empty while none found
};

herr_t find_first_2d(hid_t group, const char* name, const H5L_info_t* info, void* client) {
  if (info->type != H5L_TYPE_HARD) return 0;  // soft/external links would double-visit
  const hid_t object = H5Oopen(group, name, H5P_DEFAULT);
  if (object < 0) return 0;
  bool found = false;
  if (H5Iget_type(object) == H5I_DATASET) found = !why_not_2d_numeric(object).has_value();
  H5Oclose(object);
  if (!found) return 0;
  try {
    static_cast<FirstDataset*>(client)->name = name;
  } catch (...) {
    return -1;  // no C++ exception may cross the C library
  }
  return 1;  // positive: stop the visit
}


// In the child process of read_dataset_2d.
Dataset2D read_dataset_2d_uncontained(const std::string& spec) {
  Dataset2D result;
  // The dataset follows the last ':' that is followed by '/'.
  const std::size_t colon = spec.rfind(":/");
  result.file = colon == std::string::npos ? spec : spec.substr(0, colon);
  std::string dataset = colon == std::string::npos ? std::string() : spec.substr(colon + 1);
  const std::string& file = result.file;
  if (file.empty()) fail_at({spec, 0, ""}, "no file name before ':'");
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) fail_at({file, 0, dataset}, "no such file");

  ErrorSilencer quiet;
  Handle f(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!f.valid()) fail_at({file, 0, dataset}, "cannot open as HDF5", hdf5_reason());

  if (dataset.empty()) {
    FirstDataset first;
    if (H5Lvisit(f.get(), H5_INDEX_NAME, H5_ITER_INC, find_first_2d, &first) < 0)
      fail_at({file, 0, ""}, "cannot list the file's contents", hdf5_reason());
    if (first.name.empty())
      fail_at({file, 0, ""}, "no 2D numeric dataset in the file; name one as ", file, ":/path");
    dataset = "/" + first.name;
  }
  const Where where{file, 0, dataset};
  if (!link_exists(f.get(), dataset)) fail_at(where, "no such dataset in the file");
  Handle object(H5Oopen(f.get(), dataset.c_str(), H5P_DEFAULT), H5Oclose);
  if (!object.valid()) fail_at(where, "cannot open", hdf5_reason());
  if (H5Iget_type(object.get()) != H5I_DATASET) fail_at(where, "is a group, not a dataset");
  if (auto why = why_not_2d_numeric(object.get())) fail_at(where, *why);

  Handle space(H5Dget_space(object.get()), H5Sclose);
  hsize_t dims[2] = {0, 0};
  if (!space.valid() || H5Sget_simple_extent_dims(space.get(), dims, nullptr) != 2)
    fail_at(where, "cannot read dimensions", hdf5_reason());
  require_host_memory(where, detail::concat(dims[0], " × ", dims[1], " values"),
                      double(dims[0]) * double(dims[1]) * sizeof(double));
  result.rows = dims[0];
  result.cols = dims[1];
  result.data.resize(result.rows * result.cols);
  // HDF5 converts integer and single-precision data to double on the fly.
  if (!result.data.empty() && H5Dread(object.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
                                      H5P_DEFAULT, result.data.data()) < 0)
    fail_at(where, "cannot read data", hdf5_reason());
  result.dataset = dataset;
  return result;
}

// File and dataset names: no path is longer.
constexpr std::size_t kMaxName = 1 << 16;

}  // namespace

// libhdf5 cannot be trusted with a corrupt file (finding 6,
// bench/results/2026-11-26-fuzz.md): the read runs in a child process
// (io/contained_read.hpp) under the default limits.
Dataset2D read_dataset_2d(const std::string& spec) {
  const std::size_t colon = spec.rfind(":/");
  const std::string file = colon == std::string::npos ? spec : spec.substr(0, colon);
  // The library's start-up (it reads no file) once here, not in every child.
  H5open();
  Dataset2D result;
  contained::run(
      {file, "the HDF5 library"}, ContainedReadOptions{},
      [&](contained::ResultWriter& out) {
        const Dataset2D d = read_dataset_2d_uncontained(spec);
        out.value<std::uint64_t>(d.rows);
        out.value<std::uint64_t>(d.cols);
        out.text(d.file);
        out.text(d.dataset);
        out.bytes(d.data.data(), d.data.size() * sizeof(double));
      },
      [&](contained::ResultReader& in) {
        result.rows = in.value<std::uint64_t>();
        result.cols = in.value<std::uint64_t>();
        result.file = in.text(kMaxName);
        result.dataset = in.text(kMaxName);
        // The child checked this already; its bytes are not trusted more than the file.
        require_host_memory({file, 0, result.dataset}, detail::concat(result.rows, " × ", result.cols, " values"),
                            double(result.rows) * double(result.cols) * sizeof(double));
        result.data.resize(result.rows * result.cols);
        in.bytes(result.data.data(), result.data.size() * sizeof(double));
      });
  return result;
}

}  // namespace nanoscatter
