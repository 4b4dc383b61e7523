// `txgen trace`: writes a synthetic translation trace (gen/include/txgen/trace/
// trace.h; docs/verification.md, "Evaluation traces"). With --config the
// CUs, the footprint and the LDS use follow the configuration's tx_path.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "txgen/cli/commands.h"
#include "txgen/cli/generate.h"
#include "txgen/elab/bits.h"
#include "txgen/elab/tx_path.h"
#include "txgen/error.h"
#include "txgen/trace/accelsim.h"
#include "txgen/trace/trace.h"

namespace txgen::cli {
namespace {

constexpr const char* kKinds = "atax, bicg, mvt, gesummv, gups, bfs, lds_heavy";

// Translation entries the path holds with every LDS segment and I-cache line
// in translation mode: in all, and as one CU sees them (its L1-TLB, its LDS
// and the I-cache it shares; CUs running one kernel touch the same pages, so
// the private LDSs hold copies and do not add up for them).
uint64_t reach_of(const elab::TxPathParams& p) {
  return uint64_t{p.cus} * p.l1_entries + uint64_t{p.cus} * p.lds_entries + uint64_t{p.icaches} * p.icache_entries;
}
uint64_t cu_reach_of(const elab::TxPathParams& p) {
  return uint64_t{p.l1_entries} + p.lds_entries + p.icache_entries;
}

// Footprint against the reach, where the mechanism matters: Polybench and
// the LDS-heavy stencil fit below a CU's L1 only with its LDS and I-cache;
// GUPS fits nowhere; BFS overflows even a CU's reach, but its hot pages fit.
uint64_t default_pages(trace::Kind kind, const elab::TxPathParams& p) {
  switch (kind) {
    case trace::Kind::Gups: return 8 * reach_of(p);
    case trace::Kind::Bfs: return 2 * cu_reach_of(p);
    default: return std::max<uint64_t>(1, cu_reach_of(p) * 3 / 4);
  }
}

trace::Kind parse_kind(const std::string& name) {
  try {
    return trace::kind_from_name(name);
  } catch (const std::invalid_argument&) {
    throw ConfigError("--kind", "\"" + name + "\"", std::string("unknown workload; valid kinds: ") + kKinds);
  }
}

struct Resolved {
  trace::GenOptions gen;
  std::optional<elab::TxPathParams> path;
};

void resolve_pages(const TraceOptions& opts, Resolved& r) {
  if (opts.pages != 0) r.gen.footprint_pages = opts.pages;
  else if (r.path) r.gen.footprint_pages = default_pages(r.gen.kind, *r.path);
  if (r.gen.footprint_pages > trace::kMaxFootprintPages)
    throw ConfigError(opts.pages != 0 ? "--pages" : "--config", std::to_string(r.gen.footprint_pages),
                      "footprint too large: at most " + std::to_string(trace::kMaxFootprintPages) +
                          " pages (every VPN stays below 2^20)");
}

void resolve_lds(const TraceOptions& opts, Resolved& r) {
  if (opts.lds_segments != 0 && r.gen.kind != trace::Kind::LdsHeavy)
    throw ConfigError("--lds-segments", std::to_string(opts.lds_segments),
                      "only lds_heavy uses the LDS; the other kinds run with lds_segments 0");
  if (r.gen.kind != trace::Kind::LdsHeavy) return;
  if (opts.lds_segments != 0) r.gen.lds_segments = opts.lds_segments;
  else if (r.path) r.gen.lds_segments = r.path->lds.segments;  // every segment: no room for translations
  if (r.path && r.gen.lds_segments > r.path->lds.segments)
    throw ConfigError("--lds-segments", std::to_string(r.gen.lds_segments),
                      "more than the " + std::to_string(r.path->lds.segments) + " segments of the LDS");
}

Resolved resolve(const TraceOptions& opts) {
  Resolved r;
  r.gen.kind = parse_kind(opts.kind);
  if (!opts.config.empty()) r.path = elab::elaborate_tx_path(load(opts.config).cfg);
  if (opts.cus != 0) r.gen.cus = opts.cus;
  else if (r.path) r.gen.cus = r.path->cus;
  resolve_pages(opts, r);
  resolve_lds(opts, r);
  r.gen.touches_per_page = opts.touches;
  r.gen.code_bytes = opts.code_bytes;
  r.gen.seed = opts.seed;
  r.gen.wavefronts = opts.wavefronts;
  r.gen.version = opts.version;
  // default: the configured cap, raised so no stream is cut
  r.gen.max_requests_per_cu =
      opts.requests != 0 ? opts.requests
                         : std::max(r.gen.max_requests_per_cu, trace::full_requests_per_cu(r.gen));
  return r;
}

// The path replays a trace only if every VPN fits its VPN width (a wider one
// would be cut, its answer never matching the request).
void check_vpn_width(const trace::Trace& t, const elab::TxPathParams& p) {
  const uint64_t largest = trace::largest_vpn(t);
  if (p.vpn_bits >= 64 || largest >> p.vpn_bits == 0) return;
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(largest));
  throw ConfigError("--config", std::to_string(p.vpn_bits) + " VPN bits",
                    std::string("too narrow for the trace's VPNs (the largest, ") + hex + ", needs " +
                        std::to_string(elab::clog2(largest + 1)) + "; see docs/verification.md)");
}

trace::Trace make_trace(const TraceOptions& opts) {
  const Resolved r = resolve(opts);
  trace::Trace t = trace::generate(r.gen);
  if (r.path) check_vpn_width(t, *r.path);
  const std::filesystem::path parent = std::filesystem::path(opts.out).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  trace::write_file(opts.out, t, opts.version);
  return t;
}

void add_import_command(CLI::App& trace_cmd, TraceOptions& opts) {
  CLI::App* cmd = trace_cmd.add_subcommand(
      "import", "Convert a trace of another tool (Accel-Sim / NVBit: its kernelslist.g) into a txgen trace; "
                "thread blocks round robin onto the CUs (docs/trace_import.md).");
  cmd->add_option("list", opts.list, "the trace's kernel list (Accel-Sim: kernelslist.g)")->required();
  cmd->add_option("--from", opts.from, "the trace's tool: accelsim")->required()->check(CLI::IsMember({"accelsim"}));
  cmd->add_option("--out", opts.out, "txgen trace to write (.gz: compressed)")->required();
  cmd->add_option("--config", opts.config, "configuration with a tx_path section: CUs and LDS segment size");
  cmd->add_option("--cus", opts.cus, "CUs (default: the path's, else 8)")->check(CLI::Range(1u, 4096u));
  cmd->add_option("--page-bytes", opts.page_bytes, "page size (4096)");
  cmd->add_option("--wavefront-slots", opts.wavefront_slots, "wavefronts a CU holds at once (40)")
      ->check(CLI::Range(1u, 65536u));
  cmd->add_option("--lds-segment-bytes", opts.lds_segment_bytes,
                  "bytes of an LDS segment (default: the path's, else 1024)");
  cmd->add_option("--workload", opts.workload, "label (default: the trace directory's name)");
  cmd->callback([&opts] { opts.import = true; });
}

trace::ImportOptions import_options(const TraceOptions& opts) {
  trace::ImportOptions io;
  std::optional<elab::TxPathParams> path;
  if (!opts.config.empty()) path = elab::elaborate_tx_path(load(opts.config).cfg);
  io.cus = opts.cus != 0 ? opts.cus : path ? path->cus : 8;
  io.page_bytes = opts.page_bytes;
  io.wavefront_slots = opts.wavefront_slots;
  io.lds_segment_bytes = opts.lds_segment_bytes != 0 ? opts.lds_segment_bytes
                         : path                      ? path->lds.segment_bytes
                                                     : 1024;
  if (path) io.max_lds_segments = path->lds.segments;
  io.workload = opts.workload;
  return io;
}

int run_import(const TraceOptions& opts) {
  const auto start = std::chrono::steady_clock::now();
  trace::ImportStats st;
  trace::Trace t;
  try {
    t = trace::import_accelsim(opts.list, import_options(opts), &st);
  } catch (const ConfigError&) {
    throw;
  } catch (const std::exception& e) {  // a malformed trace or option: the user's input
    std::cerr << "txgen: error: " << e.what() << "\n";
    return kExitInvalidInput;
  }
  if (!opts.config.empty()) check_vpn_width(t, elab::elaborate_tx_path(load(opts.config).cfg));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::filesystem::path parent = std::filesystem::path(opts.out).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  trace::write_file(opts.out, t, opts.version);
  std::printf("txgen: imported %s: %llu kernels (%llu memcpy lines skipped), %llu instructions, %llu translated, "
              "%llu requests; %.1f MB in %.2f s (%.1f MB/s) -> %s\n",
              t.workload.c_str(), static_cast<unsigned long long>(st.kernels),
              static_cast<unsigned long long>(st.memcpy_lines), static_cast<unsigned long long>(st.instructions),
              static_cast<unsigned long long>(st.global_instructions), static_cast<unsigned long long>(st.requests),
              static_cast<double>(st.bytes) / 1e6, seconds,
              seconds > 0 ? static_cast<double>(st.bytes) / 1e6 / seconds : 0.0, opts.out.c_str());
  return 0;
}

}  // namespace

void add_trace_command(CLI::App& app, TraceOptions& opts) {
  CLI::App* cmd = app.add_subcommand(
      "trace", "Write a synthetic translation trace (seed 000 Table 2 workloads) for txgen eval; "
               "with --config the CUs, footprint and LDS use follow its tx_path.");
  cmd->add_option("--kind", opts.kind, std::string("workload: ") + kKinds);
  cmd->add_option("--out", opts.out, "trace file (written atomically; .gz: compressed)");
  cmd->add_option("--config", opts.config, "configuration with a tx_path section: the defaults below");
  cmd->add_option("--cus", opts.cus, "CUs (default: the path's, else 8)")->check(CLI::Range(1u, 4096u));
  cmd->add_option("--pages", opts.pages,
                  "footprint in 4 KB pages (default: a multiple of the path's translation reach, else 4096)")
      ->check(CLI::Range(uint64_t{1}, trace::kMaxFootprintPages));
  cmd->add_option("--requests", opts.requests,
                  "cap on each CU's requests (default: 20000, or more when the workload needs it)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--touches", opts.touches, "successive wavefront requests per page in row streams (4)")
      ->check(CLI::Range(1u, 1024u));
  cmd->add_option("--lds-segments", opts.lds_segments,
                  "lds_heavy: LDS segments each CU's work groups hold (default: every segment of the "
                  "path's LDS, else 64)");
  cmd->add_option("--code-bytes", opts.code_bytes, "instruction bytes of each kernel (8192)");
  cmd->add_option("--seed", opts.seed, "generator seed (1)");
  cmd->add_option("--wavefronts", opts.wavefronts, "wavefront slots of a CU each kernel fills (40: GCN's 4 x 10)")
      ->check(CLI::Range(1u, 65536u));
  cmd->add_option("--version", opts.version,
                  "trace format: 2 (instructions and wavefronts) or 1 (one request per line, the earlier format)")
      ->check(CLI::IsMember({1u, 2u}));
  add_import_command(*cmd, opts);
}

int run_trace(const TraceOptions& opts) {
  if (opts.import) return run_import(opts);
  if (opts.kind.empty()) throw ConfigError("--kind", "(missing)", std::string("required; valid kinds: ") + kKinds);
  if (opts.out.empty()) throw ConfigError("--out", "(missing)", "required: the trace file to write");
  const trace::Trace t = make_trace(opts);
  std::cout << "txgen: trace " << t.workload << ": " << t.cus << " CUs, " << t.kernels.size() << " kernels, "
            << t.requests() << " requests in " << t.instructions() << " instructions, " << t.distinct_pages()
            << " distinct pages -> " << opts.out << "\n";
  return 0;
}

void write_default_trace(const std::string& config, const std::string& kind, unsigned long requests_per_cu,
                         const std::string& file) {
  TraceOptions opts;
  opts.config = config;
  opts.kind = kind;
  opts.requests = requests_per_cu;
  opts.out = file;
  make_trace(opts);
}

}  // namespace txgen::cli
