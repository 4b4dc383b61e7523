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
};

// Parses the "=== top ===" section of Yosys' stat -liberty report.
CellStats parse_stat(const std::string& text, const std::string& top, const fs::path& log) {
  static const std::regex cells_re(R"(^\s*Number of cells:\s+(\d+)\s*$)");
  static const std::regex type_re(R"(^\s+([A-Za-z0-9_$\\]+)\s+(\d+)\s*$)");
  static const std::regex area_re(R"(^\s*Chip area for module .*:\s*([0-9.eE+-]+)\s*$)");
  CellStats stats;
  bool in_top = false, in_cell_list = false, have_cells = false, have_area = false;
  std::smatch m;
  for (const auto& line : split_lines(text)) {
    if (line.rfind("=== ", 0) == 0) {
      in_top = (line == "=== " + top + " ===");
      in_cell_list = false;
      continue;
    }
    if (!in_top) continue;
    if (std::regex_match(line, m, cells_re)) {
      stats.cells = static_cast<unsigned>(std::stoul(m[1]));
      have_cells = in_cell_list = true;
    } else if (in_cell_list && std::regex_match(line, m, type_re)) {
      stats.by_type[m[1]] = static_cast<unsigned>(std::stoul(m[2]));
    } else if (std::regex_match(line, m, area_re)) {
      stats.area_um2 = require_double(m[1], "chip area", log);
      have_area = true;
      in_cell_list = false;
    } else {
      in_cell_list = false;
    }
  }
  if (!have_cells || !have_area) fail_with_log("no cell count or chip area for " + top + " in stat report", log);
  return stats;
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
};

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
  const auto depth = values.find("logic_depth_cells");
  if (depth != values.end()) sta.logic_depth_cells = static_cast<unsigned>(std::stoul(depth->second));
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
  };
  const fs::path log = work / "yosys.log";
  // -d: the log ends with every pass's run time, where a slow run's time went.
  const int status = run_process({"yosys", "-d", "-c", kYosysScript}, env, work, log);
  if (status != 0) fail_with_log("yosys failed with status " + std::to_string(status), log);
}

void run_sta(const SynthRequest& req, const fs::path& work, const fs::path& sdc) {
  const EnvVars env = {
      {"TXGEN_TOP", req.top},
      {"TXGEN_NETLIST", (work / "netlist.v").string()},
      {"TXGEN_LIBERTY", fs::absolute(req.liberty_path).string()},
      {"TXGEN_SDC", sdc.string()},
  };
  const fs::path log = work / "sta.log";
  const int status = run_process({"sta", "-no_splash", "-exit", kStaScript}, env, work, log);
  if (status != 0) fail_with_log("sta failed with status " + std::to_string(status), log);
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
  const fs::path yosys_log = work / "yosys.log";
  if (!fs::is_regular_file(work / "stat.txt")) fail_with_log("yosys wrote no stat.txt", yosys_log);
  const CellStats stats = parse_stat(read_text_file(work / "stat.txt"), req.top, yosys_log);

  run_sta(req, work, sdc);
  const StaFigures sta = parse_sta_log(work / "sta.log");

  SynthResult r;
  r.top = req.top;
  r.area_um2 = stats.area_um2;
  r.cells = stats.cells;
  r.flops = count_sequential(stats, liberty_sequential_cells(req.liberty_path));
  r.period_ns = req.period_ns;
  r.worst_slack_ns = sta.worst_slack_ns;
  r.min_period_ns = req.period_ns - sta.worst_slack_ns;
  r.critical_path_ns = sta.arrival_ns - (sta.start_is_input ? input_delay_for_path(sdc_figures, sdc) : 0.0);
  r.fo4 = r.critical_path_ns / kFo4Ns;
  r.path_start = sta.path_start;
  r.path_end = sta.path_end;
  r.logic_depth_cells = sta.logic_depth_cells;
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
  md << "\nYosys synth -flatten, abc onto osu018 (INVX1 drive, 0.02 pF load, delay target = period less "
        "the I/O delays); OpenSTA, typical corner. "
        "Critical path: register or input to register or output, less the input delay. "
        "Min period = period - slack. FO4 = "
     << fixed(kFo4Ns, 2) << " ns.\n";
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
    array.push_back(row);
  }
  return array.dump(2) + "\n";
}

std::string results_csv(const std::vector<SynthResult>& results) {
  std::ostringstream csv;
  csv << "module,area_um2,cells,flip_flops,period_ns,worst_slack_ns,min_period_ns,critical_path_ns,fo4,"
         "path_start,path_end,logic_depth_cells\n";
  for (const auto& r : results) {
    csv << csv_cell(r.top) << ',' << fixed(r.area_um2, kAreaDecimals) << ',' << r.cells << ',' << r.flops << ','
        << fixed(r.period_ns, kTimeDecimals) << ',' << fixed(r.worst_slack_ns, kTimeDecimals) << ','
        << fixed(r.min_period_ns, kTimeDecimals) << ',' << fixed(r.critical_path_ns, kTimeDecimals) << ','
        << fixed(r.fo4, kFo4Decimals) << ',' << csv_cell(r.path_start) << ',' << csv_cell(r.path_end) << ','
        << r.logic_depth_cells << '\n';
  }
  return csv.str();
}

}  // namespace txgen::synth
