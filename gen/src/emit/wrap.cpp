#include "txgen/emit/wrap.h"

#include <array>

namespace txgen::emit {
namespace {

// Separators an expression may break at, longest first so that " <= " is not
// taken for " < ".
constexpr std::array<const char*, 17> kSeparators = {" == ", " != ", " <= ", " >= ", " << ", " >> ", " | ", " & ",
                                                    " ^ ",  " + ",  " - ",  " * ",  " < ",  " > ",  " ? ", " : ",
                                                    ", "};

bool opens(char c) { return c == '(' || c == '[' || c == '{'; }
bool closes(char c) { return c == ')' || c == ']' || c == '}'; }

// The index of the bracket that closes the one opened at `at`, or npos.
size_t matching(const std::string& s, size_t at) {
  int depth = 0;
  for (size_t i = at; i < s.size(); ++i) {
    if (opens(s[i])) ++depth;
    if (closes(s[i]) && --depth == 0) return i;
  }
  return std::string::npos;
}

const char* separator_at(const std::string& s, size_t i) {
  for (const char* sep : kSeparators)
    if (s.compare(i, std::char_traits<char>::length(sep), sep) == 0) return sep;
  return nullptr;
}

// An expression cut at its outermost separators: an opening part kept on the
// first line (a concatenation's or parenthesis' opening bracket, when it
// encloses everything), the pieces and the separator after each, and the
// closing bracket.
struct Cut {
  std::string open, close;
  std::vector<std::string> pieces, joiners;
};

Cut cut_outermost(const std::string& expr) {
  Cut c;
  std::string body = expr;
  // a bracket that encloses the whole expression (after a prefix such as `~`
  // or `{4`) is opened on the first line and closed on the last
  for (size_t i = 0; i < body.size(); ++i) {
    if (!opens(body[i])) continue;
    const bool prefix_only = body.find(' ') > i;  // `~(`, `{4{`: nothing but an operator before it
    if (prefix_only && matching(body, i) == body.size() - 1 && body[i] != '[') {
      c.open = body.substr(0, i + 1);
      c.close = body.substr(body.size() - 1);
      body = body.substr(i + 1, body.size() - i - 2);
    }
    break;
  }
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < body.size(); ++i) {
    if (opens(body[i])) ++depth;
    if (closes(body[i])) --depth;
    if (depth != 0) continue;
    const char* sep = separator_at(body, i);
    if (!sep) continue;
    c.pieces.push_back(body.substr(start, i - start));
    c.joiners.push_back(sep);
    i += std::char_traits<char>::length(sep) - 1;
    start = i + 1;
  }
  c.pieces.push_back(body.substr(start));
  return c;
}

std::string trim_left(const std::string& s) { return s.substr(s.find_first_not_of(' ')); }

}  // namespace

std::vector<std::string> wrap_expression(const std::string& lead, const std::string& expr, const std::string& tail,
                                         const std::string& indent, size_t width) {
  if (lead.size() + expr.size() + tail.size() <= width) return {lead + expr + tail};
  const Cut c = cut_outermost(expr);
  if (c.pieces.size() == 1 && c.open.empty()) {  // nothing to break at: the expression on a line of its own
    const size_t text = lead.find_first_not_of(' ');
    if (text != std::string::npos && indent.size() + expr.size() + tail.size() <= width &&
        lead.size() > indent.size())
      return {lead.substr(0, lead.find_last_not_of(' ') + 1), indent + expr + tail};
    return {lead + expr + tail};
  }
  if (c.pieces.size() == 1)                                                 // only the enclosing bracket
    return wrap_expression(lead + c.open, c.pieces[0], c.close + tail, indent, width);
  std::vector<std::string> lines;
  std::string cur = lead + c.open;
  const size_t n = c.pieces.size();
  bool after_broken = false;  // a piece broken inside ends its line: the next piece starts a new one
  for (size_t i = 0; i < n; ++i) {
    const bool comma_before = i > 0 && c.joiners[i - 1] == ", ";
    const std::string same_line = i == 0 ? "" : comma_before ? " " : c.joiners[i - 1];
    const std::string new_line = indent + (i == 0 || comma_before ? "" : trim_left(c.joiners[i - 1]));
    const std::string suffix = i + 1 == n ? c.close + tail : c.joiners[i] == ", " ? "," : "";
    const std::string& piece = c.pieces[i];
    if (!after_broken && cur.size() + same_line.size() + piece.size() + suffix.size() <= width) {
      cur += same_line + piece + suffix;
    } else if (i > 0 && new_line.size() + piece.size() + suffix.size() <= width) {
      lines.push_back(cur);
      cur = new_line + piece + suffix;
    } else {  // the piece alone is too long: it breaks inside, further in
      std::string start = cur + same_line;
      if (i > 0) {
        lines.push_back(cur);
        start = new_line;
      }
      std::vector<std::string> inner = wrap_expression(start, piece, suffix, indent + "    ", width);
      lines.insert(lines.end(), inner.begin(), inner.end() - 1);
      cur = inner.back();
      after_broken = true;
      continue;
    }
    after_broken = false;
  }
  lines.push_back(cur);
  return lines;
}

std::vector<std::string> wrap_comment(const std::string& indent, const std::string& text, size_t width) {
  std::vector<std::string> lines;
  std::string cur = indent + "//";
  size_t i = 0;
  while (i < text.size()) {
    size_t end = text.find(' ', i);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(i, end - i);
    if (cur.size() > indent.size() + 2 && cur.size() + 1 + word.size() > width) {
      lines.push_back(cur);
      cur = indent + "//";
    }
    cur += " " + word;
    i = end + 1;
  }
  lines.push_back(cur);
  return lines;
}

}  // namespace txgen::emit
