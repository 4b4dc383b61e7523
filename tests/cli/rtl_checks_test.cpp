// Properties of the generated RTL over every shipped configuration: lint-clean
// under Verilator -Wall, accepted by Icarus -g2005, byte-for-byte deterministic,
// and identical to the checked-in copies under rtl/; and over the small sizes
// of every field: lint-clean or rejected by name.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_support.h"

namespace fs = std::filesystem;
using txgen::test::read_file;
using txgen::test::run;
using txgen::test::source;
using txgen::test::TempDir;
using txgen::test::run_txgen;

namespace {

std::vector<fs::path> configs_in(const std::string& rel) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(source(rel)))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<fs::path> all_configs() {
  auto v = configs_in("configs");
  auto t = configs_in("tests/configs");
  v.insert(v.end(), t.begin(), t.end());
  return v;
}

// Empty when equal, else the first differing line of each: gtest's own diff of
// two multi-megabyte strings is quadratic and runs past any timeout.
std::string first_difference(const std::string& a, const std::string& b, const std::string& a_is = "checked in",
                             const std::string& b_is = "generated") {
  if (a == b) return "";
  size_t line = 1, i = 0;
  for (; i < a.size() && i < b.size() && a[i] == b[i]; ++i)
    if (a[i] == '\n') ++line;
  auto line_at = [i](const std::string& s) {
    const size_t from = i == 0 ? std::string::npos : s.rfind('\n', i - 1);
    const size_t start = from == std::string::npos ? 0 : from + 1;
    return s.substr(start, s.find('\n', start) - start);
  };
  return "line " + std::to_string(line) + ":\n  " + a_is + ": " + line_at(a) + "\n  " + b_is + ": " + line_at(b);
}

std::vector<std::string> verilog_files(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".v") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += " " + x;
  return s;
}

void generate(const fs::path& config, const fs::path& out) {
  const auto r = run_txgen("gen --config " + config.string() + " --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
}

}  // namespace

TEST(GeneratedRtl, EveryModuleIsVerilatorWallClean) {
  TempDir dir("lint");
  for (const auto& cfg : all_configs()) {
    const fs::path out = dir.path() / cfg.stem();
    generate(cfg, out);
    const auto files = verilog_files(out);
    ASSERT_FALSE(files.empty());
    // One run per configuration: every module no other one instantiates is a
    // top (several tops are expected, hence -Wno-MULTITOP), so every module is
    // linted in the hierarchy it is used in, and a warning names its instance.
    const auto r = run("verilator --lint-only -Wall -Wno-MULTITOP" + joined(files));
    EXPECT_EQ(r.exit_code, 0) << cfg << "\n" << r.output;
    EXPECT_EQ(r.output, "") << cfg;
  }
}

TEST(GeneratedRtl, IcarusAcceptsVerilog2005) {
  TempDir dir("iverilog");
  for (const auto& cfg : all_configs()) {
    const fs::path out = dir.path() / cfg.stem();
    generate(cfg, out);
    const auto r = run("iverilog -g2005 -Wall -o " + (dir.path() / "a.out").string() + joined(verilog_files(out)));
    EXPECT_EQ(r.exit_code, 0) << cfg << "\n" << r.output;
    EXPECT_EQ(r.output.find("error"), std::string::npos) << r.output;
  }
}

// The writer wraps at 100 columns (docs/hdl.md): every line of every
// generated file fits, whatever the names the emitters choose.
TEST(GeneratedRtl, EveryLineFitsOneHundredColumns) {
  TempDir dir("width");
  for (const auto& cfg : all_configs()) {
    const fs::path out = dir.path() / cfg.stem();
    generate(cfg, out);
    for (const auto& file : verilog_files(out)) {
      const std::string text = read_file(file);
      size_t line = 1, longest = 0, longest_line = 0;
      for (size_t at = 0; at < text.size(); ++line) {
        const size_t end = std::min(text.find('\n', at), text.size());
        if (end - at > longest) longest = end - at, longest_line = line;
        at = end + 1;
      }
      EXPECT_LE(longest, 100u) << file << ":" << longest_line;
    }
    fs::remove_all(out);
  }
}

TEST(GeneratedRtl, GenerationIsByteForByteDeterministic) {
  TempDir dir("det");
  for (const auto& cfg : all_configs()) {
    generate(cfg, dir.path() / "a");
    generate(cfg, dir.path() / "b");
    for (const auto& e : fs::directory_iterator(dir.path() / "a")) {
      const fs::path twin = dir.path() / "b" / e.path().filename();
      ASSERT_TRUE(fs::exists(twin)) << twin;
      EXPECT_EQ(first_difference(read_file(e.path()), read_file(twin), "first run", "second run"), "")
          << cfg << " " << e.path().filename();
    }
    fs::remove_all(dir.path() / "a");
    fs::remove_all(dir.path() / "b");
  }
}

// rtl/<config name>/ holds the generated RTL of each preset; regenerate with
// scripts/update_rtl.sh after an intended change.
TEST(GeneratedRtl, CheckedInPresetsMatchTheGenerator) {
  TempDir dir("golden");
  for (const auto& cfg : configs_in("configs")) {
    const fs::path golden = source("rtl") + "/" + cfg.stem().string();
    ASSERT_TRUE(fs::is_directory(golden)) << golden << " missing: run scripts/update_rtl.sh";
    const fs::path out = dir.path() / cfg.stem();
    generate(cfg, out);
    size_t count = 0;
    for (const auto& e : fs::directory_iterator(out)) {
      ++count;
      const fs::path mine = golden / e.path().filename();
      ASSERT_TRUE(fs::exists(mine)) << mine << " missing: run scripts/update_rtl.sh";
      EXPECT_EQ(first_difference(read_file(mine), read_file(e.path())), "")
          << mine << " differs from the generator: run scripts/update_rtl.sh";
    }
    size_t golden_count = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(golden)) ++golden_count;
    EXPECT_EQ(golden_count, count) << golden << " has stale files";
  }
}

// Every integer field of one configuration per block, moved to the small
// values where generators break (0 .. 4) and to the neighbours of its own
// value: txgen either rejects the configuration, naming a field ("$.x") and
// writing nothing, or emits RTL that Verilator -Wall accepts without a word.
// An internal error, a crash or a warning fails. Cross-field rules may name
// the other field of the pair.
TEST(GeneratedRtl, SmallLegalSizesLintCleanOrAreRejectedByName) {
  TempDir dir("sizes");
  const char* per_block[] = {"ata_n3_plru", "l1tlb_late", "l1tlb_plru", "iommu_small", "walk_formal",
                             "dhsl_small",  "lds_small",  "icache_tx_small"};
  unsigned variants = 0;
  for (const char* name : per_block) {
    const nlohmann::json flat = nlohmann::json::parse(read_file(source("tests/configs/" + std::string(name) +
                                                                          ".json"))).flatten();
    for (const auto& [pointer, value] : flat.items()) {
      if (!value.is_number_integer()) continue;
      const long long v = value.get<long long>();
      std::set<long long> tries = {0, 1, 2, 3, 4, v - 1, v + 1, 2 * v};
      tries.erase(v);
      for (const long long t : tries) {
        if (t < 0) continue;
        nlohmann::json changed = flat;
        changed[pointer] = t;
        const std::string what = std::string(name) + " " + pointer + " = " + std::to_string(t);
        const fs::path cfg = dir.path() / "c.json", out = dir.path() / "out";
        std::ofstream(cfg) << changed.unflatten().dump();
        fs::remove_all(out);
        const auto r = run_txgen("gen --config " + cfg.string() + " --out " + out.string());
        ++variants;
        if (r.exit_code == 2) {
          EXPECT_NE(r.output.find("error: $."), std::string::npos) << what << "\n" << r.output;
          EXPECT_FALSE(fs::exists(out)) << what;
          continue;
        }
        ASSERT_EQ(r.exit_code, 0) << what << "\n" << r.output;
        const auto lint = run("verilator --lint-only -Wall -Wno-MULTITOP" + joined(verilog_files(out)));
        EXPECT_EQ(lint.exit_code, 0) << what << "\n" << lint.output;
        EXPECT_EQ(lint.output, "") << what;
      }
    }
  }
  std::printf("  %u variants\n", variants);
}
