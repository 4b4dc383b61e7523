#include "tx_path_txn.h"

#include <algorithm>
#include <deque>
#include <unordered_map>
#include <utility>
#include <optional>
#include <queue>

#include "eval_progress.h"
#include "model/bd_codec.h"

namespace txgen::verif {

namespace {

using Time = uint64_t;
constexpr Time kNever = UINT64_MAX;

struct Page {
  uint64_t vpn = 0;
  uint32_t vmid = 0;
};

uint64_t key_of(const Page& x) { return (x.vpn << 8) | x.vmid; }
uint64_t mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

// ---------------------------------------------------------------------------
// Ranked sets: an LDS segment or an I-cache Tx line (docs/blocks/lds_ctrl.md,
// "Candidate, ranks and the insertion rule"). The lru field is the rank.

using Entries = std::vector<model::BdTag>;

void normalise(Entries& e) {
  uint32_t r[64];
  for (size_t i = 0; i < e.size(); ++i) {
    r[i] = 0;
    for (size_t j = 0; j < e.size(); ++j)
      r[i] += e[j].valid && (e[j].lru < e[i].lru || (e[j].lru == e[i].lru && j < i));
  }
  for (size_t i = 0; i < e.size(); ++i)
    if (e[i].valid) e[i].lru = r[i];
}

int find(const Entries& e, uint64_t va, uint32_t vmid) {
  for (size_t i = 0; i < e.size(); ++i)
    if (e[i].valid && e[i].va == va && e[i].vmid == vmid) return static_cast<int>(i);
  return -1;
}

void touch(Entries& e, int m) {
  for (auto& x : e)
    if (x.valid && x.lru < e[m].lru) ++x.lru;
  e[m].lru = 0;
}

// The base-delta packing of a set (none for one translation per line): the
// entries that do not fit are left out, appended to `left` when given.
class Packer {
 public:
  explicit Packer(const elab::BdCodecParams* p) {
    if (p) codec_.emplace(*p);
  }
  void pack(Entries& e, std::vector<model::BdTag>* left) const {
    if (!codec_) return;
    const uint32_t dropped = codec_->compress(e).dropped;
    for (size_t i = 0; i < e.size(); ++i)
      if ((dropped >> i) & 1) {
        if (left) left->push_back(e[i]);
        e[i] = model::BdTag{};
      }
  }

 private:
  std::optional<model::BdCodecModel> codec_;
};

// Fill insertion (steps 1-4): the evicted entry, then what the packing left
// out, are appended to `victims`.
void insert(Entries& e, model::BdTag n, const Packer& packer, std::vector<model::BdTag>& victims) {
  normalise(e);
  int w = find(e, n.va, n.vmid);
  uint32_t k = 0;
  if (w >= 0) {
    k = e[w].lru;
  } else {
    const auto invalid = std::find_if(e.begin(), e.end(), [](const model::BdTag& x) { return !x.valid; });
    if (invalid != e.end()) {
      w = static_cast<int>(invalid - e.begin());
      k = static_cast<uint32_t>(std::count_if(e.begin(), e.end(), [](const model::BdTag& x) { return x.valid; }));
    } else {
      k = static_cast<uint32_t>(e.size() - 1);
      w = static_cast<int>(std::find_if(e.begin(), e.end(), [&](const model::BdTag& x) { return x.lru == k; }) -
                           e.begin());
      victims.push_back(e[w]);
    }
  }
  for (size_t i = 0; i < e.size(); ++i)
    if (static_cast<int>(i) != w && e[i].valid && e[i].lru < k) ++e[i].lru;
  n.valid = true;
  n.lru = 0;
  if (w != 0) e[w] = e[0];
  e[0] = n;
  packer.pack(e, &victims);
}

// Removal (a shootdown by VPN, any VRF-ID): whether any entry went.
bool remove_entries(Entries& e, uint64_t va, uint32_t vmid, const Packer& packer) {
  normalise(e);
  bool any = false;
  for (auto& x : e)
    if (x.valid && x.va == va && x.vmid == vmid) {
      x = model::BdTag{};
      any = true;
    }
  if (any) packer.pack(e, nullptr);
  return any;
}

enum class Answer { kNotTx, kMiss, kHit };

// What a fill did, which sets how long it holds its structure's engine: handed
// on unchanged, written into an empty segment or line, or inserted into a
// Tx-mode one (read, compare, write back).
enum class Fill { kBypass, kInitialise, kInsert };

// ---------------------------------------------------------------------------
// The LDS controller's translation storage (docs/blocks/lds_ctrl.md).

class Lds {
 public:
  explicit Lds(const elab::LdsCtrlParams& p) : p_(p), packer_(&p.codec), segs_(p.segments) {
    for (Seg& s : segs_) s.e.resize(p.ways);
  }
  Answer lookup(const Page& x) {
    Seg& s = seg(x.vpn);
    if (!s.tx) return Answer::kNotTx;
    normalise(s.e);
    const int m = find(s.e, tag(x.vpn), x.vmid);
    if (m < 0) return Answer::kMiss;
    touch(s.e, m);
    packer_.pack(s.e, nullptr);  // the write-back: what no longer fits is discarded
    return Answer::kHit;
  }
  // Appends the victims handed to the I-cache (the fill itself when its
  // segment is allocated).
  Fill fill(const Page& x, std::vector<Page>& out) {
    Seg& s = seg(x.vpn);
    if (s.allocated) {
      out.push_back(x);
      return Fill::kBypass;
    }
    const model::BdTag n{true, 0, x.vmid, 0, tag(x.vpn)};
    if (!s.tx) {
      s.tx = true;
      std::fill(s.e.begin(), s.e.end(), model::BdTag{});
      s.e[0] = n;
      return Fill::kInitialise;
    }
    left_.clear();
    insert(s.e, n, packer_, left_);
    for (const model::BdTag& v : left_) out.push_back({(v.va << p_.segment_index_bits) | index(x.vpn), v.vmid});
    return Fill::kInsert;
  }
  void remove(const Page& x) {
    Seg& s = seg(x.vpn);
    if (s.tx) remove_entries(s.e, tag(x.vpn), x.vmid, packer_);
  }
  // A kernel's work groups: the previous ones freed (mode bits unchanged),
  // then segments [0, size) allocated (their mode bits cleared).
  void reallocate(unsigned size) {
    for (unsigned i = 0; i < segs_.size(); ++i) {
      segs_[i].allocated = i < size;
      if (i < size) segs_[i].tx = false;
    }
  }

 private:
  struct Seg {
    bool tx = false, allocated = false;
    Entries e;
  };
  uint64_t index(uint64_t vpn) const { return vpn & mask(p_.segment_index_bits); }
  uint64_t tag(uint64_t vpn) const { return vpn >> p_.segment_index_bits; }
  Seg& seg(uint64_t vpn) { return segs_[index(vpn)]; }

  const elab::LdsCtrlParams& p_;
  Packer packer_;
  std::vector<Seg> segs_;
  std::vector<model::BdTag> left_;
};

// ---------------------------------------------------------------------------
// The I-cache: instruction lines, translation lines (Tx-mode) at their
// direct-mapped line, LRU recency per set (docs/blocks/icache_tx.md).

class Icache {
 public:
  Icache(const elab::IcacheTxParams& p, bool baseline)
      : p_(p), baseline_(baseline), packer_(p.codec ? &*p.codec : nullptr), lines_(p.lines), stamp_(p.lines) {
    for (unsigned l = 0; l < p.lines; ++l) {
      lines_[l].e.resize(p.tx_per_line);
      stamp_[l] = l / p.sets;  // reset recency: way 0 least recent
    }
    clock_ = p.ways;
  }
  // A hit's compare group in `group`.
  Answer lookup(const Page& x, unsigned& group) {
    const uint64_t l = line_of(x.vpn);
    Line& line = lines_[l];
    if (line.mode != Mode::kTx) return Answer::kNotTx;
    normalise(line.e);
    const int m = find(line.e, tag(x.vpn), x.vmid);
    if (m < 0) return Answer::kMiss;
    group = static_cast<unsigned>(m) / p_.comparators;
    touch(line.e, m);
    packer_.pack(line.e, nullptr);
    stamp_[l] = ++clock_;
    return Answer::kHit;
  }
  // The victims leave for the L2-TLB (the fill itself when its line holds
  // instructions).
  Fill fill(const Page& x, std::vector<Page>& out) {
    const uint64_t l = line_of(x.vpn);
    Line& line = lines_[l];
    const bool aware = p_.variant == config::IcacheVariant::Aware;
    if (line.mode == Mode::kIc && aware) {
      out.push_back(x);
      return Fill::kBypass;
    }
    const model::BdTag n{true, 0, x.vmid, 0, tag(x.vpn)};
    stamp_[l] = ++clock_;
    if (line.mode != Mode::kTx) {
      line.mode = Mode::kTx;
      std::fill(line.e.begin(), line.e.end(), model::BdTag{});
      line.e[0] = n;
      return Fill::kInitialise;
    }
    left_.clear();
    insert(line.e, n, packer_, left_);
    const uint64_t low = l & mask(p_.tx_index_bits);
    for (const model::BdTag& v : left_) out.push_back({(v.va << p_.tx_index_bits) | low, v.vmid});
    return Fill::kInsert;
  }
  void remove(const Page& x) {
    Line& line = lines_[line_of(x.vpn)];
    if (line.mode != Mode::kTx || !remove_entries(line.e, tag(x.vpn), x.vmid, packer_)) return;
    if (std::none_of(line.e.begin(), line.e.end(), [](const model::BdTag& e) { return e.valid; }))
      line.mode = Mode::kInvalid;
  }
  bool fetch(uint64_t addr) {
    const uint64_t set = (addr >> p_.offset_bits) & mask(p_.set_bits);
    const uint64_t itag = addr >> (p_.offset_bits + p_.set_bits);
    for (unsigned w = 0; w < p_.ways; ++w) {
      const uint64_t l = w * uint64_t{p_.sets} + set;
      if (lines_[l].mode == Mode::kIc && lines_[l].itag == itag) {
        stamp_[l] = ++clock_;
        return true;
      }
    }
    return false;
  }
  void instruction_fill(uint64_t addr) {
    const uint64_t set = (addr >> p_.offset_bits) & mask(p_.set_bits);
    const uint64_t l = fill_way(set) * uint64_t{p_.sets} + set;
    lines_[l].mode = Mode::kIc;
    lines_[l].itag = addr >> (p_.offset_bits + p_.set_bits);
    stamp_[l] = ++clock_;
  }
  void flush() {
    for (Line& line : lines_)
      if (line.mode == Mode::kIc || !p_.kernel_flush || baseline_) line.mode = Mode::kInvalid;
  }

 private:
  enum class Mode : uint8_t { kInvalid, kIc, kTx };
  struct Line {
    Mode mode = Mode::kInvalid;
    uint64_t itag = 0;
    Entries e;
  };
  uint64_t line_of(uint64_t vpn) const { return vpn & (uint64_t{p_.lines} - 1); }
  uint64_t tag(uint64_t vpn) const { return vpn >> p_.tx_index_bits; }
  // The least recent way of `set` in `mode`, or ways() when there is none.
  unsigned lru_way(uint64_t set, std::optional<Mode> mode) const {
    unsigned best = p_.ways;
    for (unsigned w = 0; w < p_.ways; ++w) {
      const uint64_t l = w * uint64_t{p_.sets} + set;
      if ((!mode || lines_[l].mode == *mode) && (best == p_.ways || stamp_[l] < stamp_[best * uint64_t{p_.sets} + set]))
        best = w;
    }
    return best;
  }
  // The instruction fill's victim way (icache_tx.md, "Instruction fill").
  unsigned fill_way(uint64_t set) const {
    std::vector<Mode> order{Mode::kInvalid};
    if (!baseline_ && p_.variant == config::IcacheVariant::Aware)
      order = p_.ifill_order == config::IfillOrder::InvalidFirst ? std::vector<Mode>{Mode::kInvalid, Mode::kTx}
                                                                  : std::vector<Mode>{Mode::kTx, Mode::kInvalid};
    for (Mode m : order)
      if (const unsigned w = lru_way(set, m); w < p_.ways) return w;
    return lru_way(set, std::nullopt);
  }

  const elab::IcacheTxParams& p_;
  bool baseline_;
  Packer packer_;
  std::vector<Line> lines_;
  std::vector<uint64_t> stamp_;  // recency: larger is more recent
  uint64_t clock_ = 0;
  std::vector<model::BdTag> left_;
};

// ---------------------------------------------------------------------------
// A private fully-associative L1-TLB (docs/blocks/l1tlb.md, "State" and
// replacement): exact LRU (invalid ways least recent, in reset order) or the
// tree pseudo-LRU.

class L1Tlb {
 public:
  L1Tlb(unsigned ways, bool plru) : e_(ways), tree_(ways, 0), plru_(plru), clock_(ways) {
    for (unsigned w = 0; w < ways; ++w) e_[w].stamp = w;
  }
  bool lookup(const Page& x) {
    const int w = find(x);
    if (w >= 0) touch(static_cast<unsigned>(w));
    return w >= 0;
  }
  // Installs x; the evicted valid entry in `victim`.
  bool fill(const Page& x, Page& victim) {
    if (const int w = find(x); w >= 0) {
      touch(static_cast<unsigned>(w));
      return false;
    }
    const unsigned v = victim_way();
    const bool evicts = e_[v].valid;
    victim = e_[v].page;
    e_[v].valid = true;
    e_[v].page = x;
    touch(v);
    return evicts;
  }

 private:
  struct Entry {
    bool valid = false;
    Page page;
    uint64_t stamp = 0;
  };
  int find(const Page& x) const {
    for (size_t w = 0; w < e_.size(); ++w)
      if (e_[w].valid && e_[w].page.vpn == x.vpn && e_[w].page.vmid == x.vmid) return static_cast<int>(w);
    return -1;
  }
  void touch(unsigned v) {
    e_[v].stamp = ++clock_;
    const size_t ways = e_.size();
    for (size_t n = ways + v; n > 1; n /= 2) tree_[n / 2] = (n % 2 == 0);  // point away from v
  }
  unsigned victim_way() const {
    const size_t ways = e_.size();
    if (plru_) {
      size_t n = 1;
      while (n < ways) n = 2 * n + tree_[n];
      return static_cast<unsigned>(n - ways);
    }
    return static_cast<unsigned>(std::min_element(e_.begin(), e_.end(), [](const Entry& a, const Entry& b) {
                                   return a.stamp < b.stamp;
                                 }) - e_.begin());
  }

  std::vector<Entry> e_;
  std::vector<uint8_t> tree_;  // nodes 1 .. ways-1: 1 points at the upper half
  bool plru_;
  uint64_t clock_;
};

// ---------------------------------------------------------------------------
// The replay: discrete events in time order; each structure's engine serves
// one operation at a time (a `free` time), with the durations of the blocks'
// documents when nothing else contends.

class Engine {
 public:
  Engine(const elab::TxPathParams& p, const trace::Trace& t, const EvalOptions& o, bool baseline);
  EvalStats run();

 private:
  enum class Kind : uint8_t {
    kKernel, kPresent, kGlue, kLdsLook, kIcLook, kIcFill, kRet, kL2Req, kL2Port, kL1Fill, kDone, kFetch, kIfill
  };
  struct Event {
    Time t;
    uint64_t seq;
    Kind kind;
    unsigned who;
    uint64_t arg;  // a fetch's kernel epoch, a translation's hit flag
    Page page;     // the translation it carries
    bool operator>(const Event& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  struct Cu {
    explicit Cu(const TrafficOptions& o) : traffic(o) {}
    CuTraffic traffic;                                    // its wavefronts or request stream
    bool refused = false;
    Time present_at = kNever;                             // the pending present event
    Time accepted[2] = {kNever, kNever};                  // the last two accepts (the L1's pipeline)
    bool accepted_miss[2] = {false, false};
    unsigned mshrs = 0;                                   // MSHRs held
    std::deque<std::pair<Page, Time>> misses;             // waiting for the glue, from the given cycle
    unsigned busy = 0;                                    // lookup slots held (pipelined wires: LDS parts)
    std::deque<Page> ic_queue;                            // lookups on their way to the I-cache
    Time ic_stage_free = 0;                               // pipelined: the CU's next I-cache lookup
    Time lds_look_free = 0;                               // the LDS takes no lookup in its answer cycle
    std::deque<std::pair<Page, bool>> rets;               // hits below the L1 to promote (from the LDS?)
    Time ret_next = 0;                                    // one promotion per cycle
    Time lds_free = 0, rml_free = 0, rmi_free = 0;
    unsigned lb = 0;                                      // LDS victims not yet taken by the I-cache
    bool ic_pending = false, ic_waiting = false;          // its I-cache lookup: behind its lb / the engine
    std::vector<Time> credit;                             // when each fill's credit returns
  };
  struct Fetch {
    uint64_t pc = 0;
    Time next_at = 0;
    bool paused = false;
  };
  struct L2Answer {
    Time due;
    uint64_t seq;
    unsigned cu;
    Page page;
    bool walks;
    bool operator>(const L2Answer& o) const { return due != o.due ? due > o.due : seq > o.seq; }
  };

  void at(Time t, Kind k, unsigned who, uint64_t arg = 0, const Page& page = {}) {
    q_.push({t, seq_++, k, who, arg, page});
  }
  void dispatch(const Event& e);
  void start_kernel(Time t);
  void schedule_present(unsigned u, Time t);
  void present(unsigned u, Time t);
  bool l1_credit(const Cu& c, Time t) const;
  void glue(unsigned u, Time t);
  void lds_lookup(unsigned u, const Page& x, Time t);
  void ic_lookup(unsigned u, Time t);
  unsigned lookup_grant(unsigned g, unsigned u) const;
  void ic_fill(unsigned g, Time t);
  void schedule_ic_fill(unsigned g, Time t);
  void ret(unsigned u, Time t);
  size_t owed_credit(const Cu& c, Time t) const;
  Time credit_free(const Cu& c, Time t) const;
  void l2_request(unsigned u, const Page& x, Time t);
  void l2_port(Time t);
  void schedule_port(Time t);
  void l1_fill(unsigned u, const Page& x, Time t);
  void victim_chain(unsigned u, const Page& x, Time t);
  void done(unsigned u, uint64_t vpn, Time t, bool hit);
  void fetch(unsigned g, Time t, uint64_t epoch);
  void instruction_fill(unsigned g, Time t, uint64_t epoch);
  bool fetch_allowed(unsigned g, Time t) const;
  void resume_fetch(unsigned u, Time t);
  uint64_t code_addr(unsigned g) const;
  bool kernel_finished() const;
  // Several misses below the L1 at once: lookup slots or the what-if.
  bool pipelined() const { return o_.pipelined_wires || p_.slots > 1; }
  void free_slot(unsigned u, Time t);

  const elab::TxPathParams& p_;
  const trace::Trace& trace_;
  EvalOptions o_;
  bool baseline_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> q_;
  uint64_t seq_ = 0;
  std::vector<Cu> cu_;
  std::vector<L1Tlb> l1_;
  std::vector<Lds> lds_;
  std::vector<Icache> ic_;
  std::vector<Time> ic_free_;
  struct PendingFill {
    Page page;
    unsigned cu;
    Time ready;
  };
  std::vector<std::deque<PendingFill>> ic_fills_;  // LDS victims on their way to each I-cache
  std::vector<unsigned> ic_waiting_;                // lookups waiting for each I-cache's engine
  std::vector<unsigned> ic_rr_;                     // each I-cache's lookup round-robin pointer
  std::vector<Time> ic_fill_event_;                 // the pending fill event of each I-cache
  std::vector<Fetch> fetch_;
  L2TlbModel l2_;
  std::unordered_map<uint64_t, Time> walking_;  // page -> when its walk answers
  std::priority_queue<L2Answer, std::vector<L2Answer>, std::greater<>> answers_;
  Time l2_req_next_ = 0, l2_port_next_ = 0, port_event_ = kNever;
  std::vector<Page> victims_, lds_victims_;
  size_t kernel_ = 0;
  uint64_t epoch_ = 0;
  EvalStats s_;
};

Engine::Engine(const elab::TxPathParams& p, const trace::Trace& t, const EvalOptions& o, bool baseline)
    : p_(p), trace_(t), o_(o), baseline_(baseline), cu_(p.cus, Cu(o.traffic)), fetch_(p.icaches),
      l2_(o.l2_entries, o.l2_ways) {
  for (unsigned u = 0; u < p.cus; ++u) {
    l1_.emplace_back(p.l1.ways, p.l1.plru());
    if (!baseline) lds_.emplace_back(p.lds);
    // the LDS clears every mode bit after reset (cycle 2) before it takes anything
    cu_[u].lds_free = 2 + p.lds.clear_groups;
  }
  for (unsigned g = 0; g < p.icaches; ++g) ic_.emplace_back(p.ic, baseline);
  ic_free_.assign(p.icaches, 0);
  ic_fills_.resize(p.icaches);
  ic_waiting_.assign(p.icaches, 0);
  ic_rr_.assign(p.icaches, 0);
  ic_fill_event_.assign(p.icaches, kNever);
}

EvalStats Engine::run() {
  if (!trace_.kernels.empty()) at(2, Kind::kKernel, 0);  // after two reset cycles
  Time last = 0;
  uint64_t events = 0, reported = 0;  // requests already added to the progress line
  while (!q_.empty() && kernel_ < trace_.kernels.size()) {
    const Event e = q_.top();
    q_.pop();
    if (e.t >= o_.max_cycles) break;
    last = e.t;
    dispatch(e);
    if (o_.progress && (++events & 0xfff) == 0) {
      o_.progress->add(s_.requests - reported);
      reported = s_.requests;
    }
  }
  if (o_.progress) o_.progress->add(s_.requests - reported);
  EvalStats s = s_;
  s.finished = kernel_ >= trace_.kernels.size();
  if (!s.finished) s.cycles = last + 1;
  summarise_cus(cu_, s);
  return s;
}

void Engine::dispatch(const Event& e) {
  switch (e.kind) {
    case Kind::kKernel: return start_kernel(e.t);
    case Kind::kPresent: return present(e.who, e.t);
    case Kind::kGlue: return glue(e.who, e.t);
    case Kind::kLdsLook: return lds_lookup(e.who, e.page, e.t);
    case Kind::kIcLook: return ic_lookup(e.who, e.t);
    case Kind::kIcFill: return ic_fill(e.who, e.t);
    case Kind::kRet: return ret(e.who, e.t);
    case Kind::kL2Req: return l2_request(e.who, e.page, e.t);
    case Kind::kL2Port: return e.t == port_event_ ? l2_port(e.t) : void();
    case Kind::kL1Fill: return l1_fill(e.who, e.page, e.t);
    case Kind::kDone: return done(e.who, e.page.vpn, e.t, e.arg);
    case Kind::kFetch: return fetch(e.who, e.t, e.arg);
    case Kind::kIfill: return instruction_fill(e.who, e.t, e.arg);
  }
}

// A kernel starts: the I-caches' kernel flush (not before the first kernel),
// the work groups' LDS segments (the previous kernel's freed, this one's
// allocated and cleared), then the CUs and the fetch units.
void Engine::start_kernel(Time t) {
  const trace::Kernel& k = trace_.kernels[kernel_];
  ++epoch_;
  for (unsigned g = 0; g < p_.icaches; ++g) {
    const bool flush = flushes_at(trace_.kernels, kernel_, o_.flush_every_kernel);
    if (flush) {
      ic_[g].flush();
      ic_free_[g] = std::max(t, ic_free_[g]) + 1;
    }
    fetch_[g] = Fetch{0, t + (flush ? 1 : 0), false};
    at(fetch_[g].next_at, Kind::kFetch, g, epoch_);
  }
  for (unsigned u = 0; u < p_.cus; ++u) {
    Cu& c = cu_[u];
    c.traffic.start(k, u, t);
    if (!baseline_) {
      // a free (2 cycles) when segments are held, an allocation (its clear) when the kernel holds some
      const unsigned held = kernel_ > 0 ? trace_.kernels[kernel_ - 1].lds_segments : 0;
      const Time clear = k.lds_segments ? 2 + (k.lds_segments + p_.lds.clear_bits - 1) / p_.lds.clear_bits : 0;
      if (held || k.lds_segments) c.lds_free = std::max(t, c.lds_free) + (held ? 2 : 0) + clear;
      lds_[u].reallocate(k.lds_segments);
    }
    schedule_present(u, t);
  }
  if (kernel_finished()) {  // a kernel without requests
    ++kernel_;
    if (kernel_ < trace_.kernels.size()) at(t + 1, Kind::kKernel, 0);
    else s_.cycles = t + 1;
  }
}

// The next present event: now for a refused request, else when the CU next
// has a request to offer (an earlier time supersedes a later event).
void Engine::schedule_present(unsigned u, Time t) {
  Cu& c = cu_[u];
  const Time when = c.refused ? t : c.traffic.next_offer(t);
  if (when >= c.present_at) return;
  c.present_at = when;
  at(when, Kind::kPresent, u);
}

// The L1-TLB's credit: more free MSHRs than requests in its two lookup stages.
bool Engine::l1_credit(const Cu& c, Time t) const {
  unsigned recent = 0, recent_misses = 0;
  for (int i = 0; i < 2; ++i)
    if (c.accepted[i] != kNever && t > c.accepted[i] && t - c.accepted[i] <= 2) {
      ++recent;
      recent_misses += c.accepted_miss[i];
    }
  return p_.l1.mshrs - (c.mshrs - recent_misses) > recent;
}

// A CU presents its next request (or again one the L1-TLB refused).
void Engine::present(unsigned u, Time t) {
  Cu& c = cu_[u];
  if (t != c.present_at) return;  // superseded
  c.present_at = kNever;
  const trace::Request* r = c.traffic.offer(t);
  if (!r) return schedule_present(u, t);
  if (!c.refused) resume_fetch(u, t);
  if (!l1_credit(c, t)) {
    // retried when an MSHR frees, or next cycle when the lookup stages hold requests
    c.refused = true;
    if (c.mshrs < p_.l1.mshrs) schedule_present(u, t + 1);
    return;
  }
  c.refused = false;
  const Page x{r->vpn, r->vmid};
  c.traffic.accepted(t);
  ++s_.requests;
  const bool hit = l1_[u].lookup(x);
  c.accepted[1] = c.accepted[0];
  c.accepted_miss[1] = c.accepted_miss[0];
  c.accepted[0] = t;
  c.accepted_miss[0] = !hit;
  if (hit) {
    at(t + 3, Kind::kDone, u, 1, x);
  } else {
    ++c.mshrs;
    if (baseline_) {
      at(t + 4, Kind::kL2Req, u, 0, x);
    } else {
      c.misses.emplace_back(x, t + 4);
      at(t + 4, Kind::kGlue, u);
    }
  }
  schedule_present(u, t + 1);
}

// The glue takes the CU's next miss (one per cycle) when one of its lookup
// slots is idle (the what-if: when no lookup waits for the LDS); the LDS
// takes the lookup once the CU's victim queue has drained (fills first).
void Engine::glue(unsigned u, Time t) {
  Cu& c = cu_[u];
  const unsigned slots = o_.pipelined_wires ? 1 : p_.slots;
  if (c.busy >= slots || c.misses.empty()) return;
  if (c.misses.front().second > t) return at(c.misses.front().second, Kind::kGlue, u);
  ++c.busy;
  at(std::max({t + 1, c.lds_free, c.lds_look_free}), Kind::kLdsLook, u, 0, c.misses.front().first);
  c.misses.pop_front();
  if (c.busy < slots && !c.misses.empty()) at(t + 1, Kind::kGlue, u);
}

// A miss leaves the lookup stage (promoted, or into the L2 register).
void Engine::free_slot(unsigned u, Time t) {
  --cu_[u].busy;
  at(t, Kind::kGlue, u);
}

void Engine::lds_lookup(unsigned u, const Page& x, Time t) {
  Cu& c = cu_[u];
  // a fill, a work group or another slot's lookup came first
  if (const Time f = std::max(c.lds_free, c.lds_look_free); f > t) return at(f, Kind::kLdsLook, u, 0, x);
  const Answer a = lds_[u].lookup(x);
  const Time answer = t + (a == Answer::kNotTx ? 2 : 4);
  c.lds_free = answer + (a == Answer::kHit ? 1 : 0);  // a hit writes its ranks back
  c.lds_look_free = answer + 1;
  const Time next = answer + 1 + p_.wire_lds;
  if (o_.pipelined_wires) free_slot(u, answer + 1);  // the what-if: the next miss during this one's wire
  if (a == Answer::kHit) {
    c.rets.emplace_back(x, true);
    return at(next, Kind::kRet, u);
  }
  c.ic_queue.push_back(x);
  at(std::max(next, ic_free_[u / p_.sharers]), Kind::kIcLook, u);
}

void Engine::ic_lookup(unsigned u, Time t) {
  Cu& c = cu_[u];
  const unsigned g = u / p_.sharers;
  if (c.ic_queue.empty()) return;
  if (c.ic_stage_free > t) return at(c.ic_stage_free, Kind::kIcLook, u);
  // the CU's own LDS victims go first (fills before lookups); other CUs' fills wait for the lookup
  const bool blocked = c.lb || ic_free_[g] > t;
  ic_waiting_[g] += (blocked && !c.lb) - c.ic_waiting;
  c.ic_waiting = blocked && !c.lb;
  if (c.lb) {
    c.ic_pending = true;
    return;
  }
  if (blocked) return at(ic_free_[g], Kind::kIcLook, u);
  if (const unsigned w = lookup_grant(g, u); w != u) {  // another sharer's turn in this cycle
    ic_waiting_[g] += !c.ic_waiting;
    c.ic_waiting = true;
    return at(t + 1, Kind::kIcLook, u);
  }
  ic_rr_[g] = (u % p_.sharers + 1) % p_.sharers;
  const Page x = c.ic_queue.front();
  c.ic_queue.pop_front();
  unsigned group = 0;
  const Answer a = ic_[g].lookup(x, group);
  const Time answer = a == Answer::kNotTx ? t + 2 : a == Answer::kHit ? t + 5 + group : t + 4 + p_.ic.groups;
  ic_free_[g] = answer + (a == Answer::kHit && p_.ic.packed() ? 2 : 0);
  const Time next = answer + 1 + p_.wire_icache;
  if (pipelined()) {
    c.ic_stage_free = answer + 1;
    if (!c.ic_queue.empty()) at(answer + 1, Kind::kIcLook, u);
  }
  if (a == Answer::kHit) {
    c.rets.emplace_back(x, false);
    return at(next, Kind::kRet, u);
  }
  // L2: the L2 register loads at the edge, its request is valid from the next cycle
  at(next + 1, Kind::kL2Req, u, 0, x);
  if (!o_.pipelined_wires) free_slot(u, next + 1);
}

// The I-cache's lookup grant among u and the sharers whose lookups wait for
// its engine in this cycle: the first from the round-robin pointer.
unsigned Engine::lookup_grant(unsigned g, unsigned u) const {
  const unsigned S = p_.sharers;
  for (unsigned k = 0; k < S; ++k) {
    const unsigned v = g * S + (ic_rr_[g] + k) % S;
    if (v == u || cu_[v].ic_waiting) return v;
  }
  return u;
}

// The CU's fills not yet answered and victims not yet taken by the LDS (the
// glue's out + occ).
size_t Engine::owed_credit(const Cu& c, Time t) const {
  return static_cast<size_t>(std::count_if(c.credit.begin(), c.credit.end(), [&](Time f) { return f > t; }));
}

// When the CU's credit returns (a fill answered, a victim taken by the LDS).
Time Engine::credit_free(const Cu& c, Time t) const {
  Time first = kNever;
  for (Time f : c.credit)
    if (f > t) first = std::min(first, f);
  return first;
}

// A hit below the L1 is promoted (RET) once the CU has credit and, with
// promotion move, its remove register for that structure is free; the
// remove is the structure's next operation.
void Engine::ret(unsigned u, Time t) {
  Cu& c = cu_[u];
  if (c.rets.empty()) return;
  const auto [x, from_lds] = c.rets.front();
  const Time rm_free = std::max(c.ret_next, !p_.move ? 0 : from_lds ? c.rml_free : c.rmi_free);
  const size_t owed = owed_credit(c, t);
  if (owed >= p_.victim_queue || rm_free > t) return at(std::max(rm_free, owed ? credit_free(c, t) : t), Kind::kRet, u);
  c.rets.pop_front();
  c.ret_next = t + 1;
  ++(from_lds ? s_.lds_hits : s_.icache_hits);
  if (p_.move) {
    if (from_lds) {
      const Time a = std::max(t + 1, c.lds_free);
      lds_[u].remove(x);
      c.lds_free = a + 5;
      c.rml_free = a + 1;
    } else {
      const unsigned g = u / p_.sharers;
      const Time a = std::max(t + 1, ic_free_[g]);
      ic_[g].remove(x);
      ic_free_[g] = a + 6 + p_.ic.groups;
      c.rmi_free = a + 1;
    }
  }
  c.credit.push_back(t + 5);
  at(t + 2, Kind::kL1Fill, u, 0, x);
  at(t + 4, Kind::kDone, u, 0, x);
  if (!c.rets.empty()) at(t + 1, Kind::kRet, u);
  if (!o_.pipelined_wires) free_slot(u, t + 1);
}

// The request port: one request per cycle; the behavioural L2-TLB decides
// when its answer is due (docs/verification.md, "Replay").
void Engine::l2_request(unsigned u, const Page& x, Time t) {
  if (l2_req_next_ > t) return at(l2_req_next_, Kind::kL2Req, u, 0, x);
  l2_req_next_ = t + 1;
  ++s_.l2_requests;
  const uint64_t key = key_of(x);
  Time due = t + o_.l2_latency;
  bool walks = false;
  if (l2_.lookup(x.vpn, x.vmid, t)) {
    ++s_.l2_hits;
  } else if (const auto w = walking_.find(key); w != walking_.end()) {
    due = std::max(due, w->second);  // joins the walk in flight
  } else {
    ++s_.walks;
    due += o_.walk_latency;
    walking_[key] = due;
    walks = true;
  }
  answers_.push({due, seq_++, u, x, walks});
  schedule_port(due);
}

void Engine::schedule_port(Time t) {
  if (t >= port_event_) return;
  port_event_ = t;
  at(t, Kind::kL2Port, 0);
}

// The answer port: the earliest answer due first, one per cycle, held until
// the path takes it (its CU's credit; the baseline always takes it).
void Engine::l2_port(Time t) {
  port_event_ = kNever;
  if (answers_.empty()) return;
  if (l2_port_next_ > t) return schedule_port(l2_port_next_);
  const L2Answer a = answers_.top();
  if (a.due > t) return schedule_port(a.due);
  Cu& c = cu_[a.cu];
  if (!baseline_) {
    if (owed_credit(c, t) >= p_.victim_queue) return schedule_port(credit_free(c, t));
    c.credit.push_back(t + 5);
  }
  answers_.pop();
  l2_port_next_ = t + 1;
  if (a.walks) {
    l2_.insert(a.page.vpn, a.page.vmid, t);
    walking_.erase(key_of(a.page));
  }
  at(t + 2, Kind::kL1Fill, a.cu, 0, a.page);
  at(t + 4, Kind::kDone, a.cu, 0, a.page);
  if (!answers_.empty()) schedule_port(std::max(t + 1, answers_.top().due));
}

// A fill writes the L1-TLB (f + 2); on the path its victim goes down the
// chain.
void Engine::l1_fill(unsigned u, const Page& x, Time t) {
  Page victim;
  const bool evicts = l1_[u].fill(x, victim);
  if (!baseline_ && evicts) victim_chain(u, victim, t + 2);
}

// The victim queue -> LDS fill -> LDS victims -> I-cache fills -> I-cache
// victims -> the L2-TLB's victim port, each structure taking it when its
// engine is free (the queue holds it until then, against the CU's credit).
void Engine::victim_chain(unsigned u, const Page& x, Time t) {
  Cu& c = cu_[u];
  const Time a = std::max(t, c.lds_free);
  c.credit.erase(std::remove_if(c.credit.begin(), c.credit.end(), [&](Time f) { return f <= t; }), c.credit.end());
  c.credit.push_back(a + 1);  // the queue entry, until the LDS takes it
  lds_victims_.clear();
  const bool insert = lds_[u].fill(x, lds_victims_) == Fill::kInsert;
  c.lds_free = a + (insert ? 5 : 2) + lds_victims_.size();
  const unsigned g = u / p_.sharers;
  Time ready = a + (insert ? 6 : 3);  // the first victim reaches the I-cache's fill port (through lb)
  for (const Page& v : lds_victims_) {
    ic_fills_[g].push_back({v, u, ready++});
    ++c.lb;
  }
  if (!lds_victims_.empty()) schedule_ic_fill(g, ic_fills_[g].front().ready);
}

// The I-cache takes an LDS victim (through its CU's lb) when its engine is
// free and no lookup waits (lookups go before fills).
void Engine::schedule_ic_fill(unsigned g, Time t) {
  if (t >= ic_fill_event_[g]) return;
  ic_fill_event_[g] = t;
  at(t, Kind::kIcFill, g);
}

void Engine::ic_fill(unsigned g, Time t) {
  if (t != ic_fill_event_[g]) return;  // superseded by an earlier one
  ic_fill_event_[g] = kNever;
  if (ic_fills_[g].empty()) return;
  const PendingFill f = ic_fills_[g].front();
  if (f.ready > t) return schedule_ic_fill(g, f.ready);
  if (ic_free_[g] > t) return schedule_ic_fill(g, ic_free_[g]);
  if (ic_waiting_[g]) return schedule_ic_fill(g, t + 1);
  ic_fills_[g].pop_front();
  victims_.clear();
  const bool insert = ic_[g].fill(f.page, victims_) == Fill::kInsert;
  ic_free_[g] = t + (insert ? 6 + p_.ic.groups : 2) + victims_.size();
  for (const Page& w : victims_) {
    ++s_.l2_victims;
    l2_.insert(w.vpn, w.vmid, t);
  }
  Cu& c = cu_[f.cu];
  if (--c.lb == 0 && c.ic_pending) {
    c.ic_pending = false;
    at(t + 1, Kind::kIcLook, f.cu);
  }
  if (!ic_fills_[g].empty()) schedule_ic_fill(g, std::max(t + 1, ic_fills_[g].front().ready));
}

// A translation answered (a hit 3 cycles after its accept, a fill 4 after the
// L1's input): every request of that page completes.
void Engine::done(unsigned u, uint64_t vpn, Time t, bool hit) {
  Cu& c = cu_[u];
  ++(hit ? s_.l1_hits : s_.l1_misses);
  if (!hit) {
    --c.mshrs;  // freed at the edge before the fill's answer
    if (c.refused) schedule_present(u, t);
  }
  c.traffic.answered(vpn, t);
  c.credit.erase(std::remove_if(c.credit.begin(), c.credit.end(), [&](Time f) { return f <= t; }), c.credit.end());
  schedule_present(u, t + 1);
  resume_fetch(u, t + 1);
  if (!kernel_finished()) return;
  ++kernel_;
  if (kernel_ < trace_.kernels.size()) at(t + 1, Kind::kKernel, 0);
  else s_.cycles = t + 1;
}

bool Engine::kernel_finished() const {
  return std::all_of(cu_.begin(), cu_.end(), [](const Cu& c) { return !c.refused && c.traffic.finished(); });
}

// ---------------------------------------------------------------------------
// Instruction fetch (docs/verification.md, "Replay": one line every
// fetch_interval cycles while one of the I-cache's CUs issues).

uint64_t Engine::code_addr(unsigned g) const {
  const auto& ic = p_.ic;
  const trace::Kernel& k = trace_.kernels[kernel_];
  const uint64_t lines = std::max<uint64_t>(1, k.code_bytes / ic.line_bytes);
  const uint64_t base = (uint64_t{1} << (ic.va_bits - 2)) + (uint64_t{k.id} << 20);
  return (base + (fetch_[g].pc % lines) * ic.line_bytes) & mask(ic.va_bits);
}

// A CU issues in cycle t when it can present a request or presents one for
// the first time in t.
bool Engine::fetch_allowed(unsigned g, Time t) const {
  if (o_.fetch_when_stalled) return true;
  for (unsigned u = g * p_.sharers; u < (g + 1) * p_.sharers; ++u)
    if (cu_[u].traffic.issuing(t)) return true;
  return false;
}

void Engine::resume_fetch(unsigned u, Time t) {
  const unsigned g = u / p_.sharers;
  Fetch& f = fetch_[g];
  if (!f.paused || kernel_ >= trace_.kernels.size() || !fetch_allowed(g, t)) return;
  f.paused = false;
  at(std::max(t, f.next_at), Kind::kFetch, g, epoch_);
}

void Engine::fetch(unsigned g, Time t, uint64_t epoch) {
  if (epoch != epoch_ || kernel_ >= trace_.kernels.size()) return;
  Fetch& f = fetch_[g];
  if (!fetch_allowed(g, t)) {
    f.paused = true;
    return;
  }
  ++s_.ifetches;
  if (ic_[g].fetch(code_addr(g))) {  // answered in t + 2
    ++f.pc;
    f.next_at = t + 2 + o_.fetch_interval;
    return at(f.next_at, Kind::kFetch, g, epoch);
  }
  ++s_.ifetch_misses;
  // the line arrives ifill_latency after the answer; the fill takes 3 cycles (F0-F2)
  at(t + 2 + o_.ifill_latency + 2, Kind::kIfill, g, epoch);
}

void Engine::instruction_fill(unsigned g, Time t, uint64_t epoch) {
  if (epoch != epoch_ || kernel_ >= trace_.kernels.size()) return;
  ic_[g].instruction_fill(code_addr(g));
  fetch_[g].next_at = t + 1;  // fetch the filled line again
  at(t + 1, Kind::kFetch, g, epoch);
}

}  // namespace

EvalStats replay_transactions(const elab::TxPathParams& p, const trace::Trace& t, const EvalOptions& o,
                              bool baseline) {
  return Engine(p, t, o, baseline).run();
}

}  // namespace txgen::verif
