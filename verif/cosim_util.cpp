#include "cosim_util.h"

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace txgen::verif {

// ---------------------------------------------------------------------------
// Bits helpers

std::string to_hex(const Bits& value) {
  static const char* digits = "0123456789abcdef";
  std::string text;
  const unsigned nibbles = (value.width + 3) / 4;
  for (unsigned n = nibbles; n-- > 0;) {
    const unsigned lsb = 4 * n;
    const unsigned take = value.width - lsb < 4 ? value.width - lsb : 4;
    text += digits[value.field(lsb, take)];
    if (n != 0 && n % 8 == 0) text += '_';
  }
  return std::to_string(value.width) + "'h" + (text.empty() ? "0" : text);
}

std::string to_hex(unsigned width, uint64_t value) { return to_hex(bits_from_u64(width, value)); }

Bits pack_entries(const std::vector<uint64_t>& entries, unsigned field_bits) {
  Bits flat(static_cast<unsigned>(entries.size()) * field_bits);
  if (field_bits == 0) return flat;
  for (std::size_t i = 0; i < entries.size(); ++i)
    flat.set_field(static_cast<unsigned>(i) * field_bits, field_bits, entries[i]);
  return flat;
}

std::vector<uint64_t> unpack_entries(const Bits& flat, unsigned field_bits, unsigned count) {
  std::vector<uint64_t> entries(count, 0);
  if (field_bits == 0) return entries;
  for (unsigned i = 0; i < count; ++i) entries[i] = flat.field(i * field_bits, field_bits);
  return entries;
}

void port_width_mismatch(unsigned value_width, unsigned port_bits) {
  throw std::logic_error("port width mismatch: value has " + std::to_string(value_width) +
                         " bits, the Verilated port holds " + std::to_string(port_bits));
}

// ---------------------------------------------------------------------------
// Environment

static uint64_t env_u64(const char* name, uint64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 0);
  if (*end != '\0') throw std::invalid_argument(std::string(name) + " is not a number: " + text);
  return value;
}

uint64_t seed_from_env() { return env_u64("TXGEN_SEED", kDefaultSeed); }
uint64_t cosim_cycles_from_env() { return env_u64("TXGEN_COSIM_CYCLES", kDefaultCosimCycles); }
bool bench_from_env() { return env_u64("TXGEN_COSIM_BENCH", 0) != 0; }
std::string waveform_dir_from_env() {
  const char* text = std::getenv("TXGEN_COSIM_WAVEFORM");
  return text == nullptr ? "" : text;
}
unsigned bench_runs_from_env() {
  return static_cast<unsigned>(std::clamp<uint64_t>(env_u64("TXGEN_BENCH_RUNS", 3), 1, 99));
}

// ---------------------------------------------------------------------------
// Rng

uint64_t Rng::below_near_limit(uint64_t bound, uint64_t draw) {
  if (bound == 0) throw std::invalid_argument("Rng::below(0)");
  // Rejection keeps the draw uniform; the loop almost never repeats.
  const uint64_t limit = ~uint64_t{0} - (~uint64_t{0} % bound);
  while (draw >= limit) draw = next();
  return reduce(draw, bound);
}

int64_t Rng::between(int64_t lo, int64_t hi) {
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  if (span == 0) return static_cast<int64_t>(next());  // the full 64-bit range
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + below(span));
}

Bits Rng::random_bits(unsigned width) {
  Bits value(width);
  for (auto& word : value.words) word = static_cast<uint32_t>(next());
  if (width % 32 != 0) value.words.back() &= static_cast<uint32_t>(low_mask(width % 32));
  return value;
}

// ---------------------------------------------------------------------------
// Coverage

CoverageCounters::Id CoverageCounters::declare(const std::string& name) {
  for (Id id = 0; id < counters_.size(); ++id)
    if (counters_[id].first == name) return id;
  counters_.emplace_back(name, 0);
  return counters_.size() - 1;
}

uint64_t CoverageCounters::count(const std::string& name) const {
  for (const auto& counter : counters_)
    if (counter.first == name) return counter.second;
  return 0;
}

std::string CoverageCounters::format() const {
  std::ostringstream out;
  for (const auto& [name, value] : counters_) out << "  " << name << " = " << value << "\n";
  return out.str();
}

// ---------------------------------------------------------------------------
// Session

std::string Mismatch::format() const {
  std::ostringstream out;
  out << "MISMATCH in " << test << " at cycle " << cycle << ": " << signal << "\n"
      << "  expected " << expected << "\n"
      << "  actual   " << actual << "\n";
  if (!detail.empty()) out << "  " << detail << "\n";
  out << "  seed=" << seed << " (replay with TXGEN_SEED=" << seed << ")\n";
  return out.str();
}

CosimSession::CosimSession(RunOptions options)
    : options_(std::move(options)),
      context_(std::make_unique<VerilatedContext>()),
      start_(std::chrono::steady_clock::now()) {
  context_->randReset(0);  // registers start at zero like the model; reset is tested explicitly
#if VM_TRACE_FST
  if (!options_.fst_path.empty()) {
    context_->traceEverOn(true);
    fst_ = std::make_unique<VerilatedFstC>();
  }
#endif
}

CosimSession::~CosimSession() {
  close_waveform();
}

void CosimSession::sample() {
  context_->time(time_);
#if VM_TRACE_FST
  if (fst_) {
    if (!fst_->isOpen()) fst_->open(options_.fst_path.c_str());
    fst_->dump(time_);
  }
#endif
  time_ += 5;
}

void CosimSession::end_cycle() {
  if (cycle_ >= options_.last_cycle) throw StopRun();
  ++cycle_;
}

void CosimSession::close_waveform() {
#if VM_TRACE_FST
  if (fst_ && fst_->isOpen()) fst_->close();
#endif
}

void CosimSession::fail(const std::string& signal, const std::string& expected,
                        const std::string& actual, const std::string& detail) {
  throw MismatchError(Mismatch{options_.test, cycle_, signal, expected, actual, detail, options_.seed});
}

void CosimSession::expect_equal(const std::string& signal, const std::string& expected,
                                const std::string& actual, const std::string& detail) {
  if (expected != actual) fail(signal, expected, actual, detail);
}

double CosimSession::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

// ---------------------------------------------------------------------------
// Bench

BenchFigures& BenchFigures::operator+=(const BenchFigures& o) {
  cycles = std::max(cycles, o.cycles);  // harnesses of one run share its cycles
  const auto add = [](BenchEngine& to, const BenchEngine& from) {
    to.seconds += from.seconds;
    to.allocations += from.allocations;
  };
  add(rtl, o.rtl);
  add(model, o.model);
  add(pair, o.pair);
  return *this;
}

// CPU time of this thread: the figures do not count time the machine spent
// on other processes.
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

static double per_second(uint64_t cycles, double seconds) { return cycles / std::max(seconds, 1e-9); }

// One line per run for scripts/bench_cosim.sh: cycles per CPU second of the
// test as it ran (stimulus and scoreboard included) and of the three replays,
// and the lock-step pair's heap allocations per cycle.
static void print_bench(const std::string& test, const CosimVerdict& verdict, double test_cpu_seconds) {
  const BenchFigures& f = verdict.bench;
  std::cout << "[bench] " << test << " cycles=" << f.cycles << std::fixed << std::setprecision(0)
            << " test_cps=" << per_second(verdict.cycles, test_cpu_seconds)
            << " rtl_cps=" << per_second(f.cycles, f.rtl.seconds)
            << " model_cps=" << per_second(f.cycles, f.model.seconds)
            << " pair_cps=" << per_second(f.cycles, f.pair.seconds) << std::setprecision(2)
            << " pair_vs_rtl=" << f.rtl.seconds / std::max(f.pair.seconds, 1e-9)
            << " pair_allocs_per_cycle=" << static_cast<double>(f.pair.allocations) / std::max<uint64_t>(f.cycles, 1)
            << std::defaultfloat << std::endl;
}

// Runs the body again with the harnesses recording, then replays their tapes.
static void run_bench(const std::string& test, uint64_t seed, const CosimBody& body, CosimVerdict& verdict,
                      double test_cpu_seconds) {
  CosimSession session(RunOptions{test, seed, "", UINT64_MAX, true});
  body(session);
  for (const BenchReplay& replay : session.bench_replays()) verdict.bench += replay();
  if (verdict.bench.cycles != verdict.cycles)
    throw std::logic_error("bench: the harnesses recorded " + std::to_string(verdict.bench.cycles) +
                           " edges in a run of " + std::to_string(verdict.cycles) + " cycles");
  print_bench(test, verdict, test_cpu_seconds);
}

// ---------------------------------------------------------------------------
// Runner

static void print_run_summary(const std::string& test, const CosimVerdict& verdict) {
  std::cout << "[cosim] " << test << ": " << verdict.cycles << " cycles, "
            << static_cast<uint64_t>(verdict.cycles_per_second) << " cycles/s\n"
            << "[cosim] coverage of " << test << ":\n"
            << verdict.coverage.format() << std::flush;
}

// Re-runs the failing seed with tracing on; returns the waveform path.
static std::string write_failure_waveform(const std::string& test, uint64_t seed,
                                          uint64_t failing_cycle, const CosimBody& body) {
#if VM_TRACE_FST
  const std::string path =
      (std::filesystem::current_path() / (test + "_seed" + std::to_string(seed) + ".fst")).string();
  CosimSession session(RunOptions{test, seed, path, failing_cycle});
  try {
    body(session);
  } catch (const MismatchError&) {
  } catch (const StopRun&) {
  }
  session.close_waveform();
  return path;
#else
  (void)test, (void)seed, (void)failing_cycle, (void)body;
  return "(no waveform: built without FST tracing)";
#endif
}

CosimVerdict run_cosim(const std::string& test, uint64_t seed, const CosimBody& body) {
  std::cout << "[cosim] " << test << " seed=" << seed << std::endl;
  CosimVerdict verdict;
  const std::string waveform_dir = waveform_dir_from_env();
  const std::string waveform =
      waveform_dir.empty() ? "" : (std::filesystem::path(waveform_dir) / (test + ".fst")).string();
  CosimSession session(RunOptions{test, seed, waveform, UINT64_MAX});
  const double cpu_start = thread_cpu_seconds();
  try {
    body(session);
  } catch (const MismatchError& error) {
    verdict.passed = false;
    verdict.report = error.mismatch.format();
  }
  const double cpu_seconds = thread_cpu_seconds() - cpu_start;
  verdict.coverage = session.coverage();
  verdict.cycles = session.cycle();
  verdict.cycles_per_second = session.cycle() / std::max(session.elapsed_seconds(), 1e-9);
  print_run_summary(test, verdict);
  if (verdict.passed && bench_from_env()) run_bench(test, seed, body, verdict, cpu_seconds);
  if (!verdict.passed) {  // the caller prints verdict.report with its failure
    std::cout << "[cosim] " << test << ": mismatch at cycle " << verdict.cycles
              << ", re-running seed " << seed << " with a waveform" << std::endl;
    verdict.report += "  waveform: " + write_failure_waveform(test, seed, verdict.cycles, body) + "\n";
  }
  return verdict;
}

}  // namespace txgen::verif
