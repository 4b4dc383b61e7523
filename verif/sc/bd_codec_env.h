// SystemC test of bd_codec_NAME_decomp (tests/cosim/sc_test.cpp): packed
// words from the model's compressor (canonical), raw random words (mostly
// not canonical) and zero; a word offered is held until taken while valid
// is up, noise while it is down; random output back-pressure and short
// resets.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bd_codec_harness.h"
#include "sc/bd_codec.h"

namespace txgen::verif::sc {

class BdCodecEnv {
 public:
  using In = model::BdDecompIn;
  using Out = BdDecompTraits::Out;

  BdCodecEnv(const elab::BdCodecParams& p, uint64_t seed, uint64_t) : p_(p), rng_(seed), codec_(p) {}

  void operator()(In& in, const Out& last, uint64_t) {
    if (in.rst_n && in.in_valid && last.stage.in_ready) offered_.reset();  // taken
    if (reset_left_ > 0) --reset_left_;
    else if (rng_.below(1000) < 3) reset_left_ = 1 + static_cast<unsigned>(rng_.below(3));
    if (reset_left_ > 0) offered_.reset();
    in.rst_n = reset_left_ == 0;
    in.in_valid = rng_.chance(70);
    in.out_ready = rng_.chance(60);
    if (in.in_valid && !offered_) offered_ = word();
    in.packed = in.in_valid ? *offered_ : word();
  }

 private:
  Bits word() {
    switch (rng_.below(4)) {
      case 0: return rng_.random_bits(p_.packed_bits);
      case 1: return Bits(p_.packed_bits);
      default: return codec_.compress(tags()).packed;
    }
  }
  std::vector<model::BdTag> tags() {
    std::vector<model::BdTag> out(p_.tags);
    const uint64_t ref_va = rng_.bits(p_.va_tag_bits);
    for (model::BdTag& tag : out) {
      tag.valid = rng_.chance(75);
      tag.lru = static_cast<uint32_t>(rng_.bits(p_.lru_bits));
      tag.vmid = static_cast<uint32_t>(rng_.bits(p_.vmid_bits));
      tag.vrf = static_cast<uint32_t>(rng_.bits(p_.vrf_bits));
      tag.va = bd_va_at(p_, ref_va, rng_.between(-(int64_t{1} << p_.value_bits), int64_t{1} << p_.value_bits));
    }
    return out;
  }

  const elab::BdCodecParams& p_;
  Rng rng_;
  model::BdCodecModel codec_;
  std::optional<Bits> offered_;  // held until taken (valid/ready rule)
  unsigned reset_left_ = 0;
};

struct BdCodecScSpec {
  template <class Dut>
  using Sc = BdDecompSc<Dut>;
  using Environment = BdCodecEnv;
  static constexpr uint64_t kCycles = 100000;
  static elab::BdCodecParams elaborate(const config::Config& c) { return elab::elaborate_bd_codec(c); }

  class Coverage {
   public:
    Coverage(CoverageCounters& c, const elab::BdCodecParams& p) : cov_(c, p, "decomp") {}
    void operator()(const model::BdDecompIn& in, const BdDecompTraits::Out& out, const model::BdDecompStage&) {
      cov_.count(in, out.stage);
    }
    std::vector<std::string> required() const { return required_decomp_coverage(); }

   private:
    DecompCoverage cov_;
  };
};

}  // namespace txgen::verif::sc
