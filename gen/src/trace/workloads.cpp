// Synthetic translation traces for the workload categories of seed 000,
// Table 2 (docs/verification.md, "Evaluation traces"). Page-granular models
// of each kernel's accesses: each SIMD load or store of a wavefront is one
// instruction with the distinct pages its lanes touch.
// Deterministic for a seed on every platform: a splitmix64 generator and
// integer arithmetic only where a draw depends on the result.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "txgen/trace/trace.h"

namespace txgen::trace {
namespace {

constexpr unsigned kMaxCus = 4096;
constexpr uint64_t kRegionPages = 0x10000;  // each data structure starts in its own 256 MB region
constexpr uint64_t kMaxBaseOffset = 0x1000;  // seed-dependent page offset inside the region
constexpr uint64_t kFloatsPerPage = 1024;    // 4 KB pages of 4-byte elements
constexpr uint64_t kWavefront = 64;          // work items, one element each

class Rng {  // splitmix64
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Modulo bias is below n / 2^64: negligible for page counts.
  uint64_t below(uint64_t n) { return next() % n; }

 private:
  uint64_t state_;
};

unsigned bit_width(uint64_t n) {
  unsigned bits = 0;
  for (; n != 0; n >>= 1) ++bits;
  return bits;
}

uint64_t isqrt(uint64_t n) {
  uint64_t r = 0;
  for (uint64_t bit = uint64_t{1} << 62; bit != 0; bit >>= 2) {
    if (n >= r + bit) {
      n -= r + bit;
      r = (r >> 1) + bit;
    } else {
      r >>= 1;
    }
  }
  return r;
}

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Zipf-like rank in [0, n): P(rank) roughly proportional to 1 / (rank + 1),
// drawn as a uniform octave of rank + 1, then a uniform rank inside it.
uint64_t zipf_rank(Rng& rng, uint64_t n) {
  const unsigned e = static_cast<unsigned>(rng.below(bit_width(n)));
  const uint64_t lo = (uint64_t{1} << e) - 1;  // < n since 2^e <= n
  const uint64_t hi = std::min(n, (uint64_t{2} << e) - 1);
  return lo + rng.below(hi - lo);
}

// Places each data structure at a region boundary plus a seed-dependent
// offset (so the seed also varies the VPNs' low bits, which index the LDS and
// the I-cache), the next one in the following region.
class Layout {
 public:
  explicit Layout(Rng& rng) : rng_(rng) {}
  uint64_t place(uint64_t pages) {
    const uint64_t base = next_ + rng_.below(kMaxBaseOffset);
    if (base + pages > kVpnLimit) throw std::logic_error("trace layout exceeds 2^20 VPNs");
    next_ = ceil_div(base + pages, kRegionPages) * kRegionPages;
    return base;
  }

 private:
  Rng& rng_;
  uint64_t next_ = kRegionPages;  // VPN 0 stays unused
};

using Counts = std::vector<std::vector<uint64_t>>;  // [kernel][cu]: requests

// Compute gaps: the non-memory instructions of a wavefront between two of
// its memory instructions, a modelling choice per loop body (not measured):
constexpr uint64_t kGapMatrixStep = 3;  // multiply-add, index update, loop branch
constexpr uint64_t kGapGups = 8;        // the random-number step and the address arithmetic
constexpr uint64_t kGapBfs = 4;         // frontier flag test, edge index arithmetic
constexpr uint64_t kGapStencil = 12;    // SRAD's derivative and diffusion arithmetic

// Collects the kernels' per-CU streams, instruction by instruction. A
// counting pass (no limits) measures every stream; the real pass cuts each
// stream at its limit (share_cap), inside an instruction where it falls.
class Builder {
 public:
  Builder(const GenOptions& o, const Counts* limits) : o_(o), limits_(limits) {
    t_.cus = o.cus;
    t_.workload = name_of(o.kind);
  }

  // `code`: the kernel's code (launches of one kernel share it); version 1
  // numbers every launch.
  void begin_kernel(unsigned lds_segments, uint64_t gap, unsigned code) {
    Kernel k;
    k.id = o_.version == 1 ? static_cast<unsigned>(t_.kernels.size()) : code;
    k.code_bytes = o_.code_bytes;
    k.lds_segments = lds_segments;
    k.wavefronts = o_.wavefronts;
    k.per_cu.resize(limits_ ? o_.cus : 0);
    if (limits_ && o_.version == 2) k.instructions.resize(o_.cus);
    t_.kernels.push_back(std::move(k));
    counts_.emplace_back(o_.cus, 0);
    wave_.assign(o_.cus, 0);
    seq_ = 0;
    gap_ = gap;
  }

  // The CU's next work unit runs on a new wavefront.
  void begin_wavefront(unsigned cu) { ++wave_[cu]; }

  bool full(unsigned cu) const { return limits_ && counts_.back()[cu] >= (*limits_)[counts_.size() - 1][cu]; }

  void touch(unsigned cu, uint64_t vpn) { instruction(cu, {vpn}); }

  // One SIMD instruction: its lanes' pages, kept once each in lane order
  // (version 1: a request per lane, as the earlier generator wrote them).
  void instruction(unsigned cu, const std::vector<uint64_t>& lanes) {
    uint32_t pages = 0;
    scratch_.clear();
    for (uint64_t vpn : lanes) {
      if (full(cu)) break;
      if (o_.version == 2 && std::find(scratch_.begin(), scratch_.end(), vpn) != scratch_.end()) continue;
      scratch_.push_back(vpn);
      ++counts_.back()[cu];
      ++pages;
      if (limits_) t_.kernels.back().per_cu[cu].push_back(Request{vpn, 0});
    }
    if (pages == 0 || !limits_ || o_.version == 1) return;
    t_.kernels.back().instructions[cu].push_back(Instruction{wave_[cu], pages, seq_++, gap_});
  }

  // A CU the kernel gave no work still runs its work groups' prologue:
  // idle_page(cu) is the page that prologue reads.
  template <typename IdlePage>
  void end_kernel(IdlePage idle_page) {
    for (unsigned cu = 0; cu < o_.cus; ++cu)
      if (counts_.back()[cu] == 0) touch(cu, idle_page(cu));
  }

  const Counts& counts() const { return counts_; }
  Trace finish() { return std::move(t_); }

 private:
  const GenOptions& o_;
  const Counts* limits_;
  Counts counts_;
  Trace t_;
  std::vector<uint32_t> wave_;  // each CU's current wavefront
  uint64_t seq_ = 0, gap_ = 0;
  std::vector<uint64_t> scratch_;
};

// The at-least-one rule can overshoot the cap: take the excess from the
// largest shares.
void trim_to(Counts& limits, size_t cu, uint64_t kept, uint64_t cap) {
  for (; kept > cap; --kept) {
    size_t largest = 0;
    for (size_t k = 1; k < limits.size(); ++k)
      if (limits[k][cu] > limits[largest][cu]) largest = k;
    --limits[largest][cu];
  }
}

// Per-CU limits under the cap: a CU whose streams exceed it keeps the same
// share of each kernel (a prefix of each stream, at least one request), so a
// tight cap shortens every kernel instead of dropping the last ones.
Counts share_cap(const Counts& counts, uint64_t cap) {
  Counts limits = counts;
  for (size_t cu = 0; !counts.empty() && cu < counts[0].size(); ++cu) {
    uint64_t total = 0;
    for (const auto& kernel : counts) total += kernel[cu];
    if (total <= cap) continue;
    uint64_t kept = 0;
    for (size_t k = 0; k < counts.size(); ++k) {
      limits[k][cu] = std::max<uint64_t>(1, counts[k][cu] * cap / total);
      kept += limits[k][cu];
    }
    trim_to(limits, cu, kept, std::max<uint64_t>(cap, counts.size()));
  }
  return limits;
}

// ---- Polybench: matrix-vector kernels over R x C floats, whole pages per row.

struct Matrix {
  uint64_t base = 0, rows = 0, row_pages = 0;
  uint64_t page(uint64_t row, uint64_t col_page) const { return base + row * row_pages + col_page; }
};

// About square (R ~ C), R x row_pages ~ pages: exact up to a whole row.
Matrix shape_matrix(uint64_t pages) {
  Matrix m;
  m.row_pages = std::max<uint64_t>(1, (isqrt(pages * kFloatsPerPage) + kFloatsPerPage / 2) / kFloatsPerPage);
  m.rows = std::max<uint64_t>(1, (pages + m.row_pages / 2) / m.row_pages);
  return m;
}

// One thread per row, as PolyBench/GPU writes these kernels (tmp[i] += A[i][j]
// x[j] in thread i): a wavefront covers 64 consecutive rows, and every step of
// its j loop is one load instruction touching one page in each of those rows
// (64 pages), so the wavefront keeps 64 pages live for as long as j stays
// inside a page column. Wavefronts go to the CUs round-robin; each page column
// is modelled by `touches` steps (of the 1024 the loop makes), then the load
// of the vector page the column multiplies (one page: every lane reads x[j]).
// Several matrices (Gesummv) are read by one load each per step.
void row_kernel(Builder& b, const GenOptions& o, const std::vector<Matrix>& ms, uint64_t vector_base,
                unsigned code) {
  b.begin_kernel(0, kGapMatrixStep, code);
  const Matrix& shape = ms.front();
  const uint64_t waves = ceil_div(shape.rows, kWavefront);
  std::vector<uint64_t> lanes;
  for (unsigned cu = 0; cu < o.cus; ++cu)
    for (uint64_t wave = cu; wave < waves && !b.full(cu); wave += o.cus) {
      b.begin_wavefront(cu);
      const uint64_t first = wave * kWavefront, last = std::min(shape.rows, first + kWavefront);
      for (uint64_t j = 0; j < shape.row_pages; ++j) {
        for (unsigned t = 0; t < o.touches_per_page; ++t)
          for (const Matrix& m : ms) {
            lanes.clear();
            for (uint64_t row = first; row < last; ++row) lanes.push_back(m.page(row, j));
            b.instruction(cu, lanes);
          }
        b.touch(cu, vector_base + j);
      }
    }
  b.end_kernel([&](unsigned) { return vector_base; });
}

// Column blocks of one wavefront (64 floats) round-robin over the CUs; a
// block walks every row, so a CU's successive matrix requests are row_pages
// apart. The vector element of a row is read too: a request when the walk
// enters a new page of the vector.
void column_kernel(Builder& b, const GenOptions& o, const Matrix& m, uint64_t vector_base, unsigned code) {
  b.begin_kernel(0, kGapMatrixStep, code);
  const uint64_t blocks = m.row_pages * (kFloatsPerPage / kWavefront);
  for (unsigned cu = 0; cu < o.cus; ++cu)
    for (uint64_t block = cu; block < blocks && !b.full(cu); block += o.cus) {
      b.begin_wavefront(cu);
      for (uint64_t row = 0; row < m.rows; ++row) {
        if (row % kFloatsPerPage == 0) b.touch(cu, vector_base + row / kFloatsPerPage);
        b.touch(cu, m.page(row, block * kWavefront / kFloatsPerPage));
      }
    }
  b.end_kernel([&](unsigned) { return vector_base; });
}

void polybench(Builder& b, const GenOptions& o, Rng& rng) {
  Layout layout(rng);
  const bool two_matrices = o.kind == Kind::Gesummv;
  Matrix a = shape_matrix(two_matrices ? std::max<uint64_t>(1, o.footprint_pages / 2) : o.footprint_pages);
  Matrix bm = a;
  a.base = layout.place(a.rows * a.row_pages);
  if (two_matrices) bm.base = layout.place(bm.rows * bm.row_pages);
  const uint64_t row_vector = layout.place(a.row_pages);                          // C floats
  const uint64_t column_vector = layout.place(ceil_div(a.rows, kFloatsPerPage));  // R floats
  switch (o.kind) {
    case Kind::Atax:  // tmp = A x, then y = A^T tmp
    case Kind::Mvt:   // x1 += A y1, then x2 += A^T y2
      row_kernel(b, o, {a}, row_vector, 0);
      column_kernel(b, o, a, column_vector, 1);
      break;
    case Kind::Bicg:  // s = A^T r, then q = A p
      column_kernel(b, o, a, column_vector, 0);
      row_kernel(b, o, {a}, row_vector, 1);
      break;
    default:  // Gesummv: y = alpha A x + beta B x
      row_kernel(b, o, {a, bm}, row_vector, 0);
      break;
  }
}

// ---- GUPS: a table initialised in order, then updated at random pages.

uint64_t slice_begin(uint64_t pages, unsigned cu, unsigned cus) { return pages * cu / cus; }

// Init: one wavefront per page of the CU's slice (its stores stay in the
// page). Update: wavefronts of kGupsLoadsPerWave instructions, each updating
// 64 random elements (one page per lane, kept once).
constexpr unsigned kGupsLoadsPerWave = 4;

void gups(Builder& b, const GenOptions& o, Rng& rng) {
  Layout layout(rng);
  const uint64_t pages = o.footprint_pages;
  const uint64_t table = layout.place(pages);
  auto idle = [&](unsigned cu) { return table + cu % pages; };
  b.begin_kernel(0, kGapGups, 0);  // init: each CU writes its slice of the table in order
  for (unsigned cu = 0; cu < o.cus; ++cu)
    for (uint64_t p = slice_begin(pages, cu, o.cus); p < slice_begin(pages, cu + 1, o.cus); ++p) {
      b.begin_wavefront(cu);
      b.touch(cu, table + p);
    }
  b.end_kernel(idle);
  b.begin_kernel(0, kGapGups, 1);  // update: as many uniformly random pages as the table has
  const uint64_t updates = ceil_div(pages, o.cus);
  std::vector<uint64_t> lanes;
  for (unsigned cu = 0; cu < o.cus; ++cu)
    for (uint64_t i = 0; i < updates && !b.full(cu);) {
      if (i % (kGupsLoadsPerWave * kWavefront) == 0) b.begin_wavefront(cu);
      lanes.clear();
      for (const uint64_t end = std::min(updates, i + kWavefront); i < end; ++i) lanes.push_back(table + rng.below(pages));
      b.instruction(cu, lanes);
    }
  b.end_kernel(idle);
}

// ---- BFS: level-synchronous traversal of a power-law graph.
//
// Vertices are built level by level (ranks in BFS order, ids a random
// permutation of the ranks). A vertex's parent in the level above is drawn
// Zipf-like, so a few parents have most children; each vertex also gets 0-4
// extra edges (P(>= k) ~ 1 / (k + 1)) to Zipf-like ranks no deeper than the
// next level, so the levels stay those of the construction and the vertices
// near the source are hot.

constexpr unsigned kBfsMaxExtraEdges = 4;
constexpr double kBfsMeanDegree = 1.0 + 1.0 / 2 + 1.0 / 3 + 1.0 / 4 + 1.0 / 5;  // tree edge + extra
// vertex page, edge page(s), neighbours: measured in lane-by-lane order;
// version 2 keeps a page once per instruction, so it bounds from above
constexpr double kBfsRequestsPerVertex = 4.0;
constexpr double kBfsBudgetShare = 0.85;       // of cus x cap: room for uneven CU shares
constexpr uint64_t kEdgesPerPage = 1024;       // 4-byte vertex ids
constexpr unsigned kBfsMaxVerticesPerPage = 16;  // 256-byte vertex records

struct Graph {
  std::vector<uint64_t> level_end;  // ranks of level l: [level_end[l-1], level_end[l])
  std::vector<uint32_t> id_of_rank;
  std::vector<uint64_t> offset;  // by id: edges of v are target[offset[v] .. offset[v+1])
  std::vector<uint32_t> target;  // ids
};

unsigned bfs_levels(uint64_t vertices) {
  return std::clamp(bit_width(vertices), 7u, 27u) - 3;  // 4 .. 24
}

// The frontier grows 4x a level up to a third of the depth, then halves.
std::vector<uint64_t> level_sizes(uint64_t vertices, unsigned levels) {
  const unsigned peak = std::max(1u, levels / 3);
  std::vector<uint64_t> weight(levels, 0), size(levels, 1);
  for (unsigned l = 1; l < levels; ++l)
    weight[l] = std::max<uint64_t>(1, l <= peak ? uint64_t{1} << (2 * l) : (uint64_t{1} << (2 * peak)) >> (l - peak));
  const uint64_t total = std::accumulate(weight.begin(), weight.end(), uint64_t{0});
  uint64_t placed = 1;
  for (unsigned l = 1; l < levels; ++l) {
    size[l] = std::max<uint64_t>(1, (vertices - 1) * weight[l] / total);
    placed += size[l];
  }
  size[peak] = size[peak] + vertices - placed;  // vertices >= 4 x levels keeps this positive
  return size;
}

void add_edges(Graph& g, Rng& rng, std::vector<std::pair<uint32_t, uint32_t>>& edges) {
  const unsigned levels = static_cast<unsigned>(g.level_end.size());
  for (unsigned l = 1; l < levels; ++l) {
    const uint64_t above = g.level_end[l - 1] - (l >= 2 ? g.level_end[l - 2] : 0);
    for (uint64_t r = g.level_end[l - 1]; r < g.level_end[l]; ++r) {
      const uint64_t parent = g.level_end[l - 1] - above + zipf_rank(rng, above);
      edges.emplace_back(g.id_of_rank[parent], g.id_of_rank[r]);
    }
  }
  uint64_t rank = 0;
  for (unsigned l = 0; l < levels; ++l) {
    const uint64_t reach = g.level_end[std::min(l + 1, levels - 1)];
    for (; rank < g.level_end[l]; ++rank) {
      const uint64_t draw = (uint64_t{1} << 32) / (rng.below(uint64_t{1} << 32) + 1);
      const uint64_t extra = std::min<uint64_t>(kBfsMaxExtraEdges, draw - 1);
      for (uint64_t k = 0; k < extra; ++k) {
        const uint64_t t = zipf_rank(rng, reach);
        if (t != rank) edges.emplace_back(g.id_of_rank[rank], g.id_of_rank[t]);
      }
    }
  }
}

Graph build_graph(Rng& rng, uint64_t vertices, unsigned levels) {
  Graph g;
  const std::vector<uint64_t> size = level_sizes(vertices, levels);
  std::partial_sum(size.begin(), size.end(), std::back_inserter(g.level_end));
  g.id_of_rank.resize(vertices);
  std::iota(g.id_of_rank.begin(), g.id_of_rank.end(), 0u);
  for (uint64_t i = vertices - 1; i > 0; --i) std::swap(g.id_of_rank[i], g.id_of_rank[rng.below(i + 1)]);
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  add_edges(g, rng, edges);
  // CSR by source id, each source's edges in the order they were drawn
  g.offset.assign(vertices + 1, 0);
  for (const auto& e : edges) ++g.offset[e.first + 1];
  std::partial_sum(g.offset.begin(), g.offset.end(), g.offset.begin());
  std::vector<uint64_t> fill(g.offset.begin(), g.offset.end() - 1);
  g.target.resize(edges.size());
  for (const auto& e : edges) g.target[fill[e.first]++] = e.second;
  return g;
}

uint64_t bfs_vertices(uint64_t pages, unsigned per_page) {
  const double v = static_cast<double>(pages) * kEdgesPerPage * per_page / (kEdgesPerPage + kBfsMeanDegree * per_page);
  return std::max<uint64_t>(1, static_cast<uint64_t>(v));
}

struct BfsShape {
  uint64_t vertices = 0;
  unsigned per_page = 1;  // vertex records per page
};

// Vertex and edge pages total the footprint, with the densest vertex records
// whose full traversal fits the cap; when even one vertex per page does not
// fit, the graph shrinks to the cap (and touches fewer pages).
BfsShape bfs_shape(const GenOptions& o) {
  const double budget = kBfsBudgetShare * static_cast<double>(o.cus) * static_cast<double>(o.max_requests_per_cu);
  for (unsigned per_page = kBfsMaxVerticesPerPage; per_page > 1; per_page /= 2)
    if (static_cast<double>(bfs_vertices(o.footprint_pages, per_page)) * kBfsRequestsPerVertex <= budget)
      return {bfs_vertices(o.footprint_pages, per_page), per_page};
  const uint64_t fits = static_cast<uint64_t>(budget / kBfsRequestsPerVertex);
  return {std::max<uint64_t>(1, std::min(bfs_vertices(o.footprint_pages, 1), fits)), 1};
}

struct BfsArrays {
  uint64_t vertex_base = 0, edge_base = 0, vertex_pages = 0;
  unsigned per_page = 1;
  uint64_t vertex_page(uint32_t v) const { return vertex_base + v / per_page; }
  uint64_t edge_page(uint64_t e) const { return edge_base + e / kEdgesPerPage; }
};

// A wavefront of 64 frontier vertices, one per lane (thread per vertex): a
// load of the lanes' vertex records, then per step k of the edge loop a load
// of edge k of every lane that has one, and a load of that neighbour's record.
void expand(Builder& b, unsigned cu, const Graph& g, const BfsArrays& a, const uint32_t* lanes, size_t n) {
  std::vector<uint64_t> pages;
  uint64_t degree = 0;
  for (size_t i = 0; i < n; ++i) {
    pages.push_back(a.vertex_page(lanes[i]));
    degree = std::max(degree, g.offset[lanes[i] + 1] - g.offset[lanes[i]]);
  }
  b.instruction(cu, pages);
  for (uint64_t k = 0; k < degree; ++k) {
    std::vector<uint64_t> edges, neighbours;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t e = g.offset[lanes[i]] + k;
      if (e >= g.offset[lanes[i] + 1]) continue;
      edges.push_back(a.edge_page(e));
      neighbours.push_back(a.vertex_page(g.target[e]));
    }
    b.instruction(cu, edges);
    b.instruction(cu, neighbours);
  }
}

// The frontier in id order, one wavefront (64 vertices) at a time,
// round-robin over the CUs. Every level is a launch of the same kernel.
void bfs_level(Builder& b, const GenOptions& o, const Graph& g, const BfsArrays& a, unsigned level) {
  b.begin_kernel(0, kGapBfs, 0);
  const uint64_t begin = level == 0 ? 0 : g.level_end[level - 1];
  std::vector<uint32_t> frontier(g.id_of_rank.begin() + static_cast<std::ptrdiff_t>(begin),
                                 g.id_of_rank.begin() + static_cast<std::ptrdiff_t>(g.level_end[level]));
  std::sort(frontier.begin(), frontier.end());
  for (unsigned cu = 0; cu < o.cus; ++cu)
    for (uint64_t chunk = cu * kWavefront; chunk < frontier.size() && !b.full(cu); chunk += o.cus * kWavefront) {
      b.begin_wavefront(cu);
      expand(b, cu, g, a, frontier.data() + chunk, std::min<uint64_t>(frontier.size() - chunk, kWavefront));
    }
  // an idle CU still checks the frontier flags of its share of the vertices
  b.end_kernel([&](unsigned cu) { return a.vertex_base + a.vertex_pages * cu / o.cus; });
}

void bfs(Builder& b, const GenOptions& o, Rng& rng) {
  const BfsShape shape = bfs_shape(o);
  const unsigned levels = bfs_levels(shape.vertices);
  const uint64_t vertices = std::max<uint64_t>(shape.vertices, 4 * levels);
  const Graph g = build_graph(rng, vertices, levels);
  Layout layout(rng);
  BfsArrays a;
  a.per_page = shape.per_page;
  a.vertex_pages = ceil_div(vertices, a.per_page);
  a.vertex_base = layout.place(a.vertex_pages);
  a.edge_base = layout.place(std::max<uint64_t>(1, ceil_div(g.target.size(), kEdgesPerPage)));
  for (unsigned l = 0; l < levels; ++l) bfs_level(b, o, g, a, l);
}

// ---- LDS-heavy stencil (SRAD-like): two kernels, each reading one array
// with a 3-page stencil (a page is read at the steps before, at and after it)
// and writing the other; every CU's work groups hold lds_segments segments.

constexpr unsigned kDefaultLdsSegments = 64;

void stencil_kernel(Builder& b, const GenOptions& o, uint64_t in, uint64_t out, uint64_t pages, unsigned code) {
  b.begin_kernel(o.lds_segments != 0 ? o.lds_segments : kDefaultLdsSegments, kGapStencil, code);
  for (unsigned cu = 0; cu < o.cus; ++cu)
    for (uint64_t p = slice_begin(pages, cu, o.cus); p < slice_begin(pages, cu + 1, o.cus) && !b.full(cu); ++p) {
      b.begin_wavefront(cu);  // a work group's wavefront per page
      for (unsigned t = 0; t < o.touches_per_page; ++t) b.touch(cu, in + p);
      if (p > 0) b.touch(cu, in + p - 1);
      if (p + 1 < pages) b.touch(cu, in + p + 1);
      b.touch(cu, out + p);
    }
  b.end_kernel([&](unsigned cu) { return in + cu % pages; });
}

void lds_heavy(Builder& b, const GenOptions& o, Rng& rng) {
  Layout layout(rng);
  const uint64_t half = ceil_div(o.footprint_pages, 2);  // exact for even footprints
  const uint64_t image = layout.place(half);
  const uint64_t coefficients = layout.place(half);
  stencil_kernel(b, o, image, coefficients, half, 0);  // derivatives and diffusion coefficients
  stencil_kernel(b, o, coefficients, image, half, 1);  // the update of the image
}

void check(const GenOptions& o) {
  auto bad = [](const std::string& field, uint64_t value, const std::string& rule) {
    throw std::invalid_argument("GenOptions." + field + " = " + std::to_string(value) + ": " + rule);
  };
  if (o.cus < 1 || o.cus > kMaxCus) bad("cus", o.cus, "must be 1-4096");
  if (o.footprint_pages < 1 || o.footprint_pages > kMaxFootprintPages)
    bad("footprint_pages", o.footprint_pages, "must be 1-524288 (VPNs stay below 2^20)");
  if (o.max_requests_per_cu < 1) bad("max_requests_per_cu", 0, "must be at least 1");
  if (o.touches_per_page < 1) bad("touches_per_page", 0, "must be at least 1");
  if (o.wavefronts < 1 || o.wavefronts > 65536) bad("wavefronts", o.wavefronts, "must be 1-65536");
  if (o.version != 1 && o.version != 2) bad("version", o.version, "must be 1 or 2");
}

const std::vector<std::pair<Kind, const char*>>& kind_names() {
  static const std::vector<std::pair<Kind, const char*>> names = {
      {Kind::Atax, "atax"}, {Kind::Bicg, "bicg"}, {Kind::Mvt, "mvt"},           {Kind::Gesummv, "gesummv"},
      {Kind::Gups, "gups"}, {Kind::Bfs, "bfs"},   {Kind::LdsHeavy, "lds_heavy"}};
  return names;
}

// Each kind draws from its own stream, so Atax and Mvt (the same loops) still
// get different layouts for one seed.
void run(Builder& b, const GenOptions& o) {
  Rng rng(Rng(o.seed).next() ^ (static_cast<uint64_t>(o.kind) << 56));
  switch (o.kind) {
    case Kind::Gups: return gups(b, o, rng);
    case Kind::Bfs: return bfs(b, o, rng);
    case Kind::LdsHeavy: return lds_heavy(b, o, rng);
    default: return polybench(b, o, rng);
  }
}

Counts count_streams(const GenOptions& o) {
  Builder counter(o, nullptr);
  run(counter, o);
  return counter.counts();
}

}  // namespace

const char* name_of(Kind k) {
  for (const auto& [kind, name] : kind_names())
    if (kind == k) return name;
  return "?";
}

Kind kind_from_name(const std::string& name) {
  std::string valid;
  for (const auto& [kind, known] : kind_names()) {
    if (name == known) return kind;
    valid += (valid.empty() ? "" : ", ") + std::string(known);
  }
  throw std::invalid_argument("unknown workload kind '" + name + "'; valid kinds: " + valid);
}

std::vector<std::string> kind_name_list() {
  std::vector<std::string> out;
  for (const auto& [kind, name] : kind_names()) out.push_back(name);
  return out;
}

// Two passes from the same seed: the first counts each stream, the second
// keeps each stream's share of the cap.
Trace generate(const GenOptions& o) {
  check(o);
  const Counts limits = share_cap(count_streams(o), o.max_requests_per_cu);
  Builder b(o, &limits);
  run(b, o);
  return b.finish();
}

uint64_t full_requests_per_cu(const GenOptions& o) {
  check(o);
  if (o.kind == Kind::Bfs)
    return static_cast<uint64_t>(static_cast<double>(bfs_vertices(o.footprint_pages, 1)) * kBfsRequestsPerVertex /
                                 (kBfsBudgetShare * o.cus)) + 1;
  const Counts counts = count_streams(o);
  uint64_t most = 0;
  for (unsigned cu = 0; cu < o.cus; ++cu) {
    uint64_t n = 0;
    for (const auto& kernel : counts) n += kernel[cu];
    most = std::max(most, n);
  }
  return most;
}

}  // namespace txgen::trace
