#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "txgen/cli/commands.h"
#include "txgen/cli/generate.h"
#include "txgen/error.h"
#include "txgen/formal/prove_flow.h"
#include "txgen/util/text_file.h"

namespace txgen::cli {
namespace fs = std::filesystem;

namespace {

std::string provable_blocks() {
  std::string s;
  for (const auto& b : blocks::registry())
    if (b.prove_tops) s += (s.empty() ? "" : ", ") + b.name;
  return s;
}

// The Verilog files of a `txgen gen` output directory, in files.f order.
std::vector<std::string> rtl_files(const fs::path& dir) {
  const fs::path list = dir / "files.f";
  if (!fs::exists(list)) throw ConfigError("--rtl", "\"" + dir.string() + "\"", "no files.f: not a txgen gen output directory");
  std::vector<std::string> files;
  std::istringstream in(util::read_text_file(list));
  for (std::string f; std::getline(in, f);)
    if (!f.empty()) files.push_back((dir / f).string());
  return files;
}

// Every --property names a property of some top.
void check_names(const std::vector<formal::TopResult>& results, const std::vector<std::string>& wanted) {
  std::string all;
  for (const auto& t : results)
    for (const auto& n : t.names) all += (all.empty() ? "" : ", ") + n;
  for (const auto& w : wanted) {
    bool found = false;
    for (const auto& t : results) found |= std::find(t.names.begin(), t.names.end(), w) != t.names.end();
    if (!found) throw ConfigError("--property", "\"" + w + "\"", "no such property; the block has: " + all);
  }
}

bool all_proven(const std::vector<formal::TopResult>& results, bool require_proof) {
  for (const auto& t : results)
    for (const auto& p : t.properties)
      if (p.verdict == formal::Verdict::Failed || (require_proof && p.verdict != formal::Verdict::Proven)) return false;
  return true;
}

int prove(const LoadedConfig& lc, const blocks::BlockInfo& block, const std::vector<blocks::ProveTop>& tops,
          const std::vector<emit::NamedText>& generated, const fs::path& out, const ProveOptions& opts) {
  std::vector<std::string> files;
  if (!opts.rtl.empty()) {
    files = rtl_files(opts.rtl);
  } else {
    fs::remove_all(out / "rtl");
    emit::write_all_or_nothing((out / "rtl").string(), generated);
    files = rtl_files(out / "rtl");
  }
  fs::create_directories(out);
  std::vector<formal::TopResult> results;
  for (const blocks::ProveTop& top : tops) {
    formal::ProveRequest req;
    req.top = top.module;
    req.verilog_files = files;
    req.only = opts.properties;
    req.depth = opts.depth ? opts.depth : top.depth;
    req.work_dir = (out / top.module).string();
    req.assume_members = top.assume_members;
    std::cerr << "txgen: proving " << top.module << " (depth " << req.depth << ") ...\n";
    results.push_back(formal::prove_top(req));
  }
  check_names(results, opts.properties);
  const std::string title = block.name + " (" + lc.cfg.name + ", config " + lc.hash + ")";
  const std::string md = formal::results_markdown(results, title);
  util::write_text_file(out / "prove.md", md);
  const nlohmann::json doc = {{"block", block.name}, {"config", lc.cfg.name}, {"config_hash", lc.hash},
                              {"results", formal::results_json(results)}};
  util::write_text_file(out / "prove.json", doc.dump(2) + "\n");
  std::cout << md;
  return all_proven(results, opts.require_proof) ? 0 : 1;
}

}  // namespace

void add_prove_command(CLI::App& app, ProveOptions& opts) {
  CLI::App* cmd = app.add_subcommand(
      "prove", "Prove a block's formal properties (the `ifdef FORMAL assertions of its RTL) with "
               "yosys-smtbmc and z3: a bounded model check of each property from reset, then "
               "k-induction; a property induction leaves open is checked again from reset to "
               "max(2N, N + 12) steps. Reports each property as proven, bounded to a depth, or "
               "FAILED with a counterexample VCD; exit 1 when one fails.");
  cmd->add_option("--config", opts.config, "configuration file (JSON)")->required();
  cmd->add_option("--block", opts.block, "block to prove (" + provable_blocks() + ")")->required();
  cmd->add_option("--depth", opts.depth, "BMC steps from reset and induction length (default: per module)")
      ->check(CLI::Range(1u, 1000u));
  cmd->add_option("--out", opts.out, "output directory (default: out/<config name>/prove/<block>)");
  cmd->add_option("--rtl", opts.rtl, "prove the RTL of this `txgen gen` output directory instead of generating it");
  cmd->add_option("--property", opts.properties, "prove only this property (repeatable)");
  cmd->add_flag("--require-proof", opts.require_proof, "exit 1 unless every property is proven");
}

int run_prove(const ProveOptions& opts) {
  const LoadedConfig lc = load(opts.config);
  const auto selected = select_blocks(lc.cfg, opts.block);
  const blocks::BlockInfo& block = *selected.front();
  if (!block.prove_tops)
    throw ConfigError("--block", "\"" + block.name + "\"", "states no formal properties; blocks with properties: " + provable_blocks());
  const std::vector<blocks::ProveTop> tops = block.prove_tops(lc.cfg);
  if (tops.empty())
    throw ConfigError("$." + block.name, "(" + lc.cfg.name + ")", "this configuration of the block has no module with properties");
  const fs::path out = opts.out.empty() ? fs::path("out") / lc.cfg.name / "prove" / block.name : fs::path(opts.out);
  const auto generated = generate(lc, selected);  // elaborates: an infeasible configuration stops here
  const bool created = !fs::exists(out);
  try {
    return prove(lc, block, tops, generated, out, opts);
  } catch (const ConfigError&) {
    if (created) fs::remove_all(out);  // a --property that names nothing: leave no output
    throw;
  }
}

}  // namespace txgen::cli
