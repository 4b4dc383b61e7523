// Block-independent pieces of the lock-step co-simulation harnesses: port
// conversion between model::Bits and Verilator's port types, seeded stimulus,
// the simulation session (time, waveform, mismatch reports), coverage
// counters, the runner that re-runs a failing seed with an FST waveform, and
// the speed bench (TXGEN_COSIM_BENCH) that replays a run's inputs into the
// RTL alone, the model alone and the lock-step pair.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/bd_codec.h"
#include "model/util.h"
#include "verilated.h"
#if VM_TRACE_FST
#include "verilated_fst_c.h"
#endif

namespace txgen::verif {

using model::Bits;

// ---------------------------------------------------------------------------
// Bits helpers

inline uint64_t low_mask(unsigned bits) {  // bits <= 64
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}
inline Bits bits_from_u64(unsigned width, uint64_t value) {
  Bits bits(width);
  bits.set_field(0, std::min(width, 64u), value);
  return bits;
}
std::string to_hex(const Bits& value);  // Verilog style: 12'h0ab
std::string to_hex(unsigned width, uint64_t value);

// Flat per-entry vectors: entry i occupies [(i+1)*field_bits-1 : i*field_bits].
Bits pack_entries(const std::vector<uint64_t>& entries, unsigned field_bits);
std::vector<uint64_t> unpack_entries(const Bits& flat, unsigned field_bits, unsigned count);
// One bit per entry (per-CU valid and ready vectors).
template <typename Flag>
Bits pack_flags(const std::vector<Flag>& flags) {
  Bits b(static_cast<unsigned>(flags.size()));
  for (unsigned i = 0; i < flags.size(); ++i) b.set(i, flags[i] != 0);
  return b;
}
inline std::vector<uint64_t> widen(const std::vector<uint32_t>& v) { return {v.begin(), v.end()}; }

// ---------------------------------------------------------------------------
// Port conversion. Verilator maps 1..8 bits to CData, ..16 SData, ..32 IData,
// ..64 QData and wider ports to VlWide<words>; a width that does not fit the
// port type is a harness/configuration mismatch, reported by exception.

[[noreturn]] void port_width_mismatch(unsigned value_width, unsigned port_bits);

inline void check_port_width(unsigned value_width, unsigned port_bits) {
  // A narrower value than the port's storage is normal (a 6-bit port is a
  // CData); a much narrower one means the elaborated widths and the RTL differ.
  const bool too_wide = value_width > port_bits;
  const bool wrong_type = port_bits > 64 ? value_width <= port_bits - 32 : false;
  if (too_wide || wrong_type) port_width_mismatch(value_width, port_bits);
}

template <typename Port, std::enable_if_t<std::is_integral_v<Port>, int> = 0>
void to_port(Port& port, const Bits& value) {
  check_port_width(value.width, 8 * sizeof(Port));
  port = static_cast<Port>(value.field(0, value.width));
}

// A value of `width` bits (<= 64) onto an integral port, cut to the width.
template <typename Port, std::enable_if_t<std::is_integral_v<Port>, int> = 0>
void to_port(Port& port, unsigned width, uint64_t value) {
  check_port_width(width, 8 * sizeof(Port));
  port = static_cast<Port>(value & low_mask(width));
}

template <std::size_t Words>
void to_port(VlWide<Words>& port, const Bits& value) {
  check_port_width(value.width, 32 * Words);
  for (std::size_t i = 0; i < Words; ++i) port[i] = i < value.words.size() ? value.words[i] : 0u;
}

template <typename Port, std::enable_if_t<std::is_integral_v<Port>, int> = 0>
Bits from_port(const Port& port, unsigned width) {
  check_port_width(width, 8 * sizeof(Port));
  return bits_from_u64(width, static_cast<uint64_t>(port) & low_mask(width));
}

template <std::size_t Words>
void from_port(const VlWide<Words>& port, unsigned width, Bits& value) {  // into value's storage
  check_port_width(width, 32 * Words);
  if (value.width != width) value = Bits(width);
  for (std::size_t i = 0; i < value.words.size(); ++i) value.words[i] = port[i];
  if (width % 32 != 0) value.words.back() &= static_cast<uint32_t>(low_mask(width % 32));
}

template <std::size_t Words>
Bits from_port(const VlWide<Words>& port, unsigned width) {
  Bits value(width);
  from_port(port, width, value);
  return value;
}

template <typename Port, std::enable_if_t<std::is_integral_v<Port>, int> = 0>
void from_port(const Port& port, unsigned width, Bits& value) {
  value = from_port(port, width);  // at most 64 bits: in place
}

// Fields straight on a port, no Bits in between: the harnesses move vectors
// of per-CU fields through these every cycle. Widths are checked like above.

template <typename Port>
constexpr unsigned port_bits() {
  if constexpr (std::is_integral_v<Port>) {
    return 8 * sizeof(Port);
  } else {
    return 32 * static_cast<unsigned>(sizeof(Port) / sizeof(EData));
  }
}

template <typename Port, std::enable_if_t<std::is_integral_v<Port>, int> = 0>
uint64_t port_field(const Port& port, unsigned lsb, unsigned bits) {  // bits <= 64
  return bits == 0 ? 0 : (static_cast<uint64_t>(port) >> lsb) & low_mask(bits);
}

template <std::size_t Words>
uint64_t port_field(const VlWide<Words>& port, unsigned lsb, unsigned bits) {
  if (bits == 0) return 0;
  uint64_t value = port[lsb / 32] >> (lsb % 32);
  for (unsigned got = 32 - lsb % 32, w = lsb / 32 + 1; got < bits; got += 32, ++w)
    value |= uint64_t{port[w]} << got;
  return value & low_mask(bits);
}

template <typename Port, std::enable_if_t<std::is_integral_v<Port>, int> = 0>
void set_port_field(Port& port, unsigned lsb, unsigned bits, uint64_t value) {
  if (bits == 0) return;
  const uint64_t mask = low_mask(bits) << lsb;
  port = static_cast<Port>((static_cast<uint64_t>(port) & ~mask) | ((value << lsb) & mask));
}

template <std::size_t Words>
void set_port_field(VlWide<Words>& port, unsigned lsb, unsigned bits, uint64_t value) {
  for (unsigned put = 0, w = lsb / 32, offset = lsb % 32; put < bits; offset = 0, ++w) {
    const unsigned take = std::min(32 - offset, bits - put);
    const uint32_t mask = static_cast<uint32_t>(low_mask(take) << offset);
    port[w] = (port[w] & ~mask) | (static_cast<uint32_t>((value >> put) << offset) & mask);
    put += take;
  }
}

template <typename Port>
void clear_port(Port& port) {
  if constexpr (std::is_integral_v<Port>) {
    port = 0;
  } else {
    for (std::size_t w = 0; w < sizeof(Port) / sizeof(EData); ++w) port[w] = 0;
  }
}

// Field i = entry(i) at [(i+1)*field_bits-1 : i*field_bits] for i < n, the
// rest zero; an integral port is assembled in a register and stored once.
template <typename Port, typename Entry>
void fields_to_port(Port& port, unsigned n, unsigned field_bits, Entry entry) {
  check_port_width(n * field_bits, port_bits<Port>());
  if constexpr (std::is_integral_v<Port>) {
    const uint64_t mask = low_mask(field_bits);
    uint64_t value = 0;
    for (unsigned i = 0; i < n; ++i) value |= (static_cast<uint64_t>(entry(i)) & mask) << (i * field_bits);
    port = static_cast<Port>(value);
  } else if (field_bits <= 32) {  // through a 64-bit window, one word stored at a time
    const uint64_t mask = low_mask(field_bits);
    uint64_t window = 0;
    unsigned held = 0, w = 0;
    for (unsigned i = 0; i < n; ++i) {
      window |= (static_cast<uint64_t>(entry(i)) & mask) << held;
      for (held += field_bits; held >= 32; held -= 32, window >>= 32) port[w++] = static_cast<uint32_t>(window);
    }
    for (; w < sizeof(Port) / sizeof(EData); ++w, window = 0) port[w] = static_cast<uint32_t>(window);
  } else {
    clear_port(port);
    for (unsigned i = 0; i < n; ++i) set_port_field(port, i * field_bits, field_bits, static_cast<uint64_t>(entry(i)));
  }
}

// Entry i of `entries` at [(i+1)*field_bits-1 : i*field_bits], the rest zero.
template <typename Port, typename Entries>
void entries_to_port(Port& port, const Entries& entries, unsigned field_bits) {
  fields_to_port(port, static_cast<unsigned>(entries.size()), field_bits,
                 [&](unsigned i) { return static_cast<uint64_t>(entries[i]); });
}

// One bit per flag (nonzero = 1), as pack_flags.
template <typename Port, typename Flags>
void flags_to_port(Port& port, const Flags& flags) {
  fields_to_port(port, static_cast<unsigned>(flags.size()), 1, [&](unsigned i) { return flags[i] != 0; });
}

// Fills `entries` (sized by the caller) from the port.
template <typename Port, typename Entries>
void entries_from_port(const Port& port, unsigned field_bits, Entries& entries) {
  check_port_width(static_cast<unsigned>(entries.size()) * field_bits, port_bits<Port>());
  using T = typename Entries::value_type;
  for (std::size_t i = 0; i < entries.size(); ++i)
    entries[i] = static_cast<T>(port_field(port, static_cast<unsigned>(i) * field_bits, field_bits));
}

// ---------------------------------------------------------------------------
// Environment

// TXGEN_SEED (decimal or 0x hex), default kDefaultSeed.
constexpr uint64_t kDefaultSeed = 1;
uint64_t seed_from_env();
// TXGEN_COSIM_CYCLES: cycles per random test, default kDefaultCosimCycles.
constexpr uint64_t kDefaultCosimCycles = 100000;
uint64_t cosim_cycles_from_env();
// TXGEN_COSIM_BENCH=1: run_cosim also measures the run's speed per engine (below).
bool bench_from_env();
// TXGEN_COSIM_WAVEFORM=DIR: every test's own run writes DIR/<test>.fst (for
// `txgen power`, which reads the RTL's activity and inputs from it).
std::string waveform_dir_from_env();

// ---------------------------------------------------------------------------
// Seeded stimulus. Own range reduction instead of <random> distributions so a
// seed replays the same stimulus with every standard library.
class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}
  uint64_t next() { return engine_(); }
  uint64_t bits(unsigned count) { return count == 0 ? 0 : next() & low_mask(count); }
  // [0, bound), bound > 0: a draw is rejected at or above the largest multiple
  // of bound (below the limit the stream stays uniform). That limit is at
  // least 2^64 - bound, so a draw under it needs no division for the limit.
  uint64_t below(uint64_t bound) {
    const uint64_t draw = next();
    if (bound != 0 && draw <= ~uint64_t{0} - bound) return reduce(draw, bound);
    return below_near_limit(bound, draw);
  }
  int64_t between(int64_t lo, int64_t hi);          // [lo, hi]
  bool chance(unsigned percent) { return below(100) < percent; }
  Bits random_bits(unsigned width);
  template <typename T>
  const T& pick(const std::vector<T>& options) { return options[below(options.size())]; }

 private:
  static uint64_t reduce(uint64_t draw, uint64_t bound) {
    return (bound & (bound - 1)) == 0 ? draw & (bound - 1) : draw % bound;
  }
  uint64_t below_near_limit(uint64_t bound, uint64_t draw);
  std::mt19937_64 engine_;
};

// ---------------------------------------------------------------------------
// Coverage: named counters in declaration order; declared counters print even
// when zero so a missing case is visible. Hot paths keep the Id from declare().
class CoverageCounters {
 public:
  using Id = std::size_t;
  Id declare(const std::string& name);
  void hit(Id id, uint64_t times = 1) { counters_[id].second += times; }
  void hit(const std::string& name, uint64_t times = 1) { hit(declare(name), times); }
  uint64_t count(const std::string& name) const;
  const std::vector<std::pair<std::string, uint64_t>>& all() const { return counters_; }
  std::string format() const;

 private:
  std::vector<std::pair<std::string, uint64_t>> counters_;
};

// Counts the fired entries of a coverage class's (fired, name) table, which
// it builds in the same order every edge: the names are looked up once, the
// first time, so that a fired rule costs one increment.
class FiredRules {
 public:
  template <std::size_t N>
  void count(CoverageCounters& counters, const std::pair<bool, const char*> (&rules)[N]) {
    if (ids_.size() != N) {
      ids_.clear();
      for (const auto& rule : rules) ids_.push_back(counters.declare(rule.second));
    }
    for (std::size_t i = 0; i < N; ++i)
      if (rules[i].first) counters.hit(ids_[i]);
  }

 private:
  std::vector<CoverageCounters::Id> ids_;
};

// Coverage of a model's events struct from its declaration (model/events.h):
// every event is declared under its name, and count() adds the events that
// fired at the last edge. Lists of required events are member pointers, so a
// misspelt event does not compile.
template <class Events>
struct EventRule {
  bool Events::*field;
  const char* name;
  const char* meaning;
};
#define TXGEN_EVENT_RULE(name, meaning) {&TxgenEvents::name, #name, meaning},
// The rules of an EVENTS(X) list for the events struct EVENTS_T.
#define TXGEN_EVENT_RULES(EVENTS_T, LIST)                                    \
  [] {                                                                       \
    using TxgenEvents = EVENTS_T;                                            \
    return std::vector<::txgen::verif::EventRule<EVENTS_T>>{LIST(TXGEN_EVENT_RULE)}; \
  }()

template <class Events>
class EventCounter {
 public:
  EventCounter(CoverageCounters& counters, std::vector<EventRule<Events>> rules)
      : counters_(counters), rules_(std::move(rules)) {
    for (const auto& r : rules_) ids_.push_back(counters_.declare(r.name));
  }
  void count(const Events& e) {
    for (std::size_t i = 0; i < rules_.size(); ++i)
      if (e.*(rules_[i].field)) counters_.hit(ids_[i]);
  }

 private:
  CoverageCounters& counters_;
  std::vector<EventRule<Events>> rules_;
  std::vector<CoverageCounters::Id> ids_;
};

// The names of the listed events.
template <class Events>
std::vector<std::string> event_names(const std::vector<EventRule<Events>>& rules,
                                     const std::vector<bool Events::*>& events) {
  std::vector<std::string> names;
  for (bool Events::*e : events)
    for (const auto& r : rules)
      if (r.field == e) names.push_back(r.name);
  return names;
}

// ---------------------------------------------------------------------------
// Session: one simulation run (one VerilatedContext, optional FST waveform).

struct Mismatch {
  std::string test;
  uint64_t cycle = 0;
  std::string signal;
  std::string expected;
  std::string actual;
  std::string detail;  // e.g. which entry of a flat vector differs
  uint64_t seed = 0;
  std::string format() const;
};

// Thrown at the first mismatch: the run stops there.
class MismatchError : public std::runtime_error {
 public:
  explicit MismatchError(Mismatch m) : std::runtime_error(m.format()), mismatch(std::move(m)) {}
  Mismatch mismatch;
};

// Thrown when the waveform re-run reaches the failing cycle without failing
// again (it should not happen: the run is deterministic).
class StopRun : public std::runtime_error {
 public:
  StopRun() : std::runtime_error("waveform re-run reached the failing cycle") {}
};

struct RunOptions {
  std::string test;            // names the waveform and the report
  uint64_t seed = kDefaultSeed;
  std::string fst_path;        // empty: no waveform
  uint64_t last_cycle = UINT64_MAX;
  bool record = false;         // harnesses keep their inputs for the bench
};

// One replay of a recorded run per engine (the loop only, no set-up): CPU
// seconds and heap allocations.
struct BenchEngine {
  double seconds = 0;
  uint64_t allocations = 0;
};
struct BenchFigures {
  uint64_t cycles = 0;
  BenchEngine rtl;    // the Verilated RTL alone: drive, evaluate, clock edge
  BenchEngine model;  // the golden model alone: outputs and edge
  BenchEngine pair;   // both in lock step: every output compared, coverage counted
  BenchFigures& operator+=(const BenchFigures& o);
};
using BenchReplay = std::function<BenchFigures()>;

class CosimSession {
 public:
  explicit CosimSession(RunOptions options);
  ~CosimSession();
  CosimSession(const CosimSession&) = delete;
  CosimSession& operator=(const CosimSession&) = delete;

  VerilatedContext* context() { return context_.get(); }
  const RunOptions& options() const { return options_; }
  uint64_t cycle() const { return cycle_; }
  CoverageCounters& coverage() { return coverage_; }

  // Every model registers before the first sample(), which opens the file.
  template <class Model>
  void add_to_waveform(Model& model) {
#if VM_TRACE_FST
    if (fst_) {
      if (fst_->isOpen()) throw std::logic_error("model added to the waveform after it was opened");
      model.trace(fst_.get(), 99);
    }
#else
    (void)model;
#endif
  }
  void sample();      // dumps the waveform at the current time, then advances half a period
  void end_cycle();   // counts the cycle; ends a waveform re-run at the failing cycle
  void close_waveform();

  // Test-side checks that do not come from the model (expectations written in
  // a test) go through the same report and waveform path.
  [[noreturn]] void fail(const std::string& signal, const std::string& expected,
                         const std::string& actual, const std::string& detail = "");
  void expect_equal(const std::string& signal, const std::string& expected,
                    const std::string& actual, const std::string& detail = "");

  double elapsed_seconds() const;

  bool recording() const { return options_.record; }
  void add_bench_replay(BenchReplay replay) { replays_.push_back(std::move(replay)); }
  const std::vector<BenchReplay>& bench_replays() const { return replays_; }

 private:
  RunOptions options_;
  std::unique_ptr<VerilatedContext> context_;
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> fst_;
#endif
  uint64_t cycle_ = 0;
  uint64_t time_ = 0;
  CoverageCounters coverage_;
  std::chrono::steady_clock::time_point start_;
  std::vector<BenchReplay> replays_;
};

// The Verilated model of a harness: traced in the session's waveform, clock
// low from the start; on destruction the waveform is closed before the model
// is finalised.
template <class Dut>
class SessionDut {
 public:
  SessionDut(CosimSession& session, const char* instance)
      : session_(session), dut_(std::make_unique<Dut>(session.context(), instance)) {
    session_.add_to_waveform(*dut_);
    dut_->clk_i = 0;
  }
  SessionDut(const SessionDut&) = delete;
  SessionDut& operator=(const SessionDut&) = delete;
  ~SessionDut() {
    session_.close_waveform();
    dut_->final();
  }
  Dut* operator->() const { return dut_.get(); }
  Dut& operator*() const { return *dut_; }

 private:
  CosimSession& session_;
  std::unique_ptr<Dut> dut_;
};

// ---------------------------------------------------------------------------
// Comparison helpers for harnesses: report through the session on a difference.

inline void compare_bit(CosimSession& session, const char* signal, bool expected, bool actual) {
  if (expected != actual) session.fail(signal, std::to_string(expected), std::to_string(actual));
}

inline void compare_bits(CosimSession& session, const char* signal, const Bits& expected,
                         const Bits& actual, const std::string& detail = "") {
  if (expected != actual) session.fail(signal, to_hex(expected), to_hex(actual), detail);
}

inline void compare_u64(CosimSession& session, const char* signal, unsigned width, uint64_t expected,
                        uint64_t actual) {
  if (expected != actual) session.fail(signal, to_hex(width, expected), to_hex(width, actual));
}

// A model's SRAM access counter (model/util.h) against the accesses the
// RTL's SRAM ports made up to the same edge, so the evaluation's energy
// counts what the RTL does.
class SramAccessCheck {
 public:
  explicit SramAccessCheck(std::string array) : reads_(array + " reads"), writes_(array + " writes") {}
  // The RTL's ports of the cycle (before its edge): `lanes` accesses with en.
  void count(bool en, bool we, uint64_t lanes = 1) {
    if (en) rtl_.add(we, lanes);
  }
  void compare(CosimSession& session, const model::SramAccesses& model) const {
    compare_u64(session, reads_.c_str(), 64, model.reads, rtl_.reads);
    compare_u64(session, writes_.c_str(), 64, model.writes, rtl_.writes);
  }

 private:
  std::string reads_, writes_;
  model::SramAccesses rtl_;
};

// A port of entries (field_bits each) against the model's vector, without
// converting the port: a difference reports both as whole vectors.
template <typename Port, typename Entries>
void compare_port_entries(CosimSession& session, const char* signal, const Port& port, unsigned field_bits,
                          const Entries& want) {
  const unsigned n = static_cast<unsigned>(want.size());
  check_port_width(n * field_bits, port_bits<Port>());
  for (unsigned i = 0; i < n; ++i) {
    if (port_field(port, i * field_bits, field_bits) == static_cast<uint64_t>(want[i])) continue;
    Bits expected(n * field_bits);
    for (unsigned k = 0; k < n; ++k) expected.set_field(k * field_bits, field_bits, static_cast<uint64_t>(want[k]));
    session.fail(signal, to_hex(expected), to_hex(from_port(port, n * field_bits)));
  }
}

// One whole cycle of a stage harness that runs alone in its session: drive,
// compare with the clock low, rising edge, waveform samples around it.
// Returns what check() returns (a reference to outputs the harness keeps, or
// a value).
template <class Harness, class In>
decltype(auto) step_alone(Harness& stage, CosimSession& session, const In& in) {
  stage.drive(in);
  session.sample();
  decltype(auto) out = stage.check();
  stage.rising_edge();
  session.sample();
  session.end_cycle();
  return out;
}

// ---------------------------------------------------------------------------
// Bench. A harness records the inputs it held at every edge (its tape) while
// its session records; run_cosim then replays the tape into fresh harnesses:
// the RTL alone (Harness::drive_rtl, rtl_edge), the model alone
// (Harness::model_cycle) and the lock-step pair (step_alone). The same
// inputs cycle for cycle, and no stimulus generation in any of the three.

double thread_cpu_seconds();
uint64_t heap_allocations();  // global operator new calls so far (verif/alloc_count.cpp)

template <class In>
using BenchTape = std::shared_ptr<std::vector<In>>;

// `runs` replays of the tape, each into a fresh harness: the median CPU
// seconds, the allocations of the last.
template <class Harness, class Params, class In, class Cycle>
BenchEngine replay_tape(const Params& p, const std::vector<In>& tape, unsigned runs, Cycle cycle) {
  std::vector<double> seconds;
  BenchEngine e;
  for (unsigned r = 0; r < runs; ++r) {
    CosimSession session(RunOptions{"bench", 0, "", UINT64_MAX, false});
    Harness h(session, p);
    const uint64_t allocations = heap_allocations();
    const double start = thread_cpu_seconds();
    for (const In& in : tape) cycle(h, session, in);
    seconds.push_back(thread_cpu_seconds() - start);
    e.allocations = heap_allocations() - allocations;
  }
  std::sort(seconds.begin(), seconds.end());
  e.seconds = seconds[seconds.size() / 2];
  return e;
}

// TXGEN_BENCH_RUNS: replays per engine (median taken), default 3.
unsigned bench_runs_from_env();

template <class Harness, class Params, class In>
BenchFigures replay_engines(const Params& p, const std::vector<In>& tape) {
  const unsigned runs = bench_runs_from_env();
  BenchFigures f;
  f.cycles = tape.size();
  f.rtl = replay_tape<Harness>(p, tape, runs, [](Harness& h, CosimSession& s, const In& in) {
    h.drive_rtl(in);
    s.sample();
    h.rtl_edge();
    s.sample();
    s.end_cycle();
  });
  f.model = replay_tape<Harness>(p, tape, runs, [](Harness& h, CosimSession& s, const In& in) {
    h.model_cycle(in);
    s.end_cycle();
  });
  f.pair = replay_tape<Harness>(p, tape, runs,
                                [](Harness& h, CosimSession& s, const In& in) { step_alone(h, s, in); });
  return f;
}

// For a harness's constructor: the tape it appends to at every edge while the
// session records (else null), registered with the session for the replay.
template <class Harness, class In, class Params>
BenchTape<In> bench_tape(CosimSession& session, const Params& p) {
  if (!session.recording()) return nullptr;
  auto tape = std::make_shared<std::vector<In>>();
  session.add_bench_replay([p, tape] { return replay_engines<Harness>(p, *tape); });
  return tape;
}

template <class In>
void record(const BenchTape<In>& tape, const In& in) {
  if (tape) tape->push_back(in);
}

// ---------------------------------------------------------------------------
// Runner: run once without a waveform; at the first mismatch print the report,
// re-run the same seed with FST tracing up to the failing cycle and write
// <test>_seed<n>.fst into the current directory.

struct CosimVerdict {
  bool passed = true;
  std::string report;  // mismatch report, replay hint and waveform path
  CoverageCounters coverage;
  uint64_t cycles = 0;
  double cycles_per_second = 0;
  BenchFigures bench;  // with TXGEN_COSIM_BENCH=1, after a passing run
};

using CosimBody = std::function<void(CosimSession&)>;
CosimVerdict run_cosim(const std::string& test, uint64_t seed, const CosimBody& body);

}  // namespace txgen::verif
