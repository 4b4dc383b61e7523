#include "txgen/power/activity.h"

#include <algorithm>
#include <regex>
#include <set>
#include <stdexcept>

namespace txgen::power {
namespace {

std::string bit_name(const FstVar& v, unsigned bit) {
  std::string name = v.name;
  if (!name.empty() && name.front() == '\\') name.erase(0, 1);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  if (v.bits == 1 && v.lsb == 0) return name;
  return name + "[" + std::to_string(v.lsb + static_cast<int>(bit)) + "]";
}

std::vector<const FstVar*> scope_vars(const FstFile& fst, const std::string& scope) {
  std::vector<const FstVar*> vars;
  for (const FstVar& v : fst.vars())
    if (v.scope == scope) vars.push_back(&v);
  return vars;
}

const FstVar& clock_of(const FstFile& fst, const std::string& scope) {
  for (const FstVar* v : scope_vars(fst, scope))
    if (v->name == "clk_i" && v->bits == 1) return *v;
  throw std::runtime_error(fst.path() + ": scope " + scope + " has no clk_i");
}

}  // namespace

std::vector<NetlistPort> netlist_ports(const std::string& text, const std::string& module) {
  const std::regex header("module\\s+" + module + "\\s*\\(([^;]*)\\)\\s*;");
  std::smatch m;
  if (!std::regex_search(text, m, header)) throw std::runtime_error("netlist: no module " + module);
  const std::string body = text.substr(static_cast<std::size_t>(m.position(0) + m.length(0)));
  std::vector<NetlistPort> ports;
  static const std::regex name_re("[A-Za-z_][A-Za-z0-9_$]*");
  const std::string list = m[1].str();
  for (auto it = std::sregex_iterator(list.begin(), list.end(), name_re); it != std::sregex_iterator(); ++it) {
    const std::string name = it->str();
    const std::regex decl("\\b(input|output)\\s+(\\[(\\d+):(\\d+)\\]\\s*)?" + name + "\\s*;");
    std::smatch d;
    if (!std::regex_search(body, d, decl))
      throw std::runtime_error("netlist: module " + module + " declares no direction for port " + name);
    NetlistPort p{name, d[1].str() == "output", 1};
    if (d[2].matched) p.bits = static_cast<unsigned>(std::stoi(d[3].str()) - std::stoi(d[4].str()) + 1);
    ports.push_back(p);
  }
  return ports;
}

std::vector<std::string> scopes_with_ports(const FstFile& fst, const std::vector<NetlistPort>& ports) {
  std::map<std::string, std::map<std::string, unsigned>> widths;  // scope -> name -> bits
  std::map<std::string, std::set<std::string>> declared;          // scope -> its own ports
  for (const FstVar& v : fst.vars()) {
    widths[v.scope][v.name] = v.bits;
    if (v.port) declared[v.scope].insert(v.name);
  }
  std::set<std::string> wanted = {"clk_i"};
  for (const NetlistPort& p : ports) wanted.insert(p.name);
  std::vector<std::string> found;
  for (const auto& [scope, names] : widths) {
    const auto has = [&](const std::string& n, unsigned bits) {
      const auto it = names.find(n);
      return it != names.end() && it->second == bits;
    };
    // a module with more ports (a controller beside its pass-through baseline) is another module
    const auto& own = declared[scope];
    const bool no_other_ports = std::all_of(own.begin(), own.end(), [&](const std::string& n) { return wanted.count(n); });
    if (has("clk_i", 1) && no_other_ports &&
        std::all_of(ports.begin(), ports.end(), [&](const NetlistPort& p) { return has(p.name, p.bits); }))
      found.push_back(scope);
  }
  return found;
}

std::size_t EdgeSamples::index(const std::string& name) const {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) throw std::runtime_error("no sampled signal " + name);
  return static_cast<std::size_t>(it - names.begin());
}

EdgeSamples sample_before_rising_edges(FstFile& fst, const std::string& scope, const std::vector<std::string>& names) {
  const FstVar& clk = clock_of(fst, scope);
  std::map<uint32_t, std::vector<std::size_t>> slots;  // handle -> signals (aliases share one)
  std::vector<uint32_t> handles = {clk.handle};
  EdgeSamples s;
  s.names = names;
  std::vector<std::string> current(names.size());
  const auto vars = scope_vars(fst, scope);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto it = std::find_if(vars.begin(), vars.end(), [&](const FstVar* v) { return v->name == names[i]; });
    if (it == vars.end()) throw std::runtime_error(fst.path() + ": scope " + scope + " has no signal " + names[i]);
    slots[(*it)->handle].push_back(i);
    handles.push_back((*it)->handle);
    current[i] = std::string((*it)->bits, 'x');
  }
  // A rising edge at time t samples the values of the last time before t.
  std::vector<std::string> settled = current;
  char clk_now = 'x', clk_settled = 'x';
  uint64_t stamp = 0;
  bool any = false;
  const auto close_stamp = [&] {
    if (clk_settled == '0' && clk_now == '1') s.values.push_back(settled);
    settled = current;
    clk_settled = clk_now;
  };
  fst.for_each_change(handles, [&](uint64_t time, uint32_t handle, const char* value) {
    if (any && time != stamp) close_stamp();
    any = true;
    stamp = time;
    if (handle == clk.handle) clk_now = value[0];
    const auto it = slots.find(handle);
    if (it != slots.end())
      for (std::size_t i : it->second) current[i] = value;
  });
  if (any) close_stamp();
  return s;
}

NetToggles count_net_toggles(FstFile& fst, const std::string& scope) {
  const FstVar& clk = clock_of(fst, scope);
  const auto vars = scope_vars(fst, scope);
  std::map<uint32_t, const FstVar*> by_handle;
  std::vector<uint32_t> handles;
  for (const FstVar* v : vars)
    if (by_handle.emplace(v->handle, v).second) handles.push_back(v->handle);
  std::map<uint32_t, std::string> known;  // last 0/1 value per bit ('x' before the first)
  std::map<uint32_t, std::vector<uint64_t>> counts;
  for (const auto& [h, v] : by_handle) {
    known[h] = std::string(v->bits, 'x');
    counts[h].assign(v->bits, 0);
  }
  NetToggles t;
  char clk_value = 'x';
  fst.for_each_change(handles, [&](uint64_t, uint32_t handle, const char* value) {
    std::string& last = known[handle];
    std::vector<uint64_t>& n = counts[handle];
    for (std::size_t i = 0; i < last.size() && value[i] != '\0'; ++i) {
      const char c = value[i];
      if (c != '0' && c != '1') continue;
      if (last[i] != 'x' && last[i] != c) ++n[i];
      last[i] = c;
    }
    if (handle == clk.handle) {
      if (clk_value == '0' && value[0] == '1') ++t.cycles;
      clk_value = value[0];
    }
  });
  // every name of a handle (aliases) gets its bits' counts
  for (const FstVar* v : vars) {
    const std::vector<uint64_t>& n = counts[v->handle];
    for (unsigned b = 0; b < v->bits; ++b) t.transitions[bit_name(*v, b)] = n[v->bits - 1 - b];
  }
  return t;
}

std::string bits_to_hex(const std::string& value) {
  static const char* digits = "0123456789abcdef";
  std::string hex;
  const std::size_t lead = (4 - value.size() % 4) % 4;
  const std::string padded = std::string(lead, '0') + value;
  for (std::size_t i = 0; i < padded.size(); i += 4) {
    unsigned d = 0;
    for (std::size_t j = 0; j < 4; ++j) d = d * 2 + (padded[i + j] == '1' ? 1 : 0);
    hex += digits[d];
  }
  return hex.empty() ? "0" : hex;
}

}  // namespace txgen::power
