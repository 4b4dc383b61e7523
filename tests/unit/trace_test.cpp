// Translation traces (gen/include/txgen/trace/trace.h; docs/verification.md,
// "Evaluation traces"): the text format's round trip and its reader's errors,
// and the synthetic workloads' documented properties.
#include <gtest/gtest.h>

#include <set>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "txgen/trace/trace.h"

namespace tr = txgen::trace;

namespace {

// A CU's instructions, a CU without them as the one-page instructions of
// wavefront 0 the format gives it.
std::vector<tr::Instruction> instructions_of(const tr::Kernel& k, unsigned cu) {
  if (k.has_instructions(cu)) return k.instructions[cu];
  std::vector<tr::Instruction> implicit;
  for (uint64_t i = 0; i < k.per_cu[cu].size(); ++i) implicit.push_back({0, 1, i, 0});
  return implicit;
}

bool same(const tr::Trace& a, const tr::Trace& b) {
  if (a.cus != b.cus || a.workload != b.workload || a.kernels.size() != b.kernels.size()) return false;
  for (size_t k = 0; k < a.kernels.size(); ++k) {
    const tr::Kernel &x = a.kernels[k], &y = b.kernels[k];
    if (x.id != y.id || x.code_bytes != y.code_bytes || x.lds_segments != y.lds_segments) return false;
    if (x.wavefronts != y.wavefronts || x.per_cu.size() != y.per_cu.size()) return false;
    for (unsigned cu = 0; cu < x.per_cu.size(); ++cu) {
      const auto i = instructions_of(x, cu), j = instructions_of(y, cu);
      if (i.size() != j.size()) return false;
      for (size_t n = 0; n < i.size(); ++n)
        if (i[n].wavefront != j[n].wavefront || i[n].pages != j[n].pages || i[n].seq != j[n].seq ||
            i[n].compute_gap != j[n].compute_gap)
          return false;
    }
    for (size_t cu = 0; cu < x.per_cu.size(); ++cu) {
      if (x.per_cu[cu].size() != y.per_cu[cu].size()) return false;
      for (size_t i = 0; i < x.per_cu[cu].size(); ++i)
        if (x.per_cu[cu][i].vpn != y.per_cu[cu][i].vpn || x.per_cu[cu][i].vmid != y.per_cu[cu][i].vmid)
          return false;
    }
  }
  return true;
}

std::string text_of(const tr::Trace& t, unsigned version = 2) {
  std::ostringstream out;
  tr::write(out, t, version);
  return out.str();
}

tr::Trace parse(const std::string& text) {
  std::istringstream in(text);
  return tr::read(in);
}

std::string read_error(const std::string& text) {
  try {
    parse(text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

tr::Trace hand_made() {
  tr::Trace t;
  t.cus = 3;
  t.workload = "my app, run 2";
  tr::Kernel a;
  a.id = 7;
  a.code_bytes = 12288;
  a.lds_segments = 0;
  a.per_cu = {{{0x10000, 0}, {0x10001, 0}, {0xabcdef, 3}}, {}, {{0xffffffffffffffffull, 1}}};
  tr::Kernel b;
  b.id = 7;  // the same code back to back
  b.code_bytes = 0;
  b.lds_segments = 512;
  b.per_cu = {{{5, 0}}, {{6, 0}, {6, 0}}, {}};
  b.wavefronts = 1;
  t.kernels = {a, b};
  return t;
}

// Version 2: two wavefronts on CU 0, a divergent instruction, compute gaps,
// an address space; CU 1 without instructions (one-page ones of wavefront 0).
tr::Trace with_instructions() {
  tr::Trace t;
  t.cus = 2;
  t.workload = "wavefronts";
  tr::Kernel k;
  k.id = 4;
  k.code_bytes = 4096;
  k.lds_segments = 1;
  k.wavefronts = 8;
  k.per_cu = {{{0x100, 0}, {0x101, 0}, {0x102, 0}, {0x200, 0}, {0x300, 5}}, {{0x400, 0}, {0x400, 0}}};
  k.instructions = {{{0, 3, 0, 2}, {1, 1, 1, 0}, {0, 1, 7, 40}}, {}};
  t.kernels = {k};
  return t;
}

const std::string kHead = "txgen-trace 1\ncus 2\nkernel 0 code_bytes 8192 lds_segments 0\n";
const std::string kHead2 = "txgen-trace 2\ncus 2\nkernel 0 code_bytes 8192 lds_segments 0 wavefronts 4\n";

std::vector<uint64_t> per_cu_totals(const tr::Trace& t) {
  std::vector<uint64_t> n(t.cus, 0);
  for (const auto& k : t.kernels)
    for (unsigned cu = 0; cu < t.cus; ++cu) n[cu] += k.per_cu[cu].size();
  return n;
}

tr::GenOptions options(tr::Kind kind) {
  tr::GenOptions o;
  o.kind = kind;
  o.cus = 4;
  o.footprint_pages = 2048;
  o.max_requests_per_cu = 1000000;
  o.seed = 11;
  return o;
}

const std::vector<tr::Kind> kAllKinds = {tr::Kind::Atax, tr::Kind::Bicg, tr::Kind::Mvt,     tr::Kind::Gesummv,
                                         tr::Kind::Gups, tr::Kind::Bfs,  tr::Kind::LdsHeavy};

// The documented footprint tolerance of each kind (docs/verification.md).
double tolerance(tr::Kind kind) {
  switch (kind) {
    case tr::Kind::Gups:
    case tr::Kind::LdsHeavy: return 0.0;
    case tr::Kind::Bfs: return 0.20;
    default: return 0.02;  // whole rows, plus the vectors' pages
  }
}

unsigned expected_kernels(tr::Kind kind) { return kind == tr::Kind::Gesummv ? 1 : 2; }

}  // namespace

// ---- format

TEST(TraceFormat, RoundTripKeepsEverything) {
  const tr::Trace t = hand_made();
  const std::string text = text_of(t);
  const tr::Trace back = parse(text);
  EXPECT_TRUE(same(t, back));
  EXPECT_EQ(text_of(back), text);
  EXPECT_EQ(t.requests(), 7u);
  EXPECT_EQ(t.distinct_pages(), 6u);  // (vmid, vpn): 0x6 twice, 0x5, 0x10000, 0x10001, 0xabcdef/3, max/1
}

TEST(TraceFormat, WriterTextIsDocumented) {
  tr::Trace t;
  t.cus = 2;
  t.workload = "demo";
  tr::Kernel k;
  k.code_bytes = 8192;
  k.per_cu = {{{0x10000, 0}, {0x10001, 0}}, {{0x20400, 1}}};
  t.kernels = {k};
  EXPECT_EQ(text_of(t, 1),
            "txgen-trace 1\ncus 2\nworkload demo\nkernel 0 code_bytes 8192 lds_segments 0\n"
            "0 10000\n1 20400 1\n0 10001\n");
  EXPECT_EQ(text_of(t),
            "txgen-trace 2\ncus 2\nworkload demo\nkernel 0 code_bytes 8192 lds_segments 0 wavefronts 1\n"
            "0 0 0 0 10000\n1 0 0 0 20400 vmid 1\n0 0 1 0 10001\n");
  EXPECT_EQ(text_of(with_instructions()),
            "txgen-trace 2\ncus 2\nworkload wavefronts\nkernel 4 code_bytes 4096 lds_segments 1 wavefronts 8\n"
            "0 0 0 2 100 101 102\n1 0 0 0 400\n0 1 1 0 200\n1 0 1 0 400\n0 0 7 40 300 vmid 5\n");
}

TEST(TraceFormat, Version2RoundTripsAndVersion1FlattensIt) {
  const tr::Trace t = with_instructions();
  const tr::Trace back = parse(text_of(t));
  ASSERT_TRUE(back.kernels[0].has_instructions(1));  // read back as explicit one-page instructions
  EXPECT_EQ(text_of(back), text_of(t));
  EXPECT_EQ(back.instructions(), 5u);
  EXPECT_EQ(back.requests(), 7u);
  EXPECT_EQ(back.kernels[0].instructions[0][2].compute_gap, 40u);
  const tr::Trace flat = parse(text_of(t, 1));
  EXPECT_FALSE(flat.kernels[0].has_instructions(0));
  EXPECT_EQ(flat.kernels[0].wavefronts, 1u);
  EXPECT_EQ(flat.requests(), 7u);
  EXPECT_EQ(flat.instructions(), 7u);  // every request its own instruction
  for (unsigned cu = 0; cu < 2; ++cu)
    for (size_t i = 0; i < t.kernels[0].per_cu[cu].size(); ++i)
      EXPECT_EQ(flat.kernels[0].per_cu[cu][i].vpn, t.kernels[0].per_cu[cu][i].vpn);
}

TEST(TraceFormat, InvalidTracesAreNotWritten) {
  tr::Trace t = with_instructions();
  t.kernels[0].instructions[0][0].pages = 4;  // covers more than the stream
  EXPECT_THROW(text_of(t), std::invalid_argument);
  t = with_instructions();
  t.kernels[0].instructions[0][1].pages = 0;
  EXPECT_THROW(text_of(t), std::invalid_argument);
  t = with_instructions();
  t.kernels[0].wavefronts = 0;
  EXPECT_THROW(text_of(t), std::invalid_argument);
  t = with_instructions();
  t.kernels[0].per_cu[0][1].vmid = 2;  // one instruction, two address spaces
  EXPECT_THROW(text_of(t), std::invalid_argument);
}

TEST(TraceFormat, ReaderAcceptsCommentsBlankLinesAndPrefixes) {
  const tr::Trace t = parse(
      "# a user's trace\n\ntxgen-trace 1   # version\ncus 2\nworkload  spaced label  \n"
      "kernel 3 code_bytes 64 lds_segments 2\n1 0x1F   # cu 1\n\n0 1f 2\n");
  EXPECT_EQ(t.workload, "spaced label");
  ASSERT_EQ(t.kernels.size(), 1u);
  EXPECT_EQ(t.kernels[0].id, 3u);
  EXPECT_EQ(t.kernels[0].lds_segments, 2u);
  ASSERT_EQ(t.kernels[0].per_cu[1].size(), 1u);
  EXPECT_EQ(t.kernels[0].per_cu[1][0].vpn, 0x1fu);
  EXPECT_EQ(t.kernels[0].per_cu[0][0].vmid, 2u);
}

TEST(TraceFormat, ReaderErrorsNameTheLineAndTheReason) {
  const std::map<std::string, std::string> cases = {
      {"", "line 1: missing header 'txgen-trace 2' (empty input)"},
      {"# only a comment\n", "line 2: missing header 'txgen-trace 2' (empty input)"},
      {"cus 2\n", "line 1: missing header 'txgen-trace 2' before 'cus'"},
      {"txgen-trace 3\n", "line 1: unsupported header: expected 'txgen-trace 2' (or 1)"},
      {"txgen-trace 1\n", "line 2: missing 'cus' line"},
      {"txgen-trace 1\ncus 0\n", "line 2: cus must be at least 1"},
      {"txgen-trace 1\ncus 2\ncus 2\n", "line 3: second 'cus' line"},
      {"txgen-trace 1\ncus 2\nfoo 1\n", "line 3: unknown keyword 'foo'"},
      {"txgen-trace 1\ncus 2\n0 10\n", "line 3: request before any kernel"},
      {"txgen-trace 1\nkernel 0 code_bytes 1 lds_segments 0\n", "line 2: kernel before the 'cus' line"},
      {"txgen-trace 1\ncus 2\nkernel 0 code_bytes 1\n",
       "line 3: expected 'kernel <id> code_bytes <n> lds_segments <n>'"},
      {"txgen-trace 1\ncus 2\nkernel 0 code_bytes x lds_segments 0\n",
       "line 3: bad code_bytes 'x': expected a decimal number"},
      {kHead + "2 10\n", "line 4: CU index 2 >= cus 2"},
      {kHead + "0 10\n1 1g\n", "line 5: bad VPN '1g': expected at most 16 hex digits"},
      {kHead + "0 0x\n", "line 4: bad VPN '0x': expected at most 16 hex digits"},
      {kHead + "0 12345678901234567\n", "line 4: bad VPN '12345678901234567': expected at most 16 hex digits"},
      {kHead + "0\n", "line 4: expected '<cu> <vpn in hex> [<vmid>]'"},
      {kHead + "0 10 1 2\n", "line 4: expected '<cu> <vpn in hex> [<vmid>]'"},
      {kHead + "0 10 -1\n", "line 4: bad vmid '-1': expected a decimal number"},
      {kHead + "workload late\n", "line 4: 'workload' after the first kernel"},
      // version 2
      {"txgen-trace 2\ncus 2\nkernel 0 code_bytes 1 lds_segments 0\n",
       "line 3: expected 'kernel <id> code_bytes <n> lds_segments <n> wavefronts <n>'"},
      {"txgen-trace 2\ncus 2\nkernel 0 code_bytes 1 lds_segments 0 wavefronts 0\n",
       "line 3: wavefronts must be at least 1"},
      {"txgen-trace 2\ncus 2\n0 0 0 0 10\n", "line 3: instruction before any kernel"},
      {kHead2 + "0 0 0 0\n", "line 4: expected '<cu> <wavefront> <seq> <gap> <vpn> [<vpn> ...] [vmid <n>]'"},
      {kHead2 + "0 0 0 0 vmid 1\n",
       "line 4: expected '<cu> <wavefront> <seq> <gap> <vpn> [<vpn> ...] [vmid <n>]'"},
      {kHead2 + "0 0 0 0 10 vmid x\n", "line 4: bad vmid 'x': expected a decimal number"},
      {kHead2 + "0 x 0 0 10\n", "line 4: bad wavefront 'x': expected a decimal number"},
      {kHead2 + "0 0 0 -2 10\n", "line 4: bad compute gap '-2': expected a decimal number"},
      {kHead2 + "0 0 0 0 10 11 1z\n", "line 4: bad VPN '1z': expected at most 16 hex digits"},
      {kHead2 + "0 0 0 0 10 11 10\n", "line 4: page 10 twice in one instruction"},
      {kHead2 + "0 3 5 0 10\n1 3 1 0 10\n0 3 5 0 11\n",
       "line 6: sequence number 5 of CU 0 wavefront 3 is not above its previous 5"},
      {kHead2 + "2 0 0 0 10\n", "line 4: CU index 2 >= cus 2"},
  };
  for (const auto& [text, message] : cases) EXPECT_EQ(read_error(text), message) << text;
}

TEST(TraceFormat, FilesAreWrittenAtomicallyAndReadBack) {
  const auto dir = std::filesystem::temp_directory_path() / ("txgen_trace_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "t.trace").string();
  tr::write_file(file, hand_made());
  EXPECT_FALSE(std::filesystem::exists(file + ".tmp"));
  EXPECT_TRUE(same(tr::read_file(file), hand_made()));
  const std::string missing_dir = (dir / "no" / "t.trace").string();
  EXPECT_THROW(tr::write_file(missing_dir, hand_made()), std::runtime_error);
  EXPECT_FALSE(std::filesystem::exists(missing_dir + ".tmp"));
  // gzip, by the name
  const std::string gz = (dir / "t.trace.gz").string();
  tr::write_file(gz, with_instructions());
  std::ifstream raw(gz, std::ios::binary);
  EXPECT_EQ(raw.get(), 0x1f);  // the gzip magic
  EXPECT_TRUE(same(tr::read_file(gz), with_instructions()));
  std::ofstream(dir / "corrupt.trace.gz") << "\x1f\x8b\x08\x00garbage";
  EXPECT_THROW(tr::read_file((dir / "corrupt.trace.gz").string()), std::runtime_error);
  std::ofstream(dir / "bad.trace") << "txgen-trace 1\ncus 1\nbogus\n";
  try {
    tr::read_file((dir / "bad.trace").string());
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "bad.trace").string() + ": line 3: unknown keyword 'bogus'");
  }
  EXPECT_THROW(tr::read_file((dir / "absent.trace").string()), std::runtime_error);
  std::filesystem::remove_all(dir);
}

TEST(TraceFormat, LabelsThatWouldNotReadBackAreRefused) {
  tr::Trace t = hand_made();
  for (const std::string label : {"a # b", "two\nlines", " padded"}) {
    t.workload = label;
    EXPECT_THROW(text_of(t), std::invalid_argument) << label;
  }
}

// ---- workloads

TEST(TraceKinds, NamesRoundTripAndUnknownNamesListTheValidOnes) {
  for (tr::Kind k : kAllKinds) EXPECT_EQ(tr::kind_from_name(tr::name_of(k)), k);
  try {
    tr::kind_from_name("spmv");
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "unknown workload kind 'spmv'; valid kinds: atax, bicg, mvt, gesummv, gups, bfs, lds_heavy");
  }
}

TEST(TraceKinds, DeterministicForASeedDifferentForAnother) {
  for (tr::Kind k : kAllKinds) {
    const tr::GenOptions o = options(k);
    tr::GenOptions other = o;
    other.seed = o.seed + 1;
    EXPECT_TRUE(same(tr::generate(o), tr::generate(o))) << tr::name_of(k);
    EXPECT_FALSE(same(tr::generate(o), tr::generate(other))) << tr::name_of(k);
  }
}

TEST(TraceKinds, FootprintWithinTheDocumentedTolerance) {
  for (tr::Kind k : kAllKinds)
    for (uint64_t pages : {uint64_t{2048}, uint64_t{9216}}) {
      tr::GenOptions o = options(k);
      o.footprint_pages = pages;
      o.max_requests_per_cu = tr::full_requests_per_cu(o);
      const double distinct = static_cast<double>(tr::generate(o).distinct_pages());
      EXPECT_NEAR(distinct / static_cast<double>(pages), 1.0, tolerance(k) + 1e-9) << tr::name_of(k) << " " << pages;
    }
}

TEST(TraceKinds, ShapeCusVmidAndVpnRange) {
  for (tr::Kind k : kAllKinds) {
    tr::GenOptions o = options(k);
    o.code_bytes = 4096;
    const tr::Trace t = tr::generate(o);
    EXPECT_EQ(t.cus, 4u);
    EXPECT_EQ(t.workload, tr::name_of(k));
    if (k == tr::Kind::Bfs) {
      EXPECT_GE(t.kernels.size(), 4u);
      EXPECT_LE(t.kernels.size(), 24u);
    } else {
      EXPECT_EQ(t.kernels.size(), expected_kernels(k)) << tr::name_of(k);
    }
    for (size_t i = 0; i < t.kernels.size(); ++i) {
      const tr::Kernel& kernel = t.kernels[i];
      EXPECT_EQ(kernel.id, k == tr::Kind::Bfs ? 0u : i) << tr::name_of(k);  // BFS: one kernel, launched per level
      EXPECT_EQ(kernel.wavefronts, 40u);
      EXPECT_EQ(kernel.code_bytes, 4096u);
      EXPECT_EQ(kernel.lds_segments, k == tr::Kind::LdsHeavy ? 64u : 0u) << tr::name_of(k);
      ASSERT_EQ(kernel.per_cu.size(), 4u);
      for (const auto& stream : kernel.per_cu) {
        EXPECT_FALSE(stream.empty()) << tr::name_of(k) << " kernel " << i;
        for (const auto& r : stream) {
          EXPECT_EQ(r.vmid, 0u);
          ASSERT_GE(r.vpn, 0x10000u);
          ASSERT_LT(r.vpn, tr::kVpnLimit);
        }
      }
    }
  }
}

TEST(TraceKinds, CapIsHonouredAndSharedByTheKernels) {
  for (tr::Kind k : kAllKinds) {
    tr::GenOptions o = options(k);
    o.max_requests_per_cu = 300;
    const tr::Trace t = tr::generate(o);
    for (uint64_t n : per_cu_totals(t)) EXPECT_LE(n, 300u) << tr::name_of(k);
    for (const auto& kernel : t.kernels)
      for (const auto& stream : kernel.per_cu) EXPECT_FALSE(stream.empty()) << tr::name_of(k);
  }
  // Atax: the column kernel keeps its share instead of being starved by the first
  tr::GenOptions o = options(tr::Kind::Atax);
  o.max_requests_per_cu = 1000;
  const tr::Trace t = tr::generate(o);
  EXPECT_GT(t.kernels[0].per_cu[0].size(), 100u);
  EXPECT_GT(t.kernels[1].per_cu[0].size(), 500u);
  // fewer kernels than the cap: one request each
  o.max_requests_per_cu = 1;
  for (uint64_t n : per_cu_totals(tr::generate(o))) EXPECT_EQ(n, 2u);
}

TEST(TraceKinds, FullRequestsCutNothing) {
  for (tr::Kind k : {tr::Kind::Atax, tr::Kind::Gesummv, tr::Kind::Gups, tr::Kind::LdsHeavy}) {
    tr::GenOptions o = options(k);
    const tr::Trace unbounded = tr::generate(o);
    o.max_requests_per_cu = tr::full_requests_per_cu(o);
    const std::vector<uint64_t> n = per_cu_totals(unbounded);
    EXPECT_EQ(o.max_requests_per_cu, *std::max_element(n.begin(), n.end()));
    EXPECT_TRUE(same(tr::generate(o), unbounded)) << tr::name_of(k);
  }
}

TEST(TraceKinds, AtaxColumnKernelStridesOneRowOfPages) {
  tr::GenOptions o = options(tr::Kind::Atax);
  o.footprint_pages = 9216;  // 3072 rows x 3072 floats: 3 pages a row
  const tr::Trace t = tr::generate(o);
  for (unsigned cu = 0; cu < o.cus; ++cu) {
    const auto& s = t.kernels[1].per_cu[cu];
    size_t row_stride = 0;
    for (size_t i = 1; i < s.size(); ++i) row_stride += s[i].vpn == s[i - 1].vpn + 3;
    // the exceptions: a new column block every 3072 rows, a vector page every 1024
    EXPECT_GT(static_cast<double>(row_stride) / static_cast<double>(s.size() - 1), 0.99) << cu;
  }
  // the thread-per-row kernel: a wavefront's 64 rows, one page each, row_pages
  // apart, revisited `touches` times before the next page column
  const auto& s = t.kernels[0].per_cu[0];
  for (size_t i = 1; i < 64; ++i) EXPECT_EQ(s[i].vpn, s[0].vpn + 3 * i) << i;
  EXPECT_EQ(s[64].vpn, s[0].vpn);  // the second step over the same 64 pages
  std::set<uint64_t> live;
  for (size_t i = 0; i < 64 * o.touches_per_page; ++i) live.insert(s[i].vpn);
  EXPECT_EQ(live.size(), 64u);
}

TEST(TraceKinds, BicgRunsTheColumnKernelFirstAndGesummvReadsTwoMatrices) {
  tr::GenOptions o = options(tr::Kind::Bicg);
  o.footprint_pages = 9216;
  const tr::Trace bicg = tr::generate(o);
  const auto& s = bicg.kernels[0].per_cu[0];
  EXPECT_EQ(s[2].vpn, s[1].vpn + 3);  // s[0] is the vector
  o.kind = tr::Kind::Gesummv;
  o.touches_per_page = 2;
  const tr::Trace gesummv = tr::generate(o);
  const auto& g = gesummv.kernels[0].per_cu[0];
  // one load of the wavefront's 64 rows of A, then one of B (another region)
  ASSERT_GE(gesummv.kernels[0].instructions[0][0].pages, 64u);
  const uint64_t stride = g[1].vpn - g[0].vpn;  // the next row of A
  EXPECT_EQ(g[2].vpn - g[1].vpn, stride);
  EXPECT_GE(g[64].vpn, g[0].vpn + 0x10000 - 0x1000);
  EXPECT_EQ(g[65].vpn - g[64].vpn, stride);  // ... and of B, the same stride
}

TEST(TraceKinds, BfsHasHotPages) {
  tr::GenOptions o = options(tr::Kind::Bfs);
  o.footprint_pages = 8192;
  o.max_requests_per_cu = tr::full_requests_per_cu(o);
  const tr::Trace t = tr::generate(o);
  std::map<uint64_t, uint64_t> hits;
  for (const auto& k : t.kernels)
    for (const auto& stream : k.per_cu)
      for (const auto& r : stream) ++hits[r.vpn];
  std::vector<uint64_t> counts;
  for (const auto& [vpn, n] : hits) counts.push_back(n);
  std::sort(counts.rbegin(), counts.rend());
  uint64_t top = 0;
  for (size_t i = 0; i < counts.size() / 100; ++i) top += counts[i];
  EXPECT_GT(static_cast<double>(top) / static_cast<double>(t.requests()), 0.10);
}

TEST(TraceKinds, LdsHeavyHoldsTheGivenSegments) {
  tr::GenOptions o = options(tr::Kind::LdsHeavy);
  o.lds_segments = 512;
  for (const auto& k : tr::generate(o).kernels) EXPECT_EQ(k.lds_segments, 512u);
}

TEST(TraceKinds, GupsUpdatesSpreadOverTheTable) {
  const tr::Trace t = tr::generate(options(tr::Kind::Gups));
  tr::Trace update = t;
  update.kernels.erase(update.kernels.begin());
  // 2048 uniform draws over 2048 pages: about 1 - 1/e of them distinct
  EXPECT_NEAR(static_cast<double>(update.distinct_pages()) / 2048.0, 0.632, 0.05);
}

TEST(TraceKinds, BadOptionsAreRefused) {
  tr::GenOptions o = options(tr::Kind::Gups);
  o.cus = 0;
  EXPECT_THROW(tr::generate(o), std::invalid_argument);
  o = options(tr::Kind::Gups);
  o.footprint_pages = tr::kMaxFootprintPages + 1;
  EXPECT_THROW(tr::generate(o), std::invalid_argument);
  o = options(tr::Kind::Atax);
  o.touches_per_page = 0;
  EXPECT_THROW(tr::generate(o), std::invalid_argument);
  // the largest footprint still fits below 2^20
  for (tr::Kind k : {tr::Kind::Gesummv, tr::Kind::Gups, tr::Kind::LdsHeavy}) {
    o = options(k);
    o.footprint_pages = tr::kMaxFootprintPages;
    o.max_requests_per_cu = 10;
    EXPECT_NO_THROW(tr::generate(o)) << tr::name_of(k);
  }
}

// ---- instructions and wavefronts (version 2)

// Pages per instruction of kernel k, over all CUs.
std::vector<uint32_t> pages_per_instruction(const tr::Trace& t, size_t k) {
  std::vector<uint32_t> n;
  for (const auto& cu : t.kernels[k].instructions)
    for (const auto& i : cu) n.push_back(i.pages);
  return n;
}

double mean_of(const std::vector<uint32_t>& v) {
  double sum = 0;
  for (uint32_t x : v) sum += x;
  return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

TEST(TraceKinds, InstructionsCoverEveryStreamWithWavefrontsInOrder) {
  for (tr::Kind k : kAllKinds) {
    const tr::Trace t = tr::generate(options(k));
    EXPECT_NO_THROW(tr::validate(t)) << tr::name_of(k);
    for (const auto& kernel : t.kernels)
      for (unsigned cu = 0; cu < t.cus; ++cu) {
        ASSERT_TRUE(kernel.has_instructions(cu)) << tr::name_of(k);
        std::map<uint32_t, uint64_t> last;
        for (const auto& i : kernel.instructions[cu]) {
          if (last.count(i.wavefront)) {
            EXPECT_GT(i.seq, last[i.wavefront]);
          }
          last[i.wavefront] = i.seq;
          EXPECT_GT(i.compute_gap, 0u);
        }
      }
  }
}

// Thread-per-row loads and GUPS's random updates diverge (a page per lane);
// the column kernel and the stencil stream (one page an instruction).
TEST(TraceKinds, DivergenceFollowsTheAccessPattern) {
  const tr::Trace atax = tr::generate(options(tr::Kind::Atax));
  EXPECT_GT(mean_of(pages_per_instruction(atax, 0)), 30.0);
  EXPECT_EQ(mean_of(pages_per_instruction(atax, 1)), 1.0);
  const tr::Trace gups = tr::generate(options(tr::Kind::Gups));
  EXPECT_EQ(mean_of(pages_per_instruction(gups, 0)), 1.0);
  EXPECT_GT(mean_of(pages_per_instruction(gups, 1)), 40.0);
  const tr::Trace bfs = tr::generate(options(tr::Kind::Bfs));
  EXPECT_GT(mean_of(pages_per_instruction(bfs, bfs.kernels.size() / 3)), 2.0);
  const tr::Trace lds = tr::generate(options(tr::Kind::LdsHeavy));
  EXPECT_EQ(mean_of(pages_per_instruction(lds, 0)), 1.0);
}

// Version 1 keeps the earlier generator's shape: no instructions, a request
// per lane, every launch its own id; the request streams equal version 2's
// where instructions are contiguous runs of distinct pages (Atax, LdsHeavy).
TEST(TraceKinds, Version1DropsInstructionsAndNumbersLaunches) {
  for (tr::Kind k : {tr::Kind::Atax, tr::Kind::Gups, tr::Kind::Bfs, tr::Kind::LdsHeavy}) {
    tr::GenOptions o = options(k);
    const tr::Trace v2 = tr::generate(o);
    o.version = 1;
    const tr::Trace v1 = tr::generate(o);
    for (size_t i = 0; i < v1.kernels.size(); ++i) {
      EXPECT_EQ(v1.kernels[i].id, i);
      EXPECT_TRUE(v1.kernels[i].instructions.empty());
      if (k != tr::Kind::Atax && k != tr::Kind::LdsHeavy) continue;
      for (unsigned cu = 0; cu < o.cus; ++cu) {
        const auto &a = v1.kernels[i].per_cu[cu], &b = v2.kernels[i].per_cu[cu];
        ASSERT_EQ(a.size(), b.size()) << tr::name_of(k);
        for (size_t n = 0; n < a.size(); ++n) ASSERT_EQ(a[n].vpn, b[n].vpn) << tr::name_of(k) << " " << n;
      }
    }
    if (k == tr::Kind::Gups) {
      EXPECT_GT(v1.requests(), v2.requests());  // the lanes' repeated pages
    }
  }
}

TEST(TraceKinds, WavefrontSlotsAreWrittenOnEveryKernel) {
  tr::GenOptions o = options(tr::Kind::Mvt);
  o.wavefronts = 10;
  for (const auto& k : tr::generate(o).kernels) EXPECT_EQ(k.wavefronts, 10u);
  o.wavefronts = 0;
  EXPECT_THROW(tr::generate(o), std::invalid_argument);
  o.wavefronts = 1;
  o.version = 3;
  EXPECT_THROW(tr::generate(o), std::invalid_argument);
}
