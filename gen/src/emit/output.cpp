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

// A file that already holds the text is left untouched: its modification time
// stays, so a build that regenerates unchanged RTL (Ninja's restat) does not
// verilate it again.
bool holds(const fs::path& path, const std::string& text) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) != text.size() || ec) return false;
  return util::read_text_file(path) == text;
}

}  // namespace

size_t write_all_or_nothing(const std::string& dir, const std::vector<NamedText>& files) {
  const fs::path root(dir);
  std::error_code ec;
  const bool created = !fs::exists(root) && fs::create_directories(root, ec);
  if (ec || !fs::is_directory(root)) throw std::runtime_error("cannot create directory " + dir);
  std::vector<const NamedText*> changed;
  for (const auto& f : files)
    if (!holds(root / f.name, f.text)) changed.push_back(&f);
  std::vector<fs::path> staged, placed;
  try {
    // Stage every file first, so a failure leaves none of the final names behind.
    for (const NamedText* f : changed) {
      staged.push_back(root / (f->name + ".txgen-tmp"));
      util::write_text_file(staged.back(), f->text);
    }
    for (size_t i = 0; i < changed.size(); ++i) {
      placed.push_back(root / changed[i]->name);
      fs::rename(staged[i], placed.back());
    }
  } catch (...) {
    remove_quietly(staged);
    remove_quietly(placed);
    if (created) fs::remove(root, ec);
    throw;
  }
  return changed.size();
}

}  // namespace txgen::emit
