// Every module a lock-step harness drives has exactly the ports its
// declaration lists (txgen/ports/<block>.h), in the declared order and with
// the declared widths, in every shipped and test configuration; and each
// block's doc shows the declaration's port table.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "txgen/blocks/block.h"
#include "txgen/config/parse.h"

namespace {

namespace fs = std::filesystem;
using txgen::blocks::BlockInfo;
using txgen::blocks::CosimTop;

struct RtlPort {
  std::string name;
  bool output;
  unsigned width;
};

// The ports of `module` as printed in its module header.
std::vector<RtlPort> printed_ports(const std::string& text, const std::string& module) {
  const size_t at = text.find("\nmodule " + module + " (");
  if (at == std::string::npos) return {};
  const std::string header = text.substr(at, text.find(");", at) - at);
  static const std::regex port(R"(^\s*(input|output)\s+wire\s*(?:\[(\d+):0\])?\s*(\w+))");
  std::vector<RtlPort> out;
  std::istringstream lines(header);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, port))
      out.push_back({m[3], m[1] == "output", m[2].matched ? static_cast<unsigned>(std::stoul(m[2])) + 1 : 1});
  }
  return out;
}

std::vector<fs::path> configuration_files() {
  std::vector<fs::path> files;
  for (const char* dir : {"configs", "tests/configs"})
    for (const auto& e : fs::directory_iterator(fs::path(TXGEN_SOURCE_DIR) / dir))
      if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string emitted_text(const txgen::blocks::BlockOutput& out, const std::string& module) {
  for (const auto& f : out.files)
    if (f.name == module + ".v") return f.text;
  return "";
}

// What differs between the printed ports and the declaration ("" if nothing).
std::string compare(const std::vector<RtlPort>& rtl, const CosimTop& top) {
  std::vector<txgen::ports::Port> declared;
  for (const auto& p : top.ports)
    if (p.width() > 0) declared.push_back(p);
  if (rtl.size() < 2 || rtl[0].name != "clk_i" || rtl[1].name != "rst_ni") return "clk_i, rst_ni are not first";
  if (rtl.size() - 2 != declared.size())
    return std::to_string(rtl.size() - 2) + " ports printed, " + std::to_string(declared.size()) + " declared";
  for (size_t i = 0; i < declared.size(); ++i) {
    const RtlPort& r = rtl[i + 2];
    const auto& d = declared[i];
    if (r.name != d.name || r.output != d.output || r.width != d.width())
      return "port " + std::to_string(i) + ": printed " + r.name + " (" + std::to_string(r.width) + ")" +
             ", declared " + d.name + " (" + std::to_string(d.width()) + ")";
  }
  return "";
}

TEST(PortDeclaration, EveryCosimulatedModuleHasItsDeclaredPorts) {
  unsigned checked = 0;
  for (const fs::path& file : configuration_files()) {
    const txgen::config::Config cfg = txgen::config::load_config_file(file.string());
    for (const BlockInfo& b : txgen::blocks::registry()) {
      if (!b.cosim_tops || !b.configured(cfg)) continue;
      const txgen::blocks::BlockOutput out = b.emit(cfg, {"test", "0"});
      for (const CosimTop& top : b.cosim_tops(cfg)) {
        const std::string text = emitted_text(out, top.module);
        ASSERT_FALSE(text.empty()) << file << ": " << b.name << " emits no " << top.module;
        EXPECT_EQ(compare(printed_ports(text, top.module), top), "") << file << ": " << top.module;
        ++checked;
      }
    }
  }
  // l1tlb's (13), walk_sched's (5), ata's (6), tx_path's (3 x 2) and dhsl's (6)
  // modules in configs/ and tests/configs/
  EXPECT_GE(checked, 36u);
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// docs/blocks/<block>.md holds each co-simulated module's port table between
// "<!-- ports: ROLE CONFIG -->" and "<!-- /ports -->", as `txgen report
// --config CONFIG --block BLOCK --format ports` prints it (widths as declared
// and in CONFIG).
TEST(PortDeclaration, BlockDocsShowTheDeclaredPortTables) {
  static const std::regex marker(R"(<!-- ports: (\w+) (\S+) -->\n)");
  unsigned checked = 0;
  for (const BlockInfo& b : txgen::blocks::registry()) {
    if (!b.cosim_tops) continue;
    const std::string doc = read_file(fs::path(TXGEN_SOURCE_DIR) / "docs/blocks" / (b.name + ".md"));
    unsigned tables = 0;
    for (std::sregex_iterator it(doc.begin(), doc.end(), marker), end; it != end; ++it, ++tables) {
      const std::string role = (*it)[1], config = (*it)[2];
      const txgen::config::Config cfg = txgen::config::load_config_file((fs::path(TXGEN_SOURCE_DIR) / config).string());
      const size_t from = static_cast<size_t>(it->position() + it->length());
      const std::string table = doc.substr(from, doc.find("<!-- /ports -->", from) - from);
      bool found = false;
      for (const CosimTop& top : b.cosim_tops(cfg)) {
        if (top.role != role) continue;
        found = true;
        EXPECT_EQ(table, txgen::ports::port_table(top.ports, true))
            << b.name << ".md: the " << role << " table differs from `txgen report --config " << config
            << " --block " << b.name << " --format ports`";
      }
      EXPECT_TRUE(found) << b.name << ".md names role " << role << ", which " << config << " does not have";
    }
    EXPECT_GT(tables, 0u) << b.name << ".md has no port table (<!-- ports: ROLE CONFIG -->)";
    checked += tables;
  }
  EXPECT_GT(checked, 0u);
}

}  // namespace
