// Writing a generation run to disk: the files of every block, the file list
// and the manifest, all or nothing.
#pragma once

#include <string>
#include <vector>


namespace txgen::emit {

struct NamedText {
  std::string name;
  std::string text;
};

// Writes every file into dir (created if missing); a file that already holds
// its text is left untouched. Returns the number of files written. On failure
// removes what it wrote (and dir, if it created it) and throws
// std::runtime_error.
size_t write_all_or_nothing(const std::string& dir, const std::vector<NamedText>& files);

}  // namespace txgen::emit
