// Running external tools (Yosys, OpenSTA, CMake, co-simulation binaries)
// without a shell: explicit argv, explicit environment, output to a log file.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace txgen::util {

using EnvVars = std::vector<std::pair<std::string, std::string>>;

// Absolute path of an executable found on PATH; throws std::runtime_error.
std::string find_executable(const std::string& name);

// Runs argv[0] (looked up on PATH) in cwd with the parent's environment plus
// overrides, stdout and stderr to log, stdin from /dev/null. Returns the exit
// status (128 + signal number when killed).
int run_process(std::vector<std::string> argv, const EnvVars& overrides,
                const std::filesystem::path& cwd, const std::filesystem::path& log);

// Runs argv (looked up on PATH) in cwd with the parent's environment, stdout
// and stderr, stdin from /dev/null: a tool whose progress the user watches.
// Returns the exit status as run_process does.
int run_attached(std::vector<std::string> argv, const std::filesystem::path& cwd);

// One step of a build, quiet unless it fails: runs argv in the current
// directory with its output in `log`; on failure throws std::runtime_error
// with `what` and the log's text.
void run_build_step(const std::vector<std::string>& argv, const std::filesystem::path& log, const std::string& what);

}  // namespace txgen::util
