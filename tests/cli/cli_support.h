// Running the txgen binary and other tools from tests.
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace txgen::test {

struct RunResult {
  int exit_code;
  std::string output;  // stdout and stderr
};

inline RunResult run(const std::string& command) {
  RunResult r{-1, ""};
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) r.output.append(buf, n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline RunResult run_txgen(const std::string& args) { return run(std::string(TXGEN_BIN) + " " + args); }

inline std::string source(const std::string& rel) { return std::string(TXGEN_SOURCE_DIR) + "/" + rel; }

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// A fresh directory under the system temp dir, removed at scope exit.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    path_ = std::filesystem::temp_directory_path() /
            ("txgen_" + tag + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }
  std::string str(const std::string& sub = "") const { return (path_ / sub).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace txgen::test
