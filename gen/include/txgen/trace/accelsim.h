// `txgen trace import --from accelsim`: Accel-Sim (NVBit tracer) trace
// directories to txgen traces (docs/trace_import.md: the format rules
// implemented and the mapping onto CUs and wavefronts).
#pragma once

#include <cstdint>
#include <string>

#include "txgen/trace/trace.h"

namespace txgen::trace {

struct ImportOptions {
  unsigned cus = 8;                 // thread blocks go to the CUs round robin in trace order
  uint64_t page_bytes = 4096;       // a power of two >= 512
  unsigned wavefront_slots = 40;    // per CU: a CU holds as many thread blocks as fit (at least one)
  uint64_t lds_segment_bytes = 1024;  // -shmem of the thread blocks a CU holds, in these segments
  unsigned max_lds_segments = 0;    // cap on a kernel's lds_segments (0: none)
  std::string workload;             // label (default: the trace directory's name; for .../APP/traces, APP)
};

struct ImportStats {
  uint64_t kernels = 0, memcpy_lines = 0;   // kernel traces read, Memcpy lines skipped
  uint64_t instructions = 0;                // instruction lines read
  uint64_t global_instructions = 0;         // translated (global/generic memory) instructions
  uint64_t requests = 0;                    // distinct pages over those instructions
  uint64_t bytes = 0;                       // bytes of kernel trace text read
};

// Reads KERNELSLIST (kernelslist.g) and the kernel traces it names
// (relative to its directory). Throws std::runtime_error naming the file and
// line and the reason on malformed input; an unknown opcode counts as compute.
Trace import_accelsim(const std::string& kernelslist, const ImportOptions& o, ImportStats* stats = nullptr);

}  // namespace txgen::trace
