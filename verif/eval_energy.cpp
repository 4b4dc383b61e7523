#include "eval_energy.h"

#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

#include "txgen/blocks/block.h"
#include "txgen/elab/bits.h"
#include "txgen/elab/iommu.h"

namespace txgen::verif {

double dram_read_nj(const DramDevice& d) {
  // DRAMPower: E_act + E_pre = (IDD0 tRC - (IDD3N tRAS + IDD2N (tRC - tRAS))) VDD tCK
  const double act_pre_ma_clocks = d.idd0_ma * d.trc_clocks -
                                   (d.idd3n_ma * d.tras_clocks + d.idd2n_ma * (d.trc_clocks - d.tras_clocks));
  const double burst_ns = d.burst_clocks * d.tck_ns;
  const double act_pre_pj = act_pre_ma_clocks * d.vdd_v * d.tck_ns;
  const double read_pj = (d.idd4r_ma - d.idd3n_ma) * d.vdd_v * burst_ns;
  const double io_pj = (d.io_mw + d.term_read_mw) * burst_ns;
  return (act_pre_pj + read_pj + io_pj) * d.devices_per_rank / 1000.0;
}

double dram_background_mw(const DramDevice& d) { return d.idd2n_ma * d.vdd_v * d.devices_per_rank; }

namespace {

// An L2-TLB entry: tag, VMID, PPN, permissions and a valid bit.
EnergyArray l2_array(const elab::TxPathParams& p, const EvalOptions& o) {
  unsigned entries = o.l2_entries, ways = o.l2_ways;
  if (o.iommu) {
    entries = o.iommu->l2.entries;
    ways = o.iommu->l2.ways;
  }
  if (ways == 0 || entries % ways != 0)
    throw std::runtime_error("L2-TLB energy: " + std::to_string(entries) + " entries in " + std::to_string(ways) +
                             " ways do not make whole sets");
  const unsigned sets = entries / ways;
  const unsigned set_bits = elab::clog2(sets);
  const unsigned tag_bits = p.vpn_bits > set_bits ? p.vpn_bits - set_bits : 1;
  const unsigned entry_bits = tag_bits + p.vmid_bits + p.ppn_bits + p.perm_bits + 1;
  return {"L2-TLB", 1, synth::sram_macro({sets, ways * entry_bits, ways}), true};
}

// The accesses of array `name` in a run.
std::pair<uint64_t, uint64_t> accesses_of(const std::string& name, const EvalStats& s) {
  if (name == "LDS bank") return {s.lds_bank_reads, s.lds_bank_writes};
  if (name == "tag array") return {s.ic_tag_reads, s.ic_tag_writes};
  if (name == "data array") return {s.ic_data_reads, s.ic_data_writes};
  // a lookup per L2 request; a write per walk's fill and per victim the path sends down
  if (name == "L2-TLB") return {s.l2_requests, s.walks + s.l2_victims};
  throw std::runtime_error("evaluation energy: no access count for the array '" + name + "'");
}

}  // namespace

std::vector<EnergyArray> energy_arrays(const config::Config& cfg, const elab::TxPathParams& p, bool baseline,
                                       const EvalOptions& o) {
  const blocks::BlockInfo* block = blocks::find_block("tx_path");
  const std::string module = p.module_prefix + (baseline ? "_base" : "");
  std::vector<EnergyArray> arrays;
  for (const synth::SramArray& a : block->sram_arrays(cfg))
    if (a.module == module) arrays.push_back({a.name, a.count, synth::sram_macro(a.geometry), false});
  arrays.push_back(l2_array(p, o));
  return arrays;
}

LogicEnergy logic_energy_of(const std::string& power_json, const std::string& module) {
  std::ifstream in(power_json);
  if (!in) throw std::runtime_error("--logic-power " + power_json + ": cannot be read");
  nlohmann::json runs;
  try {
    runs = nlohmann::json::parse(in);
    for (const auto& r : runs) {
      if (r.at("module") != module) continue;
      uint64_t requests = 0;
      for (const auto& op : r.value("operations", nlohmann::json::array()))
        if (op.at("name") == "translation request") requests = op.at("count");
      if (requests == 0)
        throw std::runtime_error("--logic-power " + power_json + ": " + module + "'s run served no translation request");
      const double period_ns = r.at("period_ns"), clock_w = r.at("clock_pins_w"), leakage_w = r.at("leakage_w");
      const double cycles = r.at("cycles"), logic_w = r.at("logic_w");
      LogicEnergy e;
      e.known = true;
      e.clock_pj_per_cycle = clock_w * period_ns * 1e3;
      e.leakage_mw = leakage_w * 1e3;
      // the run's logic energy above its clock pins and leakage, over its requests
      e.request_pj = (logic_w - clock_w - leakage_w) * cycles * period_ns * 1e3 / static_cast<double>(requests);
      e.source = module + " in " + power_json + ": " + r.at("test").get<std::string>() + ", " +
                 std::to_string(static_cast<uint64_t>(cycles)) + " cycles";
      return e;
    }
  } catch (const nlohmann::json::exception& x) {
    throw std::runtime_error("--logic-power " + power_json + ": not a txgen power report (" + x.what() + ")");
  }
  throw std::runtime_error("--logic-power " + power_json + ": no module " + module +
                           " (run txgen power --block tx_path on this configuration)");
}

double WorkloadEnergy::arrays_nj() const {
  double e = 0;
  for (const ArrayEnergy& a : arrays) e += a.total_nj();
  return e;
}

WorkloadEnergy workload_energy(const EvalStats& s, const std::vector<EnergyArray>& arrays, const LogicEnergy& logic,
                               const EnergyOptions& o) {
  if (!s.sram_counted)
    throw std::runtime_error("evaluation energy: this engine does not count SRAM accesses (--engine model or both)");
  const double seconds = static_cast<double>(s.cycles) * o.period_ns * 1e-9;
  WorkloadEnergy w;
  for (const EnergyArray& a : arrays) {
    ArrayEnergy e{a.name, a.count};
    std::tie(e.reads, e.writes) = accesses_of(a.name, s);
    e.dynamic_nj = (static_cast<double>(e.reads) * a.macro.read_energy_pj +
                    static_cast<double>(e.writes) * a.write_pj()) / 1000.0;
    e.leakage_nj = a.count * a.macro.leakage_uw * 1e-6 * seconds * 1e9;
    w.arrays.push_back(e);
  }
  if (logic.known) {
    w.logic_known = true;
    w.logic_nj = (static_cast<double>(s.cycles) * logic.clock_pj_per_cycle +
                  static_cast<double>(s.requests) * logic.request_pj) / 1000.0 +
                 logic.leakage_mw * 1e-3 * seconds * 1e9;
  }
  w.dram_reads = s.generated_l2 ? s.pte_reads : s.walks * o.walk_dram_reads;
  const double read_nj = o.dram_read_nj > 0 ? o.dram_read_nj : dram_read_nj(DramDevice{});
  const double background_mw = o.dram_background_mw > 0 ? o.dram_background_mw : dram_background_mw(DramDevice{});
  w.dram_read_nj = static_cast<double>(w.dram_reads) * read_nj;
  w.dram_background_nj = o.dram_channels * background_mw * 1e-3 * seconds * 1e9;
  return w;
}

}  // namespace txgen::verif

namespace txgen::verif {

namespace {

std::string microjoules(double nj) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", nj / 1000.0);
  return b;
}

std::string change(double path, double base) {
  if (base <= 0) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%+.1f %%", 100.0 * (path / base - 1.0));
  return b;
}

double of_arrays(const WorkloadEnergy& w, std::initializer_list<const char*> names) {
  double e = 0;
  for (const ArrayEnergy& a : w.arrays)
    for (const char* n : names)
      if (a.name == n) e += a.total_nj();
  return e;
}

nlohmann::ordered_json energy_json(const EnergyRow& r, const WorkloadEnergy& w, const std::vector<EnergyArray>& arrays,
                                   const EnergyOptions& o) {
  nlohmann::ordered_json j = {{"workload", r.workload}, {"design", r.design}, {"policy", r.policy},
                              {"cycles", r.stats.cycles},
                              {"seconds", static_cast<double>(r.stats.cycles) * o.period_ns * 1e-9}};
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (size_t i = 0; i < w.arrays.size(); ++i) {
    const ArrayEnergy& a = w.arrays[i];
    const synth::SramFigures& m = arrays[i].macro;
    list.push_back({{"name", a.name}, {"count", a.count}, {"geometry", synth::geometry_text(m.geometry)},
                    {"reads", a.reads}, {"writes", a.writes}, {"read_pj", m.read_energy_pj},
                    {"write_pj", arrays[i].write_pj()}, {"leakage_uw", m.leakage_uw}, {"dynamic_nj", a.dynamic_nj},
                    {"leakage_nj", a.leakage_nj}});
  }
  j["arrays"] = list;
  j["logic_nj"] = w.logic_known ? nlohmann::ordered_json(w.logic_nj) : nlohmann::ordered_json();
  j["dram_reads"] = w.dram_reads;
  j["dram_read_nj"] = w.dram_read_nj;
  j["dram_background_nj"] = w.dram_background_nj;
  j["structures_nj"] = w.structures_nj();
  j["total_nj"] = w.total_nj();
  return j;
}

void write_csv_rows(std::ostream& csv, const EnergyRow& r, const WorkloadEnergy& w, const EnergyOptions& o) {
  const auto line = [&](const std::string& what, unsigned count, uint64_t reads, uint64_t writes, double dynamic,
                        double still) {
    csv << r.workload << "," << r.design << "," << r.policy << "," << r.stats.cycles << "," << what << "," << count
        << "," << reads << "," << writes << "," << dynamic << "," << still << "\n";
  };
  for (const ArrayEnergy& a : w.arrays) line(a.name, a.count, a.reads, a.writes, a.dynamic_nj, a.leakage_nj);
  if (w.logic_known) line("logic", 1, r.stats.requests, 0, w.logic_nj, 0);
  line("DRAM page walks", o.dram_channels, w.dram_reads, 0, w.dram_read_nj, w.dram_background_nj);
}

const EnergyRow* baseline_of(const std::vector<EnergyRow>& rows, const EnergyRow& r) {
  for (const EnergyRow& b : rows)
    if (b.design == "baseline" && b.workload == r.workload && b.policy == r.policy) return &b;
  return nullptr;
}

std::string table_head(const EnergyOptions& o, double read_nj, double background_mw, bool logic) {
  char head[400];
  std::snprintf(head, sizeof head,
                "### Energy per workload (uJ; SRAM macro model at %.2f ns%s, page-walk reads at %.2f nJ, DRAM "
                "background %.0f mW x %u channels; docs/energy.md)\n\n",
                o.period_ns, logic ? ", logic from txgen power" : "", read_nj, background_mw, o.dram_channels);
  return std::string(head) +
         "| workload | design | LDS banks | I-cache arrays | L2-TLB | logic | structures | page-walk reads | "
         "page-walk DRAM | DRAM background | total | structures vs baseline | page-walk DRAM vs baseline | "
         "DRAM vs baseline | total vs baseline |\n"
         "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
}

// A row; `b` is the baseline's energy (nullptr: a baseline row, or none ran).
std::string table_row(const EnergyRow& r, const WorkloadEnergy& w, const WorkloadEnergy* b) {
  const auto vs = [&](double path, double base) { return b ? change(path, base) : std::string("-"); };
  std::ostringstream md;
  md << "| " << r.workload << " | " << r.design << (r.policy.empty() ? "" : " " + r.policy) << " | "
     << microjoules(of_arrays(w, {"LDS bank"})) << " | " << microjoules(of_arrays(w, {"tag array", "data array"}))
     << " | " << microjoules(of_arrays(w, {"L2-TLB"})) << " | " << (w.logic_known ? microjoules(w.logic_nj) : "-")
     << " | " << microjoules(w.structures_nj()) << " | " << w.dram_reads << " | " << microjoules(w.dram_read_nj)
     << " | " << microjoules(w.dram_background_nj) << " | " << microjoules(w.total_nj()) << " | "
     << vs(w.structures_nj(), b ? b->structures_nj() : 0) << " | " << vs(w.dram_read_nj, b ? b->dram_read_nj : 0)
     << " | " << vs(w.dram_nj(), b ? b->dram_nj() : 0) << " | " << vs(w.total_nj(), b ? b->total_nj() : 0) << " |\n";
  return md.str();
}

}  // namespace

std::string write_energy_tables(const std::string& out, const std::vector<EnergyRow>& rows,
                                const DesignEnergy& baseline, const DesignEnergy& path, const EnergyOptions& o) {
  const double read_nj = o.dram_read_nj > 0 ? o.dram_read_nj : dram_read_nj(DramDevice{});
  const double background_mw = o.dram_background_mw > 0 ? o.dram_background_mw : dram_background_mw(DramDevice{});
  const auto design = [&](const EnergyRow& r) -> const DesignEnergy& { return r.design == "baseline" ? baseline : path; };
  std::vector<WorkloadEnergy> energies;
  for (const EnergyRow& r : rows) energies.push_back(workload_energy(r.stats, design(r).arrays, design(r).logic, o));
  std::string md = table_head(o, read_nj, background_mw, baseline.logic.known || path.logic.known);
  std::ofstream csv(out + "/eval_energy.csv");
  csv << "workload,design,policy,cycles,part,count,reads,writes,dynamic_nj,static_nj\n";
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (size_t i = 0; i < rows.size(); ++i) {
    const EnergyRow* b = rows[i].design == "path" ? baseline_of(rows, rows[i]) : nullptr;
    md += table_row(rows[i], energies[i], b ? &energies[static_cast<size_t>(b - rows.data())] : nullptr);
    write_csv_rows(csv, rows[i], energies[i], o);
    runs.push_back(energy_json(rows[i], energies[i], design(rows[i]).arrays, o));
  }
  nlohmann::ordered_json j = {{"period_ns", o.period_ns},
                              {"dram_read_nj", read_nj},
                              {"dram_background_mw_per_channel", background_mw},
                              {"dram_channels", o.dram_channels},
                              {"walk_dram_reads", o.walk_dram_reads}};
  for (const auto& [name, d] : {std::pair<const char*, const DesignEnergy*>{"baseline_logic", &baseline},
                                {"path_logic", &path}})
    if (d->logic.known)
      j[name] = {{"source", d->logic.source},
                 {"clock_pj_per_cycle", d->logic.clock_pj_per_cycle},
                 {"leakage_mw", d->logic.leakage_mw},
                 {"request_pj", d->logic.request_pj}};
  j["runs"] = runs;
  std::ofstream(out + "/eval_energy.json") << j.dump(2) << "\n";
  std::ofstream(out + "/eval_energy.md") << md;
  return md;
}

}  // namespace txgen::verif
