// SystemC lock-step testbench of one block: the Verilated `--sc` model and
// the golden model's sc_module (verif/sc/block.h) on one clock and one input
// bundle, each with its own output bundle, and a comparator that checks every
// output of the two at every rising edge. An environment writes the inputs at
// each falling edge from the outputs of the cycle before.
//
// Timing: 10 ns clock, first rising edge at 5 ns. Cycle c's inputs are written
// at c x 10 ns, compared and clocked at c x 10 + 5 ns. Cycle 0 is a reset.
// SystemC elaborates once per process: one bench, one sc_start per binary.
#pragma once

#include <systemc.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <utility>

#include "cosim_util.h"
#include "sc/block.h"

namespace txgen::verif::sc {

struct BenchOptions {
  std::string test;   // names the report
  uint64_t seed = kDefaultSeed;
  uint64_t cycles = 0;
  std::string vcd;    // non-empty: trace every port into this VCD file (without .vcd)
};

template <class Sc>
class LockStepBench : public sc_core::sc_module {
 public:
  using Params = typename Sc::Params;
  using In = typename Sc::In;
  using Out = typename Sc::Out;
  // Sets the inputs of `cycle` in place: `in` holds the previous cycle's,
  // `last` the outputs that cycle ended with (the golden model's).
  using Environment = std::function<void(In& in, const Out& last, uint64_t cycle)>;

  sc_core::sc_clock clock;
  typename Sc::Inputs inputs;
  typename Sc::Outputs rtl_out, model_out;
  typename Sc::Dut dut;
  typename Sc::Model model;

  SC_HAS_PROCESS(LockStepBench);
  LockStepBench(sc_core::sc_module_name name, const Params& p, BenchOptions options, Environment env)
      : sc_core::sc_module(name),
        clock("clock", sc_core::sc_time(10, sc_core::SC_NS), 0.5, sc_core::sc_time(5, sc_core::SC_NS), true),
        inputs("inputs"),
        rtl_out("rtl_out"),
        model_out("model_out"),
        dut("dut"),
        model("model", p),
        p_(p),
        options_(std::move(options)),
        env_(std::move(env)),
        sizes_(model.core().out()) {
    Sc::bind(dut, clock, inputs, rtl_out);
    Sc::bind(model, clock, inputs, model_out);
    SC_THREAD(drive);
    SC_METHOD(compare);
    sensitive << clock.posedge_event();
    dont_initialize();
  }

  const std::optional<Mismatch>& mismatch() const { return mismatch_; }
  uint64_t cycles_compared() const { return compared_; }

 private:
  void drive() {
    In in = model.core().in();
    in.rst_n = false;
    for (uint64_t cycle = 0; cycle < options_.cycles; ++cycle) {
      if (cycle > 0) env_(in, model.core().last_cycle_out(), cycle);
      inputs.write(in, p_);
      wait(clock.posedge_event());
      wait(clock.negedge_event());
    }
    sc_core::sc_stop();
  }

  void compare() {
    const uint64_t cycle = compared_++;
    if (mismatch_) return;
    const std::optional<Difference> d = rtl_out.first_difference(model_out, sizes_, p_);
    if (!d) return;
    mismatch_ = Mismatch{options_.test, cycle, d->signal, d->expected, d->actual,
                         "RTL (actual) against the golden model's sc_module (expected)", options_.seed};
    sc_core::sc_stop();
  }

  Params p_;
  BenchOptions options_;
  Environment env_;
  Out sizes_;
  uint64_t compared_ = 0;
  std::optional<Mismatch> mismatch_;
};

// TXGEN_SC_CYCLES (decimal), else `fallback`.
inline uint64_t sc_cycles_from_env(uint64_t fallback) {
  const char* text = std::getenv("TXGEN_SC_CYCLES");
  return text && *text ? std::strtoull(text, nullptr, 10) : fallback;
}

// Elaborates a bench, runs it to its end and reports like run_cosim: cycles,
// speed, coverage (counted by `on_edge`, given the model after each edge),
// the mismatch with its replay and waveform hints.
template <class Sc>
CosimVerdict run_lock_step(const typename Sc::Params& p, const BenchOptions& options,
                           typename LockStepBench<Sc>::Environment env,
                           typename ModelCore<typename Sc::Block>::EdgeHook on_edge) {
  std::cout << "[cosim] " << options.test << " seed=" << options.seed << std::endl;
  // no "simulation stopped by user" at the end of every run
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  LockStepBench<Sc> bench("bench", p, options, std::move(env));
  bench.model.core().on_edge(std::move(on_edge));
  sc_core::sc_trace_file* vcd = nullptr;
  if (!options.vcd.empty()) {
    vcd = sc_core::sc_create_vcd_trace_file(options.vcd.c_str());
    sc_core::sc_trace(vcd, bench.clock, "clk");
    bench.inputs.trace(vcd);
    bench.rtl_out.trace(vcd);
    bench.model_out.trace(vcd);
  }
  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (vcd) sc_core::sc_close_vcd_trace_file(vcd);

  CosimVerdict v;
  v.cycles = bench.cycles_compared();
  v.cycles_per_second = v.cycles / std::max(seconds, 1e-9);
  std::cout << "[cosim] " << options.test << ": " << v.cycles << " cycles, "
            << static_cast<uint64_t>(v.cycles_per_second) << " cycles/s" << std::endl;
  if (bench.mismatch()) {
    v.passed = false;
    v.report = bench.mismatch()->format() + "  waveform: re-run with TXGEN_SEED=" + std::to_string(options.seed) +
               " TXGEN_SC_VCD=" + options.test + " (writes " + options.test + ".vcd)\n";
  }
  return v;
}

}  // namespace txgen::verif::sc
