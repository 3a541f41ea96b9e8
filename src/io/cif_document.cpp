#include "io/cif_document.hpp"

#include <cctype>

#include "io/structure_text.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::io {
namespace {

enum class TokenKind { tag, value, loop, data, save, global, stop };

struct Token {
  TokenKind kind;
  CifValue value;  // the tag name (lower case) for tags, the block name for data_
};

bool starts_with_ci(const std::string& text, std::string_view prefix) {
  return text.size() >= prefix.size() && iequals(std::string_view(text).substr(0, prefix.size()), prefix);
}

std::vector<Token> tokenize(const std::vector<std::string>& lines, const std::string& path) {
  std::vector<Token> tokens;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const std::string& line = lines[k];
    const int n = static_cast<int>(k) + 1;
    if (!line.empty() && line[0] == ';') {
      // Text field: from after the ';' to the next line that starts with ';'.
      std::string text = line.substr(1);
      std::size_t j = k + 1;
      for (; j < lines.size() && (lines[j].empty() || lines[j][0] != ';'); ++j) text += "\n" + lines[j];
      if (j == lines.size()) fail_at({path, n, ""}, "unterminated text field (no closing ';' line)");
      tokens.push_back({TokenKind::value, {text, n, true}});
      // Whatever follows the closing ';' on its line is parsed as usual.
      k = j;
      std::string rest = lines[j].substr(1);
      if (io::trim(rest).empty()) continue;
      // Re-tokenize the remainder by treating it as its own line.
      const auto more = tokenize({" " + rest}, path);
      for (auto token : more) {
        token.value.line = static_cast<int>(j) + 1;
        tokens.push_back(std::move(token));
      }
      continue;
    }
    std::size_t pos = 0;
    while (pos < line.size()) {
      const char ch = line[pos];
      if (std::isspace(static_cast<unsigned char>(ch))) {
        ++pos;
        continue;
      }
      if (ch == '#') break;  // comment to the end of the line
      if (ch == '\'' || ch == '"') {
        // Closed by the same quote followed by whitespace or the line end, so
        // 'O'Neil' style apostrophes inside stay part of the value.
        std::size_t end = pos + 1;
        while (end < line.size() &&
               !(line[end] == ch && (end + 1 == line.size() || std::isspace(static_cast<unsigned char>(line[end + 1])))))
          ++end;
        if (end >= line.size()) fail_at({path, n, ""}, "unterminated quoted string starting '", line.substr(pos, 20), "'");
        tokens.push_back({TokenKind::value, {line.substr(pos + 1, end - pos - 1), n, true}});
        pos = end + 1;
        continue;
      }
      std::size_t end = pos;
      while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end]))) ++end;
      const std::string word = line.substr(pos, end - pos);
      pos = end;
      if (word[0] == '_') tokens.push_back({TokenKind::tag, {to_lower(word), n, false}});
      else if (starts_with_ci(word, "data_")) tokens.push_back({TokenKind::data, {word.substr(5), n, false}});
      else if (iequals(word, "loop_")) tokens.push_back({TokenKind::loop, {word, n, false}});
      else if (starts_with_ci(word, "save_")) tokens.push_back({TokenKind::save, {word.substr(5), n, false}});
      else if (iequals(word, "global_")) tokens.push_back({TokenKind::global, {word, n, false}});
      else if (iequals(word, "stop_")) tokens.push_back({TokenKind::stop, {word, n, false}});
      else tokens.push_back({TokenKind::value, {word, n, false}});
    }
  }
  return tokens;
}

}  // namespace

int CifLoop::column(const std::string& tag) const {
  for (std::size_t j = 0; j < tags.size(); ++j)
    if (tags[j] == tag) return static_cast<int>(j);
  return -1;
}

const CifValue* CifBlock::item(const std::string& tag) const {
  const auto it = items.find(tag);
  return it == items.end() ? nullptr : &it->second;
}

const CifLoop* CifBlock::loop_with(const std::string& tag) const {
  for (const auto& loop : loops)
    if (loop.column(tag) >= 0) return &loop;
  return nullptr;
}

std::vector<CifValue> CifBlock::values(const std::string& tag) const {
  if (const auto* single = item(tag)) return {*single};
  std::vector<CifValue> out;
  if (const auto* loop = loop_with(tag)) {
    const int j = loop->column(tag);
    for (const auto& row : loop->rows) out.push_back(row[j]);
  }
  return out;
}

std::vector<CifBlock> parse_cif(const std::vector<std::string>& lines, const std::string& path) {
  const auto tokens = tokenize(lines, path);
  std::vector<CifBlock> blocks;
  bool in_save_frame = false;
  std::size_t i = 0;
  auto block = [&](int line) -> CifBlock& {
    if (blocks.empty()) fail_at({path, line, ""}, "data before the first data_ block");
    return blocks.back();
  };
  while (i < tokens.size()) {
    const Token& token = tokens[i];
    const int n = token.value.line;
    switch (token.kind) {
      case TokenKind::data:
        blocks.push_back(CifBlock{token.value.text, n, {}, {}});
        in_save_frame = false;
        ++i;
        break;
      case TokenKind::save:
        // Save frames (dictionaries) carry no structure: skip their contents.
        in_save_frame = !token.value.text.empty();
        ++i;
        break;
      case TokenKind::global:
      case TokenKind::stop:
        ++i;
        break;
      case TokenKind::tag: {
        if (i + 1 >= tokens.size() || tokens[i + 1].kind != TokenKind::value)
          fail_at({path, n, token.value.text}, "tag without a value");
        if (!in_save_frame) block(n).items[token.value.text] = tokens[i + 1].value;
        i += 2;
        break;
      }
      case TokenKind::loop: {
        CifLoop loop;
        loop.line = n;
        ++i;
        while (i < tokens.size() && tokens[i].kind == TokenKind::tag) loop.tags.push_back(tokens[i++].value.text);
        if (loop.tags.empty()) fail_at({path, n, "loop_"}, "loop_ without tags");
        std::vector<CifValue> values;
        while (i < tokens.size() && tokens[i].kind == TokenKind::value) values.push_back(tokens[i++].value);
        if (values.size() % loop.tags.size() != 0)
          fail_at({path, n, loop.tags[0]}, "loop_ has ", values.size(), " values, not a multiple of its ",
                  loop.tags.size(), " tags");
        for (std::size_t r = 0; r < values.size(); r += loop.tags.size())
          loop.rows.emplace_back(values.begin() + static_cast<std::ptrdiff_t>(r),
                                 values.begin() + static_cast<std::ptrdiff_t>(r + loop.tags.size()));
        if (!in_save_frame) block(n).loops.push_back(std::move(loop));
        break;
      }
      case TokenKind::value:
        fail_at({path, n, ""}, "value '", token.value.text.substr(0, 40), "' without a tag");
    }
  }
  return blocks;
}

bool cif_missing(const CifValue& value) {
  return !value.quoted && (value.text == "?" || value.text == ".");
}

std::optional<double> cif_number(const CifValue& value) {
  std::string_view text = value.text;
  // Standard uncertainty in parentheses at the end: 5.620(3), 0.25(12).
  if (!text.empty() && text.back() == ')') {
    const auto open = text.rfind('(');
    if (open == std::string_view::npos) return std::nullopt;
    for (std::size_t k = open + 1; k + 1 < text.size(); ++k)
      if (!std::isdigit(static_cast<unsigned char>(text[k]))) return std::nullopt;
    text = text.substr(0, open);
  }
  return to_double(text);
}

}  // namespace nanoscatter::io
