// Reading one JSON object of a configuration: every field checked against
// its rule, unknown fields rejected (they are usually typos). Shared by the
// section parsers of parse.cpp and of each block (gen/src/config/<block>.cpp).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "txgen/error.h"

namespace txgen::config {

inline std::string show(const nlohmann::json& value) { return value.dump(); }
inline bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// Reads one object field, recording it as seen so unknown fields can be reported.
class ObjectReader {
 public:
  ObjectReader(const nlohmann::json& obj, std::string path) : obj_(obj), path_(std::move(path)) {
    if (!obj_.is_object()) throw ConfigError(path_, show(obj_), "must be an object");
  }

  const nlohmann::json& field(const std::string& key) {
    seen_.insert(key);
    auto it = obj_.find(key);
    if (it == obj_.end()) throw ConfigError(path_of(key), "(missing)", "required field");
    return *it;
  }

  bool has(const std::string& key) const { return obj_.contains(key); }

  std::string path_of(const std::string& key) const { return path_ + "." + key; }

  uint64_t integer(const std::string& key, uint64_t lo, uint64_t hi) {
    const nlohmann::json& v = field(key);
    if (!v.is_number_integer() || v.is_boolean())
      throw ConfigError(path_of(key), show(v), "must be an integer");
    if (!v.is_number_unsigned() && v.get<int64_t>() < 0)
      throw ConfigError(path_of(key), show(v), range_rule(lo, hi));
    const uint64_t n = v.get<uint64_t>();
    if (n < lo || n > hi) throw ConfigError(path_of(key), show(v), range_rule(lo, hi));
    return n;
  }

  uint64_t power_of_two(const std::string& key, uint64_t lo, uint64_t hi) {
    const uint64_t n = integer(key, lo, hi);
    if (!is_pow2(n)) throw ConfigError(path_of(key), std::to_string(n), "must be a power of two");
    return n;
  }

  std::string choice(const std::string& key, const std::vector<std::string>& options) {
    const nlohmann::json& v = field(key);
    std::string rule = "must be one of";
    for (const auto& o : options) rule += " \"" + o + "\"";
    if (!v.is_string()) throw ConfigError(path_of(key), show(v), rule);
    const std::string s = v.get<std::string>();
    for (const auto& o : options)
      if (s == o) return s;
    throw ConfigError(path_of(key), show(v), rule);
  }

  // Call after all fields were read.
  void reject_unknown() const {
    for (auto it = obj_.begin(); it != obj_.end(); ++it)
      if (!seen_.count(it.key()))
        throw ConfigError(path_of(it.key()), show(it.value()), "unknown field");
  }

 private:
  static std::string range_rule(uint64_t lo, uint64_t hi) {
    return "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  }

  const nlohmann::json& obj_;
  std::string path_;
  std::set<std::string> seen_;
};

// A required boolean field.
bool boolean(ObjectReader& r, const std::string& key);

}  // namespace txgen::config
