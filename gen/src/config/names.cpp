#include "txgen/config/config.h"

namespace txgen::config {

const char* name_of(CodecEncoding e) { return e == CodecEncoding::Arith ? "arith" : "prefix"; }
const char* name_of(IdPlacement ids) { return ids == IdPlacement::Shared ? "shared" : "per_entry"; }
const char* name_of(CompareStructure c) { return c == CompareStructure::Pairwise ? "pairwise" : "mux"; }

}  // namespace txgen::config
