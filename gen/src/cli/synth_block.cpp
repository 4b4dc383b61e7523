#include "txgen/cli/synth_block.h"

#include <algorithm>
#include <iostream>
#include <regex>
#include <sstream>

#include "txgen/synth/overhead.h"
#include "txgen/synth/whole_structure.h"
#include "txgen/util/text_file.h"

namespace txgen::cli {
namespace fs = std::filesystem;

namespace {

constexpr const char* kDefaultLiberty = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib";

// The SDC's clock period is the one synthesis aims at (abc -D) and reports against.
double sdc_period_ns(const fs::path& sdc) {
  const std::string text = util::read_text_file(sdc);
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(R"(create_clock[^\n]*-period\s+([0-9.]+))")))
    throw std::runtime_error(sdc.string() + " has no create_clock -period");
  return std::stod(m[1]);
}

std::string overhead_note(const BlockSynthesis& run, const std::vector<synth::OverheadRow>& rows,
                          const BlockSynthesis* vs, const std::string& vs_path) {
  if (vs)
    return "Baseline: " + run.block->name + " of configuration " + vs->config_name + " (config " + vs->config_hash +
           ", `" + vs_path + "`), synthesized in the same run (`" + kVsDir +
           "/`). Modules are paired by their name after the configuration name; \"all units\" sums each side's "
           "units, one instance each. Ratio = module / baseline.";
  if (!rows.empty())
    return std::string("Baseline: the `") + synth::kBaseSuffix +
           "` module of the same configuration, synthesized in the same run. Ratio = module / baseline.";
  return "No baseline module in this configuration: `txgen synth --vs BASELINE.json` synthesizes another "
         "configuration's " + run.block->name + " beside it (docs/synthesis.md).";
}

// The SRAM macros beside the modules and the whole structure's table (none
// for a block without SRAM arrays).
struct StructureReport {
  std::vector<synth::MacroUse> macros;
  std::vector<synth::StructureRow> rows;
};

StructureReport structure_report(const BlockSynthesis& run, const std::vector<synth::OverheadRow>& rows,
                                 const BlockSynthesis* vs) {
  StructureReport s;
  s.macros = synth::characterize(run.sram_arrays);
  if (vs) {
    const std::vector<synth::MacroUse> base = synth::characterize(vs->sram_arrays);
    s.rows = synth::whole_structure(rows, s.macros, base);
    s.macros.insert(s.macros.end(), base.begin(), base.end());
  } else {
    s.rows = synth::whole_structure(rows, s.macros, s.macros);
  }
  return s;
}

std::string report_markdown(const BlockSynthesis& run, const std::vector<synth::OverheadRow>& rows,
                            const std::string& note, const StructureReport& s) {
  std::string md = synth::results_markdown(run.results, synthesis_title(run)) + "\n";
  if (!s.rows.empty()) md += synth::whole_structure_markdown(s.rows) + "\n" + synth::macros_markdown(s.macros) + "\n";
  return md + synth::overhead_markdown(rows, note);
}

void write_reports(const BlockSynthesis& run, const std::vector<synth::OverheadRow>& rows, const std::string& note,
                   const fs::path& out, const BlockSynthesis* vs) {
  const StructureReport s = structure_report(run, rows, vs);
  util::write_text_file(out / (run.block->name + ".synth.md"), report_markdown(run, rows, note, s));
  const bool hierarchical =
      std::any_of(run.results.begin(), run.results.end(), [](const auto& r) { return r.hierarchical; });
  nlohmann::ordered_json doc = {{"block", run.block->name},
                                {"config", run.config_name},
                                {"config_hash", run.config_hash},
                                {"synthesis", synth::synthesis_mode(hierarchical)},
                                {"results", nlohmann::ordered_json::parse(synth::results_json(run.results))},
                                {"overhead", synth::overhead_json(rows)}};
  if (!s.macros.empty()) {
    doc["sram_macros"] = synth::macros_json(s.macros);
    doc["whole_structure"] = synth::whole_structure_json(s.rows);
    util::write_text_file(out / (run.block->name + ".synth.structure.csv"), synth::whole_structure_csv(s.rows));
  }
  if (vs) doc["baseline_run"] = {{"config", vs->config_name}, {"config_hash", vs->config_hash}, {"dir", kVsDir}};
  util::write_text_file(out / (run.block->name + ".synth.json"), doc.dump(2) + "\n");
  util::write_text_file(out / (run.block->name + ".synth.csv"), synth::results_csv_with_overhead(run.results, rows));
  if (hierarchical)
    util::write_text_file(out / (run.block->name + ".synth.modules.csv"), synth::modules_csv(run.results));
}


}  // namespace

std::vector<synth::SynthRequest> prepare_block_synthesis(const LoadedConfig& lc, const blocks::BlockInfo& block,
                                                         const fs::path& out, const std::string& liberty) {
  const fs::path rtl = out / "rtl";
  emit::write_all_or_nothing(rtl.string(), generate(lc, {&block}));

  const fs::path source(TXGEN_SOURCE_DIR);
  const fs::path sdc = source / "constraints" / (block.name + ".sdc");
  synth::SynthRequest req;
  req.sdc_path = sdc.string();
  req.liberty_path = liberty.empty() ? kDefaultLiberty : liberty;
  req.scripts_dir = (source / "synth").string();
  req.period_ns = sdc_period_ns(sdc);
  std::istringstream file_list(util::read_text_file(rtl / "files.f"));
  for (std::string f; std::getline(file_list, f);)
    if (!f.empty()) req.verilog_files.push_back((rtl / f).string());
  std::vector<synth::SynthRequest> requests;
  for (const std::string& top : block.synth_tops(lc.cfg)) {
    req.top = top;
    req.work_dir = (out / top).string();
    requests.push_back(req);
  }
  return requests;
}

BlockSynthesis block_synthesis(const LoadedConfig& lc, const blocks::BlockInfo& block,
                               std::vector<synth::SynthResult> results) {
  BlockSynthesis run;
  run.block = &block;
  run.config_name = lc.cfg.name;
  run.config_hash = lc.hash;
  run.module_prefix = block.name + "_" + lc.cfg.name;
  run.results = std::move(results);
  if (block.sram_arrays) run.sram_arrays = block.sram_arrays(lc.cfg);
  return run;
}

void announce_synthesis(const synth::SynthRequest& req) { std::cerr << "txgen: synthesizing " << req.top << " ...\n"; }

std::string synthesis_title(const BlockSynthesis& run) {
  return run.block->name + " (" + run.config_name + ", config " + run.config_hash + ")";
}

void write_synthesis_reports(const BlockSynthesis& run, const fs::path& out, const BlockSynthesis* vs,
                             const std::string& vs_path) {
  const auto rows = vs ? synth::pair_runs(run.results, run.module_prefix, vs->results, vs->module_prefix)
                       : synth::pair_with_base(run.results);
  write_reports(run, rows, overhead_note(run, rows, vs, vs_path), out, vs);
}

}  // namespace txgen::cli
