// The parameters of a fit as the minimiser sees them: a vector of free
// values, from which every parameter's value follows (fixed ones keep their
// start, tied ones are their expression of the others, evaluated with
// muParser in dependency order).
#pragma once
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nanoscatter/fit.hpp"

namespace nanoscatter::fit {

class ParameterSet {
 public:
  // Checks every parameter against `model_paths` (plus "scale" and
  // "background"), its bounds and ties; Errors at the parameter's Where.
  ParameterSet(std::vector<Parameter> parameters, const std::vector<std::string>& model_paths);
  ~ParameterSet();
  ParameterSet(ParameterSet&&) noexcept;

  const std::vector<Parameter>& parameters() const { return parameters_; }
  const std::vector<std::size_t>& free_indices() const { return free_; }
  std::size_t free_count() const { return free_.size(); }
  std::vector<double> free_start() const;
  std::vector<double> free_lower() const;
  std::vector<double> free_upper() const;
  // Every parameter's value (in the order given) for these free values.
  std::vector<double> values(std::span<const double> free) const;
  bool has(const std::string& name) const;

 private:
  struct Ties;
  std::vector<Parameter> parameters_;
  std::vector<std::size_t> free_;
  std::unique_ptr<Ties> ties_;
};

// A muParser variable name for a parameter path: every character other
// than [A-Za-z0-9_] becomes '_', with a prefix that keeps it unique.
std::string tie_variable_name(std::size_t index);

}  // namespace nanoscatter::fit
