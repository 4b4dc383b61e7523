#include "txgen/power/power_flow.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "txgen/power/cell_models.h"
#include "txgen/util/process.h"
#include "txgen/util/table_format.h"
#include "txgen/util/text_file.h"

namespace txgen::power {
namespace fs = std::filesystem;

namespace {

constexpr const char* kTbModule = "txgen_power_tb";
constexpr const char* kStimulus = "stimulus.txt";
constexpr const char* kGateWaveform = "gate.fst";
// osu018's sequential cells (the ones synth/yosys_synth.tcl names after registers)
const std::set<std::string> kSequentialCells = {"DFFPOSX1", "DFFNEGX1", "DFFSR", "LATCH"};

[[noreturn]] void fail(const std::string& what, const fs::path& log) {
  throw std::runtime_error("txgen power: " + what + " (log: " + log.string() + ")");
}

// ---------------------------------------------------------------- operations

struct Term {
  std::string signal;
  bool negated = false;
  unsigned bit = 0, width = 1;  // bit of each element of `width` bits
};

Term parse_term(const std::string& text) {
  Term t;
  std::string s = text;
  if (!s.empty() && s.front() == '!') {
    t.negated = true;
    s.erase(0, 1);
  }
  const auto colon = s.find(':');
  t.signal = s.substr(0, colon);
  if (colon != std::string::npos) {
    const auto slash = s.find('/', colon);
    if (slash == std::string::npos) throw std::invalid_argument("operation term " + text + ": want name:bit/width");
    t.bit = static_cast<unsigned>(std::stoul(s.substr(colon + 1, slash - colon - 1)));
    t.width = static_cast<unsigned>(std::stoul(s.substr(slash + 1)));
    if (t.width == 0 || t.bit >= t.width) throw std::invalid_argument("operation term " + text + ": bit outside its element");
  }
  return t;
}

// "a|b|c": any of the alternatives
std::vector<Term> parse_alternatives(const std::string& text) {
  std::vector<Term> alts;
  std::size_t start = 0;
  for (std::size_t bar; (bar = text.find('|', start)) != std::string::npos; start = bar + 1)
    alts.push_back(parse_term(text.substr(start, bar - start)));
  alts.push_back(parse_term(text.substr(start)));
  return alts;
}

// The term's value for element e of `total` (a sampled value, MSB first). A
// value with fewer elements k applies each to total / k consecutive ones: a
// CU's enable to each of its banks, one bit to all.
bool term_value(const Term& t, const std::string& value, std::size_t e, std::size_t total) {
  const std::size_t elements = std::max<std::size_t>(value.size() / t.width, 1);
  const std::size_t elem = total % elements == 0 ? e / (total / elements) : e;
  const std::size_t lsb_index = elem * t.width + t.bit;
  const bool one = lsb_index < value.size() && value[value.size() - 1 - lsb_index] == '1';
  return one != t.negated;
}

struct BoundTerm {
  Term term;
  std::size_t index;  // into the samples' signals
};

}  // namespace

std::vector<std::string> operation_signals(const Operation& op) {
  std::vector<std::string> names;
  for (const auto& text : op.all_of)
    for (const Term& t : parse_alternatives(text)) names.push_back(t.signal);
  return names;
}

uint64_t count_operation(const EdgeSamples& samples, const Operation& op) {
  std::vector<std::vector<BoundTerm>> terms;  // all of, each any of
  for (const auto& text : op.all_of) {
    terms.emplace_back();
    for (const Term& t : parse_alternatives(text)) terms.back().push_back({t, samples.index(t.signal)});
  }
  uint64_t count = 0;
  for (const auto& cycle : samples.values) {
    std::size_t elements = 1;
    for (const auto& any : terms)
      for (const BoundTerm& b : any) elements = std::max(elements, cycle[b.index].size() / b.term.width);
    for (std::size_t e = 0; e < elements; ++e) {
      bool all = true;
      for (std::size_t i = 0; i < terms.size() && all; ++i)
        all = std::any_of(terms[i].begin(), terms[i].end(),
                          [&](const BoundTerm& b) { return term_value(b.term, cycle[b.index], e, elements); });
      count += all ? 1 : 0;
    }
  }
  return count;
}

// ---------------------------------------------------------------- OpenSTA

namespace {

std::string unescaped(const std::string& name) {
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i)
    if (!(name[i] == '\\' && i + 1 < name.size())) out += name[i];
  return out;
}

std::vector<std::string> tokens_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> t;
  for (std::string w; in >> w;) t.push_back(w);
  return t;
}

// " FROM -> TO [when...] ACT DUTY ENERGY POWER PG_PIN" ("no pg_pin" is two words)
bool parse_arc(const std::vector<std::string>& t, PowerArc& arc) {
  std::size_t end = t.size();
  if (end >= 2 && t[end - 2] == "no" && t[end - 1] == "pg_pin") end -= 2;
  else if (end > 0) end -= 1;
  if (end < 7 || t[2] != "->") return false;
  arc.from = t[1];
  arc.to = t[3];
  arc.duty = std::stod(t[end - 3]);
  arc.energy_j = std::stod(t[end - 2]);
  return true;
}

[[noreturn]] void malformed(const std::string& line) {
  throw std::runtime_error("power.tcl output: malformed line: " + line);
}

}  // namespace

std::vector<InstancePower> parse_instance_power(const std::string& log) {
  std::vector<InstancePower> out;
  std::map<std::string, std::size_t> index;
  std::vector<PowerArc> pending;  // the debug lines come before their instance's TXGEN_POWER line
  double design = -1;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    const std::vector<std::string> t = tokens_of(line);
    if (t.empty()) continue;
    try {
      if (t[0] == "power:" && t.size() > 3 && t[2] == "->") {
        PowerArc arc;
        if (!parse_arc(t, arc)) malformed(line);
        pending.push_back(arc);
      } else if (t[0] == "TXGEN_POWER") {
        if (t.size() != 7) malformed(line);
        InstancePower p;
        p.name = t[1];
        p.cell = t[2];
        p.internal = std::stod(t[3]);
        p.switching = std::stod(t[4]);
        p.leakage = std::stod(t[5]);
        p.arcs = std::move(pending);
        pending.clear();
        index[p.name] = out.size();
        out.push_back(std::move(p));
      } else if (t[0] == "TXGEN_PIN") {
        if (t.size() != 5 || index.count(t[1]) == 0) malformed(line);
        InstancePower& p = out[index[t[1]]];
        (t[3] == "output" ? p.outputs : p.inputs).emplace_back(t[2], unescaped(t[4]));
      } else if (t[0] == "TXGEN_DESIGN_POWER") {
        if (t.size() != 4) malformed(line);
        design = std::stod(t[1]) + std::stod(t[2]) + std::stod(t[3]);
      }
    } catch (const std::logic_error&) {  // stod
      malformed(line);
    }
  }
  if (design < 0 || out.empty()) throw std::runtime_error("power.tcl output: no instance or design power lines");
  double sum = 0;
  for (const InstancePower& p : out) sum += p.internal + p.switching + p.leakage;
  // OpenSTA adds single-precision figures
  if (std::abs(sum - design) > 1e-4 * std::max(design, 1e-12))
    throw std::runtime_error("power.tcl output: the instances' power does not add up to the design's");
  return out;
}

GroupPower LogicPower::total() const {
  return {sequential.internal + combinational.internal, sequential.switching + combinational.switching,
          sequential.leakage + combinational.leakage};
}

namespace {

// Toggles per cycle of each pin's net.
class NetActivity {
 public:
  NetActivity(const NetToggles& t, unsigned& missing) : t_(t), missing_(missing) {}
  double of(const std::string& net) const {
    const auto it = t_.transitions.find(net);
    if (it == t_.transitions.end()) {
      // OpenSTA's Verilog reader names the nets of 1'h0 and 1'h1 pins; constants do not toggle
      if (net != "zero_" && net != "one_") ++missing_;
      return 0.0;
    }
    return static_cast<double>(it->second) / static_cast<double>(std::max<uint64_t>(t_.cycles, 1));
  }

 private:
  const NetToggles& t_;
  unsigned& missing_;
};

double pin_activity(const NetActivity& a, const std::vector<std::pair<std::string, std::string>>& pins,
                    const std::string& pin) {
  for (const auto& [name, net] : pins)
    if (name == pin) return a.of(net);
  return 0.0;
}

// Energy per transition of output `out`: each related pin's arcs (one per
// `when`, weighted by OpenSTA's duty) times that pin's share of the output's
// transitions.
double output_energy_j(const InstancePower& p, const std::string& out, const NetActivity& a, bool sequential) {
  std::map<std::string, std::pair<double, double>> by_from;  // from -> (sum energy*duty, sum duty)
  std::map<std::string, std::pair<double, unsigned>> plain;  // from -> (sum energy, arcs)
  for (const PowerArc& arc : p.arcs) {
    if (arc.to != out || arc.from == arc.to) continue;
    by_from[arc.from].first += arc.energy_j * arc.duty;
    by_from[arc.from].second += arc.duty;
    plain[arc.from].first += arc.energy_j;
    ++plain[arc.from].second;
  }
  std::map<std::string, double> share;
  double activity_sum = 0;
  for (const auto& [from, e] : by_from) {
    share[from] = sequential ? (from == "CLK" ? 1.0 : 0.0) : pin_activity(a, p.inputs, from);
    activity_sum += share[from];
  }
  double energy = 0;
  for (const auto& [from, e] : by_from) {
    const double per_arc = e.second > 0 ? e.first / e.second : plain[from].first / plain[from].second;
    const double weight = sequential ? share[from] : (activity_sum > 0 ? share[from] / activity_sum : 0.0);
    energy += weight * per_arc;
  }
  return energy;
}

}  // namespace

LogicPower power_from_activity(const std::vector<InstancePower>& instances, const NetToggles& toggles,
                               double period_ns) {
  LogicPower r;
  const NetActivity a(toggles, r.nets_without_activity);
  const double per_second = 1e9 / period_ns;
  for (const InstancePower& p : instances) {
    const bool sequential = kSequentialCells.count(p.cell) != 0;
    double out_activity = 0, internal_w = 0;
    for (const auto& [pin, net] : p.outputs) {
      const double act = a.of(net);
      out_activity += act / static_cast<double>(p.outputs.size());
      internal_w += act * per_second * output_energy_j(p, pin, a, sequential);
    }
    for (const PowerArc& arc : p.arcs) {
      if (arc.from != arc.to) continue;
      const double w = arc.energy_j * arc.duty * pin_activity(a, p.inputs, arc.from) * per_second;
      internal_w += w;
      if (sequential && arc.from == "CLK") r.clock_pins_w += w;
    }
    GroupPower& g = sequential ? r.sequential : r.combinational;
    g.internal += internal_w;
    g.switching += p.switching * out_activity;  // OpenSTA's is at one transition per period
    g.leakage += p.leakage;
    ++r.instances;
  }
  return r;
}

double PowerResult::macro_w() const {
  double w = 0;
  for (const auto& m : macros) w += m.dynamic_w + m.leakage_w;
  return w;
}

double PowerResult::idle_w() const {
  double w = logic.clock_pins_w + logic.total().leakage;
  for (const auto& m : macros) w += m.leakage_w;
  return w;
}

// ---------------------------------------------------------------- testbench

std::string power_testbench(const std::string& module, const std::vector<NetlistPort>& ports, uint64_t cycles) {
  std::ostringstream tb;
  std::vector<const NetlistPort*> inputs;
  tb << "// txgen power: replays " << kStimulus << " into " << module << " (one line per cycle)\n"
     << "`timescale 1ns/1ps\nmodule " << kTbModule << ";\n  reg clk_i = 1'b0;\n";
  for (const NetlistPort& p : ports) {
    if (p.name == "clk_i") continue;
    const std::string range = p.bits > 1 ? "[" + std::to_string(p.bits - 1) + ":0] " : "";
    tb << "  " << (p.output ? "wire " : "reg ") << range << p.name << ";\n";
    if (!p.output) inputs.push_back(&p);
  }
  tb << "  " << module << " dut (";
  for (std::size_t i = 0; i < ports.size(); ++i) tb << (i ? ", " : "") << "." << ports[i].name << "(" << ports[i].name << ")";
  tb << ");\n  integer fd, fields, cycle;\n  initial begin\n"
     << "    $dumpfile(\"" << kGateWaveform << "\");\n    $dumpvars(1, dut);\n"
     << "    fd = $fopen(\"" << kStimulus << "\", \"r\");\n"
     << "    if (fd == 0) begin $display(\"TXGEN_TB_ERROR no " << kStimulus << "\"); $finish; end\n"
     << "    for (cycle = 0; cycle < " << cycles << "; cycle = cycle + 1) begin\n"
     << "      fields = $fscanf(fd, \"";
  for (std::size_t i = 0; i < inputs.size(); ++i) tb << (i ? " " : "") << "%h";
  tb << "\\n\"";
  for (const NetlistPort* p : inputs) tb << ", " << p->name;
  tb << ");\n      if (fields != " << inputs.size() << ") begin\n"
     << "        $display(\"TXGEN_TB_ERROR line %0d of " << kStimulus << "\", cycle + 1);\n        $finish;\n      end\n"
     << "      #5 clk_i = 1'b1;\n      #5 clk_i = 1'b0;\n    end\n"
     << "    $display(\"TXGEN_TB_DONE %0d\", cycle);\n    $finish;\n  end\nendmodule\n";
  return tb.str();
}

namespace {

std::vector<std::string> port_names(const std::vector<NetlistPort>& ports, bool outputs) {
  std::vector<std::string> names;
  for (const auto& p : ports)
    if (p.output == outputs && p.name != "clk_i") names.push_back(p.name);
  return names;
}

// The first `inputs` signals of each sampled cycle, one line per cycle.
void write_stimulus(const EdgeSamples& rtl, std::size_t inputs, const fs::path& path) {
  std::ofstream out(path);
  for (const auto& cycle : rtl.values) {
    for (std::size_t i = 0; i < inputs; ++i) out << (i ? " " : "") << bits_to_hex(cycle[i]);
    out << "\n";
  }
  if (!out) throw std::runtime_error("txgen power: cannot write " + path.string());
}

// Every known output bit of the gate-level run before each edge but the first
// must equal the RTL's. Before the first edge they may differ: a register with
// an asynchronous reset (or preset) asserted from time 0 takes its reset value
// at once in the gate-level run (its reset input goes from X to 0), in the
// Verilated RTL only at the first clock edge (no edge of the reset).
void compare_outputs(const EdgeSamples& rtl, const EdgeSamples& gate, PowerResult& r, const fs::path& log) {
  const std::size_t cycles = std::min(rtl.values.size(), gate.values.size());
  std::vector<std::size_t> at;  // each of the gate-level run's signals in the RTL's samples
  for (const auto& name : gate.names) at.push_back(rtl.index(name));
  for (std::size_t c = 1; c < cycles; ++c)
    for (std::size_t i = 0; i < gate.names.size(); ++i) {
      const std::string& want = rtl.values[c][at[i]];
      const std::string& got = gate.values[c][i];
      for (std::size_t b = 0; b < want.size() && b < got.size(); ++b) {
        if (got[b] != '0' && got[b] != '1') {
          ++r.unknown_output_bits;
        } else if (got[b] != want[b]) {
          fail("the netlist's " + gate.names[i] + " is " + got + " before edge " + std::to_string(c) + ", the RTL's " +
                   want,
               log);
        } else {
          ++r.compared_output_bits;
        }
      }
    }
}

std::string find_dut_scope(const FstFile& fst, const std::vector<NetlistPort>& ports, const std::string& module) {
  const auto scopes = scopes_with_ports(fst, ports);
  if (scopes.empty())
    throw std::runtime_error("txgen power: no scope of " + fst.path() + " has the ports of " + module +
                             " (the co-simulation does not drive it)");
  return scopes.front();  // the outermost: scopes sort by path, a top before what it contains
}

void simulate_gate_level(const PowerRequest& req, const std::vector<NetlistPort>& ports, uint64_t cycles,
                         const fs::path& work) {
  util::write_text_file(work / "tb.v", power_testbench(req.synth.top, ports, cycles));
  util::write_text_file(work / "cells.v", cell_models_from_liberty(util::read_text_file(req.liberty_path)));
  const fs::path log = work / "iverilog.log";
  if (util::run_process({"iverilog", "-g2005", "-o", "tb.vvp", "tb.v", (fs::path(req.synth_dir) / "netlist.v").string(),
                         "cells.v"},
                        {}, work, log) != 0)
    fail("Icarus cannot compile the netlist", log);
  const fs::path sim_log = work / "vvp.log";
  if (util::run_process({"vvp", "-n", "tb.vvp", "-fst"}, {}, work, sim_log) != 0 ||
      util::read_text_file(sim_log).find("TXGEN_TB_DONE") == std::string::npos)
    fail("the gate-level simulation did not finish", sim_log);
}

std::vector<InstancePower> instance_power(const PowerRequest& req, const fs::path& work) {
  const fs::path log = work / "sta_power.log";
  const util::EnvVars env = {{"TXGEN_LIBERTY", req.liberty_path},
                             {"TXGEN_NETLIST", (fs::path(req.synth_dir) / "netlist.v").string()},
                             {"TXGEN_TOP", req.synth.top},
                             {"TXGEN_SDC", (fs::path(req.synth_dir) / req.sdc_name).string()}};
  if (util::run_process({"sta", "-no_splash", "-exit", (fs::path(req.scripts_dir) / "power.tcl").string()}, env, work,
                        log) != 0)
    fail("OpenSTA's power run failed", log);
  try {
    return parse_instance_power(util::read_text_file(log));
  } catch (const std::runtime_error& e) {
    fail(e.what(), log);
  }
}

MacroPower macro_power(const synth::SramArray& a, const EdgeSamples& rtl, double seconds,
                       const std::vector<Operation>& ops) {
  MacroPower m;
  m.name = a.name;
  m.count = a.count;
  const synth::SramFigures f = synth::sram_macro(a.geometry);
  m.read_pj = f.read_energy_pj;
  m.write_pj = f.write_energy_pj;
  m.leakage_uw = f.leakage_uw;
  for (const Operation& op : ops) {
    if (op.name == a.name + " read") m.reads = count_operation(rtl, op), m.accesses_declared = true;
    if (op.name == a.name + " write") m.writes = count_operation(rtl, op), m.accesses_declared = true;
  }
  m.dynamic_w = (static_cast<double>(m.reads) * m.read_pj + static_cast<double>(m.writes) * m.write_pj) * 1e-12 /
                std::max(seconds, 1e-30);
  m.leakage_w = m.count * m.leakage_uw * 1e-6;
  return m;
}

}  // namespace

namespace {

// The module's signals in the RTL run (its first max_cycles): its inputs first,
// then its outputs and the operations' signals.
struct RtlRun {
  EdgeSamples samples;
  std::size_t inputs = 0;
};

RtlRun read_rtl_run(const PowerRequest& req, const std::vector<NetlistPort>& ports, PowerResult& r) {
  FstFile rtl(req.rtl_waveform);
  r.rtl_scope = find_dut_scope(rtl, ports, req.synth.top);
  std::vector<std::string> names = port_names(ports, false);
  const std::size_t inputs = names.size();
  for (const auto& out : port_names(ports, true)) names.push_back(out);
  for (const Operation& op : req.operations)
    for (const auto& s : operation_signals(op)) names.push_back(s);
  RtlRun run{sample_before_rising_edges(rtl, r.rtl_scope, names), inputs};
  if (run.samples.values.size() > req.max_cycles) run.samples.values.resize(req.max_cycles);
  if (run.samples.values.empty()) throw std::runtime_error("txgen power: " + req.rtl_waveform + " has no clock edge");
  return run;
}

// Replays the inputs at gate level, compares the outputs, counts every net's toggles.
NetToggles replay(const PowerRequest& req, const std::vector<NetlistPort>& ports, const RtlRun& run,
                  const fs::path& work, PowerResult& r) {
  write_stimulus(run.samples, run.inputs, work / kStimulus);
  const auto start = std::chrono::steady_clock::now();
  simulate_gate_level(req, ports, run.samples.values.size(), work);
  r.replay_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  FstFile gate((work / kGateWaveform).string());
  const std::string scope = std::string(kTbModule) + ".dut";
  compare_outputs(run.samples, sample_before_rising_edges(gate, scope, port_names(ports, true)), r, work / "vvp.log");
  return count_net_toggles(gate, scope);
}

// The macros' power and the energy per operation, from the counts in the RTL run.
void account_energy(const PowerRequest& req, const EdgeSamples& rtl, PowerResult& r) {
  const double seconds = static_cast<double>(r.cycles) * r.period_ns * 1e-9;
  for (const synth::SramArray& a : req.arrays) r.macros.push_back(macro_power(a, rtl, seconds, req.operations));
  const double energy_pj = r.total_w() * seconds * 1e12, active_pj = (r.total_w() - r.idle_w()) * seconds * 1e12;
  std::set<std::string> accesses;  // the macros' own counts, not operations of the module
  for (const synth::SramArray& a : req.arrays) accesses.insert({a.name + " read", a.name + " write"});
  for (const Operation& op : req.operations) {
    if (accesses.count(op.name) != 0) continue;
    const uint64_t n = count_operation(rtl, op);
    const double per = n == 0 ? 0.0 : 1.0 / static_cast<double>(n);
    r.operations.push_back({op.name, n, energy_pj * per, active_pj * per});
  }
}

}  // namespace

PowerResult run_power(const PowerRequest& req) {
  const fs::path work = fs::absolute(req.work_dir);
  fs::create_directories(work);
  PowerResult r;
  r.module = req.synth.top;
  r.test = req.test;
  r.period_ns = req.synth.period_ns;
  r.work_dir = work.string();
  const auto ports = netlist_ports(util::read_text_file(fs::path(req.synth_dir) / "netlist.v"), req.synth.top);
  const RtlRun run = read_rtl_run(req, ports, r);
  const NetToggles toggles = replay(req, ports, run, work, r);
  r.cycles = toggles.cycles;
  const std::vector<InstancePower> instances = instance_power(req, work);
  r.cells = static_cast<unsigned>(instances.size());
  r.logic = power_from_activity(instances, toggles, r.period_ns);
  account_energy(req, run.samples, r);
  return r;
}

// ---------------------------------------------------------------- reports

namespace {

using util::fixed;

std::string mw(double w) { return fixed(w * 1e3, 3); }

}  // namespace

namespace {

std::string uw(double w) { return fixed(w * 1e6, 3); }

double macro_dynamic_w(const PowerResult& r) {
  double w = 0;
  for (const auto& m : r.macros) w += m.dynamic_w;
  return w;
}

void macro_table(std::ostringstream& md, const PowerResult& r) {
  md << "\nSRAM macros beside " << r.module << " (docs/sram_macros.md; accesses counted in the RTL run):\n\n"
     << "| array | count | reads | writes | read (pJ) | write (pJ) | dynamic (mW) | leakage (uW) |\n"
     << "|---|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const MacroPower& m : r.macros)
    md << "| " << m.name << " | " << m.count << " | " << (m.accesses_declared ? std::to_string(m.reads) : "n/a")
       << " | " << (m.accesses_declared ? std::to_string(m.writes) : "n/a") << " | " << fixed(m.read_pj, 2) << " | "
       << fixed(m.write_pj, 2) << " | " << mw(m.dynamic_w) << " | " << uw(m.leakage_w) << " |\n";
}

void operation_table(std::ostringstream& md, const PowerResult& r) {
  md << "\nEnergy per operation of " << r.module << ": the run's whole energy (logic and macros) over the count, "
        "and the same less the idle module's (its clock pins and leakage, " << mw(r.idle_w()) << " mW):\n\n"
     << "| operation | count | per cycle | energy (pJ) | above idle (pJ) |\n|---|---:|---:|---:|---:|\n";
  for (const OperationEnergy& o : r.operations)
    md << "| " << o.name << " | " << o.count << " | "
       << fixed(static_cast<double>(o.count) / static_cast<double>(std::max<uint64_t>(r.cycles, 1)), 3) << " | "
       << (o.count ? fixed(o.energy_pj, 2) : "n/a") << " | " << (o.count ? fixed(o.active_energy_pj, 2) : "n/a")
       << " |\n";
}

}  // namespace

std::string power_markdown(const std::vector<PowerResult>& results, const std::string& title) {
  std::ostringstream md;
  md << "### Power from activity: " << title << "\n\n"
     << "| module | cycles | clock (ns) | internal (mW) | switching (mW) | leakage (uW) | logic (mW) | of which "
        "flip-flops (mW) | of which clock pins (mW) | macros (mW) | total (mW) |\n"
     << "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const PowerResult& r : results) {
    const GroupPower g = r.logic.total();
    md << "| " << r.module << " | " << r.cycles << " | " << fixed(r.period_ns, 2) << " | " << mw(g.internal) << " | "
       << mw(g.switching) << " | " << uw(g.leakage) << " | " << mw(r.logic_w()) << " | "
       << mw(r.logic.sequential.total()) << " | " << mw(r.logic.clock_pins_w) << " | " << mw(r.macro_w()) << " | "
       << mw(r.total_w()) << " |\n";
  }
  for (const PowerResult& r : results) {
    if (!r.macros.empty()) macro_table(md, r);
    if (!r.operations.empty()) operation_table(md, r);
  }
  md << "\nActivity: the co-simulation's test ";
  for (std::size_t i = 0; i < results.size(); ++i) md << (i ? ", " : "") << results[i].test;
  md << ", its inputs replayed into the mapped netlist (Icarus, zero-delay cell models from the liberty, registers "
        "from 0 as the RTL's); each instance's dynamic power is OpenSTA's at its own nets' measured toggle rates "
        "(docs/power.md). Output bits equal to the RTL's before every edge: ";
  for (std::size_t i = 0; i < results.size(); ++i)
    md << (i ? ", " : "") << results[i].compared_output_bits << " (" << results[i].unknown_output_bits
       << " still unknown)";
  md << ". Gate-level replay: ";
  for (std::size_t i = 0; i < results.size(); ++i)
    md << (i ? ", " : "") << results[i].cells << " cells, "
       << fixed(static_cast<double>(results[i].cycles) / std::max(results[i].replay_seconds, 1e-9), 0) << " cycles/s";
  md << ". Pre-layout: the clock tree's wires and buffers are not in the netlist (the flip-flops' clock pins are, "
        "in internal power).\n";
  return md.str();
}

std::string power_json(const std::vector<PowerResult>& results) {
  nlohmann::json arr = nlohmann::json::array();
  for (const PowerResult& r : results) {
    const GroupPower g = r.logic.total();
    nlohmann::json j = {{"module", r.module},
                        {"test", r.test},
                        {"rtl_scope", r.rtl_scope},
                        {"cycles", r.cycles},
                        {"period_ns", r.period_ns},
                        {"internal_w", g.internal},
                        {"switching_w", g.switching},
                        {"leakage_w", g.leakage},
                        {"sequential_w", r.logic.sequential.total()},
                        {"combinational_w", r.logic.combinational.total()},
                        {"clock_pins_w", r.logic.clock_pins_w},
                        {"idle_w", r.idle_w()},
                        {"logic_w", r.logic_w()},
                        {"macro_w", r.macro_w()},
                        {"total_w", r.total_w()},
                        {"instances", r.logic.instances},
                        {"replay_seconds", r.replay_seconds},
                        {"nets_without_activity", r.logic.nets_without_activity},
                        {"compared_output_bits", r.compared_output_bits},
                        {"unknown_output_bits", r.unknown_output_bits}};
    for (const MacroPower& m : r.macros)
      j["macros"].push_back({{"name", m.name}, {"count", m.count}, {"reads", m.reads}, {"writes", m.writes},
                             {"accesses_declared", m.accesses_declared}, {"read_pj", m.read_pj},
                             {"write_pj", m.write_pj}, {"dynamic_w", m.dynamic_w}, {"leakage_w", m.leakage_w}});
    for (const OperationEnergy& o : r.operations)
      j["operations"].push_back(
          {{"name", o.name}, {"count", o.count}, {"energy_pj", o.energy_pj}, {"active_energy_pj", o.active_energy_pj}});
    arr.push_back(j);
  }
  return arr.dump(2) + "\n";
}

std::string power_csv(const std::vector<PowerResult>& results) {
  std::ostringstream csv;
  csv << "module,cycles,period_ns,internal_mw,switching_mw,leakage_uw,logic_mw,flip_flops_mw,clock_pins_mw,macro_dynamic_mw,"
         "macro_leakage_uw,total_mw\n";
  for (const PowerResult& r : results) {
    const GroupPower g = r.logic.total();
    csv << r.module << "," << r.cycles << "," << r.period_ns << "," << mw(g.internal) << "," << mw(g.switching) << ","
        << uw(g.leakage) << "," << mw(r.logic_w()) << "," << mw(r.logic.sequential.total()) << ","
        << mw(r.logic.clock_pins_w) << ","
        << mw(macro_dynamic_w(r)) << "," << uw(r.macro_w() - macro_dynamic_w(r)) << "," << mw(r.total_w()) << "\n";
  }
  return csv.str();
}

}  // namespace txgen::power
