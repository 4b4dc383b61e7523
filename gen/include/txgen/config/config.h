// Parsed and validated txgen configuration. Pure data: every field here was
// read from the JSON file and checked against its rule by parse_config().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace txgen::config {

struct SystemConfig {
  unsigned va_bits = 0;     // virtual address width
  uint64_t page_bytes = 0;  // translation granule
  unsigned vmid_bits = 0;   // address-space identifier width
  unsigned vrf_bits = 0;    // SR-IOV virtual-function identifier width
};

struct LdsConfig {
  uint64_t bytes = 0;
  unsigned segment_bytes = 0;
  unsigned banks = 32;      // SRAM banks (seed 000 section 2.2: 16 or 32)
  unsigned bank_bytes = 4;  // bytes per bank per access
};

// One cached translation: PPN and permission bits in an 8-byte word.
struct TranslationConfig {
  unsigned ppn_bits = 0;
  unsigned perm_bits = 0;
};

struct LdsCtrlConfig {
  unsigned max_work_groups = 16;       // allocation table entries
  unsigned clear_bits_per_cycle = 64;  // mode bits cleared per cycle
};

enum class TxIndex { DirectMapped, Set };

struct IcacheConfig {
  uint64_t bytes = 0;
  unsigned ways = 0;
  unsigned line_bytes = 0;
  TxIndex tx_index = TxIndex::DirectMapped;
  unsigned tag_bytes = 6;  // baseline tag entry per way (seed 000 Fig. 10a: 6 bytes)
};

enum class CodecHost { Lds, Icache };
enum class CodecEncoding { Prefix, Arith };
enum class IdPlacement { PerEntry, Shared };
// How the compressor compares entries with the reference: one comparator per
// entry behind a reference mux (smaller), or one per pair of entries selected
// by the reference afterwards (shorter path). Same behaviour either way.
enum class CompareStructure { Mux, Pairwise };

// Configuration spellings of the enumerations, for reports and file headers.
const char* name_of(CodecEncoding e);
const char* name_of(IdPlacement ids);
const char* name_of(CompareStructure c);

struct BdCodecConfig {
  CodecHost host = CodecHost::Lds;
  unsigned tags = 0;
  unsigned base_bits = 0;
  unsigned delta_bits = 0;  // total over all tags
  CodecEncoding encoding = CodecEncoding::Prefix;
  IdPlacement ids = IdPlacement::PerEntry;
  CompareStructure compare = CompareStructure::Pairwise;
};

// MGvm home-slice selection (seed 004): the baselines and MGvm itself.
enum class DhslPolicy { Private, SharedStatic, MgvmCoarse, Mgvm };
const char* name_of(DhslPolicy p);

struct Fraction {
  unsigned num = 0;
  unsigned den = 1;
};

struct DhslConfig {
  DhslPolicy policy = DhslPolicy::Mgvm;
  unsigned chiplets = 4;
  unsigned cus_per_chiplet = 32;
  unsigned l2_entries = 512;
  unsigned epoch_requests = 5000;
  unsigned counter_bits = 32;
  uint64_t coarse_bytes = 2097152;  // dHSL-coarse block at reset (2 MB)
  Fraction imbalance{4, 5};        // incoming share above which a chiplet is imbalanced
  Fraction hit_rate{9, 10};        // L2-TLB hit rate above which balance matters
  Fraction balanced{1, 2};         // coarse-home share below which balance is back
};

// SIMT-aware page-walk scheduler (seed 002) and its baselines.
enum class WalkPolicy { Fcfs, Random, Simt };
const char* name_of(WalkPolicy p);

struct WalkSchedConfig {
  WalkPolicy policy = WalkPolicy::Simt;
  unsigned entries = 256;                     // IOMMU buffer (Table I)
  unsigned iid_bits = 20;                     // instruction ID
  unsigned walkers = 8;                       // Table I
  unsigned levels = 4;                        // x86-64 page table
  std::vector<unsigned> pwc_entries{4, 8, 32};  // per upper level, root first (seed 000 Table 1)
  unsigned wavefront = 64;                    // requests per instruction at most
  uint64_t aging_threshold = 2000000;         // section IV, design subtleties
  unsigned select_levels_per_cycle = 1;       // selection tree levels per pipeline stage (2 misses 2.5 ns)
};

// Instruction-aware I-cache with translation ways (seed 000 section 4.3).
enum class IcacheVariant { Naive, Aware };
enum class IfillOrder { InvalidFirst, TxFirst };
const char* name_of(IcacheVariant v);
const char* name_of(IfillOrder o);

struct IcacheTxConfig {
  IcacheVariant variant = IcacheVariant::Aware;
  unsigned translations_per_line = 8;  // 1, or bd_codec.tags
  unsigned comparators = 8;            // sub-entry tag comparators (divides translations_per_line)
  bool kernel_flush = true;            // the flush keeps Tx-mode lines (section 4.3.3)
  unsigned sharers = 4;                // CUs sharing the cache (seed 000 Table 1)
  IfillOrder ifill_order = IfillOrder::InvalidFirst;
};

// Aggregated and clustered L1-TLBs with CU-to-TLB crossbars (seed 001, 5.1, 6.1).
enum class L1tlbReplacement { Lru, Plru };
enum class L1tlbL2Ports { Cluster };  // one L2-TLB port per cluster (per TLB: not generated)
// How exact LRU is held: per-way ages (W log2 W bits per set) or an order
// matrix (one bit per pair of ways, W (W-1) / 2); auto: the matrix up to 16 ways.
enum class L1tlbLruState { Auto, Ages, Matrix };
// Which free MSHR a miss allocates: the lowest-index one, or the one freed
// longest ago (a queue of free MSHRs); auto: the queue from 32 MSHRs per TLB.
enum class L1tlbMshrAlloc { Auto, Lowest, Fifo };
// When exact LRU applies the decide stage's touch and the shootdown's untouch:
// at their own edge, or one edge later; auto: the next edge with ages.
enum class L1tlbLruTouch { Auto, DecideEdge, NextEdge };
const char* name_of(L1tlbReplacement r);
const char* name_of(L1tlbLruState s);
const char* name_of(L1tlbL2Ports p);

struct L1tlbConfig {
  unsigned cus = 64;          // U: compute units (power of two, 1-64)
  unsigned tlbs = 64;         // T: aggregated L1-TLBs (power of two, divides cus)
  unsigned clusters = 64;     // C: clusters (power of two, divides tlbs)
  unsigned ways = 128;        // W: ways per set (Table 4.1: 128)
  unsigned mshrs_per_cu = 4;  // MSHRs per TLB = (cus / tlbs) x mshrs_per_cu (Table 4.1: 4)
  L1tlbReplacement replacement = L1tlbReplacement::Lru;
  L1tlbLruState lru_state = L1tlbLruState::Auto;  // lru only
  L1tlbLruTouch lru_touch = L1tlbLruTouch::Auto;  // lru only; next_edge with ages only
  std::optional<bool> plru_index;                 // plru only; unset: from 64 ways
  L1tlbMshrAlloc mshr_alloc = L1tlbMshrAlloc::Auto;
  L1tlbL2Ports l2_ports = L1tlbL2Ports::Cluster;
  bool input_buffer = false;  // a two-entry FIFO per CU in front of the crossbar
  unsigned iid_bits = 0;      // the requests' SIMD instruction ID, carried to the L2 request (0: none)
};

enum class AtaReplacement { Lru, Plru };
enum class AtaRemotePick { Nearest, RoundRobin };  // which remote holder serves a local miss
enum class AtaMode { Ata, Private };                // aggregated compare, or the private baseline
const char* name_of(AtaReplacement r);
const char* name_of(AtaRemotePick p);
const char* name_of(AtaMode m);

struct AtaConfig {                // seed 003 (docs/blocks/ata.md); defaults: Table II
  unsigned cores = 10;            // N: L1 caches of one cluster (1-16)
  uint64_t l1_bytes = 65536;      // per L1
  unsigned ways = 64;             // W (power of two, 2-64)
  unsigned line_bytes = 128;
  unsigned sector_bytes = 32;
  unsigned addr_bits = 40;        // request byte address
  AtaReplacement replacement = AtaReplacement::Lru;
  AtaRemotePick remote_pick = AtaRemotePick::Nearest;
  AtaMode mode = AtaMode::Ata;
};

// The L1-TLB -> LDS -> I-cache -> L2-TLB path of seed 000 (docs/blocks/tx_path.md).
enum class Promotion { Move, Copy };  // a hit below the L1 leaves its structure, or stays
const char* name_of(Promotion p);

struct TxPathConfig {
  unsigned cus = 8;                           // U (Table 1: 8 CUs)
  L1tlbConfig l1tlb;                          // the L1-TLBs: private by default; tlbs, clusters, ways (32), mshrs_per_cu, ...
  std::optional<LdsCtrlConfig> lds_ctrl;      // per-CU LDS controller options
  BdCodecConfig lds_codec;                    // host lds
  IcacheTxConfig icache_tx;                   // sharers = CUs per I-cache
  std::optional<BdCodecConfig> icache_codec;  // host icache, when translations_per_line > 1
  unsigned victim_queue = 2;                  // D: L1 victims waiting for the LDS, per CU
  unsigned wire_lds = 0;                      // extra cycles on an LDS lookup's answer (6.3.3)
  unsigned wire_icache = 0;                   // extra cycles on an I-cache lookup's answer
  unsigned lookup_slots = 1;                  // K: L1 misses in flight below the L1 per CU (1 = blocking)
  bool speculative_l2 = false;                // each miss asks the L2-TLB beside its lookups below the L1
  bool l1_document_latency = false;           // pad the L1-TLB's requests to seed 001's latency model
  Promotion promotion = Promotion::Move;
};

// The GPU's shared L2-TLB and the IOMMU behind it (docs/blocks/iommu.md);
// defaults: seed 002 Table I's L2-TLB. The IOMMU's buffer, walkers and PWCs
// are the walk_sched section's.
struct L2tlbConfig {
  unsigned entries = 512;
  unsigned ways = 16;
  unsigned ports = 1;          // request ports from the path
  unsigned tag_bits = 8;       // requester's tag, returned with the answer
  unsigned mshrs = 32;         // outstanding walks
  unsigned waiters = 64;       // requests waiting for an answer (hits and misses)
  unsigned lookup_stages = 3;  // D: read, compare, act (a hit is answered D + 2 cycles on)
  bool answer_register = true; // the walk answer acts a cycle after it arrives (the MSHR compare its own cycle)
};

struct IommuConfig {
  L2tlbConfig l2tlb;
};

struct Config {
  std::string name;  // lower-case identifier, part of every module name
  SystemConfig system;
  std::optional<LdsConfig> lds;
  std::optional<IcacheConfig> icache;
  std::optional<BdCodecConfig> bd_codec;
  std::optional<TranslationConfig> translation;
  std::optional<LdsCtrlConfig> lds_ctrl;
  std::optional<DhslConfig> dhsl;
  std::optional<WalkSchedConfig> walk_sched;
  std::optional<IcacheTxConfig> icache_tx;
  std::optional<L1tlbConfig> l1tlb;
  std::optional<AtaConfig> ata;
  std::optional<TxPathConfig> tx_path;
  std::optional<IommuConfig> iommu;
};

}  // namespace txgen::config
