// The txgen command line: help, exit codes, error messages, no partial output.
#include <chrono>
#include <filesystem>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "cli_support.h"

namespace fs = std::filesystem;
using txgen::test::source;
using txgen::test::TempDir;
using txgen::test::read_file;
using txgen::test::run_txgen;

TEST(Cli, HelpDocumentsEveryCommandAndOption) {
  const auto top = run_txgen("--help");
  EXPECT_EQ(top.exit_code, 0);
  for (const char* cmd : {"gen", "report", "cosim", "synth", "pnr", "power", "sweep", "qor", "prove"})
    EXPECT_NE(top.output.find(cmd), std::string::npos) << cmd;
  const auto pnr = run_txgen("pnr --help");
  EXPECT_EQ(pnr.exit_code, 0);
  for (const char* opt : {"--config", "--block", "--out", "--module", "--utilization"})
    EXPECT_NE(pnr.output.find(opt), std::string::npos) << opt;
  const auto gen = run_txgen("gen --help");
  EXPECT_EQ(gen.exit_code, 0);
  for (const char* opt : {"--config", "--out", "--block"})
    EXPECT_NE(gen.output.find(opt), std::string::npos) << opt;
  const auto report = run_txgen("report --help");
  for (const char* opt : {"--config", "--format", "--block"})
    EXPECT_NE(report.output.find(opt), std::string::npos) << opt;
  const auto cosim = run_txgen("cosim --help");
  for (const char* opt : {"--config", "--block", "--out", "--cycles", "--seed", "--systemc"})
    EXPECT_NE(cosim.output.find(opt), std::string::npos) << opt;
  const auto synth = run_txgen("synth --help");
  for (const char* opt : {"--config", "--block", "--out", "--liberty"})
    EXPECT_NE(synth.output.find(opt), std::string::npos) << opt;
  const auto prove = run_txgen("prove --help");
  for (const char* opt : {"--config", "--block", "--depth", "--out", "--rtl", "--property", "--require-proof"})
    EXPECT_NE(prove.output.find(opt), std::string::npos) << opt;
}

TEST(Cli, NoSubcommandIsInvalidInput) { EXPECT_EQ(run_txgen("").exit_code, 2); }

TEST(Cli, GenWritesModulesFileListAndManifest) {
  TempDir dir("gen");
  const auto r = run_txgen("gen --config " + source("configs/default.json") + " --out " + dir.str("o"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* m : {"pack", "unpack", "comp", "decomp"})
    EXPECT_TRUE(fs::exists(dir.path() / "o" / (std::string("bd_codec_default_") + m + ".v"))) << m;
  const std::string list = txgen::test::read_file(dir.path() / "o" / "files.f");
  // The codec cores appear once although both blocks instantiate them.
  EXPECT_EQ(list, "bd_codec_default_pack.v\nbd_codec_default_unpack.v\nbd_codec_default_comp.v\n"
                  "bd_codec_default_decomp.v\nlds_ctrl_default.v\nlds_ctrl_default_base.v\n"
                  "lds_ctrl_default_sram.v\nlds_ctrl_default_sys.v\nlds_ctrl_default_base_sys.v\n");
  const std::string manifest = txgen::test::read_file(dir.path() / "o" / "manifest.json");
  for (const char* key : {"\"config_hash\"", "\"blocks\"", "\"modules\"", "\"parameters\"",
                          "\"va_tag_bits\": 25"})
    EXPECT_NE(manifest.find(key), std::string::npos) << key;
}

// Unchanged files keep their modification time (the co-simulation builds rely
// on it to skip verilating RTL a relinked generator wrote again); a file whose
// text differs is written.
TEST(Cli, GenLeavesUnchangedFilesUntouchedAndRewritesChangedOnes) {
  TempDir dir("regen");
  const std::string cmd = "gen --config " + source("configs/default.json") + " --out " + dir.str("o");
  ASSERT_EQ(run_txgen(cmd).exit_code, 0);
  const fs::path kept = dir.path() / "o" / "bd_codec_default_pack.v";
  const fs::path edited = dir.path() / "o" / "lds_ctrl_default.v";
  const std::string text = txgen::test::read_file(edited);
  const auto old_time = fs::file_time_type::clock::now() - std::chrono::hours(1);
  fs::last_write_time(kept, old_time);
  fs::last_write_time(edited, old_time);
  { std::ofstream(edited, std::ios::app) << "// edited\n"; }
  fs::last_write_time(edited, old_time);
  const auto again = run_txgen(cmd);
  ASSERT_EQ(again.exit_code, 0);
  EXPECT_NE(again.output.find("txgen: wrote 1 of "), std::string::npos) << again.output;
  EXPECT_NE(again.output.find(" (the others already up to date)"), std::string::npos) << again.output;
  EXPECT_EQ(fs::last_write_time(kept), old_time);
  EXPECT_NE(fs::last_write_time(edited), old_time);
  EXPECT_EQ(txgen::test::read_file(edited), text);
  for (const auto& e : fs::directory_iterator(dir.path() / "o"))
    EXPECT_EQ(e.path().string().find(".txgen-tmp"), std::string::npos) << e.path();
}

TEST(Cli, InfeasibleConfigExitsTwoNamingFieldAndLeavesNoOutput) {
  TempDir dir("bad");
  const auto r = run_txgen("gen --config " + source("tests/configs/bad/seed000_fig10_icache_per_entry_ids.json") +
                       " --out " + dir.str("o"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("$.bd_codec.delta_bits = 64"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("leaving 0 VA-tag bits"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir.path() / "o"));
}

TEST(Cli, PaperLdsBudgetFor16KLdsIsRejectedWithArithmetic) {
  const auto r = run_txgen("report --config " + source("tests/configs/bad/seed000_table1_lds16k_paper_budget.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("$.bd_codec.base_bits = 16: too small: the prefix encoding keeps 27 - 9 = 18"),
            std::string::npos)
      << r.output;
}

TEST(Cli, MissingConfigFileIsInvalidInput) {
  const auto r = run_txgen("report --config /nonexistent/x.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("cannot be opened"), std::string::npos);
}

TEST(Cli, UnknownBlockIsInvalidInput) {
  const auto r = run_txgen("report --config " + source("configs/default.json") + " --block nope");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--block = \"nope\": unknown block; known blocks: bd_codec"), std::string::npos)
      << r.output;
}

TEST(Cli, BadFormatIsInvalidInput) {
  EXPECT_EQ(run_txgen("report --config " + source("configs/default.json") + " --format xml").exit_code, 2);
}

TEST(Cli, ReportReproducesTheDocumentsFigures) {
  const auto lds = run_txgen("report --config " + source("configs/seed000_fig7_lds.json"));
  ASSERT_EQ(lds.exit_code, 0) << lds.output;
  EXPECT_NE(lds.output.find("48 - 12 (page) - 11 (log2(2048 LDS segments)) = 25"), std::string::npos)
      << lds.output;
  EXPECT_NE(lds.output.find("1 + 2 + 2 + 2 + 25 = 32"), std::string::npos);
  EXPECT_NE(lds.output.find("16 + 48 = 64"), std::string::npos);
  const auto ic = run_txgen("report --config " + source("configs/seed000_fig10_icache.json") + " --format json");
  ASSERT_EQ(ic.exit_code, 0) << ic.output;
  EXPECT_NE(ic.output.find("\"raw_tag_bits\": 39"), std::string::npos) << ic.output;
  EXPECT_NE(ic.output.find("\"packed_bits\": 96"), std::string::npos);
}

TEST(Cli, ReportGivesTheLdsModeBitShare) {
  // Seed 000 section 4.2.4: one mode bit per 32-byte segment, about 0.4 % of the LDS.
  const auto r = run_txgen("report --config " + source("configs/default.json") + " --block lds_ctrl");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("| mode bits | 2048 (0.391 % of 524288 LDS bits) |"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("| translation capacity | 6144 (96 per KB) |"), std::string::npos);
  const auto seg64 = run_txgen("report --config " + source("configs/lds64k_seg64.json") + " --format json");
  ASSERT_EQ(seg64.exit_code, 0) << seg64.output;
  EXPECT_NE(seg64.output.find("\"mode_bits_share_of_lds\": \"0.195 %\""), std::string::npos) << seg64.output;
}

TEST(Cli, ReportGivesMgvmStateBitsAsTheDocument) {
  // Seed 004 section V: 4096 (CU HSL registers) + 1152 (RTU and L2 counters) + 4096 (entry ids) = 9344.
  const auto r = run_txgen("report --config " + source("configs/seed004_mgvm.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* row : {"| HSL registers in CUs: 4 x 32 x 32 | 4096 |", "| RTU counters: 4 x 5 x 32 | 640 |",
                          "| L2-slice counters: 4 x 4 x 32 | 512 |", "| L2-entry chiplet ids: 4 x 512 x 2 | 4096 |",
                          "| **total (document)** | **9344** |"})
    EXPECT_NE(r.output.find(row), std::string::npos) << row << "\n" << r.output;
}

TEST(Cli, ReportGivesTheTranslationReachOfSeedZeroTableOne) {
  // Seed 000 6.1.3: "a maximum of 16K entries can be gained (12K from LDS and 4K from I-caches)":
  // 8 CUs x 512 segments x 3 ways, 2 I-caches x 256 lines x 8 translations.
  const auto r = run_txgen("report --config " + source("configs/seed000_table1_path.json") + " --block tx_path");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* row : {"| LDS (every segment idle: 512 x 3 ways) | 1536 | 8 | 12288 |",
                          "| I-cache (every line Tx: 256 x 8) | 2048 | 2 | 4096 |", "| 16384 |",
                          "| LDS hit (L1 accept to fill) | 14 | 35 |"})
    EXPECT_NE(r.output.find(row), std::string::npos) << row << "\n" << r.output;
}

TEST(Cli, TraceRejectsAnUnknownWorkload) {
  const auto r = run_txgen("trace --kind spmv --out /tmp/txgen_cli_spmv.trace");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("atax"), std::string::npos) << r.output;
}

TEST(Cli, TraceWritesVersion2AndOnRequestVersion1) {
  TempDir dir("trace_versions");
  for (const char* version : {"1", "2"}) {
    const std::string file = dir.str(std::string("gups") + version + ".trace.gz");
    const auto r = run_txgen(std::string("trace --kind gups --cus 2 --pages 256 --version ") + version + " --out " + file);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find(" instructions, "), std::string::npos) << r.output;
  }
  const auto bad = run_txgen("trace --kind gups --version 3 --out " + dir.str("v3.trace"));
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_FALSE(fs::exists(dir.path() / "v3.trace"));
  const auto no_kind = run_txgen("trace --out " + dir.str("none.trace"));
  EXPECT_EQ(no_kind.exit_code, 2) << no_kind.output;
  EXPECT_NE(no_kind.output.find("--kind"), std::string::npos) << no_kind.output;
}

// An Accel-Sim trace directory (the fixtures) imports and replays end to end.
TEST(Cli, TraceImportsAnAccelsimDirectoryThatEvalReplays) {
  TempDir dir("import");
  const std::string trace = dir.str("modes.trace");
  // its 48-bit addresses need 35 VPN bits: a 32-bit path is refused, by the
  // import and by the evaluation (whose replay would wait for ever on answers
  // to cut VPNs)
  const std::string narrow = source("tests/configs/tx_path_small.json");
  const std::string wide = source("configs/seed000_table1_path.json");
  const auto refused = run_txgen("trace import --from accelsim " + source("tests/data/accelsim/modes/kernelslist.g") +
                                 " --config " + narrow + " --out " + trace);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("needs 35"), std::string::npos) << refused.output;
  EXPECT_FALSE(fs::exists(trace));
  const auto r = run_txgen("trace import --from accelsim " + source("tests/data/accelsim/modes/kernelslist.g") +
                           " --config " + wide + " --out " + trace);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("memcpy lines skipped"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("MB/s"), std::string::npos) << r.output;
  for (const char* replay : {"wavefront", "outstanding"}) {
    const auto e = run_txgen("eval --config " + wide + " --trace " + trace + " --replay " + replay + " --out " +
                             dir.str(std::string("eval_") + replay));
    ASSERT_EQ(e.exit_code, 0) << e.output;
    EXPECT_NE(e.output.find("| modes | path |"), std::string::npos) << e.output;
    EXPECT_NE(e.output.find(std::string(replay) + " replay"), std::string::npos) << e.output;
    EXPECT_EQ(e.output.find("stopped at --max-cycles"), std::string::npos) << e.output;
  }
  const std::string two = dir.str("two.trace");
  ASSERT_EQ(run_txgen("trace import --from accelsim " + source("tests/data/accelsim/modes/kernelslist.g") +
                      " --cus 2 --out " + two)
                .exit_code,
            0);
  const auto cut = run_txgen("eval --config " + narrow + " --trace " + two + " --out " + dir.str("eval_narrow"));
  EXPECT_EQ(cut.exit_code, 2) << cut.output;
  EXPECT_NE(cut.output.find("largest VPN needs 35 bits"), std::string::npos) << cut.output;
  const auto missing = run_txgen("trace import --from accelsim " + dir.str("nowhere/kernelslist.g") + " --out " +
                                 dir.str("x.trace"));
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("kernelslist.g"), std::string::npos) << missing.output;
  EXPECT_FALSE(fs::exists(dir.path() / "x.trace"));
  const auto other = run_txgen("trace import --from gem5 " + source("tests/data/accelsim/modes/kernelslist.g") +
                               " --out " + dir.str("y.trace"));
  EXPECT_EQ(other.exit_code, 2) << other.output;
}

TEST(Cli, EvalRejectsAConfigurationWithoutAPath) {
  const auto r = run_txgen("eval --config " + source("configs/seed000_fig7_lds.json") + " --out /tmp/txgen_cli_eval");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("tx_path"), std::string::npos) << r.output;
}

// The golden-model and transaction-level engines run the txgen_eval built
// beside txgen: no CMake tree of their own, a table in well under a second.
TEST(Cli, EvalWithoutTheRtlNeedsNoBuild) {
  for (const char* engine : {"txn", "model"}) {
    TempDir dir(std::string("eval_") + engine);
    const auto r = run_txgen("eval --config " + source("tests/configs/tx_path_small.json") + " --engine " + engine +
                             " --workloads atax --requests 100 --out " + dir.str("out"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_FALSE(fs::exists(dir.path() / "out" / "build")) << engine;
    const std::string md = read_file(dir.path() / "out" / "eval.md");
    EXPECT_NE(md.find(std::string(engine) == "txn" ? "transaction-level engine" : "golden-model engine"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("| atax | path |"), std::string::npos) << md;
  }
}

// A replay longer than TXGEN_EVAL_PROGRESS seconds prints progress lines to a
// log (not a terminal): requests replayed of all, the rate, the time left.
TEST(Cli, EvalPrintsProgressLinesInALog) {
  TempDir dir("eval_progress");
  // Long enough (about 1.3 s here) that a machine ten times faster still prints
  // lines; a count or rate of 10,000 or more is printed as "12.3 k".
  const auto r = txgen::test::run("TXGEN_EVAL_PROGRESS=0.02 " + std::string(TXGEN_BIN) + " eval --config " +
                     source("tests/configs/tx_path_small.json") +
                     " --workloads gups --requests 10000 --jobs 1 --designs baseline --out " + dir.str("out"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string n = R"([0-9]+(\.[0-9])?( [kM])?)";
  const std::regex line("txgen eval: " + n + " of " + n + " requests \\([0-9]+ %\\), " + n +
                        " requests/s, [0-9]+ (s|min) left\n");
  EXPECT_TRUE(std::regex_search(r.output, line)) << r.output;
  EXPECT_EQ(r.output.find('\r'), std::string::npos) << "a log gets whole lines";
  EXPECT_EQ(r.output.find("gnuplot"), std::string::npos) << "one design, no figure: " << r.output;
  EXPECT_FALSE(fs::exists(dir.path() / "out" / "eval.gp"));
}

// The transaction-level engine reports its requests as it replays them, not
// at the end of the replay: some line shows a share strictly between 0 and
// 100 %. 800 k requests, about 0.8 s here.
TEST(Cli, EvalTxnEngineReportsProgressWhileItReplays) {
  TempDir dir("eval_txn_progress");
  const std::string config = source("tests/configs/tx_path_small.json");
  ASSERT_EQ(run_txgen("trace --config " + config + " --kind gups --requests 400000 --pages 524288 --out " +
                      dir.str("g.trace"))
                .exit_code,
            0);
  const auto r = txgen::test::run("TXGEN_EVAL_PROGRESS=0.01 " + std::string(TXGEN_BIN) + " eval --config " + config +
                                  " --trace " + dir.str("g.trace") +
                                  " --engine txn --jobs 1 --designs baseline --out " + dir.str("out"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::regex_search(r.output, std::regex(R"(txgen eval: [0-9.]+ k of 800\.0 k requests \([1-9][0-9]? %\))")))
      << r.output;
}

// An eval the configuration or the engine cannot run: exit 2 naming `field`,
// nothing written.
namespace {
void expect_eval_refused(const std::string& name, const std::string& args, const std::string& field) {
  TempDir dir(name);
  const auto r = run_txgen("eval " + args + " --out " + dir.str("out"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(field), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}
}  // namespace

TEST(Cli, EvalWhatIfNeedsTheTransactionEngine) {
  expect_eval_refused("eval_what_if", "--config " + source("tests/configs/tx_path_small.json") +
                                          " --what-if-pipelined-wires", "--what-if-pipelined-wires");
}

TEST(Cli, EvalSpeculativeRequestNeedsTheModelEngine) {
  expect_eval_refused("eval_spec_txn", "--config " + source("tests/configs/tx_path_spec.json") +
                                           " --engine txn --workloads gups", "$.tx_path.speculative_l2");
}

TEST(Cli, EvalSharedL1NeedsTheModelEngine) {
  expect_eval_refused("eval_agg_txn", "--config " + source("tests/configs/tx_path_agg.json") +
                                          " --engine txn --workloads gups", "$.tx_path.l1tlb.tlbs");
}

// The generated L2-TLB and IOMMU behind the path: each option that needs it,
// and the transaction-level engine that lacks it, is refused before any trace
// is written; an L2 tag too narrow for the path names its field.
TEST(Cli, EvalChecksTheGeneratedL2BeforeWritingAnything) {
  TempDir dir("eval_generated_l2");
  const std::string small = source("tests/configs/tx_path_small.json");
  const std::string iommu = source("tests/configs/tx_path_iommu.json");
  const std::pair<std::string, std::string> cases[] = {
      {"--config " + small + " --policies simt", "--policies"},
      {"--config " + small + " --l2 generated", "no iommu section"},
      {"--config " + iommu + " --engine txn", "transaction-level engine"},
      {"--config " + iommu + " --l2-latency 6", "--l2-latency"}};
  for (const auto& [args, says] : cases) {
    const auto r = run_txgen("eval " + args + " --workloads atax --requests 50 --out " + dir.str("out"));
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(says), std::string::npos) << args << "\n" << r.output;
    EXPECT_FALSE(fs::exists(dir.path() / "out")) << args;
  }
  const auto ok = run_txgen("eval --config " + iommu + " --policies fcfs,simt --designs baseline --workloads gups "
                            "--requests 100 --out " + dir.str("ok"));
  ASSERT_EQ(ok.exit_code, 0) << ok.output;
  const std::string md = read_file(dir.path() / "ok" / "eval.md");
  EXPECT_NE(md.find("| gups | baseline | simt |"), std::string::npos) << md;
  EXPECT_EQ(md.find("| gups | path"), std::string::npos) << md;
}

// Energy per workload: with the golden models a table whose page-walk energy
// is the generated IOMMU's PTE reads at the DDR3 rank's 20.754 nJ each and
// whose SRAM reads are the replay's; the transaction-level engine, which
// counts no SRAM access, says so and writes none.
TEST(Cli, EvalTablesEnergyPerWorkloadWithTheGoldenModels) {
  TempDir dir("eval_energy");
  const std::string iommu = source("tests/configs/tx_path_iommu.json");
  const auto r = run_txgen("eval --config " + iommu + " --workloads gups --requests 100 --out " + dir.str("model"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(read_file(dir.path() / "model" / "eval.md").find("### Energy per workload"), std::string::npos);
  const auto energy = nlohmann::json::parse(read_file(dir.path() / "model" / "eval_energy.json"));
  const auto runs = nlohmann::json::parse(read_file(dir.path() / "model" / "eval.json"));
  ASSERT_EQ(energy["runs"].size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const auto& e = energy["runs"][i];
    EXPECT_EQ(e["dram_reads"], runs[i]["pte_reads"]);
    EXPECT_GT(e["dram_reads"].get<uint64_t>(), 0u);
    EXPECT_NEAR(e["dram_read_nj"].get<double>(), e["dram_reads"].get<double>() * 20.754, 1e-6);
    EXPECT_EQ(e["arrays"][0]["name"], "LDS bank");
    EXPECT_EQ(e["arrays"][0]["reads"], runs[i]["lds_bank_reads"]);
  }
  const auto txn = run_txgen("eval --config " + source("tests/configs/tx_path_small.json") +
                             " --engine txn --workloads gups --requests 100 --out " + dir.str("txn"));
  ASSERT_EQ(txn.exit_code, 0) << txn.output;
  EXPECT_NE(txn.output.find("no energy table"), std::string::npos) << txn.output;
  EXPECT_FALSE(fs::exists(dir.path() / "txn" / "eval_energy.md"));
}

TEST(Cli, ReportGivesWalkSchedulerStorage) {
  // Seed 002 Table I: 256 entries x (VPN 36 + ID 20 + score 9 + credit 21 + aged + match);
  // PWC tags 4 x (9 + 1) + 8 x (18 + 1) + 32 x (27 + 1) = 1088.
  const auto r = run_txgen("report --config " + source("configs/seed002_table1.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* row : {"(VPN 36, instruction ID 20, score 9, aging credit 21, aged, match) | 22528 |",
                          "| of which scores: 256 x 9 | 2304 |", "| PWC tags and valid bits | 1088 |",
                          "| PWC 2-bit counters | 88 |", "| PWC pseudo-LRU | 41 |", "Selection latency 8 cycles"})
    EXPECT_NE(r.output.find(row), std::string::npos) << row << "\n" << r.output;
}

TEST(Cli, ReportGivesIcacheTagWidening) {
  // Seed 000 section 4.3.1: the 6-byte tag entry widened to 12 bytes on 256 lines is 1.5 KB.
  const auto r = run_txgen("report --config " + source("configs/seed000_icache_tx.json") + " --block icache_tx");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* row : {"| tag widening | (96 - 48) bits x 256 lines = 1536 B (1.5 KB) |",
                          "| instruction tag | 48 - 6 - 5 = 37 bits in a 48-bit entry |", "| aware, 1 per line | 256 |",
                          "| aware, 8 per line, kernel flush | 2048 |"})
    EXPECT_NE(r.output.find(row), std::string::npos) << row << "\n" << r.output;
}

// The arrays beside the I-cache controllers, without synthesis: the widened
// tags (8 ways x 96 bits) beside the plain ones (48), the same data array.
TEST(Cli, ReportGivesTheSramMacrosBesideTheModules) {
  const auto md = run_txgen("report --config " + source("configs/seed000_icache_tx.json") + " --block icache_tx");
  ASSERT_EQ(md.exit_code, 0) << md.output;
  EXPECT_NE(md.output.find("### SRAM macros"), std::string::npos) << md.output;
  EXPECT_NE(md.output.find("| icache_tx_seed000_icache_tx | tag array | 1 | 32 x 8 x 96 |"), std::string::npos)
      << md.output;
  EXPECT_NE(md.output.find("| icache_tx_seed000_icache_tx_base | tag array | 1 | 32 x 8 x 48 |"), std::string::npos);
  const auto js = run_txgen("report --config " + source("configs/default.json") + " --format json");
  ASSERT_EQ(js.exit_code, 0) << js.output;
  for (const auto& b : nlohmann::json::parse(js.output)["blocks"]) {
    if (b["block"] != "lds_ctrl") {
      EXPECT_FALSE(b.contains("sram_macros")) << b["block"];
      continue;
    }
    ASSERT_EQ(b["sram_macros"].size(), 2u);  // the controller's banks and the pass-through's
    EXPECT_EQ(b["sram_macros"][0]["count"], b["parameters"]["banks"]);
    EXPECT_EQ(b["sram_macros"][0]["words"], b["parameters"]["rows"]);
  }
}

TEST(Cli, ReportNamesTheConfiguredBlocks) {
  const auto r = run_txgen("report --config " + source("configs/default.json") + " --format names");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "bd_codec\nlds_ctrl\n");
}

TEST(Cli, CosimRejectsInvalidConfigBeforeBuilding) {
  TempDir dir("cosim_bad");
  const auto r = run_txgen("cosim --config " + source("tests/configs/bad/seed000_table1_lds16k_paper_budget.json") +
                           " --block bd_codec --out " + dir.str("c"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("$.bd_codec.base_bits = 16"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir.path() / "c"));
}
