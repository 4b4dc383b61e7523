#include "txgen/emit/output.h"

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "txgen/util/text_file.h"

namespace txgen::emit {
namespace fs = std::filesystem;

namespace {

void remove_quietly(const std::vector<fs::path>& paths) {
  std::error_code ec;
  for (const auto& p : paths) fs::remove(p, ec);
}

}  // namespace

void write_all_or_nothing(const std::string& dir, const std::vector<NamedText>& files) {
  const fs::path root(dir);
  std::error_code ec;
  const bool created = !fs::exists(root) && fs::create_directories(root, ec);
  if (ec || !fs::is_directory(root)) throw std::runtime_error("cannot create directory " + dir);
  std::vector<fs::path> staged, placed;
  try {
    // Stage every file first, so a failure leaves none of the final names behind.
    for (const auto& f : files) {
      staged.push_back(root / (f.name + ".txgen-tmp"));
      util::write_text_file(staged.back(), f.text);
    }
    for (size_t i = 0; i < files.size(); ++i) {
      placed.push_back(root / files[i].name);
      fs::rename(staged[i], placed.back());
    }
  } catch (...) {
    remove_quietly(staged);
    remove_quietly(placed);
    if (created) fs::remove(root, ec);
    throw;
  }
}

}  // namespace txgen::emit
