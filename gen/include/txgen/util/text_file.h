// Whole-file text I/O for the CLI and the tool flows.
#pragma once

#include <filesystem>
#include <string>

namespace txgen::util {

// Throws std::runtime_error naming the file when it cannot be read or written.
std::string read_text_file(const std::filesystem::path& path);
void write_text_file(const std::filesystem::path& path, const std::string& text);

}  // namespace txgen::util
