// SystemC co-simulation of bd_codec_NAME_decomp (verilator --sc) against
// model::BdDecompStage: an sc_clock drives the stage, a testbench thread
// drives random packed words (canonical and not) with back-pressure and
// resets, and compares every output with the model every cycle.
// SystemC elaborates once per process: one simulation, one test, own sc_main.
// Build passes TXGEN_DECOMP_HEADER / TXGEN_DECOMP_CLASS, TXGEN_COSIM_CONFIG,
// TXGEN_COSIM_CONFIG_NAME.
#include <gtest/gtest.h>
#include <systemc.h>

#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include TXGEN_DECOMP_HEADER

#include "bd_codec_harness.h"
#include "cosim_util.h"
#include "model/bd_codec.h"
#include "txgen/config/parse.h"
#include "txgen/elab/bd_codec.h"

namespace {

using txgen::elab::BdCodecParams;
using txgen::model::BdTag;
using txgen::verif::Bits;
using txgen::verif::CoverageCounters;
using txgen::verif::Mismatch;
using txgen::verif::Rng;
using txgen::verif::to_hex;
using Dut = TXGEN_DECOMP_CLASS;

const BdCodecParams& params() {
  static const BdCodecParams p =
      txgen::elab::elaborate_bd_codec(txgen::config::load_config_file(TXGEN_COSIM_CONFIG));
  return p;
}

// ---------------------------------------------------------------------------
// Bits <-> SystemC port types (bool, uint32_t, uint64_t up to 64 bits, sc_bv wider).

inline void to_sc(bool& out, const Bits& value) { out = value.width > 0 && value.get(0); }
inline void to_sc(uint32_t& out, const Bits& value) { out = static_cast<uint32_t>(value.field(0, value.width)); }
inline void to_sc(uint64_t& out, const Bits& value) { out = value.field(0, value.width); }
template <int W>
void to_sc(sc_bv<W>& out, const Bits& value) {
  for (int i = 0; i < static_cast<int>(value.words.size()); ++i) out.set_word(i, value.words[i]);
}

inline Bits from_sc(bool value, unsigned width) { return txgen::verif::bits_from_u64(width, value); }
inline Bits from_sc(uint32_t value, unsigned width) { return txgen::verif::bits_from_u64(width, value); }
inline Bits from_sc(uint64_t value, unsigned width) { return txgen::verif::bits_from_u64(width, value); }
template <int W>
Bits from_sc(const sc_bv<W>& value, unsigned width) {
  Bits bits(width);
  for (std::size_t i = 0; i < bits.words.size(); ++i) bits.words[i] = value.get_word(static_cast<int>(i));
  return bits;
}

// The signal type that binds to a Verilated port (members are sc_in<T>& / sc_out<T>&).
template <class Port>
using SignalFor = sc_signal<typename std::remove_reference_t<Port>::data_type>;

// ---------------------------------------------------------------------------
// Stimulus: canonical words from the model's compressor, raw random words
// (mostly not canonical), and zero.

class WordStimulus {
 public:
  explicit WordStimulus(Rng& rng) : rng_(rng), codec_(params()) {}

  Bits word() {
    switch (rng_.below(4)) {
      case 0: return rng_.random_bits(params().packed_bits);
      case 1: return Bits(params().packed_bits);
      default: return codec_.compress(tags()).packed;
    }
  }

 private:
  std::vector<BdTag> tags() {
    const BdCodecParams& p = params();
    std::vector<BdTag> out(p.tags);
    const uint64_t ref_va = rng_.bits(p.va_tag_bits);
    for (BdTag& tag : out) {
      tag.valid = rng_.chance(75);
      tag.lru = static_cast<uint32_t>(rng_.bits(p.lru_bits));
      tag.vmid = static_cast<uint32_t>(rng_.bits(p.vmid_bits));
      tag.vrf = static_cast<uint32_t>(rng_.bits(p.vrf_bits));
      const int64_t delta = rng_.between(-(int64_t{1} << p.value_bits), int64_t{1} << p.value_bits);
      tag.va = txgen::verif::bd_va_at(p, ref_va, delta);
    }
    return out;
  }

  Rng& rng_;
  txgen::model::BdCodecModel codec_;
};

// ---------------------------------------------------------------------------
// Testbench: drives at the falling edge, compares 2 ns later (after the
// Verilated module settled), lets the rising edge clock both DUT and model.

SC_MODULE(DecompBench) {
  sc_in<bool> clk;

  SignalFor<decltype(Dut::rst_ni)> rst_ni;
  SignalFor<decltype(Dut::in_valid_i)> in_valid_i;
  SignalFor<decltype(Dut::in_ready_o)> in_ready_o;
  SignalFor<decltype(Dut::packed_i)> packed_i;
  SignalFor<decltype(Dut::out_valid_o)> out_valid_o;
  SignalFor<decltype(Dut::out_ready_i)> out_ready_i;
  SignalFor<decltype(Dut::tag_valid_o)> tag_valid_o;
  SignalFor<decltype(Dut::tag_lru_o)> tag_lru_o;
  SignalFor<decltype(Dut::tag_vmid_o)> tag_vmid_o;
  SignalFor<decltype(Dut::tag_vrf_o)> tag_vrf_o;
  SignalFor<decltype(Dut::tag_va_o)> tag_va_o;

  Dut dut;
  std::optional<Mismatch> mismatch;
  CoverageCounters coverage;
  uint64_t cycles_done = 0;

  DecompBench(sc_module_name name, uint64_t seed, uint64_t cycles)
      : sc_module(name),
        dut("dut"),
        seed_(seed),
        cycles_(cycles),
        rng_(seed),
        words_(rng_),
        model_(params()),
        counts_(coverage, params(), "decomp") {
    bind_ports();
    SC_THREAD(run);
  }

 private:
  SC_HAS_PROCESS(DecompBench);

  void bind_ports() {
    dut.clk_i(clk);
    dut.rst_ni(rst_ni);
    dut.in_valid_i(in_valid_i);
    dut.in_ready_o(in_ready_o);
    dut.packed_i(packed_i);
    dut.out_valid_o(out_valid_o);
    dut.out_ready_i(out_ready_i);
    dut.tag_valid_o(tag_valid_o);
    dut.tag_lru_o(tag_lru_o);
    dut.tag_vmid_o(tag_vmid_o);
    dut.tag_vrf_o(tag_vrf_o);
    dut.tag_va_o(tag_va_o);
  }

  void run() {
    for (cycles_done = 0; cycles_done < cycles_ && !mismatch; ++cycles_done) {
      wait(clk.negedge_event());
      drive(next_inputs());
      wait(2, SC_NS);
      compare();
      wait(clk.posedge_event());
      model_.posedge(in_);
      record_transfer();
    }
    sc_stop();
  }

  void record_transfer() {
    if (!in_.rst_n) {
      taken_.reset();
    } else if (in_.in_valid && ready_seen_) {
      taken_ = in_.packed;
      offered_.reset();
    }
  }

  txgen::model::BdDecompIn next_inputs() {
    if (reset_left_ > 0) --reset_left_;
    else if (rng_.below(1000) < 3) reset_left_ = 1 + static_cast<unsigned>(rng_.below(3));
    if (reset_left_ > 0) offered_.reset();
    const bool valid = rng_.chance(70);
    if (!valid) return {reset_left_ == 0, false, words_.word(), rng_.chance(60)};  // noise
    if (!offered_) offered_ = words_.word();
    return {reset_left_ == 0, true, *offered_, rng_.chance(60)};
  }

  void drive(const txgen::model::BdDecompIn& in) {
    in_ = in;
    rst_ni.write(in.rst_n);
    in_valid_i.write(in.in_valid);
    out_ready_i.write(in.out_ready);
    typename std::remove_reference_t<decltype(Dut::packed_i)>::data_type packed{};
    to_sc(packed, in.packed);
    packed_i.write(packed);
  }

  void compare() {
    const BdCodecParams& p = params();
    const txgen::model::BdDecompOut want = model_.outputs(in_);
    const txgen::verif::BdTagVectors flat = txgen::verif::flatten_tags(p, want.tags);
    ready_seen_ = in_ready_o.read();
    check("in_ready_o", from_sc(want.in_ready, 1), from_sc(in_ready_o.read(), 1));
    check("out_valid_o", from_sc(want.out_valid, 1), from_sc(out_valid_o.read(), 1));
    check("tag_valid_o", flat.valid, from_sc(tag_valid_o.read(), p.tags));
    check("tag_lru_o", flat.lru, from_sc(tag_lru_o.read(), p.tags * p.lru_bits));
    check("tag_vmid_o", flat.vmid, from_sc(tag_vmid_o.read(), p.tags * p.vmid_bits));
    check("tag_vrf_o", flat.vrf, from_sc(tag_vrf_o.read(), p.tags * p.vrf_bits));
    check("tag_va_o", flat.va, from_sc(tag_va_o.read(), p.tags * p.va_tag_bits));
    counts_.count(in_, want);
  }

  void check(const char* signal, const Bits& want, const Bits& got) {
    if (mismatch || want == got) return;
    mismatch = Mismatch{std::string(TXGEN_COSIM_CONFIG_NAME) + "_SystemC", cycles_done, signal,
                        to_hex(want), to_hex(got), held_word(), seed_};
  }

  // The output registers show the last word taken, not the current input.
  std::string held_word() const {
    return taken_ ? "from packed_i=" + to_hex(*taken_) : "no word taken since reset";
  }

  uint64_t seed_;
  uint64_t cycles_;
  Rng rng_;
  WordStimulus words_;
  txgen::model::BdDecompStage model_;
  txgen::verif::DecompCoverage counts_;
  txgen::model::BdDecompIn in_;
  std::optional<Bits> offered_;  // held until taken (valid/ready rule)
  std::optional<Bits> taken_;    // the word the output registers hold
  bool ready_seen_ = false;
  unsigned reset_left_ = 3;  // start in reset
};

TEST(BdCodecSystemC, DecompRandomTraffic) {
  const uint64_t seed = txgen::verif::seed_from_env();
  const uint64_t cycles = txgen::verif::cosim_cycles_from_env();
  std::cout << "[cosim] " << TXGEN_COSIM_CONFIG_NAME << "_SystemC seed=" << seed << std::endl;

  sc_clock clock("clock", 10, SC_NS);
  DecompBench bench("bench", seed, cycles);
  bench.clk(clock);
  const auto start = std::chrono::steady_clock::now();
  sc_start();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::cout << "[cosim] SystemC decomp: " << bench.cycles_done << " cycles, "
            << static_cast<uint64_t>(bench.cycles_done / std::max(seconds, 1e-9)) << " cycles/s\n"
            << "[cosim] coverage:\n" << bench.coverage.format() << std::flush;
  ASSERT_FALSE(bench.mismatch) << bench.mismatch->format();
  for (const std::string& name : txgen::verif::required_decomp_coverage())
    EXPECT_GT(bench.coverage.count(name), 0u) << "coverage counter " << name << " never hit";
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
