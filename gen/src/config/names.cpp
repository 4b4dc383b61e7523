#include "txgen/config/config.h"

namespace txgen::config {

const char* name_of(CodecEncoding e) { return e == CodecEncoding::Arith ? "arith" : "prefix"; }
const char* name_of(IdPlacement ids) { return ids == IdPlacement::Shared ? "shared" : "per_entry"; }
const char* name_of(CompareStructure c) { return c == CompareStructure::Pairwise ? "pairwise" : "mux"; }

const char* name_of(DhslPolicy p) {
  switch (p) {
    case DhslPolicy::Private: return "private";
    case DhslPolicy::SharedStatic: return "shared_static";
    case DhslPolicy::MgvmCoarse: return "mgvm_coarse";
    case DhslPolicy::Mgvm: return "mgvm";
  }
  return "mgvm";
}

const char* name_of(WalkPolicy p) {
  switch (p) {
    case WalkPolicy::Fcfs: return "fcfs";
    case WalkPolicy::Random: return "random";
    case WalkPolicy::Simt: return "simt";
  }
  return "?";
}

const char* name_of(IcacheVariant v) { return v == IcacheVariant::Naive ? "naive" : "aware"; }

const char* name_of(IfillOrder o) { return o == IfillOrder::TxFirst ? "tx_first" : "invalid_first"; }

const char* name_of(L1tlbReplacement r) { return r == L1tlbReplacement::Plru ? "plru" : "lru"; }
const char* name_of(L1tlbLruState s) {
  return s == L1tlbLruState::Matrix ? "matrix" : s == L1tlbLruState::Ages ? "ages" : "auto";
}

const char* name_of(L1tlbL2Ports) { return "cluster"; }
const char* name_of(AtaReplacement r) { return r == AtaReplacement::Plru ? "plru" : "lru"; }
const char* name_of(AtaRemotePick p) { return p == AtaRemotePick::RoundRobin ? "round_robin" : "nearest"; }
const char* name_of(AtaMode m) { return m == AtaMode::Private ? "private" : "ata"; }
const char* name_of(Promotion p) { return p == Promotion::Copy ? "copy" : "move"; }

}  // namespace txgen::config
