#include "txgen/emit/output.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace txgen::emit {
namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

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
      write_file(staged.back(), f.text);
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
