// Digits of the synthesis and QoR reports, so that Markdown, CSV and JSON show
// the same figures; the cell formatting itself is util/table_format.h.
#pragma once

#include "txgen/util/table_format.h"

namespace txgen::synth {

inline constexpr int kAreaDecimals = 1;
inline constexpr int kTimeDecimals = 3;  // ps resolution
inline constexpr int kFo4Decimals = 1;
inline constexpr int kRatioDecimals = 2;

using util::csv_cell;
using util::fixed;
using util::markdown_cell;
using util::rounded;
using util::with_thousands;

}  // namespace txgen::synth
