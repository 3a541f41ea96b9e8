// HDF5 arrays (C API of HDF5 1.10 underneath; no HDF5 type appears here).
//
// H5Writer builds a file under a temporary name and gives it its real name
// only on commit(), so a failed run leaves no file. Datasets are stored in
// C (row-major) order with the dims given; intermediate groups are created on
// demand. complex<double> is stored as the compound type {double r; double i;},
// the layout h5py reads natively as complex128 (and numpy's own layout), so
// that no trailing dimension of 2 has to be explained to readers.
//
// HDF5's automatic error printing is switched off during each call and
// restored afterwards; HDF5 errors come back as Error. Debian's HDF5 is built
// without thread safety: use these from one thread at a time.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace nanoscatter {

class H5Writer {
 public:
  // Creates the temporary file next to `path` (whose directory must exist).
  explicit H5Writer(const std::filesystem::path& path);
  ~H5Writer();  // without commit(): closes and removes the temporary file
  H5Writer(const H5Writer&) = delete;
  H5Writer& operator=(const H5Writer&) = delete;

  // Writes a new dataset at an absolute or root-relative path such as
  // "/detector/intensity" (groups on the way are created). `data` holds
  // product(dims) values in row-major order. Throws if it already exists.
  void write(const std::string& dataset_path, const double* data, const std::vector<std::size_t>& dims);
  void write(const std::string& dataset_path, const float* data, const std::vector<std::size_t>& dims);
  void write(const std::string& dataset_path, const std::int32_t* data,
             const std::vector<std::size_t>& dims);
  void write(const std::string& dataset_path, const std::uint8_t* data,
             const std::vector<std::size_t>& dims);
  void write(const std::string& dataset_path, const std::complex<double>* data,
             const std::vector<std::size_t>& dims);

  // A scalar string dataset (variable-length UTF-8), e.g. a NeXus text field.
  void write(const std::string& dataset_path, const std::string& value);

  // A soft link at `link_path` (groups on the way are created) to the
  // existing object at `target_path`: the object read under a second name.
  void link(const std::string& link_path, const std::string& target_path);

  // Creates a group (and its parents); existing groups are fine.
  void create_group(const std::string& group_path);

  // Attributes on an existing dataset or group; "/" is the file root.
  // Setting an attribute again replaces it.
  void set_attribute(const std::string& object_path, const std::string& name, const std::string& value);
  void set_attribute(const std::string& object_path, const std::string& name, const char* value);
  void set_attribute(const std::string& object_path, const std::string& name, double value);
  void set_attribute(const std::string& object_path, const std::string& name, std::int64_t value);
  void set_attribute(const std::string& object_path, const std::string& name, int value);
  void set_attribute(const std::string& object_path, const std::string& name,
                     const std::vector<double>& values);
  // An array of variable-length UTF-8 strings (NeXus @axes).
  void set_attribute(const std::string& object_path, const std::string& name,
                     const std::vector<std::string>& values);

  // Flushes and closes the file, then renames it onto the final path.
  // No write is allowed afterwards.
  void commit();

  const std::filesystem::path& path() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A 2D dataset read as doubles (integer and float datasets are converted).
struct Dataset2D {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> data;  // row-major: data[r * cols + c]
  std::string file;          // the file part of the spec
  std::string dataset;       // the absolute dataset path that was read
};

// `spec` is "file.h5:/group/name" or a plain "file.h5"; for a plain file the
// first 2D numeric dataset met by H5Lvisit over hard links (depth first, each
// group's members in increasing name order) is read. Throws Error naming the file and
// dataset when the file, the dataset, its rank or its type is wrong.
Dataset2D read_dataset_2d(const std::string& spec);

}  // namespace nanoscatter
