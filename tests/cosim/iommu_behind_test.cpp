// The evaluation's page table and the generated L2-TLB and IOMMU behind the
// path (verif/page_table.h, verif/iommu_behind.h), driven through the path's
// L2 port by a stand-in path, against facts worked out by hand from
// docs/verification.md ("The generated L2-TLB and IOMMU behind the path"):
// a hit answers exactly --l2-latency after its request; a cold walk costs LV
// PTE reads and a walk under cached upper levels one; same-page requests
// share one walk; a memory channel's interval serialises reads; a walk
// carries its instruction, so an instruction's walks give one gap.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "iommu_behind.h"
#include "txgen/config/parse.h"
#include "txgen/error.h"

namespace txgen::verif {
namespace {

config::Config small_config() {
  return config::load_config_file(std::string(TXGEN_SOURCE_DIR) + "/tests/configs/tx_path_iommu.json");
}

struct Answer {
  uint64_t cycle, tag, ppn;
};

// A stand-in path: presents queued requests and victims on the L2 port one a
// cycle, takes every answer at once.
class Bench {
 public:
  explicit Bench(const IommuEvalOptions& o = {}, config::Config cfg = small_config())
      : path_(elab::elaborate_tx_path(cfg)), io_(elab::elaborate_iommu(cfg)), behind_(io_, path_, o) {}
  const elab::TxPathParams& path() const { return path_; }
  const elab::IommuParams& io() const { return io_; }
  IommuBehind& behind() { return behind_; }

  void request(uint64_t at, uint64_t vpn, uint64_t tag, uint64_t instruction = 0) {
    requests_.push_back({at, vpn, tag, instruction});
  }
  void victim(uint64_t at, uint64_t vpn, uint64_t ppn) { victims_.push_back({at, vpn, ppn, 0}); }
  // Runs to `until` (reset in cycles 0 and 1, as the evaluation's).
  void run(uint64_t until) {
    for (; cycle_ < until; ++cycle_) step();
  }
  const std::vector<Answer>& answers() const { return answers_; }
  uint64_t requested_at(uint64_t tag) const { return presented_.at(tag); }

 private:
  struct Item {
    uint64_t at, vpn, x, instruction;
  };
  void step() {
    model::TxPathIn in;
    model::TxPathOut out;
    in.rst_n = cycle_ >= 2;
    behind_.drive(cycle_, in);
    uint64_t instruction = 0;
    if (!requests_.empty() && requests_.front().at <= cycle_) {
      const Item& r = requests_.front();
      out.l2_req_valid = true;
      out.l2_req_vpn = r.vpn;
      out.l2_req_tag = r.x;
      instruction = r.instruction;
    }
    if (!victims_.empty() && victims_.front().at <= cycle_) {
      out.l2_vic_valid = true;
      out.l2_vic_vpn = victims_.front().vpn;
      out.l2_vic_ppn = victims_.front().x;
      out.l2_vic_perm = 1;
    }
    out.l2_resp_ready = true;
    if (in.l2_resp_valid) answers_.push_back({cycle_, in.l2_resp_tag, in.l2_resp_ppn});
    behind_.step(cycle_, in, out, instruction);
    if (out.l2_req_valid && in.l2_req_ready) {
      presented_[requests_.front().x] = cycle_;
      requests_.erase(requests_.begin());
    }
    if (out.l2_vic_valid && in.l2_vic_ready) victims_.erase(victims_.begin());
  }

  elab::TxPathParams path_;
  elab::IommuParams io_;
  IommuBehind behind_;
  uint64_t cycle_ = 0;
  std::vector<Item> requests_, victims_;
  std::vector<Answer> answers_;
  std::map<uint64_t, uint64_t> presented_;
};

// The latency of the one request with `tag`: presented -> answered.
uint64_t latency(const Bench& b, uint64_t tag) {
  for (const Answer& a : b.answers())
    if (a.tag == tag) return a.cycle - b.requested_at(tag);
  ADD_FAILURE() << "tag " << tag << " never answered";
  return 0;
}

// A VPN from one index per level (root first), for 3 levels of 9 bits.
uint64_t vpn_of(uint64_t root, uint64_t mid, uint64_t leaf) { return (root << 18) | (mid << 9) | leaf; }

TEST(PageTable, FramesInFirstTouchOrderAndSharedTables) {
  PageTable pt(3, 9, 20, 20, 4, 4096);
  EXPECT_EQ(pt.mapped_ppn(0, 5), -1);
  // a walk of page 5 meets the root, a middle table, a leaf table, then the page
  const uint64_t root = pt.pte_address(0, vpn_of(0, 0, 5), 1);
  EXPECT_EQ(root >> 12, 1u);
  EXPECT_EQ(pt.pte_address(0, vpn_of(0, 0, 5), 2) >> 12, 2u);
  EXPECT_EQ(pt.pte_address(0, vpn_of(0, 0, 5), 3), (3u << 12) | (5 * 8));
  EXPECT_EQ(pt.mapped_ppn(0, vpn_of(0, 0, 5)), 4);
  // a page of the same leaf table shares every table: only its own frame is new
  EXPECT_EQ(pt.pte_address(0, vpn_of(0, 0, 6), 3), (3u << 12) | (6 * 8));
  EXPECT_EQ(pt.ppn(0, vpn_of(0, 0, 6)), 5u);
  // another middle index: a new leaf table under the same middle table
  EXPECT_EQ(pt.pte_address(0, vpn_of(0, 1, 0), 2), (2u << 12) | 8);
  EXPECT_EQ(pt.pte_address(0, vpn_of(0, 1, 0), 3) >> 12, 6u);
  // another address space has its own root
  EXPECT_EQ(pt.pte_address(1, vpn_of(0, 0, 5), 1) >> 12, 8u);
  EXPECT_EQ(pt.tables(), 5u);
  EXPECT_EQ(pt.ppn(0, vpn_of(0, 0, 5)), 4u);  // stable
}

TEST(PageTable, RejectsATableTheVpnCannotHold) {
  EXPECT_THROW(PageTable(4, 9, 20, 20, 4, 4096), std::invalid_argument);
}

// An inserted victim is a hit: answered exactly --l2-latency cycles after its
// request, with the victim's PPN, and no walk.
TEST(IommuBehind, HitAnswersAfterTheL2Latency) {
  for (unsigned l2_latency : {7u, 40u, 188u}) {
    IommuEvalOptions o;
    o.l2_latency = l2_latency;
    Bench b(o);
    b.victim(2, 77, 1234);
    b.request(400, 77, 3);
    b.run(1000);
    ASSERT_EQ(b.answers().size(), 1u);
    EXPECT_EQ(latency(b, 3), l2_latency) << "l2_latency " << l2_latency;
    EXPECT_EQ(b.answers()[0].ppn, 1234u);
    EXPECT_EQ(b.behind().figures().walks, 0u);
    EXPECT_EQ(b.behind().figures().l2_hits, 1u);
  }
}

TEST(IommuBehind, RejectsAnL2LatencyShorterThanTheL2Tlb) {
  IommuEvalOptions o;
  o.l2_latency = 6;  // 3 stages + 2 + two wire cycles need 7
  EXPECT_THROW(Bench b(o), ConfigError);
}

// A cold walk reads every level: its latency grows by LV cycles per cycle of
// PTE latency; the next page of the same leaf table finds the upper levels in
// the PWCs and reads the leaf alone.
TEST(IommuBehind, ColdWalkReadsEveryLevelThenThePwcsCutItToOne) {
  std::map<unsigned, std::pair<uint64_t, uint64_t>> at;  // pte latency -> (cold, warm) latency
  for (unsigned pte : {30u, 80u}) {
    IommuEvalOptions o;
    o.pte_latency = pte;
    Bench b(o);
    b.request(10, vpn_of(1, 2, 3), 1);
    b.request(3000, vpn_of(1, 2, 4), 2);
    b.run(6000);
    ASSERT_EQ(b.answers().size(), 2u);
    EXPECT_EQ(b.behind().figures().walks, 2u);
    EXPECT_EQ(b.behind().figures().pte_reads, b.io().levels + 1);
    // the page table's translation travelled up intact
    EXPECT_EQ(static_cast<int64_t>(b.answers()[0].ppn), b.behind().page_table().mapped_ppn(0, vpn_of(1, 2, 3)));
    at[pte] = {latency(b, 1), latency(b, 2)};
  }
  EXPECT_EQ(at[80].first - at[30].first, uint64_t{elab::elaborate_iommu(small_config()).levels} * 50);
  EXPECT_EQ(at[80].second - at[30].second, 50u);
}

// Requests for one page while its walk is in flight share the walk: one walk,
// every requester answered by its tag with the same PPN.
TEST(IommuBehind, SamePageRequestsShareOneWalk) {
  Bench b;
  for (uint64_t tag = 0; tag < 4; ++tag) b.request(10 + 3 * tag, vpn_of(0, 9, 9), tag);
  b.run(3000);
  ASSERT_EQ(b.answers().size(), 4u);
  EXPECT_EQ(b.behind().figures().walks, 1u);
  EXPECT_EQ(b.behind().figures().pte_reads, b.io().levels);
  for (const Answer& a : b.answers()) EXPECT_EQ(a.ppn, b.answers()[0].ppn);
  EXPECT_EQ(b.behind().figures().l2_merges, 3u);
}

// One memory channel taking a read every `interval` cycles: two cold walks'
// 2 LV reads are at least that far apart, so the last answer comes no sooner
// than (2 LV - 1) intervals after the first request; with interval 1 it is
// far sooner.
TEST(IommuBehind, AChannelIntervalSerialisesReads) {
  const auto last_answer = [](unsigned interval) {
    IommuEvalOptions o;
    o.pte_channels = 1;
    o.pte_interval = interval;
    o.pte_latency = 20;
    Bench b(o);
    b.request(10, vpn_of(0, 0, 1), 1);
    b.request(11, vpn_of(3, 0, 1), 2);  // another root entry: no PWC sharing
    b.run(20000);
    EXPECT_EQ(b.answers().size(), 2u);
    EXPECT_EQ(b.behind().figures().pte_reads, 2 * b.io().levels);
    return b.answers().back().cycle - 10;
  };
  const uint64_t levels = elab::elaborate_iommu(small_config()).levels;
  EXPECT_GE(last_answer(500), (2 * levels - 1) * 500);
  EXPECT_LT(last_answer(1), (2 * levels - 1) * 500 / 4);
}

// The walks of one instruction give one first-to-last gap (the second walk's
// leaf answer after the first's); walks of different instructions none.
TEST(IommuBehind, AnInstructionsWalksGiveOneGap) {
  Bench one;
  one.request(10, vpn_of(0, 1, 1), 1, 42);
  one.request(11, vpn_of(2, 1, 1), 2, 42);
  one.run(4000);
  ASSERT_EQ(one.behind().figures().walk_gap.size(), 1u);
  const uint64_t gap = one.behind().figures().walk_gap[0];
  EXPECT_EQ(gap, one.answers()[1].cycle - one.answers()[0].cycle);
  Bench two;
  two.request(10, vpn_of(0, 1, 1), 1, 42);
  two.request(11, vpn_of(2, 1, 1), 2, 43);
  two.run(4000);
  EXPECT_EQ(two.answers().size(), 2u);
  EXPECT_TRUE(two.behind().figures().walk_gap.empty());
}

}  // namespace
}  // namespace txgen::verif
