#include "txgen/cli/generate.h"

#include <stdexcept>

#include "txgen/config/parse.h"
#include "txgen/error.h"
#include "txgen/util/file_lock.h"
#include "txgen/util/process.h"
#include "txgen/util/text_file.h"

namespace txgen::cli {
namespace {

// Adds a file unless an earlier block emitted it (blocks that instantiate the
// codec emit its cores too); the two texts must then be identical.
bool add_shared_file(std::vector<emit::NamedText>& files, blocks::EmittedFile& f) {
  for (const auto& existing : files) {
    if (existing.name != f.name) continue;
    if (existing.text != f.text)
      throw std::logic_error("two blocks emitted different texts for " + f.name);
    return false;
  }
  files.push_back({f.name, std::move(f.text)});
  return true;
}

}  // namespace

LoadedConfig load(const std::string& path) {
  LoadedConfig lc;
  lc.doc = config::read_json_file(path);
  lc.cfg = config::parse_config(lc.doc);
  lc.hash = config::config_hash(lc.doc);
  return lc;
}

std::vector<const blocks::BlockInfo*> select_blocks(const config::Config& cfg,
                                                    const std::string& name) {
  std::vector<const blocks::BlockInfo*> out;
  if (!name.empty()) {
    const blocks::BlockInfo* b = blocks::find_block(name);
    if (!b)
      throw ConfigError("--block", "\"" + name + "\"",
                        "unknown block; known blocks: " + blocks::block_names());
    if (!b->configured(cfg))
      throw ConfigError("$." + name, "(missing)", "the configuration has no section for block " + name);
    out.push_back(b);
    return out;
  }
  for (const auto& b : blocks::registry())
    if (b.configured(cfg)) out.push_back(&b);
  if (out.empty())
    throw ConfigError("$", "(no block section)",
                      "the configuration configures no block; known blocks: " + blocks::block_names());
  return out;
}

std::vector<emit::NamedText> generate(const LoadedConfig& lc,
                                      const std::vector<const blocks::BlockInfo*>& blocks) {
  const blocks::EmitContext ctx{TXGEN_VERSION, lc.hash};
  std::vector<emit::NamedText> files;
  std::string file_list;
  nlohmann::json manifest = {{"generator", "txgen"},
                             {"version", TXGEN_VERSION},
                             {"config", lc.cfg.name},
                             {"config_hash", lc.hash},
                             {"blocks", nlohmann::json::array()}};
  for (const blocks::BlockInfo* b : blocks) {
    blocks::BlockOutput out = b->emit(lc.cfg, ctx);
    nlohmann::json modules = nlohmann::json::array();
    for (auto& f : out.files) {
      modules.push_back(f.name.substr(0, f.name.size() - 2));
      if (add_shared_file(files, f)) file_list += f.name + "\n";
    }
    manifest["blocks"].push_back(
        {{"name", b->name}, {"modules", modules}, {"parameters", out.parameters}});
  }
  files.push_back({"files.f", file_list});
  files.push_back({"manifest.json", manifest.dump(2) + "\n"});
  return files;
}

namespace fs = std::filesystem;

std::string prebuilt_tree(const fs::path& build, const fs::path& log_dir) {
  const fs::path tree = fs::read_symlink("/proc/self/exe").parent_path();
  std::error_code ec;
  if (fs::equivalent(tree, build, ec) || !fs::exists(tree / "CMakeCache.txt") || !fs::exists(tree / "build.ninja"))
    return "";
  const std::string cache = util::read_text_file(tree / "CMakeCache.txt");
  if (cache.find("CMAKE_HOME_DIRECTORY:INTERNAL=" + std::string(TXGEN_SOURCE_DIR) + "\n") == std::string::npos)
    return "";
  const util::FileLock lock(tree / "txgen-prebuilt.lock");
  const int rc = util::run_process({"ninja", "-C", tree.string(), "txgen", "txgen_gen", "txgen_model"}, {}, tree,
                                   log_dir / "prebuilt.log");
  return rc == 0 ? tree.string() : "";
}

void build_in_tree(const std::filesystem::path& build, const std::vector<std::string>& defines,
                   const std::vector<std::string>& targets, const std::filesystem::path& log_dir,
                   const std::string& what) {
  std::filesystem::create_directories(build);
  const std::string prebuilt = prebuilt_tree(build, log_dir);
  const util::FileLock lock(build / "txgen.lock");
  std::vector<std::string> configure = {"cmake", "-S", TXGEN_SOURCE_DIR, "-B", build.string(), "-G", "Ninja",
                                        "-DCMAKE_BUILD_TYPE=Release", "-DTXGEN_PREBUILT=" + prebuilt};
  for (const auto& d : defines) configure.push_back("-D" + d);
  util::run_build_step(configure, log_dir / "configure.log", "configuring the " + what);
  std::vector<std::string> cmd = {"cmake", "--build", build.string(), "--target"};
  cmd.insert(cmd.end(), targets.begin(), targets.end());
  util::run_build_step(cmd, log_dir / "build.log", "building the " + what);
}

}  // namespace txgen::cli
