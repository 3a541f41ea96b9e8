// Parameters, bounds and ties (parameters.hpp). Tie expressions name
// parameters by their paths ("2*particle[0].radius"), which are not muParser
// identifiers ('[' and '.'): the expression is scanned once, every path is
// checked against the parameters and rewritten as its variable p<index>.
#include "parameters.hpp"

#include <muParser.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

namespace nanoscatter::fit {

std::string tie_variable_name(std::size_t index) { return "p" + std::to_string(index); }

namespace {

bool is_special(const std::string& name) { return name == "scale" || name == "background"; }

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The expression with parameter paths replaced by their variables, and the
// indices of the parameters it names.
struct RewrittenTie {
  std::string expression;
  std::vector<std::size_t> uses;
};

RewrittenTie rewrite_tie(const Parameter& p, const std::vector<Parameter>& all) {
  const std::string& e = p.tie;
  RewrittenTie out;
  std::size_t i = 0;
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (i < e.size()) {
    const char c = e[i];
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < e.size() && std::isdigit(static_cast<unsigned char>(e[i + 1])))) {
      // A number, exponent included (the 'e' of 1e-3 is not a name).
      std::size_t j = i;
      while (j < e.size() && (std::isdigit(static_cast<unsigned char>(e[j])) || e[j] == '.')) ++j;
      if (j < e.size() && (e[j] == 'e' || e[j] == 'E')) {
        std::size_t k = j + 1;
        if (k < e.size() && (e[k] == '+' || e[k] == '-')) ++k;
        if (k < e.size() && std::isdigit(static_cast<unsigned char>(e[k]))) {
          j = k;
          while (j < e.size() && std::isdigit(static_cast<unsigned char>(e[j]))) ++j;
        }
      }
      out.expression.append(e, i, j - i);
      i = j;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      // A path: identifier, then [n] or [label] and .identifier parts (a
      // label as the PDF and powder models' species: u[Co], b[Fe2+]).
      std::size_t j = i;
      while (j < e.size() && ident(e[j])) ++j;
      const auto index_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '+' || c == '-'; };
      for (;;) {
        if (j < e.size() && e[j] == '[') {
          std::size_t k = j + 1;
          while (k < e.size() && index_char(e[k])) ++k;
          if (k > j + 1 && k < e.size() && e[k] == ']') { j = k + 1; continue; }
        }
        if (j + 1 < e.size() && e[j] == '.' && (std::isalpha(static_cast<unsigned char>(e[j + 1])) || e[j + 1] == '_')) {
          j += 1;
          while (j < e.size() && ident(e[j])) ++j;
          continue;
        }
        break;
      }
      const std::string name = e.substr(i, j - i);
      std::size_t k = j;
      while (k < e.size() && std::isspace(static_cast<unsigned char>(e[k]))) ++k;
      const bool function = k < e.size() && e[k] == '(';
      const auto found = std::find_if(all.begin(), all.end(), [&](const Parameter& q) { return q.name == name; });
      if (!function && found != all.end()) {
        const auto index = static_cast<std::size_t>(found - all.begin());
        out.expression += tie_variable_name(index);
        out.uses.push_back(index);
      } else if (function || name == "_pi" || name == "_e") {
        out.expression += name;  // muParser's functions and constants
      } else {
        std::vector<std::string> names;
        for (const auto& q : all) names.push_back(q.name);
        fail_at(p.tie_where, "tie names '", name, "', which is not a parameter (parameters: ", joined(names), ")");
      }
      i = j;
    } else {
      out.expression += c;
      ++i;
    }
  }
  return out;
}

}  // namespace

struct ParameterSet::Ties {
  std::vector<double> values;  // every parameter's value: the variables the parsers read
  std::vector<std::size_t> order;  // tied parameters in dependency order
  std::map<std::size_t, std::unique_ptr<mu::Parser>> parsers;
};

ParameterSet::~ParameterSet() = default;
ParameterSet::ParameterSet(ParameterSet&&) noexcept = default;

ParameterSet::ParameterSet(std::vector<Parameter> parameters, const std::vector<std::string>& model_paths)
    : parameters_(std::move(parameters)), ties_(std::make_unique<Ties>()) {
  std::vector<RewrittenTie> ties(parameters_.size());
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    const Parameter& p = parameters_[i];
    if (!is_special(p.name) && std::find(model_paths.begin(), model_paths.end(), p.name) == model_paths.end())
      fail_at(p.where, "unknown model path '", p.name, "' (the model has: scale, background, ", joined(model_paths),
              ")");
    for (std::size_t j = 0; j < i; ++j)
      if (parameters_[j].name == p.name) fail_at(p.where, "parameter '", p.name, "' is given twice");
    if (!std::isfinite(p.start)) fail_at(p.bounds_where, "start must be a finite number");
    if (!(p.min < p.max)) fail_at(p.bounds_where, "min must be < max, got min = ", p.min, ", max = ", p.max);
    if (p.tie.empty() && (p.start < p.min || p.start > p.max))
      fail_at(p.bounds_where, "the bounds [", p.min, ", ", p.max, "] exclude the start ", p.start);
    if (!p.tie.empty() && p.fixed) fail_at(p.tie_where, "a parameter is either fixed or tied, not both");
  }
  for (std::size_t i = 0; i < parameters_.size(); ++i)
    if (!parameters_[i].tie.empty()) ties[i] = rewrite_tie(parameters_[i], parameters_);
    else if (!parameters_[i].fixed) free_.push_back(i);

  // Dependency order by depth-first search; a tie met again while on the
  // stack closes a cycle.
  enum class Mark { none, active, done };
  std::vector<Mark> mark(parameters_.size(), Mark::none);
  std::vector<std::size_t> stack;
  std::function<void(std::size_t)> visit = [&](std::size_t i) {
    if (parameters_[i].tie.empty() || mark[i] == Mark::done) return;
    if (mark[i] == Mark::active) {
      std::string cycle;
      auto from = std::find(stack.begin(), stack.end(), i);
      for (auto it = from; it != stack.end(); ++it) cycle += parameters_[*it].name + " -> ";
      fail_at(parameters_[i].tie_where, "tie cycle: ", cycle, parameters_[i].name);
    }
    mark[i] = Mark::active;
    stack.push_back(i);
    for (std::size_t j : ties[i].uses) visit(j);
    stack.pop_back();
    mark[i] = Mark::done;
    ties_->order.push_back(i);
  };
  for (std::size_t i = 0; i < parameters_.size(); ++i) visit(i);

  ties_->values.resize(parameters_.size());
  for (std::size_t i = 0; i < parameters_.size(); ++i) ties_->values[i] = parameters_[i].start;
  for (std::size_t i : ties_->order) {
    auto parser = std::make_unique<mu::Parser>();
    try {
      for (std::size_t j = 0; j < parameters_.size(); ++j)
        parser->DefineVar(tie_variable_name(j), &ties_->values[j]);
      parser->SetExpr(ties[i].expression);
      parser->Eval();  // syntax errors now, not mid-fit
    } catch (const mu::Parser::exception_type& e) {
      fail_at(parameters_[i].tie_where, "tie '", parameters_[i].tie, "': ", e.GetMsg());
    }
    ties_->parsers[i] = std::move(parser);
  }
}

std::vector<double> ParameterSet::free_start() const {
  std::vector<double> out;
  for (std::size_t i : free_) out.push_back(parameters_[i].start);
  return out;
}
std::vector<double> ParameterSet::free_lower() const {
  std::vector<double> out;
  for (std::size_t i : free_) out.push_back(parameters_[i].min);
  return out;
}
std::vector<double> ParameterSet::free_upper() const {
  std::vector<double> out;
  for (std::size_t i : free_) out.push_back(parameters_[i].max);
  return out;
}

bool ParameterSet::has(const std::string& name) const {
  return std::any_of(parameters_.begin(), parameters_.end(), [&](const Parameter& p) { return p.name == name; });
}

std::vector<double> ParameterSet::values(std::span<const double> free) const {
  std::vector<double>& v = ties_->values;
  for (std::size_t i = 0; i < parameters_.size(); ++i) v[i] = parameters_[i].start;
  for (std::size_t k = 0; k < free_.size(); ++k) v[free_[k]] = free[k];
  for (std::size_t i : ties_->order) {
    try {
      v[i] = ties_->parsers.at(i)->Eval();
    } catch (const mu::Parser::exception_type& e) {
      fail_at(parameters_[i].tie_where, "tie '", parameters_[i].tie, "': ", e.GetMsg());
    }
  }
  return v;
}

}  // namespace nanoscatter::fit
