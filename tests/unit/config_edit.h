// Helpers of the configuration tests: edit a JSON configuration at a JSON
// pointer, and the ConfigError message a block's elaboration gives for it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "txgen/config/parse.h"
#include "txgen/error.h"

namespace txgen::test {

inline nlohmann::json with(nlohmann::json doc, const std::string& pointer, const nlohmann::json& value) {
  doc[nlohmann::json::json_pointer(pointer)] = value;
  return doc;
}

// "" when the configuration elaborates.
template <class Elaborate>
std::string error_of(const nlohmann::json& doc, Elaborate elaborate) {
  try {
    elaborate(config::parse_config(doc));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace txgen::test
