// Storage report of MGvm's state (seed 004 section V, "Hardware overheads":
// 9344 bits for 4 chiplets x 32 CUs with 512-entry L2-TLB slices).
#include <sstream>

#include "txgen/blocks/dhsl_emit.h"

namespace txgen::blocks::dhsl {

using elab::DhslParams;
using nlohmann::json;

namespace {

constexpr unsigned kDocumentHslRegisterBits = 32;  // the document's register per CU

struct Storage {
  unsigned cu_registers, rtu_counters, l2_counters, entry_ids, document_total;
  unsigned rtu_l2_registers, generated_register_bits, extra_state;
};

Storage storage(const DhslParams& p) {
  const unsigned n = p.chiplets, w = p.counter_bits;
  Storage s;
  s.cu_registers = n * p.cus_per_chiplet * kDocumentHslRegisterBits;
  s.rtu_counters = n * 5 * w;
  s.l2_counters = n * n * w;
  s.entry_ids = n * p.l2_entries * p.chiplet_bits;
  s.document_total = s.cu_registers + s.rtu_counters + s.l2_counters + s.entry_ids;
  s.rtu_l2_registers = 2 * n * kDocumentHslRegisterBits;
  s.generated_register_bits = 1 + p.shift_bits;
  // streak bits (RTU, L2), the CP's mode and prevImbalance
  s.extra_state = 2 * n + 2;
  return s;
}

}  // namespace

json params_json(const DhslParams& p) {
  return {{"module_prefix", p.module_prefix},
          {"policy", config::name_of(p.policy)},
          {"chiplets", p.chiplets},
          {"chiplet_bits", p.chiplet_bits},
          {"vpn_bits", p.vpn_bits},
          {"shift_bits", p.shift_bits},
          {"coarse_shift", p.coarse_shift},
          {"counter_bits", p.counter_bits},
          {"epoch_requests", p.epoch_requests},
          {"check_steps", p.check_steps},
          {"imbalance", {p.imbalance_num, p.imbalance_den}},
          {"hit_rate", {p.hit_num, p.hit_den}},
          {"balanced", {p.balanced_num, p.balanced_den}},
          {"cus_per_chiplet", p.cus_per_chiplet},
          {"l2_entries", p.l2_entries}};
}

json report_json(const config::Config& cfg) {
  const DhslParams p = elab::elaborate_dhsl(cfg);
  const Storage s = storage(p);
  return {{"block", "dhsl"},
          {"parameters", params_json(p)},
          {"state_bits",
           {{"cu_hsl_registers", s.cu_registers},
            {"rtu_counters", s.rtu_counters},
            {"l2_slice_counters", s.l2_counters},
            {"l2_entry_chiplet_ids", s.entry_ids},
            {"document_total", s.document_total},
            {"rtu_and_l2_hsl_registers_not_in_document", s.rtu_l2_registers},
            {"streak_and_cp_bits_not_in_document", s.extra_state}}},
          {"generated_hsl_register_bits", s.generated_register_bits}};
}

std::string report_markdown(const config::Config& cfg) {
  const DhslParams p = elab::elaborate_dhsl(cfg);
  const Storage s = storage(p);
  const unsigned n = p.chiplets, w = p.counter_bits;
  std::ostringstream os;
  os << "## dhsl (" << cfg.name << ", policy " << config::name_of(p.policy) << ")\n\n"
     << "MGvm state, accounted as seed 004 does (32-bit HSL register per CU):\n\n"
     << "| state | bits |\n|---|---:|\n"
     << "| HSL registers in CUs: " << n << " x " << p.cus_per_chiplet << " x 32 | " << s.cu_registers << " |\n"
     << "| RTU counters: " << n << " x 5 x " << w << " | " << s.rtu_counters << " |\n"
     << "| L2-slice counters: " << n << " x " << n << " x " << w << " | " << s.l2_counters << " |\n"
     << "| L2-entry chiplet ids: " << n << " x " << p.l2_entries << " x " << p.chiplet_bits << " | "
     << s.entry_ids << " |\n"
     << "| **total (document)** | **" << s.document_total << "** |\n"
     << "| not in the document: HSL registers of RTUs and L2 slices, 2 x " << n << " x 32 | "
     << s.rtu_l2_registers << " |\n"
     << "| not in the document: streak bits and the CP's mode and prevImbalance | " << s.extra_state << " |\n\n"
     << "The generated HSL register is " << s.generated_register_bits << " bits (mode + " << p.shift_bits
     << "-bit shift), coarse block at reset 2^" << p.coarse_shift << " pages; epoch " << p.epoch_requests
     << " requests; thresholds imbalance > " << p.imbalance_num << "/" << p.imbalance_den << ", hit rate > "
     << p.hit_num << "/" << p.hit_den << ", balanced <= " << p.balanced_num << "/" << p.balanced_den << ".\n";
  return os.str();
}

}  // namespace txgen::blocks::dhsl
