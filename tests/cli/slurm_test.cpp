// `txgen sweep --slurm` and `txgen eval --slurm` against a real one-node Slurm
// cluster (scripts/slurm_local.sh, started and stopped by CTest's slurm
// fixture, which sets SLURM_CONF): the same tables as the local runners, a
// failed point reported with its log while the others finish, a rerun that
// submits only what is missing. Without a cluster every test fails.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <unistd.h>

#include "cli_support.h"

namespace fs = std::filesystem;
using nlohmann::json;
using txgen::test::read_file;
using txgen::test::run;
using txgen::test::run_txgen;
using txgen::test::source;
using txgen::test::TempDir;

namespace {

// The cluster's node answers (idle, mixed or allocated); the reason otherwise.
::testing::AssertionResult cluster_up() {
  ::setenv("TXGEN_SLURM_POLL", "1", 1);  // the runners look at the queue every second
  const char* conf = std::getenv("SLURM_CONF");
  if (!conf) return ::testing::AssertionFailure() << "SLURM_CONF is not set: the CTest fixture slurm_start did not run";
  const auto r = run("sinfo -h -o %t");
  if (r.exit_code != 0 || !std::regex_search(r.output, std::regex("^(idle|mix|alloc)")))
    return ::testing::AssertionFailure() << "no Slurm cluster answers at " << conf
                                         << " (scripts/slurm_local.sh start failed?): " << r.output;
  return ::testing::AssertionSuccess();
}

std::string write_file(const TempDir& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir.path() / name) << text;
  return dir.str(name);
}

// The point directory of `name` in a sweep directory.
fs::path point_dir(const fs::path& sweep, const std::string& name) {
  const json record = json::parse(read_file(sweep / "sweep.json"));
  for (const auto& p : record["points"])
    if (p["name"] == name) return sweep / std::string(p["dir"]);
  ADD_FAILURE() << "no point " << name << " in " << sweep;
  return sweep / "missing";
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(Slurm, ClusterAnswers) { ASSERT_TRUE(cluster_up()); }

// Four codec points, each generated, co-simulated and synthesized; one point's
// configuration broken on purpose fails all its jobs, reported with their
// logs, while the other three finish; repaired, a rerun submits its four jobs
// only, and the collected table equals the ninja run's.
TEST(Slurm, SweepMatchesNinjaReportsAFailedPointAndResubmitsOnlyIt) {
  ASSERT_TRUE(cluster_up());
  TempDir dir("slurm_sweep");
  const std::string spec = write_file(
      dir, "spec.json",
      "{ \"name\": \"tiny\", \"base\": \"" + source("tests/configs/arith_tiny.json") +
          "\", \"blocks\": [\"bd_codec\"], \"vary\": [{ \"$.bd_codec.compare\": [\"pairwise\", \"mux\"] }, "
          "{ \"$.bd_codec.base_bits\": [9, 10] }], \"steps\": [\"gen\", \"cosim\", \"synth\"], "
          "\"cosim\": { \"cycles\": 3000, \"seed\": \"7\" } }");
  const auto local = run_txgen("sweep " + spec + " --out " + dir.str("ninja") + " --jobs 2");
  ASSERT_EQ(local.exit_code, 0) << local.output;

  ASSERT_EQ(run_txgen("sweep " + spec + " --out " + dir.str("slurm") + " --write-only").exit_code, 0);
  // the co-simulations share the ninja run's tree: it is built once
  fs::create_directory_symlink(dir.path() / "ninja" / "cosim-build", dir.path() / "slurm" / "cosim-build");
  const fs::path broken = point_dir(dir.path() / "slurm", "tiny_mux_9");
  const std::string good = read_file(broken / "config.json");
  std::ofstream(broken / "config.json") << "{ \"name\": 3 }\n";
  const auto first = run_txgen("sweep " + spec + " --out " + dir.str("slurm") + " --slurm");
  EXPECT_EQ(first.exit_code, 1) << first.output;
  EXPECT_NE(first.output.find("16 submitted to Slurm"), std::string::npos) << first.output;
  EXPECT_NE(first.output.find("[16/16] "), std::string::npos) << first.output;
  EXPECT_NE(first.output.find("4 points: 3 passed, 1 failed, 0 skipped"), std::string::npos) << first.output;
  EXPECT_EQ(count(first.output, "FAILED "), 4u) << first.output;
  const std::string log = (broken / "synth_bd_codec.log").string();
  EXPECT_NE(first.output.find("failed tiny_mux_9: synth_bd_codec (log " + log + ")"), std::string::npos)
      << first.output;
  EXPECT_NE(read_file(log).find("$.name"), std::string::npos) << read_file(log);
  const auto status = run_txgen("sweep status " + dir.str("slurm"));
  EXPECT_EQ(status.exit_code, 1) << status.output;
  EXPECT_NE(status.output.find("3 passed, 1 failed"), std::string::npos) << status.output;

  std::ofstream(broken / "config.json") << good;
  const auto again = run_txgen("sweep " + spec + " --out " + dir.str("slurm") + " --slurm");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("4 submitted to Slurm"), std::string::npos) << again.output;
  EXPECT_EQ(run_txgen("sweep status " + dir.str("slurm")).exit_code, 0);

  for (const char* d : {"ninja", "slurm"}) ASSERT_EQ(run_txgen("sweep collect " + dir.str(d)).exit_code, 0) << d;
  for (const char* f : {"tiny.csv", "tiny.md"})
    EXPECT_EQ(read_file(dir.path() / "slurm" / "results" / f), read_file(dir.path() / "ninja" / "results" / f)) << f;
  EXPECT_NE(read_file(dir.path() / "slurm" / "results" / "tiny.csv").find(",passed"), std::string::npos);
}

// A sweep's evaluation step, one job per workload, gives the same table
// through Slurm as through ninja; --no-wait returns at once and the status
// follows the jobs until a rerun waits for them.
TEST(Slurm, SweepEvaluationMatchesNinja) {
  ASSERT_TRUE(cluster_up());
  TempDir dir("slurm_sweep_eval");
  const std::string spec = write_file(
      dir, "spec.json",
      "{ \"name\": \"ev\", \"base\": \"" + source("tests/configs/tx_path_small.json") +
          "\", \"blocks\": [\"tx_path\"], \"vary\": [{ \"$.tx_path.victim_queue\": [2, 4] }], \"steps\": "
          "[\"eval\"], \"eval\": { \"workloads\": [\"atax\", \"gups\"], \"requests\": 300 } }");
  ASSERT_EQ(run_txgen("sweep " + spec + " --out " + dir.str("ninja") + " --jobs 2").exit_code, 0);
  const auto submitted = run_txgen("sweep " + spec + " --out " + dir.str("slurm") + " --slurm --no-wait");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.output;
  EXPECT_NE(submitted.output.find("6 submitted to Slurm"), std::string::npos) << submitted.output;
  const auto waited = run_txgen("sweep " + spec + " --out " + dir.str("slurm") + " --slurm");
  ASSERT_EQ(waited.exit_code, 0) << waited.output;
  EXPECT_NE(waited.output.find(" 0 submitted to Slurm"), std::string::npos) << waited.output;
  for (const char* d : {"ninja", "slurm"}) ASSERT_EQ(run_txgen("sweep collect " + dir.str(d)).exit_code, 0) << d;
  const std::string csv = read_file(dir.path() / "slurm" / "results" / "ev.csv");
  EXPECT_EQ(csv, read_file(dir.path() / "ninja" / "results" / "ev.csv"));
  EXPECT_NE(csv.find("speedup.gups"), std::string::npos) << csv;
}

// Two traces, one array task per replay (trace x design), merged into the
// tables one local evaluation writes.
TEST(Slurm, EvalOfTwoTracesMatchesTheLocalRun) {
  ASSERT_TRUE(cluster_up());
  TempDir dir("slurm_eval");
  const std::string args =
      "eval --config " + source("tests/configs/tx_path_small.json") + " --workloads atax,gups --requests 300";
  ASSERT_EQ(run_txgen(args + " --out " + dir.str("local")).exit_code, 0);
  const auto r = run_txgen(args + " --out " + dir.str("slurm") + " --slurm");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("4 replays, 4 submitted to Slurm"), std::string::npos) << r.output;
  for (const char* f : {"eval.md", "eval.csv"})
    EXPECT_EQ(read_file(dir.path() / "slurm" / f), read_file(dir.path() / "local" / f)) << f;
  const auto again = run_txgen(args + " --out " + dir.str("slurm") + " --slurm");
  EXPECT_NE(again.output.find("4 replays, 0 submitted to Slurm"), std::string::npos) << again.output;
}

// A task cancelled while it waited in the queue never ran: the sweep counts
// it not run (no failure, no log named that does not exist), and a rerun
// submits it. A job holding both of the node's CPUs keeps the tasks pending.
TEST(Slurm, TaskCancelledWhilePendingIsNotRunAndResubmitted) {
  ASSERT_TRUE(cluster_up());
  TempDir dir("slurm_cancelled");
  const std::string spec = write_file(dir, "spec.json",
                                      "{ \"name\": \"held\", \"base\": \"" + source("tests/configs/arith_tiny.json") +
                                          "\", \"blocks\": [\"bd_codec\"], \"vary\": [{ \"$.bd_codec.base_bits\": [9, 10] }], "
                                          "\"steps\": [\"gen\"] }");
  const auto blocker = run("sbatch --parsable --job-name=txgen-test-blocker -c 2 -o /dev/null --wrap 'sleep 60'");
  ASSERT_EQ(blocker.exit_code, 0) << blocker.output;
  const auto submitted = run_txgen("sweep " + spec + " --out " + dir.str("out") + " --slurm --no-wait");
  EXPECT_EQ(submitted.exit_code, 0) << submitted.output;
  EXPECT_EQ(run("scancel --name=txgen-held").exit_code, 0);
  EXPECT_EQ(run("scancel --name=txgen-test-blocker").exit_code, 0);
  // the queue forgets the cancelled tasks within the runner's poll
  txgen::test::RunResult status;
  for (int i = 0; i < 30; ++i) {
    status = run_txgen("sweep status " + dir.str("out"));
    if (status.output.find("queued or running") == std::string::npos) break;
    ::sleep(1);
  }
  EXPECT_EQ(status.exit_code, 3) << status.output;  // unfinished, nothing failed
  EXPECT_NE(status.output.find("0 passed, 0 failed, 0 skipped, 2 not run"), std::string::npos) << status.output;
  EXPECT_EQ(status.output.find("failed held"), std::string::npos) << status.output;
  const auto again = run_txgen("sweep " + spec + " --out " + dir.str("out") + " --slurm");
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("4 submitted to Slurm"), std::string::npos) << again.output;  // gen and report per point
}

// A submission sbatch refuses (a partition the cluster lacks) is an error
// naming sbatch and its reason, not a silent pass.
TEST(Slurm, RefusedSubmissionIsAnError) {
  ASSERT_TRUE(cluster_up());
  TempDir dir("slurm_refused");
  const std::string spec = write_file(dir, "spec.json",
                                      "{ \"name\": \"tiny\", \"base\": \"" + source("tests/configs/arith_tiny.json") +
                                          "\", \"blocks\": [\"bd_codec\"], \"vary\": [{ \"$.bd_codec.tags\": [2] }], "
                                          "\"steps\": [\"gen\"] }");
  const auto r = run_txgen("sweep " + spec + " --out " + dir.str("out") + " --slurm --partition nosuch");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("sbatch slurm/array-1.sh failed"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("partition"), std::string::npos) << r.output;
}
