// Translation-request traces for `txgen eval` (docs/verification.md,
// "Evaluation"): per-CU VPN streams grouped into kernels, with each kernel's
// code size (instruction fetches through the I-caches) and LDS use (segments
// each CU's work groups allocate). The text format is documented so users can
// bring traces from a simulator or a binary-instrumentation tool;
// `txgen trace` writes synthetic ones for the workload categories of seed 000
// (Table 2).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace txgen::trace {

struct Request {
  uint64_t vpn = 0;
  uint32_t vmid = 0;
};

// One SIMD memory instruction of a wavefront: its distinct pages (in lane
// order) are the next `pages` requests of its CU's stream.
struct Instruction {
  uint32_t wavefront = 0;    // within the CU (any id; the replay runs at most Kernel::wavefronts at once)
  uint32_t pages = 1;        // >= 1
  uint64_t seq = 0;          // per-kernel SIMD instruction sequence number (increasing per wavefront)
  uint64_t compute_gap = 0;  // non-memory instructions the wavefront ran since its previous memory instruction
};

struct Kernel {
  unsigned id = 0;            // the kernel's code: launches of one kernel share it (seed 000 4.3.3)
  uint64_t code_bytes = 0;    // instruction footprint fetched through the I-caches
  unsigned lds_segments = 0;  // LDS segments each CU's work groups hold during the kernel
  unsigned wavefronts = 1;    // wavefront slots of a CU the kernel fills (>= 1)
  std::vector<std::vector<Request>> per_cu;  // [cus]: requests in program order
  // [cus]: the instructions the requests belong to, in the same order; a CU
  // without instructions (or a version-1 trace) has one one-page instruction
  // of wavefront 0 per request, with no compute gap.
  std::vector<std::vector<Instruction>> instructions;
  bool has_instructions(unsigned cu) const { return cu < instructions.size() && !instructions[cu].empty(); }
};

struct Trace {
  unsigned cus = 0;
  std::string workload;  // a free-text label ("atax", "gups", ... or the user's)
  std::vector<Kernel> kernels;
  uint64_t requests() const;  // over all kernels and CUs
  uint64_t instructions() const;  // memory instructions (a request without one counts as one)
  uint64_t distinct_pages() const;
};

// Text format, one item per line, '#' starts a comment (docs/verification.md,
// "Evaluation traces"):
//   txgen-trace 2
//   cus <U>
//   workload <label>                         (optional)
//   kernel <id> code_bytes <n> lds_segments <n> wavefronts <n>
//   <cu> <wavefront> <seq> <gap> <vpn hex> [<vpn hex> ...] [vmid <n>]
//                                            (a memory instruction of the last kernel)
// Version 1 ('txgen-trace 1') has kernel lines without 'wavefronts' and
// request lines '<cu> <vpn in hex> [<vmid>]' (each a one-page instruction of
// wavefront 0). Files ending in .gz are read through zlib.
// Throws std::runtime_error naming the line number and the reason on bad input.
Trace read(std::istream& in);
Trace read_file(const std::string& path);
// version 2, or 1 (every instruction's pages as single requests; compute gaps,
// wavefronts and sequence numbers dropped)
void write(std::ostream& out, const Trace& t, unsigned version = 2);
void write_file(const std::string& path, const Trace& t, unsigned version = 2);

// Checks the trace's invariants (instructions cover each CU's requests
// exactly, pages >= 1, wavefronts >= 1, streams for at most `cus` CUs);
// throws std::invalid_argument naming the kernel and CU.
void validate(const Trace& t);

// The largest VPN and VMID any request of the trace names (0 for none).
uint64_t largest_vpn(const Trace& t);
uint64_t largest_vmid(const Trace& t);

// Synthetic workloads (seed 000 Table 2 categories).
enum class Kind {
  Atax,      // two kernels: A x with a thread per row (a wavefront keeps 64 row pages live), then A^T; no LDS
  Bicg,      // two kernels: A^T r with a thread per column (row-strided), then A p per row; no LDS
  Mvt,       // two kernels: A y1 per row, A^T y2 per column, two vectors; no LDS
  Gesummv,   // one kernel: rows of two matrices A and B; no LDS
  Gups,      // random single-page updates over a table
  Bfs,       // level-synchronous traversal of a power-law graph, one kernel per level
  LdsHeavy,  // streaming with reuse, every LDS segment held by work groups
};
const char* name_of(Kind k);
// Throws std::invalid_argument listing the valid names.
Kind kind_from_name(const std::string& name);
// Every kind's name, in the order of Kind.
std::vector<std::string> kind_name_list();

struct GenOptions {
  Kind kind = Kind::Atax;
  unsigned cus = 8;
  uint64_t footprint_pages = 4096;  // distinct pages the workload touches (approximately)
  uint64_t max_requests_per_cu = 20000;
  unsigned touches_per_page = 4;   // steps of a per-row wavefront inside one page column
  unsigned lds_segments = 0;       // LdsHeavy: segments each CU holds (0: set by the caller)
  uint64_t code_bytes = 8192;      // per kernel
  uint64_t seed = 1;
  unsigned wavefronts = 40;        // wavefront slots per CU (GCN: 4 SIMDs x 10)
  unsigned version = 2;            // 1: no instructions, every launch its own kernel id (earlier traces)
};
Trace generate(const GenOptions& o);

// Every synthetic VPN is below 2^20 (traces fit 32-bit virtual addresses with
// 4 KB pages); footprint_pages is at most kMaxFootprintPages.
constexpr uint64_t kVpnLimit = uint64_t{1} << 20;
constexpr uint64_t kMaxFootprintPages = uint64_t{1} << 19;
// The smallest max_requests_per_cu at which generate() cuts no stream (Bfs:
// at which its graph reaches footprint_pages with one vertex per page).
uint64_t full_requests_per_cu(const GenOptions& o);

}  // namespace txgen::trace
