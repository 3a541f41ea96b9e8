#include "nanoscatter/gisaxs_sample_document.hpp"

#include <fstream>
#include <sstream>

#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::gisaxs {

SampleDocument::SampleDocument(std::string text, std::string source)
    : text_(toml_normalised(text, source)), source_(std::move(source)), sample_(parse_sample(text_, source_)) {}

SampleDocument SampleDocument::read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail_at({path.string(), 0, ""}, "cannot open the sample file");
  std::ostringstream text;
  text << in.rdbuf();
  // Errors of the file as written (its own line numbers) before the document
  // is normalised.
  read_sample(path);
  return SampleDocument(text.str(), path.string());
}

SampleDocument SampleDocument::parse(std::string_view text, const std::string& source_name) {
  parse_sample(text, source_name);
  return SampleDocument(std::string(text), source_name);
}

ConfigValue SampleDocument::get(const std::string& path) const { return toml_value(text_, source_, path); }

void SampleDocument::set(const std::string& path, const ConfigValue& value) { set({{path, value}}); }

void SampleDocument::set(const std::vector<std::pair<std::string, ConfigValue>>& edits) {
  std::string edited = text_;
  for (const auto& [path, value] : edits) edited = toml_with_value(edited, source_, path, value);
  Sample sample = parse_sample(edited, source_);  // throws before anything changes
  text_ = std::move(edited);
  sample_ = std::move(sample);
}

std::vector<std::string> SampleDocument::paths() const { return toml_value_paths(text_, source_); }

void SampleDocument::write(const std::filesystem::path& path) const {
  AtomicOutput out(path);
  {
    std::ofstream f(out.temp_path(), std::ios::binary);
    f << text_;
    if (!f) fail_at({path.string(), 0, "output", true}, "cannot write the sample file");
  }
  out.commit();
}

}  // namespace nanoscatter::gisaxs
