// Storage report and registry entry of the page-walk scheduler.
#include <sstream>

#include "txgen/blocks/walk_sched_emit.h"
#include "txgen/ports/walk_sched.h"

namespace txgen::blocks {
namespace walk_sched {

using elab::WalkSchedParams;
using nlohmann::json;

namespace {

struct Storage {
  unsigned entry_bits;  // one buffer entry
  unsigned buffer, scores, credits, pwc_tags, pwc_counters, pwc_plru;
};

Storage storage(const WalkSchedParams& p) {
  Storage s{};
  s.entry_bits = p.vpn_bits + p.iid_bits + (p.simt() ? p.score_bits + p.credit_bits + 2 : 0);
  s.buffer = p.entries * s.entry_bits;
  s.scores = p.simt() ? p.entries * p.score_bits : 0;
  s.credits = p.simt() ? p.entries * p.credit_bits : 0;
  for (size_t l = 0; l < p.pwc_entries.size(); ++l) {
    s.pwc_tags += p.pwc_entries[l] * (p.pwc_tag_bits[l] + 1);
    s.pwc_counters += p.simt() ? 2 * p.pwc_entries[l] : 0;
    s.pwc_plru += p.pwc_entries[l] - 1;
  }
  return s;
}

}  // namespace

json params_json(const WalkSchedParams& p) {
  return {{"module_prefix", p.module_prefix},   {"policy", config::name_of(p.policy)},
          {"entries", p.entries},               {"iid_bits", p.iid_bits},
          {"walkers", p.walkers},               {"levels", p.levels},
          {"vpn_bits", p.vpn_bits},             {"pwc_entries", p.pwc_entries},
          {"pwc_tag_bits", p.pwc_tag_bits},     {"score_bits", p.score_bits},
          {"aging_threshold", p.aging_threshold}, {"credit_bits", p.credit_bits},
          {"levels_per_cycle", p.levels_per_cycle}, {"select_latency", p.select_latency}};
}

json report_json(const config::Config& cfg) {
  const WalkSchedParams p = elab::elaborate_walk_sched(cfg);
  const Storage s = storage(p);
  return {{"block", "walk_sched"},
          {"parameters", params_json(p)},
          {"storage_bits",
           {{"buffer_entry", s.entry_bits},
            {"buffer", s.buffer},
            {"of_which_scores", s.scores},
            {"of_which_aging_credits", s.credits},
            {"pwc_tags", s.pwc_tags},
            {"pwc_counters", s.pwc_counters},
            {"pwc_plru", s.pwc_plru}}}};
}

std::string report_markdown(const config::Config& cfg) {
  const WalkSchedParams p = elab::elaborate_walk_sched(cfg);
  const Storage s = storage(p);
  std::ostringstream os;
  os << "## walk_sched (" << cfg.name << ", policy " << config::name_of(p.policy) << ")\n\n"
     << "| state | bits |\n|---|---:|\n"
     << "| buffer: " << p.entries << " x " << s.entry_bits << " (VPN " << p.vpn_bits << ", instruction ID "
     << p.iid_bits;
  if (p.simt()) os << ", score " << p.score_bits << ", aging credit " << p.credit_bits << ", aged, match";
  os << ") | " << s.buffer << " |\n";
  if (p.simt())
    os << "| of which scores: " << p.entries << " x " << p.score_bits << " | " << s.scores << " |\n"
       << "| of which aging credits: " << p.entries << " x " << p.credit_bits << " | " << s.credits << " |\n";
  os << "| PWC tags and valid bits | " << s.pwc_tags << " |\n";
  if (p.simt()) os << "| PWC 2-bit counters | " << s.pwc_counters << " |\n";
  os << "| PWC pseudo-LRU | " << s.pwc_plru << " |\n\n"
     << "Selection latency " << p.select_latency << " cycles (" << p.index_bits << " tree levels, "
     << p.levels_per_cycle << " per cycle); " << p.walkers << " walkers; scores up to " << p.wavefront * p.levels
     << " in " << p.score_bits << " bits; aging after " << p.aging_threshold << " younger dispatches.\n";
  return os.str();
}

namespace {

BlockOutput emit_walk_sched(const config::Config& cfg, const EmitContext& ctx) {
  const WalkSchedParams p = elab::elaborate_walk_sched(cfg);
  BlockOutput out;
  out.files.push_back({p.module_prefix + ".v", emit_top(p, ctx)});
  out.parameters = params_json(p);
  return out;
}

std::vector<std::string> synth_tops(const config::Config& c) {
  return {elab::elaborate_walk_sched(c).module_prefix};
}

// From the ports (docs/power.md).
std::vector<power::Operation> power_operations(const config::Config& c) {
  const std::string m = elab::elaborate_walk_sched(c).module_prefix;
  return {{m, "walk request", {"req_valid_i", "req_ready_o"}}, {m, "dispatch", {"disp_valid_o"}}};
}

// The induction closes once its window holds a selection (L cycles) and the
// dispatch after it.
std::vector<ProveTop> prove_tops(const config::Config& c) {
  const elab::WalkSchedParams p = elab::elaborate_walk_sched(c);
  return {{p.module_prefix, p.select_latency + 3}};
}

std::vector<CosimTop> cosim_tops(const config::Config& c) {
  const elab::WalkSchedParams p = elab::elaborate_walk_sched(c);
  return {{"sys", p.module_prefix, ports::walk_sched_ports(p)}};
}

}  // namespace
}  // namespace walk_sched

BlockInfo walk_sched_block() {
  BlockInfo b;
  b.name = "walk_sched";
  b.summary = "SIMT-aware page-walk scheduler: scoring, batching, aging, PWC counters (seed 002, IV)";
  b.configured = [](const config::Config& c) { return c.walk_sched.has_value(); };
  b.emit = walk_sched::emit_walk_sched;
  b.report_json = walk_sched::report_json;
  b.report_markdown = walk_sched::report_markdown;
  b.synth_tops = walk_sched::synth_tops;
  b.prove_tops = walk_sched::prove_tops;
  b.cosim_tops = walk_sched::cosim_tops;
  b.power_operations = walk_sched::power_operations;
  return b;
}

}  // namespace txgen::blocks
