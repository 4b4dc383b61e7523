// Error types and the process exit codes they map to.
#pragma once

#include <stdexcept>
#include <string>

namespace txgen {

constexpr int kExitOk = 0;
constexpr int kExitInternal = 1;
constexpr int kExitInvalidInput = 2;

// Invalid input: a configuration value that breaks a rule, or a configuration
// that cannot be built. The message names the JSON path, the value and the rule.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& path, const std::string& value, const std::string& rule)
      : std::runtime_error(path + " = " + value + ": " + rule), path_(path), value_(value), rule_(rule) {}
  const std::string& path() const { return path_; }
  const std::string& value() const { return value_; }
  const std::string& rule() const { return rule_; }

 private:
  std::string path_, value_, rule_;
};

}  // namespace txgen
