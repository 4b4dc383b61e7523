// A mechanism's cost against its baseline, from synthesis results: the same
// run's X against X_base, or two runs of one block side by side (synth --vs).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "txgen/synth/synth_flow.h"

namespace txgen::synth {

// One module against its baseline. A unit that only one side has (the MGvm
// monitors against shared static) has the other side empty.
struct OverheadRow {
  std::optional<SynthResult> proposed;
  std::optional<SynthResult> baseline;
};

inline constexpr const char* kBaseSuffix = "_base";

// Each module X of one run with X_base of the same run, in run order.
std::vector<OverheadRow> pair_with_base(const std::vector<SynthResult>& results);

// Two runs of one block: modules paired by the part of their name after the
// run's prefix (<block>_<config name>), proposed order first, then modules
// only the baseline has.
std::vector<OverheadRow> pair_runs(const std::vector<SynthResult>& proposed, const std::string& proposed_prefix,
                                   const std::vector<SynthResult>& baseline, const std::string& baseline_prefix);

// The row summing both sides when the runs synthesize different units; none
// when every row is a pair (modules may then nest, and a sum would count a
// part twice).
std::optional<OverheadRow> units_total(const std::vector<OverheadRow>& rows);

// "### Overhead ..." table: area, flip-flops and minimum period of both sides
// with their ratios; `note` follows the table.
std::string overhead_markdown(const std::vector<OverheadRow>& rows, const std::string& note);
// One object per row with the same figures.
nlohmann::ordered_json overhead_json(const std::vector<OverheadRow>& rows);

// results_csv with the baseline of each module appended (baseline module, its
// area, flip-flops and minimum period, the three ratios; empty when none).
std::string results_csv_with_overhead(const std::vector<SynthResult>& results, const std::vector<OverheadRow>& rows);

}  // namespace txgen::synth
