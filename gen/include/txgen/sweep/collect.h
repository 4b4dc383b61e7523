// `txgen sweep collect`: one table over the finished points of a sweep
// directory (CSV, JSON, Markdown) and its gnuplot plots (SVG, PNG).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "txgen/sweep/record.h"

namespace txgen::sweep {

enum class Kind { Text, Count, Area, Time, Fo4, Percent, Ratio };

struct Column {
  std::string key;     // CSV and JSON name
  std::string header;  // Markdown name
  Kind kind;
  bool hoist;  // Markdown: stated once under the table when equal in every row
};

// A row maps column keys to values (absent or null: not measured).
struct Table {
  std::vector<Column> columns;
  std::vector<nlohmann::json> rows;
  size_t points = 0, unfinished = 0;
};

// Rows over the record's finished points (every job passed or failed): one
// per synthesized module, else one per block.
Table gather(const std::filesystem::path& dir, const Record& r);

// The column of a varied configuration path.
std::string varied_key(const Record& r, const std::string& path);

std::string table_csv(const Table& t);
std::string table_json(const Table& t, const Record& r);
std::string table_markdown(const Table& t, const Record& r);

// Area and minimum period against plot.x per series, and area against
// latency with its Pareto front: a .dat and a .gp per plot, drawn to SVG and
// PNG when gnuplot is on PATH. Returns the files written.
std::vector<std::string> write_plots(const Table& t, const Record& r, const std::filesystem::path& out_dir);

}  // namespace txgen::sweep
