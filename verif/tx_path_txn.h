// The transaction-level engine of `txgen eval` (docs/verification.md,
// "Transaction-level engine"): the replay of a trace through the path or the
// baseline with the structures' contents kept by their documented rules
// (L1-TLB LRU or PLRU, the LDS segments' and I-cache lines' ranks, insertion
// and base-delta packing, the I-cache's instruction fills and flushes, the
// victim chain) and time from their documented latencies, one operation at a
// time per engine. It is not cycle-exact: contention is approximated, so its
// counts are close to the golden-model engine's, not equal (the eval's
// `--engine txn-check` measures how close). It replays 10-30x faster than
// the golden models.
#pragma once

#include "tx_path_env.h"

namespace txgen::verif {

EvalStats replay_transactions(const elab::TxPathParams& p, const trace::Trace& t, const EvalOptions& o,
                              bool baseline);

}  // namespace txgen::verif
