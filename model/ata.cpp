// Golden cycle model of ata_NAME (docs/blocks/ata.md). See ata.h.
//
// Contract readings (places where docs/blocks/ata.md leaves a choice; the
// most literal reading is taken, and the tests pin it):
//  1. l2_req_write_o[i] and l2_req_addr_o[i] are core i's request registers
//     in every state (the contract states it in its port section).
//  2. l2_req_addr_o = addr is the whole A-bit request address as accepted,
//     bits below the sector included (not aligned to the sector or the line).
//     Address inputs wider than A bits are truncated to A bits at the accept.
//  3. A sector fill (FILL with lm) sets only sv bit x of the present line:
//     its tag, valid and dirty bit are kept (a dirty line stays dirty).
//  4. A write whose line is present without the sector (lm = 1, hv[i] = 0) is
//     a write miss: L2 only, the local line is not changed (no sector
//     allocate, no dirty bit, no touch).
//  5. hv[i] of the local array ignores the dirty bit (j = i), so a dirty local
//     line is a local hit for reads and writes of its valid sectors.
//  6. lway = 0 when lm = 0; way[j] = 0 for arrays without hv (as stated for
//     hv = 0); the compare registers (hv, way, lm, lway) are loaded at every
//     CMP edge; rj is loaded only at a DIST edge that goes to RREAD, fs only at
//     the RREAD grant edge (remote) and the L2WAIT response edge (L2); all hold
//     otherwise.
//  7. rp[i] changes only at a DIST edge that picks a remote holder with
//     P = round_robin (in `nearest` it stays 0 and is unused). It is not
//     updated when the DIST goes to LREAD or L2REQ.
//  8. A core in RREAD whose recheck fails is not a requester of port rj in
//     that cycle (it does not take part in the arbitration nor move pr[rj]).
//  9. Cycles with rst_n = 0: the outputs show the reset values in that cycle
//     (asynchronous reset), and nothing of the cycle's inputs is taken.
// 10. l2_resp_valid_i[i] outside L2WAIT breaks the environment rules; the
//     model throws std::logic_error instead of guessing what the RTL does.
// 11. Stats count since construction or the last reset edge (as l1tlb).
#include "model/ata.h"

#include "model/util.h"

#include <stdexcept>
#include <string>

namespace txgen::model {
namespace {

uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1); }

bool pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace

const char* name_of(AtaState s) {
  switch (s) {
    case AtaState::Idle: return "IDLE";
    case AtaState::Cmp: return "CMP";
    case AtaState::Dist: return "DIST";
    case AtaState::LRead: return "LREAD";
    case AtaState::RRead: return "RREAD";
    case AtaState::LWrite: return "LWRITE";
    case AtaState::Fill: return "FILL";
    case AtaState::L2Req: return "L2REQ";
    case AtaState::L2Wait: return "L2WAIT";
  }
  return "?";
}

AtaModel::AtaModel(const elab::AtaParams& p) : p_(p) {
  validate();
  N_ = p_.cores;
  W_ = p_.ways;
  S_ = p_.sets;
  SC_ = p_.sectors;
  addr_mask_ = mask_of(p_.addr_bits);
  tag_mask_ = mask_of(p_.tag_bits);
  reset_ = make_reset();
  s_ = reset_;
  cmp_.assign(N_, Cmp{});
  cmp_way_.assign(size_t{N_} * N_, 0);
  ok_.assign(N_, 0);
  okd_.assign(N_, 0);
  win_.assign(N_, -1);
}

void AtaModel::validate() const {
  auto bad = [](const std::string& what) { throw std::invalid_argument("AtaModel: " + what); };
  if (p_.cores < 1 || p_.cores > 16) bad("cores must be in [1, 16]");
  if (!pow2(p_.ways) || p_.ways < 2 || p_.ways > 64) bad("ways must be a power of two in [2, 64]");
  if (!pow2(p_.line_bytes) || p_.line_bytes < 16 || p_.line_bytes > 256) bad("line_bytes");
  if (!pow2(p_.sector_bytes) || p_.sector_bytes > p_.line_bytes) bad("sector_bytes");
  if (p_.sectors != p_.line_bytes / p_.sector_bytes || p_.sectors > 16) bad("sectors != LB / SBY (<= 16)");
  if (!pow2(p_.sets) || uint64_t{p_.sets} * p_.ways * p_.line_bytes != p_.l1_bytes) bad("sets != l1_bytes / (LB x W)");
  if (p_.addr_bits < 16 || p_.addr_bits > 64) bad("addr_bits must be in [16, 64]");
  if (p_.offset_bits != ceil_log2(p_.line_bytes)) bad("offset_bits != log2 LB");
  if (p_.sector_bits != ceil_log2(p_.sectors)) bad("sector_bits != log2 SC");
  if (p_.set_bits != ceil_log2(p_.sets)) bad("set_bits != log2 S");
  if (p_.addr_bits < p_.offset_bits + p_.set_bits + 1) bad("no tag bit");
  if (p_.tag_bits != p_.addr_bits - p_.offset_bits - p_.set_bits) bad("tag_bits != A - OB - SB");
  const unsigned ci = ceil_log2(p_.cores) < 1 ? 1 : ceil_log2(p_.cores);
  if (p_.core_bits != ci) bad("core_bits != max(1, clog2 N)");
  if (p_.way_bits != ceil_log2(p_.ways)) bad("way_bits != log2 W");
}

AtaModel::State AtaModel::make_reset() const {
  State s;
  s.arr.resize(N_);
  for (Array& a : s.arr) {
    a.e.assign(size_t{S_} * W_, Entry{});
    a.age.assign(size_t{S_} * W_, 0);
    a.plru.assign(size_t{S_} * W_, 0);
    for (unsigned set = 0; set < S_; ++set)
      for (unsigned w = 0; w < W_; ++w) a.age[size_t{set} * W_ + w] = static_cast<uint8_t>(W_ - 1 - w);
  }
  s.core.assign(N_, Core{});
  s.way.assign(size_t{N_} * N_, 0);
  s.port.assign(N_, Port{});
  return s;
}

AtaIn AtaModel::idle_inputs() const {
  AtaIn in;
  in.req_valid.assign(N_, 0);
  in.req_write.assign(N_, 0);
  in.req_addr.assign(N_, 0);
  in.l2_req_ready.assign(N_, 1);
  in.l2_resp_valid.assign(N_, 0);
  return in;
}

AtaOut AtaModel::make_outputs() const {
  AtaOut o;
  o.req_ready.assign(N_, 0);
  o.resp_valid.assign(N_, 0);
  o.resp_src.assign(N_, 0);
  o.da_valid.assign(N_, 0);
  o.da_op.assign(N_, 0);
  o.da_set.assign(N_, 0);
  o.da_way.assign(N_, 0);
  o.da_sector.assign(N_, 0);
  o.da_core.assign(N_, 0);
  o.l2_req_valid.assign(N_, 0);
  o.l2_req_write.assign(N_, 0);
  o.l2_req_addr.assign(N_, 0);
  return o;
}

// ---------------------------------------------------------------------------
// Address fields.

unsigned AtaModel::set_of(uint64_t a) const {
  return static_cast<unsigned>(((a & addr_mask_) >> p_.offset_bits) & mask_of(p_.set_bits));
}
uint64_t AtaModel::tag_of(uint64_t a) const {
  return ((a & addr_mask_) >> (p_.offset_bits + p_.set_bits)) & tag_mask_;
}
unsigned AtaModel::sector_of(uint64_t a) const {
  return static_cast<unsigned>((a >> (p_.offset_bits - p_.sector_bits)) & mask_of(p_.sector_bits));
}
uint64_t AtaModel::addr_of(uint64_t tag, unsigned set, unsigned sector) const {
  return (((tag & tag_mask_) << (p_.offset_bits + p_.set_bits)) |
          (uint64_t{set & static_cast<unsigned>(mask_of(p_.set_bits))} << p_.offset_bits) |
          (uint64_t{sector & static_cast<unsigned>(mask_of(p_.sector_bits))} << (p_.offset_bits - p_.sector_bits))) &
         addr_mask_;
}

// ---------------------------------------------------------------------------
// Views.

int AtaModel::find(unsigned j, uint64_t addr) const { return match(s_.arr[j], set_of(addr), tag_of(addr)); }

bool AtaModel::holds_sector(unsigned j, uint64_t addr) const {
  const int w = find(j, addr);
  return w >= 0 && ((ent(j, set_of(addr), unsigned(w)).sv >> sector_of(addr)) & 1u);
}

unsigned AtaModel::age(unsigned j, unsigned s, unsigned w) const { return s_.arr[j].age[size_t{s} * W_ + w]; }
unsigned AtaModel::plru_bit(unsigned j, unsigned s, unsigned n) const { return s_.arr[j].plru[size_t{s} * W_ + n]; }
unsigned AtaModel::victim(unsigned j, unsigned s) const { return repl_victim(s_.arr[j], s); }
unsigned AtaModel::fill_way(unsigned j, unsigned s) const {
  for (unsigned w = 0; w < W_; ++w)
    if (!ent(j, s, w).valid) return w;
  return victim(j, s);
}

// ---------------------------------------------------------------------------
// Combinational pieces.

void AtaModel::outputs(const AtaIn& in, AtaOut& o) const {
  const State& s = in.rst_n ? s_ : reset_;  // asynchronous reset
  if (o.req_ready.size() != N_ || o.resp_valid.size() != N_ || o.resp_src.size() != N_ ||
      o.da_valid.size() != N_ || o.da_op.size() != N_ || o.da_set.size() != N_ || o.da_way.size() != N_ ||
      o.da_sector.size() != N_ || o.da_core.size() != N_ || o.l2_req_valid.size() != N_ ||
      o.l2_req_write.size() != N_ || o.l2_req_addr.size() != N_)
    o = make_outputs();
  for (unsigned i = 0; i < N_; ++i) {
    const Core& c = s.core[i];
    o.req_ready[i] = c.st == AtaState::Idle;
    o.resp_valid[i] = c.rv;
    o.resp_src[i] = static_cast<uint8_t>(c.rsrc);
    const bool l2 = c.st == AtaState::L2Req;
    o.l2_req_valid[i] = l2;
    o.l2_req_write[i] = c.write;
    o.l2_req_addr[i] = c.addr;
    const Port& pt = s.port[i];
    o.da_valid[i] = pt.dv;
    o.da_op[i] = static_cast<uint8_t>(pt.op);
    o.da_set[i] = pt.set;
    o.da_way[i] = pt.way;
    o.da_sector[i] = pt.sector;
    o.da_core[i] = pt.core;
  }
}

AtaOut AtaModel::outputs(const AtaIn& in) const {
  AtaOut o = make_outputs();
  outputs(in, o);
  return o;
}

int AtaModel::match(const Array& a, unsigned s, uint64_t g) const {
  int hit = -1;
  for (unsigned w = 0; w < W_; ++w) {
    const Entry& e = a.e[size_t{s} * W_ + w];
    if (e.valid && e.tag == g) {
      if (hit >= 0) throw std::logic_error("AtaModel: one line twice in one set of an array (invariant broken)");
      hit = static_cast<int>(w);
    }
  }
  return hit;
}

// CMP of core i from the registers of the cycle.
void AtaModel::compare(unsigned i, Cmp& c, uint8_t* ways) const {
  const Core& k = s_.core[i];
  const unsigned s = set_of(k.addr), x = sector_of(k.addr);
  const uint64_t g = tag_of(k.addr);
  c = Cmp{};
  for (unsigned j = 0; j < N_; ++j) {
    ways[j] = 0;
    if (!p_.aggregated() && j != i) continue;  // private: only the local array
    const int w = match(s_.arr[j], s, g);
    if (w < 0) continue;
    const Entry& e = s_.arr[j].e[size_t{s} * W_ + unsigned(w)];
    if (j == i) {
      c.lm = true;
      c.lway = unsigned(w);
    }
    if (!((e.sv >> x) & 1u)) continue;
    if (j != i && e.dirty) {
      c.dirty_excl = true;
      continue;
    }
    c.hv |= uint32_t{1} << j;
    ways[j] = static_cast<uint8_t>(w);
  }
}

// RREAD recheck of core i from the registers of the cycle.
bool AtaModel::recheck(unsigned i, bool* dirty_only) const {
  const Core& k = s_.core[i];
  const unsigned s = set_of(k.addr), x = sector_of(k.addr);
  const Entry& e = s_.arr[k.rj].e[size_t{s} * W_ + s_.way[size_t{i} * N_ + k.rj]];
  const bool present = e.valid && e.tag == tag_of(k.addr) && ((e.sv >> x) & 1u);
  *dirty_only = present && e.dirty;
  return present && !e.dirty;
}

bool AtaModel::requests_port(unsigned i, unsigned j) const {
  const Core& c = s_.core[i];
  if (i == j) return c.st == AtaState::LRead || c.st == AtaState::LWrite || c.st == AtaState::Fill;
  return c.st == AtaState::RRead && c.rj == j && ok_[i];
}

unsigned AtaModel::pick_remote(unsigned i, uint32_t holders) const {
  const unsigned base = p_.round_robin() ? s_.core[i].rp : i;
  for (unsigned d = 0; d < N_; ++d) {
    const unsigned j = (base + d) % N_;
    if (j != i && ((holders >> j) & 1u)) return j;
  }
  throw std::logic_error("AtaModel: remote pick without a holder");
}

void AtaModel::touch(Array& a, unsigned s, unsigned v) {
  if (p_.plru()) {
    uint8_t* b = &a.plru[size_t{s} * W_];
    unsigned n = W_ + v;
    while (n > 1) {
      const unsigned parent = n / 2;
      b[parent] = (n % 2 == 0) ? 1 : 0;  // v in the lower half: point at the upper half
      n = parent;
    }
  } else {
    uint8_t* ag = &a.age[size_t{s} * W_];
    const uint8_t av = ag[v];
    for (unsigned w = 0; w < W_; ++w)
      if (ag[w] < av) ++ag[w];
    ag[v] = 0;
  }
}

unsigned AtaModel::repl_victim(const Array& a, unsigned s) const {
  if (p_.plru()) {
    const uint8_t* b = &a.plru[size_t{s} * W_];
    unsigned n = 1;
    while (n < W_) n = 2 * n + b[n];
    return n - W_;
  }
  const uint8_t* ag = &a.age[size_t{s} * W_];
  for (unsigned w = 0; w < W_; ++w)
    if (ag[w] == W_ - 1) return w;
  throw std::logic_error("AtaModel: LRU ages are not a permutation");
}

void AtaModel::command(unsigned j, unsigned op, unsigned set, unsigned way, unsigned sector, unsigned core) {
  Port& pt = s_.port[j];
  if (pt.dv) throw std::logic_error("AtaModel: two commands on one port at one edge");
  pt.dv = true;
  pt.op = op;
  pt.set = set;
  pt.way = way;
  pt.sector = sector;
  pt.core = core;
  ++stats_.commands_by_op[op];
}

void AtaModel::respond(unsigned i, unsigned src) {
  Core& c = s_.core[i];
  c.rv = true;
  c.rsrc = src;
  c.st = AtaState::Idle;
  events_.response = true;
  ++stats_.responses;
  ++stats_.responses_by_src[src];
}

void AtaModel::check_inputs(const AtaIn& in) const {
  if (in.req_valid.size() != N_ || in.req_write.size() != N_ || in.req_addr.size() != N_ ||
      in.l2_req_ready.size() != N_ || in.l2_resp_valid.size() != N_)
    throw std::invalid_argument("AtaModel: input vector sizes do not match the parameters");
  for (unsigned i = 0; i < N_; ++i)
    if (in.l2_resp_valid[i] && s_.core[i].st != AtaState::L2Wait)
      throw std::logic_error("AtaModel: l2_resp_valid for core " + std::to_string(i) + " in state " +
                             name_of(s_.core[i].st) + " (only in L2WAIT)");
}

// ---------------------------------------------------------------------------
// The edge.

void AtaModel::posedge(const AtaIn& in) {
  events_ = AtaEvents{};
  if (!in.rst_n) {
    s_ = reset_;  // same sizes: no allocation
    stats_ = AtaStats{};
    events_.reset = true;
    return;
  }
  check_inputs(in);
  ++stats_.cycles;

  // ---- Decisions from the registers of the cycle. ----
  // Compares (CMP) and rechecks (RREAD).
  for (unsigned i = 0; i < N_; ++i) {
    const Core& c = s_.core[i];
    ok_[i] = 0;
    okd_[i] = 0;
    if (c.st == AtaState::Cmp) {
      compare(i, cmp_[i], &cmp_way_[size_t{i} * N_]);
    } else if (c.st == AtaState::RRead) {
      bool d = false;
      ok_[i] = recheck(i, &d);
      okd_[i] = d;
    }
  }
  // Port arbitration: smallest (i - pr[j]) mod N among the requesters.
  for (unsigned j = 0; j < N_; ++j) {
    win_[j] = -1;
    unsigned n = 0;
    for (unsigned d = 0; d < N_; ++d) {
      const unsigned i = (s_.port[j].pr + d) % N_;
      if (!requests_port(i, j)) continue;
      if (win_[j] < 0) win_[j] = static_cast<int>(i);
      ++n;
    }
    if (n >= 2) {
      events_.port_conflict = true;
      ++stats_.port_conflicts;
      stats_.port_waits += n - 1;
      if (requests_port(j, j) && win_[j] != static_cast<int>(j)) events_.port_owner_lost = true;
    }
  }

  // ---- Apply. ----
  for (unsigned j = 0; j < N_; ++j) {
    s_.port[j].dv = false;
    if (win_[j] >= 0) s_.port[j].pr = (unsigned(win_[j]) + 1) % N_;
  }
  for (unsigned i = 0; i < N_; ++i) s_.core[i].rv = false;

  for (unsigned i = 0; i < N_; ++i) {
    Core& c = s_.core[i];
    const unsigned s = set_of(c.addr), x = sector_of(c.addr);
    const uint64_t g = tag_of(c.addr);
    uint8_t* way = &s_.way[size_t{i} * N_];
    Array& la = s_.arr[i];
    switch (c.st) {
      case AtaState::Idle:
        if (in.req_valid[i]) {
          c.write = in.req_write[i] != 0;
          c.addr = in.req_addr[i] & addr_mask_;
          c.st = AtaState::Cmp;
          events_.accept = true;
          ++stats_.accepts;
          ++(c.write ? stats_.writes : stats_.reads);
        }
        break;

      case AtaState::Cmp: {
        const Cmp& r = cmp_[i];
        c.hv = r.hv;
        c.lm = r.lm;
        c.lway = r.lway;
        for (unsigned j = 0; j < N_; ++j) way[j] = cmp_way_[size_t{i} * N_ + j];
        if (r.dirty_excl) {
          events_.dirty_at_compare = true;
          ++stats_.dirty_excluded;
        }
        c.st = AtaState::Dist;
        break;
      }

      case AtaState::Dist: {
        const uint32_t remote = c.hv & ~(uint32_t{1} << i);
        if (c.write) {
          c.st = AtaState::L2Req;
        } else if ((c.hv >> i) & 1u) {
          c.st = AtaState::LRead;
          events_.local_hit = true;
          if (remote) events_.local_hit_with_remote = true;
          ++stats_.local_hits;
        } else if (remote) {
          const unsigned j = pick_remote(i, remote);
          if (remote & (remote - 1)) events_.remote_pick_multi = true;
          c.rj = j;
          if (p_.round_robin()) c.rp = (j + 1) % N_;
          c.st = AtaState::RRead;
          events_.remote_hit = true;
          ++stats_.remote_attempts;
        } else {
          c.st = AtaState::L2Req;
        }
        break;
      }

      case AtaState::LRead:
        if (win_[i] == static_cast<int>(i)) {
          command(i, kAtaOpLocalRead, s, way[i], x, i);
          touch(la, s, way[i]);
          respond(i, kAtaSrcLocal);
        }
        break;

      case AtaState::RRead:
        if (!ok_[i]) {
          c.st = AtaState::L2Req;
          ++stats_.recheck_fails;
          if (okd_[i]) {
            events_.recheck_fail_dirty = true;
            ++stats_.recheck_fails_dirty;
          } else {
            events_.recheck_fail_evicted = true;
          }
        } else if (win_[c.rj] == static_cast<int>(i)) {
          command(c.rj, kAtaOpRemoteRead, s, way[c.rj], x, i);  // no touch in array rj
          c.fs = false;
          c.st = AtaState::Fill;
          events_.remote_read = true;
          ++stats_.remote_hits;
        }
        break;

      case AtaState::Fill:
        if (win_[i] == static_cast<int>(i)) {
          unsigned v;
          if (c.lm) {
            v = c.lway;
            Entry& e = la.e[size_t{s} * W_ + v];
            if (!e.valid || e.tag != g) throw std::logic_error("AtaModel: lm line left the local array");
            e.sv = static_cast<uint16_t>(e.sv | (1u << x));
            events_.sector_fill = true;
            ++stats_.sector_fills;
          } else {
            v = W_;
            for (unsigned w = 0; w < W_; ++w)
              if (!la.e[size_t{s} * W_ + w].valid) {
                v = w;
                break;
              }
            if (v < W_) {
              events_.victim_invalid = true;
              ++stats_.victims_invalid;
            } else {
              v = repl_victim(la, s);
              events_.victim_replacement = true;
              if (la.e[size_t{s} * W_ + v].dirty) events_.victim_dirty = true;
              ++stats_.victims_replaced;
            }
            Entry& e = la.e[size_t{s} * W_ + v];
            e.valid = true;
            e.tag = g;
            e.sv = static_cast<uint16_t>(1u << x);
            e.dirty = false;
          }
          touch(la, s, v);
          command(i, kAtaOpFill, s, v, x, i);
          ++stats_.fills;
          if (c.fs) {
            events_.fill_l2 = true;
            ++stats_.fills_l2;
          } else {
            events_.fill_remote = true;
            ++stats_.fills_remote;
          }
          respond(i, c.fs ? kAtaSrcL2 : kAtaSrcRemote);
        }
        break;

      case AtaState::L2Req:
        if (!in.l2_req_ready[i]) {
          events_.l2_backpressure = true;
          ++stats_.l2_backpressure_cycles;
          break;
        }
        if (!c.write) {
          c.st = AtaState::L2Wait;
          events_.l2_read = true;
          ++stats_.l2_reads;
        } else {
          events_.l2_write = true;
          ++stats_.l2_writes;
          if ((c.hv >> i) & 1u) {
            c.st = AtaState::LWrite;
            events_.write_hit = true;
            ++stats_.write_hits;
          } else {
            events_.write_miss = true;
            ++stats_.write_misses;
            respond(i, kAtaSrcL2);
          }
        }
        break;

      case AtaState::L2Wait:
        if (in.l2_resp_valid[i]) {
          c.fs = true;
          c.st = AtaState::Fill;
        }
        break;

      case AtaState::LWrite:
        if (win_[i] == static_cast<int>(i)) {
          la.e[size_t{s} * W_ + way[i]].dirty = true;
          touch(la, s, way[i]);
          command(i, kAtaOpWrite, s, way[i], x, i);
          events_.lwrite = true;
          respond(i, kAtaSrcLocal);
        }
        break;
    }
  }
}

}  // namespace txgen::model
