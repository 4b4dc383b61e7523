// Drives synth/yosys_synth.tcl and synth/sta.tcl and turns their output into
// QoR figures. The tools get their inputs through the environment only, so a
// work directory plus its logs is enough to rerun a result by hand.
#include "txgen/synth/synth_flow.h"

#include "txgen/synth/format.h"

#include "txgen/util/process.h"
#include "txgen/util/text_file.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>


namespace txgen::synth {
namespace {

namespace fs = std::filesystem;

constexpr const char* kYosysScript = "yosys_synth.tcl";
constexpr const char* kStaScript = "sta.tcl";
constexpr std::size_t kLogTailLines = 25;

using util::EnvVars;

// ---------------------------------------------------------------- files

using util::read_text_file;

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string log_tail(const fs::path& log) {
  std::ifstream in(log);
  if (!in) return "(log not readable)\n";
  std::deque<std::string> tail;
  for (std::string line; std::getline(in, line);) {
    tail.push_back(line);
    if (tail.size() > kLogTailLines) tail.pop_front();
  }
  std::string out;
  for (const auto& line : tail) out += "  " + line + "\n";
  return out;
}

[[noreturn]] void fail_with_log(const std::string& what, const fs::path& log) {
  throw std::runtime_error("txgen synth: " + what + " (log: " + log.string() +
                           "); last lines:\n" + log_tail(log));
}

using util::run_process;

// ---------------------------------------------------------------- parsing

std::optional<double> to_double(const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || errno != 0 || end != text.c_str() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

double require_double(const std::string& text, const std::string& what, const fs::path& log) {
  const auto value = to_double(text);
  if (!value) fail_with_log("cannot parse " + what + " from '" + text + "'", log);
  return *value;
}

// Names of the liberty cells that hold state (ff, latch or statetable
// groups): osu018 has DFFPOSX1, DFFNEGX1, DFFSR and LATCH.
std::set<std::string> liberty_sequential_cells(const fs::path& liberty) {
  static const std::regex cell_re(R"re(^\s*cell\s*\(\s*"?([A-Za-z0-9_$]+)"?\s*\))re");
  static const std::regex state_re(R"(^\s*(ff|latch|ff_bank|latch_bank|statetable)\s*\()");
  std::set<std::string> sequential;
  std::string current;
  std::smatch m;
  for (const auto& line : split_lines(read_text_file(liberty))) {
    if (std::regex_search(line, m, cell_re)) {
      current = m[1];
    } else if (!current.empty() && std::regex_search(line, m, state_re)) {
      sequential.insert(current);
    }
  }
  if (sequential.empty()) {
    throw std::runtime_error("txgen synth: no sequential cells found in " + liberty.string());
  }
  return sequential;
}

struct CellStats {
  double area_um2 = 0.0;
  unsigned cells = 0;
  std::map<std::string, unsigned> by_type;
  bool have_cells = false, have_area = false;
};

constexpr const char* kHierarchySection = "design hierarchy";

// Every "=== name ===" section of Yosys' stat -liberty report: one per module
// (a submodule instance counts as a cell of its module's type, without area)
// and, after stat -top on a design with submodules, "design hierarchy": the
// totals over every instance.
std::map<std::string, CellStats> parse_stat_sections(const std::string& text, const fs::path& log) {
  static const std::regex section_re(R"(^=== (.+) ===\s*$)");
  static const std::regex cells_re(R"(^\s*Number of cells:\s+(\d+)\s*$)");
  static const std::regex type_re(R"(^\s+([A-Za-z0-9_$\\]+)\s+(\d+)\s*$)");
  static const std::regex area_re(R"(^\s*Chip area for (?:top )?module .*:\s*([0-9.eE+-]+)\s*$)");
  std::map<std::string, CellStats> sections;
  CellStats* current = nullptr;
  bool in_cell_list = false;
  std::smatch m;
  for (const auto& line : split_lines(text)) {
    if (std::regex_match(line, m, section_re)) {
      current = &sections[m[1]];
      in_cell_list = false;
    } else if (!current) {
      continue;
    } else if (std::regex_match(line, m, cells_re)) {
      current->cells = static_cast<unsigned>(std::stoul(m[1]));
      current->have_cells = in_cell_list = true;
    } else if (in_cell_list && std::regex_match(line, m, type_re)) {
      current->by_type[m[1]] = static_cast<unsigned>(std::stoul(m[2]));
    } else if (std::regex_match(line, m, area_re)) {
      current->area_um2 = require_double(m[1], "chip area", log);
      current->have_area = true;
      in_cell_list = false;
    } else {
      in_cell_list = false;
    }
  }
  // A module made of submodule instances only has no area line (its instances'
  // areas are theirs): its own area is zero.
  for (auto& [name, stats] : sections) {
    const bool instances_only = std::all_of(stats.by_type.begin(), stats.by_type.end(), [&](const auto& type) {
      return sections.count(type.first) || sections.count("\\" + type.first);
    });
    if (stats.have_cells && !stats.have_area && instances_only) stats.have_area = true;
  }
  return sections;
}

// The section of `name`; it must have a cell count and a chip area.
const CellStats& stat_section(const std::map<std::string, CellStats>& sections, const std::string& name,
                              const fs::path& log) {
  const auto it = sections.find(name);
  if (it == sections.end() || !it->second.have_cells || !it->second.have_area) {
    fail_with_log("no cell count or chip area for " + name + " in stat report", log);
  }
  return it->second;
}

unsigned count_sequential(const CellStats& stats, const std::set<std::string>& sequential) {
  unsigned flops = 0;
  for (const auto& [type, count] : stats.by_type) {
    if (sequential.count(type)) flops += count;
  }
  return flops;
}

struct StaFigures {
  double worst_slack_ns = 0.0;
  double path_slack_ns = 0.0;
  double arrival_ns = 0.0;
  bool start_is_input = false;
  std::string path_start;
  std::string path_end;
  unsigned logic_depth_cells = 0;
  unsigned linked_cells = 0, linked_registers = 0, linked_submodules = 0;
  unsigned boundary_buffers = 0;  // hierarchical: buffers sta.tcl added at the top
  double boundary_buffer_area_um2 = 0.0;
};

unsigned to_unsigned(const std::map<std::string, std::string>& values, const std::string& key) {
  const auto it = values.find(key);
  return it == values.end() ? 0u : static_cast<unsigned>(std::stoul(it->second));
}

// sta.tcl prints "TXGEN_RESULT key=value" lines and ends with TXGEN_STA_DONE;
// OpenSTA itself always exits 0, so the marker is the success signal.
StaFigures parse_sta_log(const fs::path& log) {
  std::map<std::string, std::string> values;
  bool done = false;
  for (const auto& line : split_lines(read_text_file(log))) {
    if (line.rfind("TXGEN_ERROR", 0) == 0 || line.rfind("Error:", 0) == 0) {
      fail_with_log("sta reported: " + line, log);
    }
    if (line == "TXGEN_STA_DONE") done = true;
    static const std::regex result_re(R"(^(?:TXGEN_RESULT )?(\w+)=(.*)$)");
    std::smatch m;
    if ((line.rfind("TXGEN_RESULT ", 0) == 0 || line.rfind("worst_slack_ns=", 0) == 0) &&
        std::regex_match(line, m, result_re)) {
      values[m[1]] = m[2];
    }
  }
  if (!done) fail_with_log("sta did not finish (no TXGEN_STA_DONE)", log);
  auto field = [&](const std::string& key) -> const std::string& {
    const auto it = values.find(key);
    if (it == values.end()) fail_with_log("sta output lacks " + key, log);
    return it->second;
  };
  StaFigures sta;
  sta.worst_slack_ns = require_double(field("worst_slack_ns"), "worst slack", log);
  sta.path_slack_ns = require_double(field("path_slack_ns"), "path slack", log);
  sta.arrival_ns = require_double(field("data_arrival_ns"), "data arrival time", log);
  sta.start_is_input = field("path_start_is_input") == "1";
  sta.path_start = field("path_start");
  sta.path_end = field("path_end");
  sta.logic_depth_cells = to_unsigned(values, "logic_depth_cells");
  sta.linked_cells = to_unsigned(values, "linked_cells");
  sta.linked_registers = to_unsigned(values, "linked_registers");
  sta.linked_submodules = to_unsigned(values, "linked_submodules");
  sta.boundary_buffers = to_unsigned(values, "boundary_buffers");
  if (sta.boundary_buffers > 0)
    sta.boundary_buffer_area_um2 = require_double(field("boundary_buffer_area_um2"), "boundary buffer area", log);
  // OpenSTA reports 1e30+ when nothing is constrained.
  if (std::fabs(sta.worst_slack_ns) > 1e6) fail_with_log("worst slack is unbounded: no constrained path", log);
  if (std::fabs(sta.worst_slack_ns - sta.path_slack_ns) > 1e-4) {
    fail_with_log("reported path is not the worst-slack path", log);
  }
  return sta;
}

struct SdcFigures {
  std::optional<double> clock_period_ns;
  std::set<double> input_delays_ns;
  std::set<double> output_delays_ns;
};

// Whitespace-split SDC commands, with backslash continuations joined and
// comments dropped. Enough for the plain constraint files txgen writes.
std::vector<std::vector<std::string>> sdc_commands(const std::string& text) {
  std::string joined = std::regex_replace(text, std::regex(R"(\\\r?\n)"), " ");
  std::vector<std::vector<std::string>> commands;
  for (auto line : split_lines(joined)) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::vector<std::string> tokens;
    for (std::string word; words >> word;) tokens.push_back(word);
    if (!tokens.empty()) commands.push_back(tokens);
  }
  return commands;
}

// The delay value of set_input_delay / set_output_delay: the first bare
// number, skipping the options that take an argument.
std::optional<double> io_delay_value(const std::vector<std::string>& cmd) {
  static const std::set<std::string> with_argument = {"-clock", "-reference_pin"};
  for (std::size_t i = 1; i < cmd.size(); ++i) {
    if (with_argument.count(cmd[i])) {
      ++i;
    } else if (cmd[i][0] != '-') {
      return to_double(cmd[i]);
    }
  }
  return std::nullopt;
}

SdcFigures parse_sdc(const fs::path& sdc) {
  SdcFigures figures;
  for (const auto& cmd : sdc_commands(read_text_file(sdc))) {
    if (cmd[0] == "create_clock") {
      for (std::size_t i = 1; i + 1 < cmd.size(); ++i) {
        if (cmd[i] == "-period") figures.clock_period_ns = to_double(cmd[i + 1]);
      }
    } else if (cmd[0] == "set_input_delay" || cmd[0] == "set_output_delay") {
      const auto delay = io_delay_value(cmd);
      if (!delay) throw std::runtime_error("txgen synth: cannot read " + cmd[0] + " value in " + sdc.string());
      (cmd[0] == "set_input_delay" ? figures.input_delays_ns : figures.output_delays_ns).insert(*delay);
    }
  }
  return figures;
}

// Input delay to take off a path that starts at an input port. One value
// for all inputs is what the flow defines; several would make it ambiguous.
double input_delay_for_path(const SdcFigures& sdc, const fs::path& sdc_path) {
  if (sdc.input_delays_ns.empty()) return 0.0;
  if (sdc.input_delays_ns.size() > 1) {
    throw std::runtime_error("txgen synth: " + sdc_path.string() +
                             " sets several input delays; the critical path needs one");
  }
  return *sdc.input_delays_ns.begin();
}

// ABC's delay target: the period less the largest input and output delays.
// ABC times a port-to-port path as if both ends had the whole cycle; with
// the plain period it trades the I/O budget away for area.
long abc_delay_ps(const SdcFigures& sdc, double period_ns) {
  const auto largest = [](const std::set<double>& v) { return v.empty() ? 0.0 : *v.rbegin(); };
  const double target = period_ns - largest(sdc.input_delays_ns) - largest(sdc.output_delays_ns);
  if (!(target > 0.0)) throw std::runtime_error("txgen synth: I/O delays leave no time in the clock period");
  return std::lround(target * 1000.0);
}

// ---------------------------------------------------------------- flow steps

void check_request(const SynthRequest& req) {
  if (req.top.empty()) throw std::runtime_error("txgen synth: empty top module name");
  if (req.verilog_files.empty()) throw std::runtime_error("txgen synth: no Verilog files for " + req.top);
  if (!(req.period_ns > 0.0)) throw std::runtime_error("txgen synth: period must be positive");
  for (const auto& file : req.verilog_files) {
    // TXGEN_VERILOG is a space-separated list.
    if (file.find_first_of(" \t\n") != std::string::npos) {
      throw std::runtime_error("txgen synth: Verilog path with whitespace: " + file);
    }
    if (!fs::is_regular_file(file)) throw std::runtime_error("txgen synth: no such Verilog file: " + file);
  }
  for (const auto& path : {req.sdc_path, req.liberty_path}) {
    if (!fs::is_regular_file(path)) throw std::runtime_error("txgen synth: no such file: " + path);
  }
}

// Copies scripts and SDC into the work directory and returns the SDC copy:
// the tools run on these copies, so the directory records what ran.
fs::path stage_work_dir(const SynthRequest& req, const fs::path& work) {
  fs::create_directories(work);
  const auto copy = [&](const fs::path& from) {
    const fs::path to = work / from.filename();
    if (!fs::exists(from)) throw std::runtime_error("txgen synth: no such file: " + from.string());
    // A file already in the work directory (a rerun there) is its own record.
    if (!(fs::exists(to) && fs::equivalent(from, to))) {
      fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    }
    return to;
  };
  copy(fs::path(req.scripts_dir) / kYosysScript);
  copy(fs::path(req.scripts_dir) / kStaScript);
  return copy(req.sdc_path);
}

std::string space_joined_absolute(const std::vector<std::string>& files) {
  std::string joined;
  for (const auto& file : files) {
    if (!joined.empty()) joined += ' ';
    joined += fs::absolute(file).string();
  }
  return joined;
}

void run_yosys(const SynthRequest& req, const fs::path& work, long abc_delay) {
  const EnvVars env = {
      {"TXGEN_TOP", req.top},
      {"TXGEN_VERILOG", space_joined_absolute(req.verilog_files)},
      {"TXGEN_LIBERTY", fs::absolute(req.liberty_path).string()},
      {"TXGEN_ABC_DELAY_PS", std::to_string(abc_delay)},
      {"TXGEN_OUT_DIR", work.string()},
      {"TXGEN_HIER", req.hierarchical ? "1" : "0"},
  };
  const fs::path log = work / "yosys.log";
  // -d: the log ends with every pass's run time, where a slow run's time went.
  const int status = run_process({"yosys", "-d", "-c", kYosysScript}, env, work, log);
  if (status != 0) fail_with_log("yosys failed with status " + std::to_string(status), log);
}

// Times module `top` of the work directory's netlist (the request's top, or
// one of its submodules on its own) and returns the parsed log.
StaFigures run_sta(const SynthRequest& req, const fs::path& work, const fs::path& sdc, const std::string& top,
                   const fs::path& log) {
  const EnvVars env = {
      {"TXGEN_TOP", top},
      {"TXGEN_NETLIST", (work / "netlist.v").string()},
      {"TXGEN_LIBERTY", fs::absolute(req.liberty_path).string()},
      {"TXGEN_SDC", sdc.string()},
  };
  const int status = run_process({"sta", "-no_splash", "-exit", (work / kStaScript).string()}, env, log.parent_path(),
                                 log);
  if (status != 0) fail_with_log("sta failed with status " + std::to_string(status), log);
  return parse_sta_log(log);
}

// ---------------------------------------------------------------- hierarchy

// How often each module occurs below top (top: 1), from the submodule counts
// in each module's own stat section.
void count_instances(const std::map<std::string, CellStats>& sections, const std::string& module, unsigned multiplicity,
                     std::map<std::string, unsigned>& instances) {
  instances[module] += multiplicity;
  for (const auto& [type, count] : sections.at(module).by_type) {
    if (sections.count(type)) count_instances(sections, type, multiplicity * count, instances);
  }
}

// A module's own cells: its section less the submodule instances in it.
CellStats own_cells(const std::map<std::string, CellStats>& sections, const std::string& module) {
  CellStats own = sections.at(module);
  for (auto it = own.by_type.begin(); it != own.by_type.end();) {
    if (sections.count(it->first)) {
      own.cells -= it->second;
      it = own.by_type.erase(it);
    } else {
      ++it;
    }
  }
  return own;
}

// Area, cells and flip-flops of one instance of `module`, submodules included.
ModuleFigures one_instance(const std::map<std::string, CellStats>& sections, const std::string& module,
                           const std::set<std::string>& sequential) {
  const CellStats own = own_cells(sections, module);
  ModuleFigures f;
  f.name = module;
  f.own_area_um2 = f.area_um2 = own.area_um2;
  f.cells = own.cells;
  f.flops = count_sequential(own, sequential);
  for (const auto& [type, count] : sections.at(module).by_type) {
    if (!sections.count(type)) continue;
    const ModuleFigures sub = one_instance(sections, type, sequential);
    f.area_um2 += count * sub.area_um2;
    f.cells += count * sub.cells;
    f.flops += count * sub.flops;
  }
  return f;
}

// Every unique module below top with its instance count and one instance's
// figures, the top first. The instances' own cells must add up to Yosys'
// design-hierarchy totals: a parse that missed a module cannot pass.
std::vector<ModuleFigures> module_figures(const std::map<std::string, CellStats>& sections, const std::string& top,
                                          const CellStats& total, const std::set<std::string>& sequential,
                                          const fs::path& log) {
  std::map<std::string, unsigned> instances;
  count_instances(sections, top, 1, instances);
  std::vector<ModuleFigures> modules = {one_instance(sections, top, sequential)};
  for (const auto& [name, count] : instances) {
    if (name != top) modules.push_back(one_instance(sections, name, sequential));
  }
  double area = 0.0;
  for (auto& m : modules) {
    m.instances = instances.at(m.name);
    area += m.instances * m.own_area_um2;
  }
  if (modules.front().cells != total.cells || std::fabs(area - total.area_um2) > 1e-6 * total.area_um2) {
    fail_with_log("per-module stat sections (" + std::to_string(modules.front().cells) + " cells, " +
                      fixed(area, 1) + " um^2 over all instances) do not add up to the design hierarchy's (" +
                      std::to_string(total.cells) + " cells, " + fixed(total.area_um2, 1) + " um^2)",
                  log);
  }
  return modules;
}

// OpenSTA must have linked the whole hierarchy that Yosys counted.
void check_linked(const StaFigures& sta, const SynthResult& r, const fs::path& log) {
  unsigned submodules = 0;
  for (const auto& m : r.modules) submodules += m.instances;
  submodules -= 1;  // the top
  if (sta.linked_cells != r.cells || sta.linked_registers != r.flops || sta.linked_submodules != submodules) {
    fail_with_log("OpenSTA linked " + std::to_string(sta.linked_cells) + " cells, " +
                      std::to_string(sta.linked_registers) + " registers, " + std::to_string(sta.linked_submodules) +
                      " submodule instances; Yosys counted " + std::to_string(r.cells) + ", " +
                      std::to_string(r.flops) + ", " + std::to_string(submodules),
                  log);
  }
}

// Each submodule's mapped netlist timed on its own; a module whose run fails
// (no constrained path, say) keeps an empty period rather than failing the
// whole synthesis. Logs: work/modules/<module>.sta.log.
void time_submodules(const SynthRequest& req, const fs::path& work, const fs::path& sdc,
                     std::vector<ModuleFigures>& modules) {
  const fs::path dir = work / "modules";
  fs::create_directories(dir);
  for (auto& m : modules) {
    if (m.name == req.top) continue;
    try {
      const StaFigures sta = run_sta(req, work, sdc, m.name, dir / (m.name + ".sta.log"));
      m.min_period_ns = req.period_ns - sta.worst_slack_ns;
      m.path_start = sta.path_start;
      m.path_end = sta.path_end;
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      std::cerr << "txgen: " << m.name << " not timed alone: " << what.substr(0, what.find('\n')) << "\n";
    }
  }
}

// Area, cells and flip-flops from stat.txt: the top's section of a flat run;
// the design-hierarchy totals, and every module, of a hierarchical one.
void read_cell_figures(const SynthRequest& req, const fs::path& work, SynthResult& r) {
  const fs::path log = work / "yosys.log";
  if (!fs::is_regular_file(work / "stat.txt")) fail_with_log("yosys wrote no stat.txt", log);
  const auto sections = parse_stat_sections(read_text_file(work / "stat.txt"), log);
  const auto sequential = liberty_sequential_cells(req.liberty_path);
  // A top without submodules has no design-hierarchy section: its own is the total.
  const bool nested = req.hierarchical && sections.count(kHierarchySection);
  const CellStats& total = stat_section(sections, nested ? kHierarchySection : req.top, log);
  r.area_um2 = total.area_um2;
  r.cells = total.cells;
  r.flops = count_sequential(total, sequential);
  if (req.hierarchical) {
    stat_section(sections, req.top, log);
    r.modules = module_figures(sections, req.top, total, sequential, log);
  }
}

// ---------------------------------------------------------------- reports

bool any_hierarchical(const std::vector<SynthResult>& results) {
  return std::any_of(results.begin(), results.end(), [](const SynthResult& r) { return r.hierarchical; });
}

std::string mode_note(const std::vector<SynthResult>& results) {
  if (!any_hierarchical(results)) {
    return "Flat synthesis: Yosys synth -flatten, abc onto osu018 (INVX1 drive, 0.02 pF load, delay target = "
           "period less the I/O delays); OpenSTA, typical corner. ";
  }
  return "Hierarchical synthesis (--hier): Yosys synth without -flatten, abc maps each unique module once onto "
         "osu018 (INVX1 drive, 0.02 pF load at its ports, delay target = period less the I/O delays); OpenSTA "
         "links the hierarchical netlist at the top and times every path, across module boundaries too, after "
         "giving each top-level net that reaches more than 4 submodule inputs a tree of BUFX4 (boundary buffers, "
         "which module-by-module mapping cannot place); typical corner. Area, cells and flip-flops are Yosys' "
         "totals over every instance, without the boundary buffers. ";
}

std::string optional_period(const std::optional<double>& ns) {
  return ns ? fixed(*ns, kTimeDecimals) : std::string("n/a");
}

// The per-module table of one hierarchical result (none for a lone module).
std::string modules_markdown(const SynthResult& r) {
  if (r.modules.size() < 2) return "";
  std::ostringstream md;
  md << "\n#### Modules of " << markdown_cell(r.top) << " (hierarchical)\n\n";
  md << "| module | instances | area um^2, one instance | cells, one instance | flip-flops, one instance | "
        "own area um^2 | own area x instances | share of area | min period ns, alone |\n";
  md << "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& m : r.modules) {
    const double all_own = m.instances * m.own_area_um2;
    md << "| " << markdown_cell(m.name) << " | " << m.instances << " | " << with_thousands(m.area_um2) << " | "
       << m.cells << " | " << m.flops << " | " << with_thousands(m.own_area_um2) << " | " << with_thousands(all_own)
       << " | " << fixed(100.0 * all_own / r.area_um2, 1) << " % | " << optional_period(m.min_period_ns) << " |\n";
  }
  md << "\nOne instance: the module with its submodules; own: its own cells only (own area x instances adds up "
        "to the design's area). Min period alone: the module's mapped netlist timed as a top against the "
        "block's SDC, its ports as chip I/O (the top's: the whole design's). Boundary buffers timed with the top: "
     << r.boundary_buffers << " (" << with_thousands(r.boundary_buffer_area_um2) << " um^2, "
     << fixed(100.0 * r.boundary_buffer_area_um2 / r.area_um2, 2) << " % of the area).\n";
  return md.str();
}

nlohmann::ordered_json modules_json(const std::vector<ModuleFigures>& modules) {
  nlohmann::ordered_json array = nlohmann::ordered_json::array();
  for (const auto& m : modules) {
    nlohmann::ordered_json row;
    row["module"] = m.name;
    row["instances"] = m.instances;
    row["area_um2"] = rounded(m.area_um2, kAreaDecimals);
    row["cells"] = m.cells;
    row["flip_flops"] = m.flops;
    row["own_area_um2"] = rounded(m.own_area_um2, kAreaDecimals);
    row["min_period_ns"] = m.min_period_ns ? nlohmann::ordered_json(rounded(*m.min_period_ns, kTimeDecimals)) : nullptr;
    row["path_start"] = m.path_start;
    row["path_end"] = m.path_end;
    array.push_back(row);
  }
  return array;
}

}  // namespace

// ---------------------------------------------------------------- public API

SynthResult run_synth(const SynthRequest& req) {
  check_request(req);
  const fs::path work = fs::absolute(req.work_dir);
  const fs::path sdc = stage_work_dir(req, work);
  const SdcFigures sdc_figures = parse_sdc(sdc);
  if (sdc_figures.clock_period_ns && std::fabs(*sdc_figures.clock_period_ns - req.period_ns) > 1e-9) {
    throw std::runtime_error("txgen synth: " + req.sdc_path + " clock period " +
                             fixed(*sdc_figures.clock_period_ns, 3) + " ns differs from the requested " +
                             fixed(req.period_ns, 3) + " ns");
  }

  run_yosys(req, work, abc_delay_ps(sdc_figures, req.period_ns));
  SynthResult r;
  r.top = req.top;
  r.hierarchical = req.hierarchical;
  r.period_ns = req.period_ns;
  read_cell_figures(req, work, r);

  const StaFigures sta = run_sta(req, work, sdc, req.top, work / "sta.log");
  r.worst_slack_ns = sta.worst_slack_ns;
  r.min_period_ns = req.period_ns - sta.worst_slack_ns;
  r.critical_path_ns = sta.arrival_ns - (sta.start_is_input ? input_delay_for_path(sdc_figures, sdc) : 0.0);
  r.fo4 = r.critical_path_ns / kFo4Ns;
  r.path_start = sta.path_start;
  r.path_end = sta.path_end;
  r.logic_depth_cells = sta.logic_depth_cells;
  if (req.hierarchical) {
    check_linked(sta, r, work / "sta.log");
    r.linked_submodules = sta.linked_submodules;
    r.boundary_buffers = sta.boundary_buffers;
    r.boundary_buffer_area_um2 = sta.boundary_buffer_area_um2;
    ModuleFigures& top = r.modules.front();
    top.min_period_ns = r.min_period_ns;
    top.path_start = r.path_start;
    top.path_end = r.path_end;
    time_submodules(req, work, sdc, r.modules);
  }
  return r;
}

std::vector<SynthResult> run_synth_all(const std::vector<SynthRequest>& requests, unsigned jobs,
                                       const std::function<void(const SynthRequest&)>& on_start) {
  std::vector<SynthResult> results(requests.size());
  std::vector<std::exception_ptr> errors(requests.size());
  std::atomic<std::size_t> next{0};
  std::mutex start_mutex;
  const auto worker = [&] {
    for (std::size_t i; (i = next++) < requests.size();) {
      try {
        {
          const std::lock_guard<std::mutex> lock(start_mutex);
          if (on_start) on_start(requests[i]);
        }
        results[i] = run_synth(requests[i]);
      } catch (...) {
        errors[i] = std::current_exception();
        next = requests.size();  // start no more
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::max(1u, jobs) && t < requests.size(); ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  return results;
}

std::string synthesis_mode(bool hierarchical) { return hierarchical ? "hierarchical" : "flat"; }

std::string results_markdown(const std::vector<SynthResult>& results, const std::string& title) {
  std::ostringstream md;
  md << "### " << title << "\n\n";
  md << "| module | area um^2 | cells | flip-flops | slack ns @ period | min period ns | critical path ns | FO4 |\n";
  md << "|---|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& r : results) {
    md << "| " << markdown_cell(r.top) << " | " << with_thousands(r.area_um2) << " | " << r.cells << " | "
       << r.flops << " | " << fixed(r.worst_slack_ns, kTimeDecimals) << " @ " << fixed(r.period_ns, kTimeDecimals)
       << " | " << fixed(r.min_period_ns, kTimeDecimals) << " | " << fixed(r.critical_path_ns, kTimeDecimals)
       << " | " << fixed(r.fo4, kFo4Decimals) << " |\n";
  }
  md << "\n" << mode_note(results)
     << "Critical path: register or input to register or output, less the input delay. "
        "Min period = period - slack. FO4 = "
     << fixed(kFo4Ns, 2) << " ns.\n";
  for (const auto& r : results) md << modules_markdown(r);
  return md.str();
}

std::string results_json(const std::vector<SynthResult>& results) {
  nlohmann::ordered_json array = nlohmann::ordered_json::array();
  for (const auto& r : results) {
    nlohmann::ordered_json row;
    row["module"] = r.top;
    row["area_um2"] = rounded(r.area_um2, kAreaDecimals);
    row["cells"] = r.cells;
    row["flip_flops"] = r.flops;
    row["period_ns"] = rounded(r.period_ns, kTimeDecimals);
    row["worst_slack_ns"] = rounded(r.worst_slack_ns, kTimeDecimals);
    row["min_period_ns"] = rounded(r.min_period_ns, kTimeDecimals);
    row["critical_path_ns"] = rounded(r.critical_path_ns, kTimeDecimals);
    row["fo4"] = rounded(r.fo4, kFo4Decimals);
    row["path_start"] = r.path_start;
    row["path_end"] = r.path_end;
    row["logic_depth_cells"] = r.logic_depth_cells;
    row["synthesis"] = synthesis_mode(r.hierarchical);
    if (r.hierarchical) {
      row["linked_submodules"] = r.linked_submodules;
      row["boundary_buffers"] = r.boundary_buffers;
      row["boundary_buffer_area_um2"] = rounded(r.boundary_buffer_area_um2, kAreaDecimals);
      row["modules"] = modules_json(r.modules);
    }
    array.push_back(row);
  }
  return array.dump(2) + "\n";
}

std::string results_csv(const std::vector<SynthResult>& results) {
  std::ostringstream csv;
  csv << "module,area_um2,cells,flip_flops,period_ns,worst_slack_ns,min_period_ns,critical_path_ns,fo4,"
         "path_start,path_end,logic_depth_cells,synthesis\n";
  for (const auto& r : results) {
    csv << csv_cell(r.top) << ',' << fixed(r.area_um2, kAreaDecimals) << ',' << r.cells << ',' << r.flops << ','
        << fixed(r.period_ns, kTimeDecimals) << ',' << fixed(r.worst_slack_ns, kTimeDecimals) << ','
        << fixed(r.min_period_ns, kTimeDecimals) << ',' << fixed(r.critical_path_ns, kTimeDecimals) << ','
        << fixed(r.fo4, kFo4Decimals) << ',' << csv_cell(r.path_start) << ',' << csv_cell(r.path_end) << ','
        << r.logic_depth_cells << ',' << synthesis_mode(r.hierarchical) << '\n';
  }
  return csv.str();
}

std::string modules_csv(const std::vector<SynthResult>& results) {
  std::ostringstream csv;
  csv << "top,module,instances,area_um2,cells,flip_flops,own_area_um2,min_period_ns,path_start,path_end\n";
  for (const auto& r : results) {
    for (const auto& m : r.modules) {
      csv << csv_cell(r.top) << ',' << csv_cell(m.name) << ',' << m.instances << ','
          << fixed(m.area_um2, kAreaDecimals) << ',' << m.cells << ',' << m.flops << ','
          << fixed(m.own_area_um2, kAreaDecimals) << ','
          << (m.min_period_ns ? fixed(*m.min_period_ns, kTimeDecimals) : std::string()) << ','
          << csv_cell(m.path_start) << ',' << csv_cell(m.path_end) << '\n';
    }
  }
  return csv.str();
}

}  // namespace txgen::synth
