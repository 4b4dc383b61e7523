#include "txgen/util/process.h"
#include "txgen/util/text_file.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace txgen::util {
namespace fs = std::filesystem;

namespace {
// The parent's environment with the overrides replacing same-named entries.
std::vector<std::string> child_environment(const EnvVars& overrides) {
  std::vector<std::string> env;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string item(*entry);
    const std::string name = item.substr(0, item.find('='));
    bool overridden = false;
    for (const auto& [key, value] : overrides) overridden |= (key == name);
    if (!overridden) env.push_back(item);
  }
  for (const auto& [key, value] : overrides) env.push_back(key + "=" + value);
  return env;
}

std::vector<char*> c_string_array(std::vector<std::string>& strings) {
  std::vector<char*> array;
  for (auto& s : strings) array.push_back(s.data());
  array.push_back(nullptr);
  return array;
}

}  // namespace


std::string find_executable(const std::string& name) {
  const char* path_env = std::getenv("PATH");
  std::istringstream dirs(path_env ? path_env : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) dir = ".";
    const fs::path candidate = fs::path(dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  throw std::runtime_error("txgen: '" + name + "' not found on PATH");
}

namespace {

// fork/execve rather than std::system: no shell quoting of paths, and an
// explicit environment. Everything the child touches is prepared before
// fork so the child only makes async-signal-safe calls. With an empty log the
// child keeps the parent's stdout and stderr. Returns the exit status (128 +
// signal number when killed).
int spawn_and_wait(std::vector<std::string> argv, const EnvVars& overrides, const fs::path& cwd,
                   const fs::path& log) {
  const std::string program = find_executable(argv.front());
  std::vector<std::string> env = child_environment(overrides);
  std::vector<char*> argv_c = c_string_array(argv);
  std::vector<char*> env_c = c_string_array(env);
  const std::string cwd_s = cwd.string();
  const std::string log_s = log.string();

  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("txgen: fork failed: " + std::string(std::strerror(errno)));
  if (pid == 0) {
    const int out = log_s.empty() ? 1 : ::open(log_s.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int in = ::open("/dev/null", O_RDONLY);
    if (out < 0 || in < 0 || ::chdir(cwd_s.c_str()) != 0) ::_exit(126);
    ::dup2(in, 0);
    if (out != 1) {
      ::dup2(out, 1);
      ::dup2(out, 2);
    }
    ::execve(program.c_str(), argv_c.data(), env_c.data());
    static const char msg[] = "txgen: execve failed\n";
    (void)!::write(2, msg, sizeof msg - 1);
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("txgen: waitpid failed");
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace

int run_process(std::vector<std::string> argv, const EnvVars& overrides,
             const fs::path& cwd, const fs::path& log) {
  if (log.empty()) throw std::logic_error("run_process needs a log file");
  return spawn_and_wait(std::move(argv), overrides, cwd, log);
}

int run_attached(std::vector<std::string> argv, const fs::path& cwd) {
  std::cout.flush();  // the child writes to the same stdout
  std::cerr.flush();
  return spawn_and_wait(std::move(argv), {}, cwd, {});
}

void run_build_step(const std::vector<std::string>& argv, const std::filesystem::path& log, const std::string& what) {
  if (run_process(argv, {}, std::filesystem::current_path(), log) != 0)
    throw std::runtime_error(what + " failed; see " + log.string() + ":\n" + read_text_file(log));
}

}  // namespace txgen::util
