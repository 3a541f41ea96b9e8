// HDF5 C-API helpers shared by the writer/2D reader (hdf5_file.cpp) and the
// detector reader (detector/hdf5.cpp): a scoped switch-off of HDF5's error
// printing, the innermost HDF5 reason as text, an owning hid_t handle.
#pragma once
#include <hdf5.h>

#include <string>

namespace nanoscatter::hdf5 {

// HDF5 prints its error stack to stderr on every failed call unless told not
// to; the setting is library-wide, so it is switched off only while our calls
// run and restored afterwards rather than changed for the whole process.
class ErrorSilencer {
 public:
  ErrorSilencer() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~ErrorSilencer() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  ErrorSilencer(const ErrorSilencer&) = delete;
  ErrorSilencer& operator=(const ErrorSilencer&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

inline herr_t keep_innermost(unsigned n, const H5E_error2_t* err, void* client) {
  // Walking upward, entry 0 is where the error was first detected.
  if (n == 0) {
    char text[256] = {};
    if (H5Eget_msg(err->min_num, nullptr, text, sizeof text) > 0)
      *static_cast<std::string*>(client) = text;
  }
  return 0;
}

// " (HDF5: <reason>)" from the current error stack, which is then cleared.
inline std::string hdf5_reason() {
  std::string reason;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, keep_innermost, &reason);
  H5Eclear2(H5E_DEFAULT);
  return reason.empty() ? std::string() : " (HDF5: " + reason + ")";
}

// Owns one hid_t and closes it with the matching H5?close.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  ~Handle() { reset(); }
  Handle(Handle&& other) noexcept : id_(other.id_), closer_(other.closer_) { other.id_ = -1; }
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = other.id_;
      closer_ = other.closer_;
      other.id_ = -1;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  // Closes now and reports whether HDF5 accepted the close.
  bool close() {
    const hid_t id = id_;
    id_ = -1;
    return id < 0 || closer_(id) >= 0;
  }
  void reset() {
    if (id_ >= 0) closer_(id_);
    id_ = -1;
  }

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

inline std::string absolute_object_path(const std::string& path) {
  return !path.empty() && path.front() == '/' ? path : "/" + path;
}

// Whether every link along `path` exists (H5Lexists fails, rather than
// returning false, when an intermediate group is missing).
inline bool link_exists(hid_t file, const std::string& path) {
  if (path == "/") return true;
  std::size_t pos = 1;
  while (pos <= path.size()) {
    std::size_t next = path.find('/', pos);
    if (next == std::string::npos) next = path.size();
    const std::string prefix = path.substr(0, next);
    if (next > pos && H5Lexists(file, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    pos = next + 1;
  }
  return true;
}

}  // namespace nanoscatter::hdf5
