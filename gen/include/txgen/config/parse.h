// Reading a configuration file into validated Config structs.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "txgen/config/config.h"

namespace txgen::config {

// Throws ConfigError naming the JSON path ("$.bd_codec.tags"), the value and
// the rule it breaks. Unknown fields are errors (they are usually typos).
Config parse_config(const nlohmann::json& doc);
Config load_config_file(const std::string& path);
nlohmann::json read_json_file(const std::string& path);  // ConfigError when unreadable

// Stable hash (FNV-1a 64) of the canonical JSON text (keys sorted), for
// manifests and report baselines.
std::string config_hash(const nlohmann::json& doc);

}  // namespace txgen::config
