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

struct Kernel {
  unsigned id = 0;
  uint64_t code_bytes = 0;    // instruction footprint fetched through the I-caches
  unsigned lds_segments = 0;  // LDS segments each CU's work groups hold during the kernel
  std::vector<std::vector<Request>> per_cu;  // [cus]: requests in program order
};

struct Trace {
  unsigned cus = 0;
  std::string workload;  // a free-text label ("atax", "gups", ... or the user's)
  std::vector<Kernel> kernels;
  uint64_t requests() const;  // over all kernels and CUs
  uint64_t distinct_pages() const;
};

// Text format, one item per line, '#' starts a comment:
//   txgen-trace 1
//   cus <U>
//   workload <label>                         (optional)
//   kernel <id> code_bytes <n> lds_segments <n>
//   <cu> <vpn in hex> [<vmid>]               (requests of the last kernel)
// Throws std::runtime_error naming the line number and the reason on bad input.
Trace read(std::istream& in);
Trace read_file(const std::string& path);
void write(std::ostream& out, const Trace& t);
void write_file(const std::string& path, const Trace& t);

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

struct GenOptions {
  Kind kind = Kind::Atax;
  unsigned cus = 8;
  uint64_t footprint_pages = 4096;  // distinct pages the workload touches (approximately)
  uint64_t max_requests_per_cu = 20000;
  unsigned touches_per_page = 4;   // steps of a per-row wavefront inside one page column
  unsigned lds_segments = 0;       // LdsHeavy: segments each CU holds (0: set by the caller)
  uint64_t code_bytes = 8192;      // per kernel
  uint64_t seed = 1;
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
