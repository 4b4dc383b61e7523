// A reader of FST waveforms (the format Verilator's co-simulation and Icarus
// write), over the FST library that ships with Verilator. `txgen power` takes
// the RTL's inputs and the gate-level netlist's toggles from it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace txgen::power {

struct FstVar {
  std::string scope;  // dotted path of the enclosing scopes
  std::string name;   // as written, a range suffix ("[11:0]") removed
  unsigned bits = 0;
  uint32_t handle = 0;
  int lsb = 0;        // from the range suffix; bit b of a value is name[lsb + b]
  bool port = false;  // declared an input, output or inout of its scope
};

class FstFile {
 public:
  // Throws std::runtime_error naming the file when it cannot be read.
  explicit FstFile(const std::string& path);
  ~FstFile();
  FstFile(const FstFile&) = delete;
  FstFile& operator=(const FstFile&) = delete;

  const std::vector<FstVar>& vars() const { return vars_; }
  const std::string& path() const { return path_; }

  // Every value change of `handles` in time order: the value as a string of
  // '0', '1', 'x', 'z', most significant bit first.
  using Change = std::function<void(uint64_t time, uint32_t handle, const char* value)>;
  void for_each_change(const std::vector<uint32_t>& handles, const Change& change);

 private:
  std::string path_;
  void* ctx_ = nullptr;
  std::vector<FstVar> vars_;
};

}  // namespace txgen::power
