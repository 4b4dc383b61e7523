// Accel-Sim trace import (gen/include/txgen/trace/accelsim.h;
// docs/trace_import.md): the address modes and both line layouts, the
// mapping onto CUs and wavefronts, the per-kernel fields, and every error.
// Fixtures: tests/data/accelsim/{modes,legacy}; the error cases and the
// 300 KB trace write their traces into a temporary directory.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "txgen/trace/accelsim.h"

namespace tr = txgen::trace;
namespace fs = std::filesystem;

namespace {

const fs::path kData = fs::path(TXGEN_SOURCE_DIR) / "tests" / "data" / "accelsim";

std::string modes_list() { return (kData / "modes" / "kernelslist.g").string(); }
std::string legacy_list() { return (kData / "legacy" / "kernelslist.g").string(); }

tr::ImportOptions options(unsigned cus) {
  tr::ImportOptions o;
  o.cus = cus;
  return o;
}

// One expected txgen instruction: its wavefront, pages, seq and compute gap.
struct Expected {
  uint32_t wavefront;
  std::vector<uint64_t> vpns;
  uint64_t seq, gap;
};

// The instructions of one CU with their requests, checked together (the
// requests are the instructions' pages in order, vmid 0).
void expect_cu(const tr::Kernel& k, unsigned cu, const std::vector<Expected>& want) {
  ASSERT_LT(cu, k.instructions.size());
  const auto& ins = k.instructions[cu];
  const auto& req = k.per_cu[cu];
  ASSERT_EQ(ins.size(), want.size()) << "CU " << cu;
  size_t r = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("CU " + std::to_string(cu) + " instruction " + std::to_string(i));
    EXPECT_EQ(ins[i].wavefront, want[i].wavefront);
    EXPECT_EQ(ins[i].seq, want[i].seq);
    EXPECT_EQ(ins[i].compute_gap, want[i].gap);
    ASSERT_EQ(ins[i].pages, want[i].vpns.size());
    for (uint64_t vpn : want[i].vpns) {
      ASSERT_LT(r, req.size());
      EXPECT_EQ(req[r].vpn, vpn);
      EXPECT_EQ(req[r].vmid, 0u);
      ++r;
    }
  }
  EXPECT_EQ(r, req.size()) << "requests beyond the instructions' pages";
}

// ------------------------------------------------------------ temporary traces

std::string standard_header(unsigned version = 5, const std::string& block_dim = "(32,1,1)") {
  return "-kernel name = _Z3badv\n"
         "-kernel id = 1\n"
         "-grid dim = (1,1,1)\n"
         "-block dim = " + block_dim + "\n"
         "-shmem = 0\n"
         "-nregs = 8\n"
         "-binary version = 70\n"
         "-cuda stream id = 0\n"
         "-shmem base_addr = 0x00007ff000000000\n"
         "-local mem base_addr = 0x00007ff001000000\n"
         "-nvbit version = 1.5.5\n"
         "-accelsim tracer version = " + std::to_string(version) + "\n"
         "-enable lineinfo = 0\n"
         "\n"
         "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
         "[adrrescompress?] [mem_addresses] immediate\n"
         "\n";
}

// A trace directory under the system temporary directory, removed at the end.
class TempTrace {
 public:
  explicit TempTrace(const std::string& name)
      : dir_(fs::temp_directory_path() / ("txgen_accelsim_" + std::to_string(::getpid()) + "_" + name)) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~TempTrace() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  TempTrace(const TempTrace&) = delete;
  TempTrace& operator=(const TempTrace&) = delete;

  std::string write(const std::string& file, const std::string& text) const {
    std::ofstream(dir_ / file, std::ios::binary) << text;
    return (dir_ / file).string();
  }
  // kernelslist.g naming kernel-1.traceg, which holds `kernel`.
  std::string one_kernel(const std::string& kernel) const {
    write("kernel-1.traceg", kernel);
    return write("kernelslist.g", "kernel-1.traceg\n");
  }
  std::string path(const std::string& file) const { return (dir_ / file).string(); }

 private:
  fs::path dir_;
};

// 1-based number of the first line of `text` containing `needle`.
uint64_t line_of(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  std::string line;
  for (uint64_t n = 1; std::getline(in, line); ++n)
    if (line.find(needle) != std::string::npos) return n;
  ADD_FAILURE() << "no line contains " << needle;
  return 0;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

// Imports the one-kernel trace and checks that the error names the kernel
// file, the line holding `needle` (or `line` when given) and the reason.
void expect_kernel_error(const std::string& case_name, const std::string& kernel, const std::string& needle,
                         const std::string& reason, uint64_t line = 0) {
  TempTrace t(case_name);
  const std::string list = t.one_kernel(kernel);
  const std::string what = error_of([&] { tr::import_accelsim(list, options(2)); });
  const uint64_t at = line != 0 ? line : line_of(kernel, needle);
  EXPECT_NE(what.find(t.path("kernel-1.traceg") + ":" + std::to_string(at) + ": "), std::string::npos)
      << "expected file and line " << at << " in: " << what;
  EXPECT_NE(what.find(reason), std::string::npos) << "expected '" << reason << "' in: " << what;
}

std::string one_warp(const std::string& insts, const std::string& lines) {
  return "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = " + insts + "\n" + lines + "\n#END_TB\n";
}

}  // namespace

// ------------------------------------------------------------ address modes and lanes

// kernel-1 of modes/: base+stride crossing a page (lanes 0..31 from 0x...f80,
// stride 8), a 4-lane list, a 2-lane base+delta, a negative stride over the
// upper 16 lanes, a lane-0-and-31 list, a single-lane base+delta (no delta).
TEST(AccelsimImport, EveryAddressModeAndInactiveLanes) {
  const tr::Trace t = tr::import_accelsim(modes_list(), options(2));
  ASSERT_EQ(t.kernels.size(), 3u);
  const tr::Kernel& k = t.kernels[0];
  expect_cu(k, 0,
            {
                {0, {0x7f0000000, 0x7f0000001}, 0, 2},               // mode 1, crosses into the next page
                {0, {0x7f0000005, 0x7f0000002, 0x7f0000009}, 1, 0},  // mode 0, mask 0000000f: 4 addresses
                {0, {0x7f0000010, 0x7f0000012}, 2, 1},               // mode 2, mask 0000000a: lanes 1 and 3
                {1, {0x7f0000020, 0x7f000001f}, 3, 2},               // mode 1, stride -4 from lane 16
                {2, {0x7f0000050}, 6, 1},                            // thread block 2: CU 0 again
            });
  expect_cu(k, 1,
            {
                {0, {0x7f0000030}, 4, 2},  // mode 0, mask 80000001: lanes 0 and 31 share a page
                {1, {0x7f0000040}, 5, 1},  // mode 2 with one active lane: base only, then the immediate
            });
}

// Distinct pages in lane order, first occurrence kept: 5, 2, (5 again), 9.
TEST(AccelsimImport, PagesAreDistinctInLaneOrder) {
  const tr::Trace t = tr::import_accelsim(modes_list(), options(1));
  const auto& req = t.kernels[0].per_cu[0];
  const auto& ins = t.kernels[0].instructions[0];
  ASSERT_GE(ins.size(), 2u);
  EXPECT_EQ(ins[1].pages, 3u);
  ASSERT_GE(req.size(), 5u);
  EXPECT_EQ(req[2].vpn, 0x7f0000005u);
  EXPECT_EQ(req[3].vpn, 0x7f0000002u);
  EXPECT_EQ(req[4].vpn, 0x7f0000009u);
}

// Larger pages merge lanes: with 64 KB pages the stride instruction's two
// 4 KB pages are one.
TEST(AccelsimImport, PageSizeDividesAddresses) {
  tr::ImportOptions o = options(2);
  o.page_bytes = 65536;
  const tr::Trace t = tr::import_accelsim(modes_list(), o);
  const auto& ins = t.kernels[0].instructions[0];
  ASSERT_FALSE(ins.empty());
  EXPECT_EQ(ins[0].pages, 1u);
  EXPECT_EQ(t.kernels[0].per_cu[0][0].vpn, 0x7f0000000f80u >> 16);
}

// ------------------------------------------------------------ compute gaps

// IMAD+S2R before the first LDG (2); LDS between two LDGs (1); IMAD and an
// all-inactive LDG before an STG (2); IMAD and an unknown opcode (2); LDL (1).
TEST(AccelsimImport, ComputeGapsCountSharedLocalUnknownAndInactiveInstructions) {
  const tr::Trace t = tr::import_accelsim(modes_list(), options(2));
  const auto& cu0 = t.kernels[0].instructions[0];
  const auto& cu1 = t.kernels[0].instructions[1];
  ASSERT_EQ(cu0.size(), 5u);
  ASSERT_EQ(cu1.size(), 2u);
  EXPECT_EQ(cu0[0].compute_gap, 2u);
  EXPECT_EQ(cu0[2].compute_gap, 1u);  // LDS.U.32 (shared) is compute
  EXPECT_EQ(cu0[3].compute_gap, 2u);  // the mask-0 LDG is dropped and counts as compute
  EXPECT_EQ(cu1[0].compute_gap, 2u);  // BOGUSOP.X: an unknown opcode is compute, not an error
  EXPECT_EQ(cu1[1].compute_gap, 1u);  // LDL.LU (local) is compute
}

// ------------------------------------------------------------ mapping

// Thread block b goes to CU b % cus; its warp w is wavefront (b / cus) * warps + w.
TEST(AccelsimImport, ThreadBlocksRoundRobinAndWarpsToWavefronts) {
  const tr::Trace two = tr::import_accelsim(modes_list(), options(2));
  EXPECT_EQ(two.cus, 2u);
  for (const tr::Kernel& k : two.kernels) {
    EXPECT_EQ(k.per_cu.size(), 2u);
    EXPECT_EQ(k.instructions.size(), 2u);
  }
  // kernel-2: 3 warps a block; blocks 0, 2 on CU 0 and 1, 3 on CU 1.
  const tr::Kernel& k2 = two.kernels[1];
  ASSERT_EQ(k2.instructions[1].size(), 1u);
  EXPECT_EQ(k2.instructions[1][0].wavefront, 5u);  // block 3, warp 2: (3 / 2) * 3 + 2

  const tr::Trace one = tr::import_accelsim(modes_list(), options(1));
  std::vector<uint32_t> waves;
  for (const auto& ins : one.kernels[0].instructions[0]) waves.push_back(ins.wavefront);
  EXPECT_EQ(waves, (std::vector<uint32_t>{0, 0, 0, 1, 2, 3, 4}));  // blocks 0, 1, 2 of 2 warps on one CU

  const tr::Trace four = tr::import_accelsim(modes_list(), options(4));
  ASSERT_EQ(four.kernels[0].instructions.size(), 4u);
  EXPECT_EQ(four.kernels[0].instructions[2].size(), 1u);  // block 2 alone on CU 2
  EXPECT_EQ(four.kernels[0].instructions[2][0].wavefront, 0u);
  EXPECT_TRUE(four.kernels[0].instructions[3].empty());
  EXPECT_TRUE(four.kernels[0].per_cu[3].empty());
}

// seq counts a kernel's txgen instructions in file order, across CUs.
TEST(AccelsimImport, SequenceNumbersFollowTheFile) {
  const tr::Trace t = tr::import_accelsim(modes_list(), options(1));
  uint64_t expected = 0;
  for (const auto& ins : t.kernels[1].instructions[0]) EXPECT_EQ(ins.seq, expected++);
  EXPECT_EQ(expected, 5u);
}

// ------------------------------------------------------------ per-kernel fields

// kernel-1: 2 warps a block, 3 blocks; kernel-2: 3 warps, 4 blocks, 3000 B of
// shared memory a block.
TEST(AccelsimImport, WavefrontsAndLdsSegments) {
  tr::ImportOptions o = options(2);
  tr::Trace t = tr::import_accelsim(modes_list(), o);
  EXPECT_EQ(t.kernels[0].wavefronts, 4u);    // 40 slots fit 20 blocks; CU 0 gets 2
  EXPECT_EQ(t.kernels[0].lds_segments, 0u);  // no -shmem
  EXPECT_EQ(t.kernels[1].wavefronts, 6u);    // 2 blocks of 3 warps
  EXPECT_EQ(t.kernels[1].lds_segments, 6u);  // ceil(2 * 3000 / 1024)
  EXPECT_EQ(t.kernels[2].wavefronts, 1u);    // one block of one warp

  o.max_lds_segments = 4;
  t = tr::import_accelsim(modes_list(), o);
  EXPECT_EQ(t.kernels[1].lds_segments, 4u);  // capped

  o = options(2);
  o.wavefront_slots = 5;  // one block of 3 warps fits
  t = tr::import_accelsim(modes_list(), o);
  EXPECT_EQ(t.kernels[0].wavefronts, 4u);    // 2 blocks of 2 warps fit 5 slots
  EXPECT_EQ(t.kernels[1].wavefronts, 3u);
  EXPECT_EQ(t.kernels[1].lds_segments, 3u);  // ceil(3000 / 1024)

  o.wavefront_slots = 1;  // fewer slots than a block's warps: still one block
  t = tr::import_accelsim(modes_list(), o);
  EXPECT_EQ(t.kernels[0].wavefronts, 2u);
  EXPECT_EQ(t.kernels[1].wavefronts, 3u);

  o = options(4);  // one block a CU: the blocks a CU gets cap what fits
  t = tr::import_accelsim(modes_list(), o);
  EXPECT_EQ(t.kernels[1].wavefronts, 3u);
  EXPECT_EQ(t.kernels[1].lds_segments, 3u);

  o = options(2);
  o.lds_segment_bytes = 4096;
  t = tr::import_accelsim(modes_list(), o);
  EXPECT_EQ(t.kernels[1].lds_segments, 2u);  // ceil(6000 / 4096)
}

TEST(AccelsimImport, CodeBytesSpanThePcs) {
  const tr::Trace t = tr::import_accelsim(modes_list(), options(2));
  EXPECT_EQ(t.kernels[0].code_bytes, 0xb0u + 16);
  EXPECT_EQ(t.kernels[1].code_bytes, 0x80u + 16);
  EXPECT_EQ(t.kernels[2].code_bytes, 0x10u + 16);  // PCs 0x100 and 0x110

  TempTrace empty("no_instructions");
  const std::string list = empty.one_kernel(standard_header() + "#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n");
  const tr::Trace e = tr::import_accelsim(list, options(2));
  ASSERT_EQ(e.kernels.size(), 1u);
  EXPECT_EQ(e.kernels[0].code_bytes, 0u);
  EXPECT_EQ(e.kernels[0].wavefronts, 1u);
}

// kernel-1 and kernel-3 launch _Z6vecaddPfS_S_i; kernel-2 is another kernel.
TEST(AccelsimImport, LaunchesOfOneKernelShareItsId) {
  const tr::Trace t = tr::import_accelsim(modes_list(), options(2));
  ASSERT_EQ(t.kernels.size(), 3u);
  EXPECT_EQ(t.kernels[0].id, 0u);
  EXPECT_EQ(t.kernels[1].id, 1u);
  EXPECT_EQ(t.kernels[2].id, 0u);
}

// Memcpy lines (HtoD and DtoH) and blank lines of kernelslist.g are skipped.
TEST(AccelsimImport, KernelListSkipsMemcpyLinesAndCountsEverything) {
  tr::ImportStats s;
  const tr::Trace t = tr::import_accelsim(modes_list(), options(2), &s);
  EXPECT_EQ(s.kernels, 3u);
  EXPECT_EQ(s.memcpy_lines, 3u);
  EXPECT_EQ(s.instructions, 18u + 13u + 2u);
  EXPECT_EQ(s.global_instructions, 7u + 5u + 1u);
  EXPECT_EQ(s.requests, 12u + 5u + 1u);
  uint64_t bytes = 0;
  for (const char* f : {"kernel-1.traceg", "kernel-2.traceg", "kernel-3.traceg"})
    bytes += fs::file_size(kData / "modes" / f);
  EXPECT_EQ(s.bytes, bytes);
  uint64_t requests = 0, instructions = 0;
  for (const tr::Kernel& k : t.kernels)
    for (unsigned cu = 0; cu < t.cus; ++cu) {
      requests += k.per_cu[cu].size();
      instructions += k.instructions[cu].size();
    }
  EXPECT_EQ(requests, s.requests);
  EXPECT_EQ(instructions, s.global_instructions);
}

TEST(AccelsimImport, WorkloadIsTheDirectoryUnlessGiven) {
  EXPECT_EQ(tr::import_accelsim(modes_list(), options(2)).workload, "modes");
  tr::ImportOptions o = options(2);
  o.workload = "vecadd";
  EXPECT_EQ(tr::import_accelsim(modes_list(), o).workload, "vecadd");
}

// ------------------------------------------------------------ kernel-2: lineinfo, generic, LDGSTS

// -enable lineinfo = 1 puts a source line number first; generic LD/ST lanes in
// the shared window are not translated; an LDGSTS pair (shared side, then
// global side, one PC) is one instruction translating its global side; a
// lone LDGSTS line is compute.
TEST(AccelsimImport, LineInfoGenericAccessesAndLdgstsPairs) {
  const tr::Trace t = tr::import_accelsim(modes_list(), options(2));
  const tr::Kernel& k = t.kernels[1];
  expect_cu(k, 0,
            {
                {0, {0x7f0000060}, 0, 1},  // LD.E: lane 0 is in the shared window, lane 1 is global
                {0, {0x7f0000070}, 1, 1},  // the ST.E to the shared window is compute; then the LDGSTS pair
                {1, {0x7f0000080}, 2, 3},  // MOV, a lone LDGSTS and DEPBAR (with its immediate)
                {2, {0x7f0000090}, 3, 0},  // stride 0: one page
            });
  expect_cu(k, 1, {{5, {0x7f00000a0}, 4, 0}});
}

// ------------------------------------------------------------ the older layout

// Tracer versions before 3 (and traces without the version header) start
// every instruction line with the thread block and warp ids.
TEST(AccelsimImport, PrefixedLayoutOfTracerVersionsBefore3) {
  tr::ImportStats s;
  const tr::Trace t = tr::import_accelsim(legacy_list(), options(2), &s);
  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_EQ(s.memcpy_lines, 1u);
  const tr::Kernel& k1 = t.kernels[0];
  expect_cu(k1, 0,
            {
                {0, {0x7f0000100, 0x7f0000101, 0x7f0000102, 0x7f0000103}, 0, 1},  // base+delta, 3 deltas
                {1, {0x7f0000200}, 1, 0},  // list, lanes 0 and 4 (one page)
            });
  expect_cu(k1, 1, {{0, {0x7f0000300}, 2, 0}});
  EXPECT_EQ(k1.code_bytes, 0x30u + 16);
  EXPECT_EQ(k1.wavefronts, 2u);
  // no version header: the prefixed layout; no shared window: a generic ST is translated whole
  const tr::Kernel& k2 = t.kernels[1];
  expect_cu(k2, 0, {{0, {0x7ff000400}, 0, 1}});
  EXPECT_EQ(k2.id, 1u);
}

// The same instruction read in both layouts gives the same result.
TEST(AccelsimImport, BothLayoutsAgree) {
  const std::string body_v5 = "0010 0000000f 1 R2 LDG.E.64 1 R2 8 2 0x00007f0000100000 4096 4096 4096 0\n";
  const std::string body_v2 = "0 0 0 0 0010 0000000f 1 R2 LDG.E.64 1 R2 8 2 0x00007f0000100000 4096 4096 4096\n";
  TempTrace a("layout_v5"), b("layout_v2");
  const tr::Trace ta = tr::import_accelsim(a.one_kernel(standard_header(5) + one_warp("1", body_v5)), options(1));
  const tr::Trace tb = tr::import_accelsim(b.one_kernel(standard_header(2) + one_warp("1", body_v2)), options(1));
  ASSERT_EQ(ta.kernels[0].per_cu[0].size(), 4u);
  ASSERT_EQ(tb.kernels[0].per_cu[0].size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(ta.kernels[0].per_cu[0][i].vpn, tb.kernels[0].per_cu[0][i].vpn);
}

// Hopper-era opcodes whose operands the parser versions lay out differently
// (TMA, GMMA) are compute; version-6 fields after the immediate are ignored.
TEST(AccelsimImport, OpaqueOpcodesAndVersion6Tails) {
  TempTrace t("opaque");
  const std::string lines =
      "0000 ffffffff 0 UTMALDG.2D 2 UR4 UR8 16 0x1000 0 128 0 4 0x7f0000000000 1 0\n"
      "0010 ffffffff 1 R24 HGMMA.64x128x16.F32 2 UR4 UR6 1 0 0\n"
      "0020 00000001 1 R2 LDG.E 1 R2 4 2 0x00007f0000100000 0 0 NoVal\n";
  const tr::Trace tr6 = tr::import_accelsim(t.one_kernel(standard_header(6) + one_warp("3", lines)), options(1));
  expect_cu(tr6.kernels[0], 0, {{0, {0x7f0000100}, 0, 2}});
}

// ------------------------------------------------------------ options

TEST(AccelsimImport, OptionsAreValidated) {
  const auto field_of = [](const tr::ImportOptions& o) -> std::string {
    try {
      tr::import_accelsim(modes_list(), o);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "(accepted)";
  };
  tr::ImportOptions o;
  o.cus = 0;
  EXPECT_NE(field_of(o).find("cus"), std::string::npos);
  o.cus = 4097;
  EXPECT_NE(field_of(o).find("cus"), std::string::npos);
  o = {};
  o.page_bytes = 256;
  EXPECT_NE(field_of(o).find("page_bytes"), std::string::npos);
  o.page_bytes = 3 * 1024;
  EXPECT_NE(field_of(o).find("page_bytes"), std::string::npos);
  o = {};
  o.wavefront_slots = 0;
  EXPECT_NE(field_of(o).find("wavefront_slots"), std::string::npos);
  o = {};
  o.lds_segment_bytes = 0;
  EXPECT_NE(field_of(o).find("lds_segment_bytes"), std::string::npos);
  o = {};
  o.cus = 4096;
  o.page_bytes = 512;
  EXPECT_EQ(field_of(o), "(accepted)");
}

// ------------------------------------------------------------ errors

TEST(AccelsimImportErrors, MissingKernelListAndMissingKernelTrace) {
  const std::string nowhere = (fs::temp_directory_path() / "txgen_accelsim_no_such_dir" / "kernelslist.g").string();
  const std::string what = error_of([&] { tr::import_accelsim(nowhere, options(2)); });
  EXPECT_NE(what.find(nowhere), std::string::npos) << what;
  EXPECT_NE(what.find("cannot open"), std::string::npos) << what;

  TempTrace t("missing_kernel");
  t.write("kernel-1.traceg", standard_header() + one_warp("1", "0000 ffffffff 0 EXIT 0 0 0"));
  const std::string list = t.write("kernelslist.g", "MemcpyHtoD,0x1000,16\nkernel-1.traceg\n\nkernel-9.traceg\n");
  const std::string miss = error_of([&] { tr::import_accelsim(list, options(2)); });
  EXPECT_NE(miss.find(list + ":4: "), std::string::npos) << miss;
  EXPECT_NE(miss.find("cannot open kernel trace"), std::string::npos) << miss;
  EXPECT_NE(miss.find("kernel-9.traceg"), std::string::npos) << miss;

  fs::create_directories(t.path("kernel-2.traceg"));
  const std::string dir_list = t.write("dir.g", "kernel-1.traceg\nkernel-2.traceg\n");
  const std::string dir = error_of([&] { tr::import_accelsim(dir_list, options(2)); });
  EXPECT_NE(dir.find(dir_list + ":2: "), std::string::npos) << dir;
  EXPECT_NE(dir.find("is a directory"), std::string::npos) << dir;
}

TEST(AccelsimImportErrors, CompressedKernelTrace) {
  TempTrace t("xz");
  const std::string list = t.write("kernelslist.g", "kernel-1.traceg.xz\n");
  const std::string what = error_of([&] { tr::import_accelsim(list, options(2)); });
  EXPECT_NE(what.find(list + ":1: "), std::string::npos) << what;
  EXPECT_NE(what.find("decompress"), std::string::npos) << what;
}

TEST(AccelsimImportErrors, BadHex) {
  expect_kernel_error("bad_pc", standard_header() + one_warp("1", "00g0 ffffffff 0 EXIT 0 0 0"), "00g0",
                      "bad hex PC '00g0'");
  expect_kernel_error("bad_mask", standard_header() + one_warp("1", "0000 fffffffz 0 EXIT 0 0 0"), "fffffffz",
                      "bad hex active mask 'fffffffz'");
  expect_kernel_error("wide_mask", standard_header() + one_warp("1", "0000 1ffffffff 0 EXIT 0 0 0"), "1ffffffff",
                      "has more than 32 lanes");
  expect_kernel_error("bad_address",
                      standard_header() + one_warp("1", "0000 00000003 0 STG.E 2 R2 R3 4 0 0x7f00 0xq7f0 0"),
                      "0xq7f0", "bad hex address (one per active lane) 2 of 2 '0xq7f0'");
  expect_kernel_error("bad_base", standard_header() + one_warp("1", "0000 00000003 0 STG.E 2 R2 R3 4 1 0x7g00 4 0"),
                      "0x7g00", "bad hex base address '0x7g00'");
}

TEST(AccelsimImportErrors, FewerFieldsThanDeclared) {
  expect_kernel_error("short_list",
                      standard_header() + one_warp("1", "0000 0000000f 0 STG.E 2 R2 R3 4 0 0x7f00 0x7f04 0x7f08"),
                      "STG.E", "the line ends before the address (one per active lane) 4 of 4");
  expect_kernel_error("short_deltas",
                      standard_header() + one_warp("1", "0000 00000007 0 STG.E 2 R2 R3 4 2 0x7f00 4"), "STG.E",
                      "the line ends before the delta (one per further active lane) 2 of 2");
  expect_kernel_error("short_stride", standard_header() + one_warp("1", "0000 00000007 0 STG.E 2 R2 R3 4 1 0x7f00"),
                      "STG.E", "the line ends before the stride");
  expect_kernel_error("short_dests", standard_header() + one_warp("1", "0000 ffffffff 2 R1 LDG.E 1 R2 4 1 0x7f00 4 0"),
                      "LDG.E", "expected destination register 2 of 2, got 'LDG.E'");
  expect_kernel_error("short_srcs", standard_header() + one_warp("1", "0000 ffffffff 1 R1 IADD3 3 R2 R3"), "IADD3",
                      "the line ends before the source register 3 of 3");
  expect_kernel_error("no_width", standard_header() + one_warp("1", "0000 ffffffff 1 R1 MOV 1 R2"), "MOV",
                      "the line ends before the memory width");
  expect_kernel_error("prefix_missing", standard_header(2) + one_warp("1", "0 0 0000 ffffffff 0 EXIT 0 0"), "EXIT",
                      "bad decimal warp id 'ffffffff'");
}

TEST(AccelsimImportErrors, UnknownAddressModeAndTrailingFields) {
  expect_kernel_error("mode_3", standard_header() + one_warp("1", "0000 00000001 0 STG.E 2 R2 R3 4 3 0x7f00 0"),
                      "STG.E", "unknown address mode 3");
  expect_kernel_error("extra_delta",
                      standard_header() + one_warp("1", "0000 00000003 0 STG.E 2 R2 R3 4 2 0x7f00 4 8 0"), "STG.E",
                      "unexpected field '0' after the immediate");
  expect_kernel_error("junk_tail", standard_header() + one_warp("1", "0000 ffffffff 0 EXIT 0 0 zz"), "EXIT",
                      "unexpected field 'zz'");
}

TEST(AccelsimImportErrors, InstructionCountsMustMatch) {
  const std::string fewer = standard_header() + one_warp("3", "0000 ffffffff 0 NOP 0 0 0\n0010 ffffffff 0 NOP 0 0 0");
  expect_kernel_error("fewer_insts", fewer, "#END_TB", "ends after 2 of the 3 instructions its 'insts' line declares");
  const std::string more = standard_header() + one_warp("1", "0000 ffffffff 0 NOP 0 0 0\n0010 ffffffff 0 EXIT 0 0 0");
  expect_kernel_error("more_insts", more, "EXIT", "has more instructions than the 1 its 'insts' line declares");
  const std::string next_warp = standard_header(5, "(64,1,1)") +
                                "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n0000 ffffffff 0 NOP 0 0 0\n"
                                "warp = 1\ninsts = 0\n#END_TB\n";
  expect_kernel_error("next_warp_early", next_warp, "warp = 1", "warp 0 of thread block 0,0,0 ends after 1 of the 2");
}

TEST(AccelsimImportErrors, InstructionsOutsideAWarp) {
  expect_kernel_error("after_end", standard_header() + one_warp("0", "") + "0000 ffffffff 0 EXIT 0 0 0\n", "EXIT",
                      "instruction line outside a thread block");
  expect_kernel_error("before_warp",
                      standard_header() + "#BEGIN_TB\nthread block = 0,0,0\n0000 ffffffff 0 EXIT 0 0 0\n#END_TB\n",
                      "EXIT", "before the thread block's 'warp' and 'insts' lines");
  expect_kernel_error("warp_outside", standard_header() + "warp = 0\ninsts = 0\n", "warp = 0",
                      "'warp' line outside a thread block");
  expect_kernel_error("insts_without_warp", standard_header() + "#BEGIN_TB\ninsts = 1\n#END_TB\n", "insts",
                      "'insts' line without a 'warp' line");
  expect_kernel_error("warp_too_big", standard_header() + "#BEGIN_TB\nwarp = 1\ninsts = 0\n#END_TB\n", "warp = 1",
                      "warp 1 outside the 1 warps of a block of 32 threads");
  expect_kernel_error("warp_twice",
                      standard_header() + "#BEGIN_TB\nwarp = 0\ninsts = 0\nwarp = 0\ninsts = 0\n#END_TB\n",
                      "", "warp 0 appears twice", line_of(standard_header(), "immediate") + 5);
}

TEST(AccelsimImportErrors, ThreadBlockStructure) {
  const std::string unterminated = standard_header() + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                                                       "0000 ffffffff 0 EXIT 0 0 0\n";
  expect_kernel_error("unterminated", unterminated, "#BEGIN_TB", "thread block 0,0,0 has no #END_TB");
  const std::string nested = standard_header() + "#BEGIN_TB\nthread block = 0,0,0\n#BEGIN_TB\n#END_TB\n";
  const uint64_t second_begin = line_of(standard_header(), "immediate") + 4;
  expect_kernel_error("nested", nested, "", "#BEGIN_TB inside thread block 0,0,0", second_begin);
  expect_kernel_error("stray_end", standard_header() + "#END_TB\n", "#END_TB", "#END_TB outside a thread block");
  expect_kernel_error("stray_tb_line", standard_header() + "thread block = 0,0,0\n", "thread block",
                      "'thread block' line outside");
  expect_kernel_error("header_late", standard_header() + one_warp("0", "") + "-shmem = 64\n", "-shmem = 64",
                      "kernel header line after the first thread block");
}

TEST(AccelsimImportErrors, KernelHeaders) {
  std::string no_dim = standard_header();
  no_dim.erase(no_dim.find("-block dim"), std::string("-block dim = (32,1,1)\n").size());
  expect_kernel_error("no_block_dim", no_dim + one_warp("0", ""), "#BEGIN_TB", "before the '-block dim' header");
  expect_kernel_error("bad_block_dim", standard_header(5, "(32,1)") + one_warp("0", ""), "-block dim",
                      "bad value '(32,1)' of '-block dim'");
  expect_kernel_error("zero_block_dim", standard_header(5, "(0,1,1)") + one_warp("0", ""), "-block dim",
                      "has no threads");
  std::string bad_version = standard_header();
  bad_version.replace(bad_version.find("version = 5"), 11, "version = five");
  expect_kernel_error("bad_version", bad_version, "version = five", "bad decimal value 'five'");
  std::string bad_base = standard_header();
  bad_base.replace(bad_base.find("0x00007ff000000000"), 18, "0x00007ffz");
  expect_kernel_error("bad_shmem_base", bad_base, "0x00007ffz", "bad hex value '0x00007ffz' of '-shmem base_addr'");
}

// ------------------------------------------------------------ speed

// A generated ~300 KB kernel trace (base+stride, list and base+delta lines
// and ALU lines) imports well under a second.
TEST(AccelsimImport, ImportsA300KilobyteTraceWhole) {
  TempTrace t("speed");
  std::string kernel = standard_header(5, "(256,1,1)");
  uint64_t addr = 0x7f0000000000;
  unsigned block = 0;
  while (kernel.size() < 300 * 1024) {
    kernel += "#BEGIN_TB\nthread block = " + std::to_string(block++) + ",0,0\n";
    for (int w = 0; w < 8; ++w) {
      kernel += "warp = " + std::to_string(w) + "\ninsts = 4\n";
      kernel += "0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0\n";
      std::ostringstream base;
      base << std::hex << addr;
      kernel += "0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0x" + base.str() + " 4 0\n";
      kernel += "0020 0000000f 0 STG.E 2 R2 R3 4 0 0x00007f0000005000 0x00007f0000002000 0x00007f0000005008 "
                "0x00007f0000009000 0\n";
      kernel += "0030 000000ff 1 R7 LDG.E.64 1 R8 8 2 0x00007f0000010000 8192 -64 8 4096 12 -8192 4 0\n";
      addr += 128;
    }
    kernel += "#END_TB\n";
  }
  const std::string list = t.one_kernel(kernel);
  tr::ImportStats s;
  const tr::Trace tr1 = tr::import_accelsim(list, options(8), &s);
  EXPECT_EQ(tr1.kernels.size(), 1u);
  EXPECT_EQ(s.bytes, kernel.size());
  EXPECT_EQ(s.instructions, uint64_t{block} * 8 * 4);
  EXPECT_EQ(s.global_instructions, uint64_t{block} * 8 * 3);
}
