// A GISAXS sample as an object model: its TOML document, edited key by key
// ("particle[0].radius", "beam.alpha_i", "layer[1].thickness"), checked on
// every edit exactly as a file is checked (an edit the sample reader refuses
// leaves the document as it was), and written back as TOML. The Sample is
// always parse_sample of the document, so a document edited here and the
// same edit made in the file give the same Sample, and the same image.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "nanoscatter/config_edit.hpp"
#include "nanoscatter/gisaxs.hpp"

namespace nanoscatter::gisaxs {

class SampleDocument {
 public:
  static SampleDocument read(const std::filesystem::path& path);
  static SampleDocument parse(std::string_view text, const std::string& source_name);

  const Sample& sample() const { return sample_; }
  ConfigValue get(const std::string& path) const;
  // Sets one value (an Error naming the key, and no change, where the
  // sample reader refuses the result).
  void set(const std::string& path, const ConfigValue& value);
  // Sets several values as one edit, checked once at the end, so that
  // values that depend on each other (a particle's depth and its layer's
  // thickness) may change together; all or nothing, as set().
  void set(const std::vector<std::pair<std::string, ConfigValue>>& edits);
  std::vector<std::string> paths() const;  // every value's key path

  const std::string& toml() const { return text_; }  // as toml++ writes it (comments are not kept)
  void write(const std::filesystem::path& path) const;  // atomically
  const std::string& source() const { return source_; }

 private:
  SampleDocument(std::string text, std::string source);
  std::string text_, source_;
  Sample sample_;
};

}  // namespace nanoscatter::gisaxs
