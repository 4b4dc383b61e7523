#include "txgen/sweep/spec.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "txgen/blocks/block.h"
#include "txgen/config/parse.h"
#include "txgen/error.h"
#include "txgen/trace/trace.h"

namespace txgen::sweep {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

constexpr size_t kMaxAxisValues = 1024;
constexpr size_t kMaxPoints = 10000;
constexpr size_t kMaxNameChars = 40;  // $.name of a configuration

std::string show(const ordered_json& v) { return v.dump(); }
json plain(const ordered_json& v) { return json::parse(v.dump()); }

// Reads one spec object, recording the fields seen so unknown ones are errors.
class Fields {
 public:
  Fields(const ordered_json& obj, std::string where) : obj_(obj), where_(std::move(where)) {
    if (!obj_.is_object()) throw ConfigError(where_, show(obj_), "must be an object");
  }
  bool has(const std::string& key) {
    seen_.insert(key);
    return obj_.contains(key);
  }
  const ordered_json& get(const std::string& key) {
    if (!has(key)) throw ConfigError(at(key), "(missing)", "required field");
    return obj_.at(key);
  }
  std::string at(const std::string& key) const { return where_ + "." + key; }
  std::string string(const std::string& key) {
    const ordered_json& v = get(key);
    if (!v.is_string()) throw ConfigError(at(key), show(v), "must be a string");
    return v.get<std::string>();
  }
  uint64_t count(const std::string& key, uint64_t lo, uint64_t hi) {
    const ordered_json& v = get(key);
    if (!v.is_number_unsigned() || v.get<uint64_t>() < lo || v.get<uint64_t>() > hi)
      throw ConfigError(at(key), show(v),
                        "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v.get<uint64_t>();
  }
  bool boolean(const std::string& key) {
    const ordered_json& v = get(key);
    if (!v.is_boolean()) throw ConfigError(at(key), show(v), "must be true or false");
    return v.get<bool>();
  }
  std::vector<std::string> strings(const std::string& key) {
    const ordered_json& v = get(key);
    std::vector<std::string> out;
    if (v.is_array())
      for (const auto& e : v)
        if (e.is_string()) out.push_back(e.get<std::string>());
    if (!v.is_array() || out.size() != v.size()) throw ConfigError(at(key), show(v), "must be an array of strings");
    return out;
  }
  void reject_unknown() const {
    for (auto it = obj_.begin(); it != obj_.end(); ++it)
      if (!seen_.count(it.key())) throw ConfigError(at(it.key()), show(it.value()), "unknown field");
  }

 private:
  const ordered_json& obj_;
  std::string where_;
  std::set<std::string> seen_;
};

std::string quoted_key(const std::string& where, const std::string& key) { return where + "[\"" + key + "\"]"; }

std::string identifier(Fields& f, const std::string& key) {
  const std::string s = f.string(key);
  static const std::regex kIdent("[a-z][a-z0-9]*(_[a-z0-9]+)*");
  if (!std::regex_match(s, kIdent) || s.size() > kMaxNameChars - 2)
    throw ConfigError(f.at(key), "\"" + s + "\"",
                      "must be a lower-case identifier ([a-z][a-z0-9_]*, no \"__\", no trailing '_', at most " +
                          std::to_string(kMaxNameChars - 2) + " characters): it starts every point's name");
  return s;
}

// ---------------------------------------------------------------- values

std::vector<json> range_values(const ordered_json& r, const std::string& where) {
  Fields f(r, where);
  const ordered_json& from = f.get("from");
  const ordered_json& to = f.get("to");
  for (const auto* v : {&from, &to})
    if (!v->is_number_integer()) throw ConfigError(where, show(r), "\"from\" and \"to\" must be integers");
  const int64_t lo = from.get<int64_t>(), hi = to.get<int64_t>();
  if (lo > hi) throw ConfigError(where, show(r), "\"from\" must not exceed \"to\"");
  const bool step = f.has("step"), times = f.has("times");
  if (step == times) throw ConfigError(where, show(r), "give either \"step\" (arithmetic) or \"times\" (geometric)");
  std::vector<json> out;
  const uint64_t by = step ? f.count("step", 1, uint64_t{1} << 40) : f.count("times", 2, 1024);
  if (times && lo <= 0) throw ConfigError(f.at("from"), show(from), "must be positive for a geometric range");
  for (int64_t v = lo; v <= hi; v = step ? v + int64_t(by) : v * int64_t(by)) {
    out.push_back(v);
    if (out.size() > kMaxAxisValues)
      throw ConfigError(where, show(r), "more than " + std::to_string(kMaxAxisValues) + " values");
  }
  f.reject_unknown();
  return out;
}

std::vector<json> axis_values(const ordered_json& v, const std::string& where) {
  if (v.is_object()) return range_values(v, where);
  if (!v.is_array() || v.empty() || v.size() > kMaxAxisValues)
    throw ConfigError(where, show(v),
                      "must be a non-empty array of values (at most " + std::to_string(kMaxAxisValues) +
                          ") or a range {\"from\", \"to\", \"step\" | \"times\"}");
  std::vector<json> out;
  for (const auto& e : v) out.push_back(plain(e));
  return out;
}

// Two equal steps of an axis would make two equal points.
void check_distinct(const Axis& axis, const ordered_json& a, const std::string& where) {
  for (size_t i = 0; i < axis.size(); ++i)
    for (size_t k = 0; k < i; ++k) {
      bool same = true;
      for (const auto& v : axis.values) same &= v[i] == v[k];
      if (same)
        throw ConfigError(where, show(a), "values " + std::to_string(k) + " and " + std::to_string(i) + " are equal");
    }
}

Axis parse_axis(const ordered_json& a, const std::string& where) {
  if (!a.is_object() || a.empty())
    throw ConfigError(where, show(a), "must be an object mapping configuration paths (\"$.block.field\") to values");
  Axis axis;
  for (auto it = a.begin(); it != a.end(); ++it) {
    const std::string at = quoted_key(where, it.key());
    axis.paths.push_back(parse_field_path(it.key(), at));
    axis.values.push_back(axis_values(it.value(), at));
    if (axis.values.back().size() != axis.values.front().size())
      throw ConfigError(at, show(it.value()),
                        "zipped with " + axis.paths.front().text + ": needs the same number of values (" +
                            std::to_string(axis.values.front().size()) + ")");
  }
  check_distinct(axis, a, where);
  return axis;
}

// ---------------------------------------------------------------- editing

[[noreturn]] void bad_path(const FieldPath& p, const std::string& where, const std::string& why) {
  throw ConfigError(where, "\"" + p.text + "\"", why);
}

bool is_index(const std::string& token) {
  return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Sets path in doc, creating missing objects; array elements must exist.
void set_at(json& doc, const FieldPath& p, const json& value, const std::string& where) {
  json* cur = &doc;
  for (size_t i = 0; i < p.tokens.size(); ++i) {
    const std::string& tok = p.tokens[i];
    const bool last = i + 1 == p.tokens.size();
    if (cur->is_array()) {
      if (!is_index(tok) || std::stoul(tok) >= cur->size())
        bad_path(p, where, "element " + tok + " is past the end of the base configuration's array");
      cur = &(*cur)[std::stoul(tok)];
    } else if (cur->is_object() && !is_index(tok)) {
      if (!cur->contains(tok) && !last) (*cur)[tok] = json::object();
      cur = &(*cur)[tok];
    } else {
      bad_path(p, where, "the base configuration has no object or array there to hold \"" + tok + "\"");
    }
  }
  *cur = value;
}

std::vector<std::pair<FieldPath, json>> parse_set(Fields& f) {
  std::vector<std::pair<FieldPath, json>> out;
  if (!f.has("set")) return out;
  const ordered_json& s = f.get("set");
  if (!s.is_object()) throw ConfigError(f.at("set"), show(s), "must be an object mapping paths to values");
  for (auto it = s.begin(); it != s.end(); ++it)
    out.push_back({parse_field_path(it.key(), quoted_key(f.at("set"), it.key())), plain(it.value())});
  return out;
}

json load_base(Fields& f, const fs::path& spec_file, Spec& spec) {
  const std::string rel = f.string("base");
  spec.base_file = fs::absolute(spec_file.parent_path() / rel).lexically_normal();
  if (!fs::is_regular_file(spec.base_file))
    throw ConfigError(f.at("base"), "\"" + rel + "\"", "no such file (" + spec.base_file.string() + ")");
  json base = config::read_json_file(spec.base_file.string());
  for (const auto& [path, value] : parse_set(f)) set_at(base, path, value, quoted_key(f.at("set"), path.text));
  return base;
}

// ---------------------------------------------------------------- sections

std::vector<std::string> parse_blocks(Fields& f) {
  const std::vector<std::string> names = f.strings("blocks");
  if (names.empty()) throw ConfigError(f.at("blocks"), "[]", "name at least one block");
  for (const auto& n : names)
    if (!blocks::find_block(n))
      throw ConfigError(f.at("blocks"), "\"" + n + "\"", "unknown block; known blocks: " + blocks::block_names());
  return names;
}

std::vector<std::string> parse_steps(Fields& f, const std::vector<std::string>& block_names) {
  const std::vector<std::string> given = f.strings("steps");
  for (const auto& s : given)
    if (std::find(kSteps.begin(), kSteps.end(), s) == kSteps.end())
      throw ConfigError(f.at("steps"), "\"" + s + "\"", "unknown step; steps: report, gen, synth, cosim, eval");
  const bool tx_path = std::find(block_names.begin(), block_names.end(), "tx_path") != block_names.end();
  if (std::find(given.begin(), given.end(), "eval") != given.end() && !tx_path)
    throw ConfigError(f.at("steps"), "\"eval\"", "evaluates the translation path: needs \"tx_path\" in $.blocks");
  std::vector<std::string> steps;
  for (const auto& s : kSteps)  // report always: collect reads its storage figures
    if (s == "report" || std::find(given.begin(), given.end(), s) != given.end()) steps.push_back(s);
  return steps;
}

CosimStep parse_cosim(Fields& root) {
  CosimStep c;
  if (!root.has("cosim")) return c;
  Fields f(root.get("cosim"), root.at("cosim"));
  if (f.has("cycles")) c.cycles = f.count("cycles", 1, uint64_t{1} << 40);
  if (f.has("seed")) c.seed = f.string("seed");
  if (f.has("shared_build")) c.shared_build = f.boolean("shared_build");
  f.reject_unknown();
  return c;
}

EvalStep parse_eval(Fields& root) {
  EvalStep e;
  if (!root.has("eval")) return e;
  Fields f(root.get("eval"), root.at("eval"));
  if (f.has("workloads")) e.workloads = f.strings("workloads");
  const std::vector<std::string> kinds = trace::kind_name_list();
  for (const std::string& w : e.workloads)
    if (std::find(kinds.begin(), kinds.end(), w) == kinds.end())
      throw ConfigError(f.at("workloads"), "\"" + w + "\"", "not a workload (txgen trace --kind)");
  if (f.has("requests")) e.requests = f.count("requests", 1, uint64_t{1} << 40);
  if (f.has("engine")) e.engine = f.string("engine");
  const std::vector<std::string> engines = {"model", "rtl", "both", "txn", "txn-check"};
  if (std::find(engines.begin(), engines.end(), e.engine) == engines.end())
    throw ConfigError(f.at("engine"), "\"" + e.engine + "\"",
                      "must be one of \"model\" \"rtl\" \"both\" \"txn\" \"txn-check\"");
  if (f.has("replay")) e.replay = f.string("replay");
  if (e.replay != "wavefront" && e.replay != "outstanding")
    throw ConfigError(f.at("replay"), "\"" + e.replay + "\"", "must be \"wavefront\" or \"outstanding\"");
  if (f.has("policies")) e.policies = f.strings("policies");
  for (const std::string& p : e.policies)
    if (p != "fcfs" && p != "random" && p != "simt")
      throw ConfigError(f.at("policies"), "\"" + p + "\"", "must be \"fcfs\", \"random\" or \"simt\"");
  if (f.has("designs")) e.designs = f.strings("designs");
  for (const std::string& d : e.designs)
    if (d != "baseline" && d != "path")
      throw ConfigError(f.at("designs"), "\"" + d + "\"", "must be \"baseline\" or \"path\"");
  if (f.has("designs") && e.designs.empty()) throw ConfigError(f.at("designs"), "[]", "names no design");
  if (f.has("shared_build")) e.shared_build = f.boolean("shared_build");
  f.reject_unknown();
  return e;
}

const Axis* axis_of(const Spec& spec, const std::string& path) {
  for (const auto& a : spec.axes)
    for (const auto& p : a.paths)
      if (p.text == path) return &a;
  return nullptr;
}

bool all_numbers(const Spec& spec, const std::string& path) {
  const Axis& a = *axis_of(spec, path);
  for (size_t p = 0; p < a.paths.size(); ++p)
    if (a.paths[p].text == path)
      return std::all_of(a.values[p].begin(), a.values[p].end(), [](const json& v) { return v.is_number(); });
  return false;
}

std::string varied_path(Fields& f, const std::string& key, const ordered_json& v, const Spec& spec) {
  if (!v.is_string() || !axis_of(spec, v.get<std::string>()))
    throw ConfigError(f.at(key), show(v), "must be one of the varied paths (a key of an object in $.vary)");
  return v.get<std::string>();
}

// Defaults: x is the first varied path with numeric values, the series the others.
PlotSpec parse_plot(Fields& root, const Spec& spec) {
  PlotSpec p;
  std::vector<std::string> varied;
  for (const auto& a : spec.axes)
    for (const auto& path : a.paths) varied.push_back(path.text);
  for (const auto& v : varied)
    if (p.x.empty() && all_numbers(spec, v)) p.x = v;
  static const ordered_json kNone = ordered_json::object();
  Fields f(root.has("plot") ? root.get("plot") : kNone, root.at("plot"));
  if (f.has("x")) p.x = varied_path(f, "x", f.get("x"), spec);
  if (!p.x.empty() && !all_numbers(spec, p.x))
    throw ConfigError(f.at("x"), "\"" + p.x + "\"", "must take numbers only: it is the plots' horizontal axis");
  if (f.has("series")) {
    for (const auto& s : f.strings("series")) p.series.push_back(varied_path(f, "series", s, spec));
  } else {
    for (const auto& v : varied)
      if (v != p.x) p.series.push_back(v);
  }
  if (f.has("latency")) p.latency = parse_field_path(f.string("latency"), f.at("latency")).text;
  if (f.has("modules")) p.modules = f.strings("modules");
  f.reject_unknown();
  return p;
}

// A prefix per varied path, or false: the path's value stays out of point
// names (a zipped partner already tells the points apart).
std::vector<std::pair<std::string, std::optional<std::string>>> parse_labels(Fields& root, const Spec& spec) {
  std::vector<std::pair<std::string, std::optional<std::string>>> out;
  if (!root.has("labels")) return out;
  const ordered_json& l = root.get("labels");
  if (!l.is_object())
    throw ConfigError(root.at("labels"), show(l), "must be an object mapping varied paths to prefixes");
  static const std::regex kPrefix("[a-z0-9]*");
  for (auto it = l.begin(); it != l.end(); ++it) {
    const std::string at = quoted_key(root.at("labels"), it.key());
    const ordered_json& v = it.value();
    if (!axis_of(spec, it.key())) throw ConfigError(at, show(v), "names no varied path");
    if (v.is_boolean() && !v.get<bool>()) {
      out.push_back({it.key(), std::nullopt});
      continue;
    }
    if (!v.is_string() || !std::regex_match(v.get<std::string>(), kPrefix))
      throw ConfigError(at, show(v),
                        "must be a string of [a-z0-9] (the value's prefix in point names) or false (left out of them)");
    out.push_back({it.key(), v.get<std::string>()});
  }
  return out;
}

// ---------------------------------------------------------------- names

std::string sanitized(const std::string& s) {
  std::string out;
  for (char c : s) {
    const char l = (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
    const bool keep = (l >= 'a' && l <= 'z') || (l >= '0' && l <= '9');
    if (keep)
      out += l;
    else if (!out.empty() && out.back() != '_')
      out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

std::string value_label(const json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "on" : "off";
  if (v.is_number_integer()) return v.dump();
  if (v.is_number()) return sanitized(v.dump());
  if (v.is_string()) return sanitized(v.get<std::string>());
  if (v.is_array()) {
    std::string s;
    for (const auto& e : v) s += (s.empty() ? "" : "x") + value_label(e);
    return s;
  }
  return "";
}

// The label of a path's value in point names; nullopt: left out.
std::optional<std::string> label(const Spec& spec, const std::string& path, const json& v, size_t step) {
  std::string prefix;
  for (const auto& [p, given] : spec.labels)
    if (p == path) {
      if (!given) return std::nullopt;
      prefix = *given;
    }
  const std::string text = value_label(v);
  return prefix + (text.empty() ? "v" + std::to_string(step) : text);
}

std::string point_name(const Spec& spec, const std::vector<std::pair<std::string, json>>& values,
                       const std::vector<size_t>& steps) {
  std::string name = spec.name;
  size_t k = 0;
  for (size_t a = 0; a < spec.axes.size(); ++a)
    for (size_t p = 0; p < spec.axes[a].paths.size(); ++p, ++k)
      if (const auto l = label(spec, values[k].first, values[k].second, steps[a])) name += "_" + *l;
  return name;
}

void check_names(const std::vector<Point>& points) {
  std::map<std::string, const Point*> seen;
  for (const auto& p : points) {
    if (p.name.size() > kMaxNameChars)
      throw ConfigError("$.name", "\"" + p.name + "\"",
                        "the point's configuration name is longer than " + std::to_string(kMaxNameChars) +
                            " characters: shorten $.name or the labels ($.labels)");
    const auto [it, fresh] = seen.insert({p.name, &p});
    if (!fresh)
      throw ConfigError("$.vary", "\"" + p.name + "\"",
                        "two points get this name: give the values distinct labels ($.labels) or distinct values");
  }
}

}  // namespace

FieldPath parse_field_path(const std::string& text, const std::string& where) {
  static const std::regex kPath(R"(\$((\.[A-Za-z_][A-Za-z0-9_]*)|(\[[0-9]+\]))+)");
  static const std::regex kToken(R"(\.([A-Za-z_][A-Za-z0-9_]*)|\[([0-9]+)\])");
  if (!std::regex_match(text, kPath))
    throw ConfigError(where, "\"" + text + "\"",
                      "must be a configuration path such as \"$.walk_sched.entries\" or "
                      "\"$.walk_sched.pwc_entries[2]\"");
  FieldPath p;
  p.text = text;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kToken); it != std::sregex_iterator(); ++it) {
    const std::string tok = (*it)[1].matched ? (*it)[1].str() : (*it)[2].str();
    p.tokens.push_back(tok);
    p.ptr /= tok;
  }
  if (p.tokens.front() == "name") throw ConfigError(where, "\"" + text + "\"", "the sweep names every point itself");
  return p;
}

json value_at(const json& doc, const FieldPath& path) { return doc.contains(path.ptr) ? doc.at(path.ptr) : json(); }

Spec parse_spec(const ordered_json& doc, const fs::path& file) {
  Spec spec;
  spec.file = fs::absolute(file).lexically_normal();
  spec.source = doc;
  Fields f(doc, "$");
  if (f.has("description")) f.string("description");
  spec.name = identifier(f, "name");
  spec.base = load_base(f, spec.file, spec);
  spec.blocks = parse_blocks(f);
  spec.steps = parse_steps(f, spec.blocks);
  const ordered_json& vary = f.get("vary");
  if (!vary.is_array() || vary.empty())
    throw ConfigError(f.at("vary"), show(vary), "must be a non-empty array of axes (crossed)");
  std::set<std::string> varied;
  for (size_t i = 0; i < vary.size(); ++i) {
    spec.axes.push_back(parse_axis(vary[i], "$.vary[" + std::to_string(i) + "]"));
    for (const auto& p : spec.axes.back().paths)
      if (!varied.insert(p.text).second)
        throw ConfigError("$.vary[" + std::to_string(i) + "]", "\"" + p.text + "\"", "varied twice");
  }
  spec.labels = parse_labels(f, spec);
  spec.cosim = parse_cosim(f);
  spec.eval = parse_eval(f);
  spec.plot = parse_plot(f, spec);
  f.reject_unknown();
  return spec;
}

Spec read_spec(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError("$", "\"" + path + "\"", "sweep file cannot be opened");
  ordered_json doc;
  try {
    doc = ordered_json::parse(in);  // keeps the order of zipped paths and labels
  } catch (const ordered_json::parse_error& e) {
    throw ConfigError("$", "\"" + path + "\"", std::string("is not valid JSON: ") + e.what());
  }
  return parse_spec(doc, path);
}

std::vector<Point> expand(const Spec& spec) {
  size_t total = 1;
  for (const auto& a : spec.axes) {
    total *= a.size();
    if (total > kMaxPoints)
      throw ConfigError("$.vary", std::to_string(total) + "+ points", "at most " + std::to_string(kMaxPoints));
  }
  std::vector<Point> points;
  std::vector<size_t> step(spec.axes.size(), 0);  // odometer, last axis fastest
  for (size_t n = 0; n < total; ++n) {
    Point pt;
    pt.config = spec.base;
    for (size_t a = 0; a < spec.axes.size(); ++a)
      for (size_t p = 0; p < spec.axes[a].paths.size(); ++p) {
        const FieldPath& path = spec.axes[a].paths[p];
        const json& v = spec.axes[a].values[p][step[a]];
        set_at(pt.config, path, v, quoted_key("$.vary[" + std::to_string(a) + "]", path.text));
        pt.values.push_back({path.text, v});
      }
    pt.name = point_name(spec, pt.values, step);
    pt.config["name"] = pt.name;
    points.push_back(std::move(pt));
    for (size_t a = spec.axes.size(); a-- > 0;) {
      if (++step[a] < spec.axes[a].size()) break;
      step[a] = 0;
    }
  }
  check_names(points);
  return points;
}

}  // namespace txgen::sweep
