// Trace-driven evaluation of the translation path (`txgen eval`,
// docs/verification.md "Evaluation"): every trace is replayed through the
// Verilated baseline path (L1-TLBs straight to the L2-TLB) and the Verilated
// path (L1-TLB -> LDS -> I-cache -> L2-TLB), or through their golden models,
// behind the same behavioural L2-TLB; one table (Markdown, CSV, JSON) and a
// plot compare them. The build passes TXGEN_EVAL_CONFIG and, for the RTL
// engine (TXGEN_EVAL_RTL), TXGEN_SYS_HEADER / TXGEN_SYS_CLASS and
// TXGEN_BASE_HEADER / TXGEN_BASE_CLASS; without TXGEN_EVAL_RTL only the
// golden-model and transaction-level engines are built (no Verilator run
// needed), and without TXGEN_EVAL_CONFIG the configuration is read at run
// time (--config: build/txgen_eval, which `txgen eval` runs without a build).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#ifdef TXGEN_EVAL_RTL
#include TXGEN_SYS_HEADER
#include TXGEN_BASE_HEADER
#include "tx_path_ports.h"
#include "verilated.h"
#endif

#include "tx_path_env.h"
#include "eval_energy.h"
#include "eval_progress.h"
#include "tx_path_txn.h"
#include "txgen/config/parse.h"
#include "txgen/elab/bits.h"
#include "txgen/elab/iommu.h"
#include "txgen/elab/tx_path.h"
#include "txgen/trace/trace.h"
#include "txgen/util/env.h"

namespace {

namespace fs = std::filesystem;
using txgen::elab::TxPathParams;
using txgen::verif::EvalOptions;
using txgen::verif::EvalStats;

#ifdef TXGEN_EVAL_RTL
// One cycle of the Verilated path: drive, outputs before the edge, edge.
template <class Dut, bool kBase>
class RtlPath {
 public:
  explicit RtlPath(const TxPathParams& p) : p_(p), ctx_(std::make_unique<VerilatedContext>()) {
    dut_ = std::make_unique<Dut>(ctx_.get(), "path");
    dut_->clk_i = 0;
  }
  ~RtlPath() { dut_->final(); }
  std::optional<bool> fixed_point() const { return std::nullopt; }  // cannot tell: the drain bound
  // the SRAMs are inside the Verilated top: not counted
  std::optional<txgen::model::TxPathSramAccesses> sram_accesses() const { return std::nullopt; }
  void step(const txgen::model::TxPathIn& in, txgen::model::TxPathOut& out, bool /*watch*/) {
    dut_->clk_i = 0;
    // the replay writes no LDS data and the same instruction line data throughout
    txgen::verif::TxPathPorts<Dut, kBase>::drive(*dut_, p_, in, first_);
    first_ = false;
    dut_->eval();
    txgen::verif::TxPathPorts<Dut, kBase>::read(*dut_, p_, out, false);
    dut_->clk_i = 1;
    dut_->eval();
  }

 private:
  const TxPathParams& p_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Dut> dut_;
  bool first_ = true;
};
#endif

// The same through the golden model, which can also tell a cycle that
// changed no register (compared with a copy of the registers before it);
// with `by_drain` it does not, and skips after the drain bound as the RTL does.
class ModelPath {
 public:
  ModelPath(const TxPathParams& p, bool base, bool by_drain) : m_(p, base), before_(p, base), by_drain_(by_drain) {}
  void step(const txgen::model::TxPathIn& in, txgen::model::TxPathOut& out, bool watch) {
    watch = watch && !by_drain_;
    if (watch) before_.copy_registers(m_);
    m_.step(in, out);
    fixed_ = watch && m_.same_registers(before_);
  }
  std::optional<bool> fixed_point() const { return by_drain_ ? std::nullopt : std::optional<bool>(fixed_); }
  std::optional<txgen::model::TxPathSramAccesses> sram_accesses() const { return m_.sram_accesses(); }

 private:
  txgen::model::TxPathModel m_, before_;
  bool by_drain_;
  bool fixed_ = false;
};

struct Run {
  std::string workload, design;
  std::string policy;  // the walk scheduler's, with the generated L2-TLB and IOMMU ("" with the behavioural L2)
  EvalStats s;
  uint64_t skipped = 0;  // cycles jumped over (idle skipping)
  double seconds = 0;
};

void set_sram_counts(const txgen::model::TxPathSramAccesses& a, EvalStats& s) {
  s.sram_counted = true;
  s.lds_bank_reads = a.lds_banks.reads;
  s.lds_bank_writes = a.lds_banks.writes;
  s.ic_tag_reads = a.ic_tags.reads;
  s.ic_tag_writes = a.ic_tags.writes;
  s.ic_data_reads = a.ic_data.reads;
  s.ic_data_writes = a.ic_data.writes;
}

template <class Path>
Run replay(Path& path, const TxPathParams& p, const txgen::trace::Trace& t, const EvalOptions& o, bool base) {
  txgen::verif::PathEnvironment env(p, t, o, base);
  txgen::model::TxPathOut out = txgen::model::TxPathModel(p, base).make_outputs();
  const auto start = std::chrono::steady_clock::now();
  uint64_t cycle = 0, reported = 0;
  for (uint64_t n = 0; !env.done() && cycle < o.max_cycles; cycle = env.next_cycle(cycle, path.fixed_point())) {
    path.step(env.inputs(cycle), out, env.watch_next());
    env.observe(cycle, out);
    if (o.progress && (++n & 0xfff) == 0) {
      o.progress->add(env.accepted() - reported);
      reported = env.accepted();
    }
  }
  if (o.progress) o.progress->add(env.accepted() - reported);
  Run r;
  r.workload = t.workload;
  r.design = base ? "baseline" : "path";
  r.s = env.stats();
  if (!r.s.finished) r.s.cycles = cycle;
  if (const auto a = path.sram_accesses()) set_sram_counts(*a, r.s);
  r.skipped = env.skipped();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

Run run_transactions(const TxPathParams& p, const txgen::trace::Trace& t, const EvalOptions& o, bool base) {
  if (o.iommu)
    throw std::runtime_error("the transaction-level engine has the behavioural L2-TLB only: run the generated "
                             "L2-TLB and IOMMU with --engine model (or rtl), or pass --l2 behavioural");
  const auto start = std::chrono::steady_clock::now();
  Run r;
  r.workload = t.workload;
  r.design = base ? "baseline" : "path";
  r.s = txgen::verif::replay_transactions(p, t, o, base);  // adds its requests to o.progress as it goes
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

Run run_one(const TxPathParams& p, const txgen::trace::Trace& t, const EvalOptions& o, bool base, bool model) {
  if (model) {
    ModelPath m(p, base, o.skip_by_drain);
    return replay(m, p, t, o, base);
  }
#ifndef TXGEN_EVAL_RTL
  throw std::runtime_error("this build replays through the golden model only (build txgen_eval_rtl_* for the RTL)");
#else
  if (base) {
    RtlPath<TXGEN_BASE_CLASS, true> r(p);
    return replay(r, p, t, o, true);
  }
  RtlPath<TXGEN_SYS_CLASS, false> r(p);
  return replay(r, p, t, o, false);
#endif
}

std::string pct(uint64_t a, uint64_t b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", b ? 100.0 * static_cast<double>(a) / static_cast<double>(b) : 0.0);
  return buf;
}
std::string fixed1(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}
std::string fixed2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// The counts and figures of a run's eval.json, read back by --merge.
const std::vector<std::pair<const char*, uint64_t EvalStats::*>>& count_fields() {
  static const std::vector<std::pair<const char*, uint64_t EvalStats::*>> f = {
      {"cycles", &EvalStats::cycles},
      {"requests", &EvalStats::requests},
      {"l1_hits", &EvalStats::l1_hits},
      {"l1_misses", &EvalStats::l1_misses},
      {"lds_hits", &EvalStats::lds_hits},
      {"icache_hits", &EvalStats::icache_hits},
      {"l2_requests", &EvalStats::l2_requests},
      {"l2_hits", &EvalStats::l2_hits},
      {"walks", &EvalStats::walks},
      {"l2_victims", &EvalStats::l2_victims},
      {"latency_p99", &EvalStats::latency_p99},
      {"ifetches", &EvalStats::ifetches},
      {"ifetch_misses", &EvalStats::ifetch_misses},
      {"instructions", &EvalStats::instructions},
      {"instruction_latency_p99", &EvalStats::instruction_latency_p99},
      {"spread_p99", &EvalStats::spread_p99},
      {"stall_cycles", &EvalStats::stall_cycles},
      {"l2_merges", &EvalStats::l2_merges},
      {"pte_reads", &EvalStats::pte_reads},
      {"buffer_max", &EvalStats::buffer_max},
      {"walk_gap_p99", &EvalStats::walk_gap_p99},
      {"walk_gap_instructions", &EvalStats::walk_gap_instructions},
      {"lds_bank_reads", &EvalStats::lds_bank_reads},
      {"lds_bank_writes", &EvalStats::lds_bank_writes},
      {"ic_tag_reads", &EvalStats::ic_tag_reads},
      {"ic_tag_writes", &EvalStats::ic_tag_writes},
      {"ic_data_reads", &EvalStats::ic_data_reads},
      {"ic_data_writes", &EvalStats::ic_data_writes}};
  return f;
}

const std::vector<std::pair<const char*, double EvalStats::*>>& figure_fields() {
  static const std::vector<std::pair<const char*, double EvalStats::*>> f = {
      {"latency_mean", &EvalStats::latency_mean},
      {"instruction_latency_mean", &EvalStats::instruction_latency_mean},
      {"spread_mean", &EvalStats::spread_mean},
      {"buffer_mean", &EvalStats::buffer_mean},
      {"walk_gap_mean", &EvalStats::walk_gap_mean}};
  return f;
}

nlohmann::json to_json(const Run& r) {
  const EvalStats& s = r.s;
  nlohmann::json j = {{"workload", r.workload}, {"design", r.design}, {"policy", r.policy},
                      {"finished", s.finished}, {"l2", s.generated_l2 ? "generated" : "behavioural"},
                      {"sram_counted", s.sram_counted}};
  for (const auto& [name, field] : count_fields()) j[name] = s.*field;
  for (const auto& [name, field] : figure_fields()) j[name] = s.*field;
  j["skipped_cycles"] = r.skipped;
  j["seconds"] = r.seconds;
  j["requests_per_second"] = r.seconds > 0 ? static_cast<double>(s.requests) / r.seconds : 0.0;
  return j;
}

Run run_from_json(const nlohmann::json& j) {
  Run r;
  r.workload = j.at("workload");
  r.design = j.at("design");
  r.policy = j.at("policy");
  r.s.finished = j.at("finished");
  r.s.generated_l2 = j.at("l2") == "generated";
  r.s.sram_counted = j.at("sram_counted");
  for (const auto& [name, field] : count_fields()) r.s.*field = j.at(name);
  for (const auto& [name, field] : figure_fields()) r.s.*field = j.at(name);
  r.skipped = j.at("skipped_cycles");
  r.seconds = j.at("seconds");
  return r;
}

// The runs of several evaluations' eval.json, in the order given (--merge).
std::vector<Run> read_runs(const std::vector<std::string>& files) {
  std::vector<Run> runs;
  for (const std::string& f : files) {
    std::ifstream in(f);
    if (!in) throw std::runtime_error(f + ": cannot be read");
    try {
      for (const auto& j : nlohmann::json::parse(in)) runs.push_back(run_from_json(j));
    } catch (const nlohmann::json::exception& e) {
      throw std::runtime_error(f + ": not an eval.json of this txgen (" + e.what() + ")");
    }
  }
  return runs;
}

std::string label(const Run& r) { return r.policy.empty() ? r.design : r.design + " " + r.policy; }

// The run of the same workload and design under FCFS (nullptr: none ran).
const Run* fcfs_of(const std::vector<Run>& runs, const Run& r) {
  for (const Run& q : runs)
    if (q.workload == r.workload && q.design == r.design && q.policy == "fcfs") return &q;
  return nullptr;
}

double ratio(double a, double b) { return b != 0 ? a / b : 0; }

// Seed 002's figures per run of the generated L2-TLB and IOMMU: runtime and
// speedup over FCFS (section V, Fig. 8), walks and PTE reads, stall cycles
// (Fig. 9) and the gap between an instruction's first and last walk (Fig. 10)
// against FCFS, and the IOMMU buffer's occupancy.
void write_walk_table(const fs::path& out, const std::vector<Run>& runs, unsigned cus) {
  std::ofstream csv(out / "eval_walks.csv"), md(out / "eval_walks.md");
  csv << "workload,design,policy,cycles,speedup_over_fcfs,l2_lookups_hit,walks,pte_reads,pte_reads_per_walk,"
         "stall_cycles,stall_vs_fcfs,walk_gap_mean,walk_gap_vs_fcfs,walk_gap_instructions,buffer_mean,buffer_max\n";
  md << "### Walk scheduling (generated L2-TLB and IOMMU; seed 002 section V)\n\n"
     << "| workload | design | policy | runtime (cycles) | speedup over FCFS | L2-TLB hits | walks | PTE reads / walk "
        "| CU stalled | stalls vs FCFS | walk gap mean | gap vs FCFS | buffer mean / max |\n"
     << "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const Run& r : runs) {
    const EvalStats& s = r.s;
    const Run* f = fcfs_of(runs, r);
    const double speedup = f ? ratio(double(f->s.cycles), double(s.cycles)) : 0;
    const double stalls = f ? ratio(double(s.stall_cycles), double(f->s.stall_cycles)) : 0;
    const bool gaps = f && f->s.walk_gap_instructions > 0 && s.walk_gap_instructions > 0;
    const double gap = gaps ? ratio(s.walk_gap_mean, f->s.walk_gap_mean) : 0;
    const double per_walk = ratio(double(s.pte_reads), double(s.walks));
    csv << r.workload << "," << r.design << "," << r.policy << "," << s.cycles << "," << speedup << "," << s.l2_hits
        << "," << s.walks << "," << s.pte_reads << "," << per_walk << "," << s.stall_cycles << "," << stalls << ","
        << s.walk_gap_mean << "," << gap << "," << s.walk_gap_instructions << "," << s.buffer_mean << ","
        << s.buffer_max << "\n";
    const auto vs = [](bool known, double v) {
      return known ? (v >= 1 ? "+" : "") + fixed1(100 * (v - 1)) + " %" : std::string("-");
    };
    md << "| " << r.workload << " | " << r.design << " | " << r.policy << " | " << s.cycles
       << (s.finished ? "" : " (cut)") << " | " << (f ? fixed2(speedup) + "x" : "-") << " | "
       << pct(s.l2_hits, s.l2_hits + s.walks + s.l2_merges) << " | " << s.walks << " | " << fixed1(per_walk) << " | "
       << pct(s.stall_cycles, uint64_t{cus} * s.cycles) << " | " << vs(f != nullptr, stalls) << " | "
       << (s.walk_gap_instructions ? fixed1(s.walk_gap_mean) : "-") << " | " << vs(gaps, gap) << " | "
       << fixed1(s.buffer_mean) << " / " << s.buffer_max << " |\n";
  }
}

// The table users paste: per workload the baseline row, then the path's row
// with what it avoided.
void write_tables(const fs::path& out, const std::vector<Run>& runs, const std::string& config,
                  const std::string& engine, unsigned cus) {
  nlohmann::json j = nlohmann::json::array();
  std::ofstream csv(out / "eval.csv"), md(out / "eval.md");
  csv << "workload,design,cycles,requests,l1_hits,l1_misses,lds_hits,icache_hits,l2_requests,l2_requests_avoided,"
         "walks,l2_victims,latency_mean,latency_p99,instructions,instruction_latency_mean,instruction_latency_p99,"
         "spread_mean,spread_p99,stall_cycles,speedup,policy\n";
  md << "### Trace-driven evaluation (" << config << ", " << engine << ")\n\n"
     << "| workload | design | L1 hit rate | LDS hits | I-cache hits | L2-TLB requests | avoided | walks | "
        "latency mean / p99 | instructions | instruction latency mean / p99 | first-to-last mean | CU stalled | "
        "runtime (cycles) | speedup |\n"
     << "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  const Run* base = nullptr;
  for (const Run& r : runs) {
    j.push_back(to_json(r));
    if (r.design == "baseline") base = &r;
    const EvalStats& s = r.s;
    const uint64_t base_l2 = base ? base->s.l2_requests : s.l2_requests;
    const double avoided = base_l2 ? 1.0 - static_cast<double>(s.l2_requests) / static_cast<double>(base_l2) : 0;
    const double speedup = base && s.cycles ? static_cast<double>(base->s.cycles) / static_cast<double>(s.cycles) : 1;
    csv << r.workload << "," << r.design << "," << s.cycles << "," << s.requests << "," << s.l1_hits << ","
        << s.l1_misses << "," << s.lds_hits << "," << s.icache_hits << "," << s.l2_requests << "," << avoided << ","
        << s.walks << "," << s.l2_victims << "," << s.latency_mean << "," << s.latency_p99 << "," << s.instructions
        << "," << s.instruction_latency_mean << "," << s.instruction_latency_p99 << "," << s.spread_mean << ","
        << s.spread_p99 << "," << s.stall_cycles << "," << speedup << "," << r.policy << "\n";
    md << "| " << r.workload << " | " << label(r) << " | " << pct(s.l1_hits, s.l1_hits + s.l1_misses) << " | "
       << s.lds_hits << " | " << s.icache_hits << " | " << s.l2_requests << " | "
       << (r.design == "baseline" ? "-" : fixed1(100 * avoided) + " %") << " | " << s.walks << " | "
       << fixed1(s.latency_mean) << " / " << s.latency_p99 << " | " << s.instructions << " | "
       << fixed1(s.instruction_latency_mean) << " / " << s.instruction_latency_p99 << " | "
       << fixed1(s.spread_mean) << " | " << pct(s.stall_cycles, uint64_t{cus} * s.cycles) << " | " << s.cycles
       << (s.finished ? "" : " (cut)") << " | " << (r.design == "baseline" ? "-" : fixed1(speedup) + "x") << " |\n";
  }
  std::ofstream(out / "eval.json") << j.dump(2) << "\n";
}

// A gnuplot script (and its SVG/PNG when gnuplot is installed): per workload,
// the path's L2-TLB requests and mean latency relative to the baseline.
// Without a baseline and path pair (one design asked for) there is no figure,
// and a figure left by an earlier run in the directory is removed.
void write_plot(const fs::path& out, const std::vector<Run>& runs) {
  std::ostringstream rows;
  for (size_t i = 0; i + 1 < runs.size(); ++i) {
    if (runs[i].design != "baseline" || runs[i + 1].design != "path") continue;
    const EvalStats& b = runs[i].s;
    const EvalStats& q = runs[i + 1].s;
    rows << runs[i].workload << (runs[i].policy.empty() ? "" : "/" + runs[i].policy) << " "
         << (b.l2_requests ? double(q.l2_requests) / double(b.l2_requests) : 1) << " "
         << (b.latency_mean > 0 ? q.latency_mean / b.latency_mean : 1) << "\n";
  }
  if (rows.str().empty()) {
    for (const char* file : {"eval_plot.dat", "eval.gp", "eval.svg", "eval.png"}) fs::remove(out / file);
    return;
  }
  std::ofstream(out / "eval_plot.dat") << "# workload l2_requests_rel latency_rel\n" << rows.str();
  std::ofstream gp(out / "eval.gp");
  gp << "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
     << "set yrange [0:*]\nset ylabel 'path / baseline'\nset key top left\nset grid ytics\n"
     << "set title 'L1-TLB -> LDS -> I-cache -> L2-TLB against L1-TLB -> L2-TLB'\n";
  for (const char* term : {"svg size 800,420", "pngcairo size 800,420"}) {
    const std::string ext = std::string(term).rfind("svg", 0) == 0 ? "svg" : "png";
    gp << "set terminal " << term << " noenhanced\nset output 'eval." << ext << "'\n"
       << "plot 'eval_plot.dat' using 2:xtic(1) title 'L2-TLB requests', '' using 3 title 'mean latency'\n";
  }
  gp.close();
  const std::string cmd = "cd '" + out.string() + "' && gnuplot eval.gp > /dev/null 2>&1";
  if (std::system("command -v gnuplot > /dev/null 2>&1") == 0 && std::system(cmd.c_str()) != 0)
    std::cerr << "txgen eval: gnuplot failed; the script is " << (out / "eval.gp").string() << "\n";
}

// task(0) ... task(n - 1) on up to `jobs` threads (each replay has its own
// models, Verilated context and environment); the results in task order, the
// first exception rethrown.
template <class Task>
std::vector<Run> run_parallel(size_t n, unsigned jobs, const Task& task) {
  std::vector<Run> runs(n);
  std::vector<std::exception_ptr> errors(n);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t k; (k = next++) < n;) {
      try {
        runs[k] = task(k);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < std::min<size_t>(jobs, n); ++j) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  return runs;
}

// The Verilated path and the golden model replay the same trace cycle for
// cycle, so every count must agree.
void check_agree(const Run& rtl, const Run& model) {
  const EvalStats& a = rtl.s;
  const EvalStats& b = model.s;
  const std::pair<const char*, std::pair<uint64_t, uint64_t>> counts[] = {
      {"cycles", {a.cycles, b.cycles}},           {"requests", {a.requests, b.requests}},
      {"l1_hits", {a.l1_hits, b.l1_hits}},        {"l1_misses", {a.l1_misses, b.l1_misses}},
      {"lds_hits", {a.lds_hits, b.lds_hits}},     {"icache_hits", {a.icache_hits, b.icache_hits}},
      {"l2_requests", {a.l2_requests, b.l2_requests}}, {"walks", {a.walks, b.walks}},
      {"l2_victims", {a.l2_victims, b.l2_victims}}, {"latency_p99", {a.latency_p99, b.latency_p99}},
      {"instructions", {a.instructions, b.instructions}},
      {"instruction_latency_p99", {a.instruction_latency_p99, b.instruction_latency_p99}},
      {"spread_p99", {a.spread_p99, b.spread_p99}}, {"stall_cycles", {a.stall_cycles, b.stall_cycles}}};
  for (const auto& [name, v] : counts)
    if (v.first != v.second)
      throw std::runtime_error(rtl.workload + " " + rtl.design + ": the RTL and the model disagree on " + name +
                               ": " + std::to_string(v.first) + " vs " + std::to_string(v.second));
  std::printf("txgen eval: %s %-8s RTL and model agree (model %.3f M requests/s)\n", rtl.workload.c_str(),
              rtl.design.c_str(), model.seconds > 0 ? static_cast<double>(b.requests) / model.seconds / 1e6 : 0.0);
}

EvalStats with_sram_counts_of(const EvalStats& from, EvalStats to) {
  to.sram_counted = from.sram_counted;
  for (const auto field : {&EvalStats::lds_bank_reads, &EvalStats::lds_bank_writes, &EvalStats::ic_tag_reads,
                           &EvalStats::ic_tag_writes, &EvalStats::ic_data_reads, &EvalStats::ic_data_writes})
    to.*field = from.*field;
  return to;
}

double deviation(double txn, double model) { return model != 0 ? (txn - model) / model : txn != 0 ? 1.0 : 0.0; }

// The transaction-level engine against the golden models on one replay: every
// headline figure side by side; fails when its L2-TLB requests (what the
// evaluation reports the mechanism saves) are further off than `tolerance`,
// or its requests are: those must be equal in the outstanding replay, where
// a CU presents its stream whatever the timing.
void check_close(const Run& txn, const Run& model, double tolerance, bool requests_exact) {
  const EvalStats& a = txn.s;
  const EvalStats& b = model.s;
  const std::pair<const char*, std::pair<double, double>> figures[] = {
      {"requests", {double(a.requests), double(b.requests)}},
      {"L1 hits", {double(a.l1_hits), double(b.l1_hits)}},
      {"LDS hits", {double(a.lds_hits), double(b.lds_hits)}},
      {"I-cache hits", {double(a.icache_hits), double(b.icache_hits)}},
      {"L2-TLB requests", {double(a.l2_requests), double(b.l2_requests)}},
      {"walks", {double(a.walks), double(b.walks)}},
      {"mean latency", {a.latency_mean, b.latency_mean}},
      {"instruction latency", {a.instruction_latency_mean, b.instruction_latency_mean}},
      {"cycles", {double(a.cycles), double(b.cycles)}}};
  std::printf("txgen eval: %s %-8s txn vs model:", txn.workload.c_str(), txn.design.c_str());
  for (const auto& [name, v] : figures)
    std::printf(" %s %.0f/%.0f (%+.1f %%)", name, v.first, v.second, 100 * deviation(v.first, v.second));
  const auto rate = [](const Run& r) { return r.seconds > 0 ? double(r.s.requests) / r.seconds / 1e6 : 0.0; };
  std::printf("; %.3f vs %.3f M requests/s\n", rate(txn), rate(model));
  // the wavefront replay joins a page another wavefront waits for, so the
  // requests presented depend on timing too
  if (requests_exact && a.requests != b.requests)
    throw std::runtime_error(txn.workload + " " + txn.design + ": the transaction-level engine presented " +
                             std::to_string(a.requests) + " requests, the model " + std::to_string(b.requests));
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g %%", 100 * tolerance);
  for (const auto& [name, x, y] : {std::tuple<const char*, uint64_t, uint64_t>{"requests", a.requests, b.requests},
                                   {"L2-TLB requests", a.l2_requests, b.l2_requests}})
    if (std::abs(deviation(double(x), double(y))) > tolerance)
      throw std::runtime_error(txn.workload + " " + txn.design + ": the transaction-level engine's " + name + " are " +
                               std::to_string(x) + " against the model's " + std::to_string(y) + " (tolerance " +
                               limit + ")");
}

// The path cuts a VPN or VMID wider than its ports, so the answer would
// never match the request and the CU would wait for ever: refused.
void check_fits(const txgen::trace::Trace& t, const TxPathParams& p, const std::string& file) {
  const auto bits = [](uint64_t v) { return txgen::elab::clog2(v + 1); };  // to hold v
  const uint64_t vpn = txgen::trace::largest_vpn(t), vmid = txgen::trace::largest_vmid(t);
  if (bits(vpn) > p.vpn_bits || bits(vmid) > p.vmid_bits)
    throw std::runtime_error(file + ": the trace's largest VPN needs " + std::to_string(bits(vpn)) +
                             " bits and its largest VMID " + std::to_string(bits(vmid)) + "; the path has " +
                             std::to_string(p.vpn_bits) + " and " + std::to_string(p.vmid_bits) +
                             " ($.system.va_bits, vmid_bits)");
}

// Seconds between two progress lines in a log: TXGEN_EVAL_PROGRESS, else 30.
double progress_interval() { return txgen::util::env_positive("TXGEN_EVAL_PROGRESS", 30.0); }

// One replay of each trace: a design under one walk-scheduling policy.
struct Variant {
  bool base = false;
  std::string policy;                             // "" with the behavioural L2-TLB
  std::optional<txgen::elab::IommuParams> iommu;  // the generated L2-TLB and IOMMU
};

// Per policy the chosen designs (baseline first, so each path row follows its
// baseline); the generated L2 elaborated per policy from the configuration.
std::vector<Variant> variants_of(const txgen::config::Config& cfg, const std::string& l2,
                                 std::vector<std::string> policies, const std::vector<std::string>& designs) {
  const bool generated = l2 == "generated" || (l2 == "auto" && cfg.iommu);
  if (generated && !cfg.iommu)
    throw std::runtime_error("--l2 generated: the configuration has no iommu section");
  if (!generated && !policies.empty())
    throw std::runtime_error("--policies: only with the generated L2-TLB and IOMMU (an iommu section, --l2 generated)");
  if (policies.empty()) policies = {generated ? txgen::config::name_of(cfg.walk_sched->policy) : ""};
  std::vector<Variant> out;
  for (const std::string& policy : policies) {
    std::optional<txgen::elab::IommuParams> io;
    if (generated) {
      txgen::config::Config c = cfg;
      c.walk_sched->policy = policy == "fcfs"     ? txgen::config::WalkPolicy::Fcfs
                             : policy == "random" ? txgen::config::WalkPolicy::Random
                                                  : txgen::config::WalkPolicy::Simt;
      io = txgen::elab::elaborate_iommu(c);
    }
    for (const char* d : {"baseline", "path"})
      if (std::find(designs.begin(), designs.end(), d) != designs.end())
        out.push_back({std::string(d) == "baseline", policy, io});
  }
  if (out.empty()) throw std::runtime_error("--designs: nothing to replay");
  return out;
}

// The trace files, each checked against the path, an unlabelled one named
// after its file.
std::vector<txgen::trace::Trace> load_traces(const std::vector<std::string>& files, const TxPathParams& p) {
  std::vector<txgen::trace::Trace> loaded;
  for (const std::string& file : files) {
    loaded.push_back(txgen::trace::read_file(file));
    txgen::trace::Trace& t = loaded.back();
    if (t.cus != p.cus)
      throw std::runtime_error(file + ": trace for " + std::to_string(t.cus) + " CUs, the path has " +
                               std::to_string(p.cus));
    check_fits(t, p, file);
    if (t.workload.empty()) t.workload = fs::path(file).stem().string();
  }
  return loaded;
}

struct EngineChoice {
  std::string engine;
  double txn_tolerance;  // txn-check, percent
  unsigned jobs;
};

// Every trace under every variant, `jobs` at a time, with a progress line:
// per trace, per policy the baseline, then the path.
std::vector<Run> replay_all(const std::vector<txgen::trace::Trace>& loaded, const std::vector<Variant>& variants,
                            const TxPathParams& p, EvalOptions o, const EngineChoice& e) {
  const bool txn = e.engine == "txn" || e.engine == "txn-check";
  const uint64_t runs_per_replay = e.engine == "both" || e.engine == "txn-check" ? 2 : 1;
  uint64_t total = 0;
  for (const auto& t : loaded) total += t.requests() * variants.size() * runs_per_replay;
  // destroyed (its terminal line cleared) before the caller prints the results
  txgen::verif::EvalProgress progress(total, progress_interval());
  o.progress = &progress;
  // "both" checks the engine against the model stepped through every cycle,
  // so it checks the idle skipping too
  EvalOptions every_cycle = o;
  every_cycle.skip_idle = false;
  return run_parallel(variants.size() * loaded.size(), e.jobs, [&](size_t k) {
    const txgen::trace::Trace& t = loaded[k / variants.size()];
    const Variant& v = variants[k % variants.size()];
    EvalOptions vo = o, ve = every_cycle;
    vo.iommu = ve.iommu = v.iommu ? &*v.iommu : nullptr;
    Run r;
    if (txn) {
      r = run_transactions(p, t, vo, v.base);
      if (e.engine == "txn-check")
        check_close(r, run_one(p, t, vo, v.base, true), e.txn_tolerance / 100,
                    o.traffic.model == txgen::verif::IssueModel::kOutstanding);
    } else {
      r = run_one(p, t, vo, v.base, e.engine == "model");
      if (e.engine == "both") {
        const Run model = run_one(p, t, ve, v.base, true);
        check_agree(r, model);
        r.s = with_sram_counts_of(model.s, r.s);  // cycle for cycle the same: the model's counts are the RTL's
      }
    }
    r.policy = v.policy;
    return r;
  });
}

// The arrays and logic of the baseline and the path: the arrays from the
// configuration (the L2-TLB's geometry from the variant's generated one, or
// the behavioural one), the logic from a `txgen power` report when given.
std::pair<txgen::verif::DesignEnergy, txgen::verif::DesignEnergy> design_energies(
    const txgen::config::Config& cfg, const TxPathParams& p, EvalOptions o, const Variant& v,
    const std::string& logic_power) {
  o.iommu = v.iommu ? &*v.iommu : nullptr;
  txgen::verif::DesignEnergy base{txgen::verif::energy_arrays(cfg, p, true, o), {}};
  txgen::verif::DesignEnergy path{txgen::verif::energy_arrays(cfg, p, false, o), {}};
  if (!logic_power.empty()) {
    base.logic = txgen::verif::logic_energy_of(logic_power, p.module_prefix + "_base");
    path.logic = txgen::verif::logic_energy_of(logic_power, p.module_prefix);
  }
  return {base, path};
}

// The energy table (eval_energy.*, appended to eval.md) when every run
// counted its SRAM accesses; otherwise a line saying why there is none.
void write_energy(const std::string& out, const std::vector<Run>& runs,
                  const std::pair<txgen::verif::DesignEnergy, txgen::verif::DesignEnergy>& designs,
                  const txgen::verif::EnergyOptions& e) {
  for (const char* ext : {".md", ".csv", ".json"}) fs::remove(fs::path(out) / (std::string("eval_energy") + ext));
  if (!std::all_of(runs.begin(), runs.end(), [](const Run& r) { return r.s.sram_counted; })) {
    std::printf("txgen eval: no energy table: this engine does not count SRAM accesses (--engine model or both)\n");
    return;
  }
  std::vector<txgen::verif::EnergyRow> rows;
  for (const Run& r : runs) rows.push_back({r.workload, r.design, r.policy, r.s});
  const std::string md = txgen::verif::write_energy_tables(out, rows, designs.first, designs.second, e);
  std::ofstream(fs::path(out) / "eval.md", std::ios::app) << "\n" << md;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Replays translation traces through the baseline and the proposed path."};
  std::vector<std::string> traces;
  std::string out = "eval", engine = "model";
  double txn_tolerance = 5;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  EvalOptions o;
  std::string config_file;
#ifdef TXGEN_EVAL_CONFIG
  config_file = TXGEN_EVAL_CONFIG;
#else
  app.add_option("--config", config_file, "configuration with a tx_path section (JSON)")->required();
#endif
  std::vector<std::string> merge;
  CLI::Option* trace_opt = app.add_option("--trace", traces, "trace files (txgen trace)");
  app.add_option("--merge", merge,
                 "replay nothing: write the tables of these evaluations' eval.json files (in this order), as one "
                 "evaluation with the other options would")
      ->excludes(trace_opt);
  app.add_option("--out", out, "output directory");
  app.add_option("--engine", engine,
                 "rtl (Verilated RTL), model (golden model), both (and fail unless they agree), txn "
                 "(transaction level: fast, not cycle-exact), or txn-check (txn beside the model)")
      ->check(CLI::IsMember({"rtl", "model", "both", "txn", "txn-check"}));
  app.add_option("--txn-tolerance", txn_tolerance,
                 "txn-check fails when txn's L2-TLB requests differ from the model's by more (percent)");
  app.add_option("--l2-latency", o.l2_latency, "L2-TLB access cycles (188)");
  app.add_option("--walk-latency", o.walk_latency, "page-walk cycles after an L2-TLB miss (400)");
  app.add_option("--l2-entries", o.l2_entries, "L2-TLB entries (512)");
  app.add_option("--l2-ways", o.l2_ways, "L2-TLB ways (16)");
  std::string l2 = "auto";
  app.add_option("--l2", l2,
                 "what answers the path's L2 port: generated (the configuration's iommu section: the golden "
                 "models of its L2-TLB and IOMMU with a page table and memory), behavioural (a fixed-latency "
                 "L2-TLB and walks: earlier tables), or auto (generated when the configuration has iommu)")
      ->check(CLI::IsMember({"auto", "generated", "behavioural"}));
  std::vector<std::string> policies;
  app.add_option("--policies", policies,
                 "generated L2: walk-scheduling policies to run, each a row (default: walk_sched.policy)")
      ->check(CLI::IsMember({"fcfs", "random", "simt"}))
      ->delimiter(',');
  std::vector<std::string> designs = {"baseline", "path"};
  app.add_option("--designs", designs, "designs to replay: baseline (L1-TLBs to the L2-TLB), path (default: both)")
      ->check(CLI::IsMember({"baseline", "path"}))
      ->delimiter(',');
  app.add_option("--pte-latency", o.iommu_eval.pte_latency, "generated L2: cycles of one PTE read (100)")
      ->check(CLI::Range(1u, 100000u));
  app.add_option("--pte-interval", o.iommu_eval.pte_interval,
                 "generated L2: cycles between two PTE reads of one memory channel (1)")
      ->check(CLI::Range(1u, 100000u));
  app.add_option("--pte-channels", o.iommu_eval.pte_channels,
                 "generated L2: memory channels, PTE lines interleaved over them (2)")
      ->check(CLI::Range(1u, 64u));
  std::string replay_model = "wavefront";
  app.add_option("--replay", replay_model,
                 "issue model: wavefront (each CU runs its wavefronts; an instruction's pages at once) or "
                 "outstanding (each CU's requests in order, --outstanding at once: earlier tables)")
      ->check(CLI::IsMember({"wavefront", "outstanding"}));
  app.add_option("--outstanding", o.traffic.outstanding, "outstanding replay: pages a CU waits for at once (4)")
      ->check(CLI::Range(1u, 1024u));
  app.add_option("--wavefront-slots", o.traffic.wavefront_slots,
                 "wavefront replay: wavefronts a CU runs at once (default: each kernel's, from the trace)")
      ->check(CLI::Range(1u, 65536u));
  app.add_option("--compute-cycles", o.traffic.compute_cycles,
                 "wavefront replay: cycles per non-memory instruction of a compute gap (1)")
      ->check(CLI::Range(0u, 1024u));
  app.add_flag("--flush-every-kernel", o.flush_every_kernel,
               "flush the I-caches at every kernel boundary (default: only when a different kernel follows)");
  app.add_option("--fetch-interval", o.fetch_interval, "cycles between instruction fetches (8)");
  app.add_option("--max-cycles", o.max_cycles, "stop a run after this many cycles");
  app.add_option("--jobs", jobs, "replays at once (default: one per processor)");
  app.add_flag("!--no-skip-idle", o.skip_idle, "simulate every cycle (default: jump over cycles with nothing to do)");
  app.add_flag("--skip-by-drain", o.skip_by_drain,
               "the model engine skips after the drain bound, as the RTL engine does (tests of the bound)");
  app.add_flag("--what-if-pipelined-wires", o.pipelined_wires,
               "txn engine only: a lookup stage that takes a CU's next miss while the last one is in its wire "
               "with no bound on the misses in flight (the generated design bounds them: tx_path.lookup_slots)");
  app.add_flag("--fetch-when-stalled", o.fetch_when_stalled,
               "fetch instructions while every CU of the I-cache waits on translations (default: no)");
  txgen::verif::EnergyOptions energy;
  app.add_option("--period-ns", energy.period_ns, "energy: the clock period the cycles take (2.5)")
      ->check(CLI::PositiveNumber);
  app.add_option("--dram-read-nj", energy.dram_read_nj,
                 "energy: one page-walk read of DRAM, nJ (default: a DDR3-1600 rank's closed-page 64-byte read, "
                 "docs/energy.md)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--dram-background-mw", energy.dram_background_mw,
                 "energy: DRAM background power per channel, mW (default: the rank's precharge standby)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--walk-dram-reads", energy.walk_dram_reads,
                 "energy, behavioural L2-TLB: DRAM reads per page walk (1: the page-walk caches hold the upper "
                 "levels)")
      ->check(CLI::Range(0u, 8u));
  std::string logic_power;
  app.add_option("--logic-power", logic_power,
                 "energy: the <block>.power.json of `txgen power --block tx_path` on this configuration; adds the "
                 "baseline's and the path's logic (clock pins, leakage, energy per translation request)");
  CLI11_PARSE(app, argc, argv);
  energy.dram_channels = o.iommu_eval.pte_channels;
  o.traffic.model = replay_model == "outstanding" ? txgen::verif::IssueModel::kOutstanding
                                            : txgen::verif::IssueModel::kWavefront;
  try {
    if (o.pipelined_wires && engine != "txn")
      throw std::runtime_error("--what-if-pipelined-wires: only the transaction-level engine (--engine txn) has it");
    const txgen::config::Config cfg = txgen::config::load_config_file(config_file);
    const TxPathParams p = txgen::elab::elaborate_tx_path(cfg);
    if (p.speculative && (engine == "txn" || engine == "txn-check"))
      throw std::runtime_error("$.tx_path.speculative_l2: the transaction-level engine does not model the "
                               "speculative L2-TLB request (--engine model or rtl)");
    if (p.cluster_cus > 1 && (engine == "txn" || engine == "txn-check"))
      throw std::runtime_error("$.tx_path.l1tlb.tlbs: the transaction-level engine models private L1-TLBs only "
                               "(--engine model or rtl)");
    const std::vector<Variant> variants = variants_of(cfg, l2, policies, designs);
    const auto energies = design_energies(cfg, p, o, variants.front(), logic_power);
    if (traces.empty() && merge.empty()) throw std::runtime_error("--trace: give the trace files to replay");
    const std::vector<txgen::trace::Trace> loaded = load_traces(traces, p);
    const std::vector<Run> merged = read_runs(merge);
    fs::create_directories(out);  // every input checked: nothing is written for bad input
    const std::vector<Run> runs =
        merge.empty() ? replay_all(loaded, variants, p, o, {engine, txn_tolerance, jobs}) : merged;
    for (const Run& r : runs)
      std::printf("txgen eval: %s %-8s %llu requests, %llu cycles (%llu simulated), %.2f s (%.3f M requests/s)%s\n",
                  r.workload.c_str(), label(r).c_str(), static_cast<unsigned long long>(r.s.requests),
                  static_cast<unsigned long long>(r.s.cycles), static_cast<unsigned long long>(r.s.cycles - r.skipped),
                  r.seconds, r.seconds > 0 ? static_cast<double>(r.s.requests) / r.seconds / 1e6 : 0.0,
                  r.s.finished ? "" : " (stopped at --max-cycles)");
    const bool txn = engine == "txn" || engine == "txn-check";
    write_tables(out, runs, p.module_prefix,
                 std::string(txn ? "transaction-level engine: not cycle-exact"
                                 : engine == "model" ? "golden-model engine, cycle-exact to the RTL" : "Verilated RTL") +
                     ", " + replay_model + " replay",
                 p.cus);
    write_plot(out, runs);
    if (variants.front().iommu) {
      write_walk_table(out, runs, p.cus);
      std::ofstream(fs::path(out) / "eval.md", std::ios::app)
          << "\n" << std::ifstream(fs::path(out) / "eval_walks.md").rdbuf();
    }
    write_energy(out, runs, energies, energy);
    std::cout << std::ifstream(fs::path(out) / "eval.md").rdbuf();
  } catch (const std::exception& e) {
    std::cerr << "txgen eval: error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
