// The plots of `txgen sweep collect`, as gnuplot data and scripts.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <sstream>

#include "txgen/sweep/collect.h"
#include "txgen/util/process.h"
#include "txgen/util/table_format.h"
#include "txgen/util/text_file.h"

namespace txgen::sweep {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Series {
  std::string title;
  std::vector<std::pair<double, double>> xy;
};

struct Plot {
  std::string name, title, xlabel, ylabel;
  std::vector<Series> series;
  std::optional<double> target;  // a horizontal line (the clock period)
  bool front_last = false;       // the last series is a Pareto front, drawn as a line
};

std::optional<double> number(const json& row, const std::string& key) {
  if (!row.contains(key) || !row[key].is_number()) return std::nullopt;
  return row[key].get<double>();
}

std::string text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::vector<std::string> plotted_roles(const Table& t, const Record& r) {
  if (!r.plot.modules.empty()) return r.plot.modules;
  std::vector<std::string> roles;
  for (const auto& row : t.rows)
    if (number(row, "area_um2") && std::find(roles.begin(), roles.end(), row["module"]) == roles.end())
      roles.push_back(row["module"]);
  return roles;
}

bool plotted(const json& row, const std::vector<std::string>& roles) {
  return row.contains("module") && std::find(roles.begin(), roles.end(), text(row["module"])) != roles.end();
}

std::string series_title(const json& row, const Record& r, const std::vector<std::string>& roles) {
  std::string title;
  for (const auto& path : r.plot.series) title += (title.empty() ? "" : " ") + text(row[varied_key(r, path)]);
  if (roles.size() > 1) title += (title.empty() ? "" : " ") + text(row["module"]);
  return title.empty() ? r.name : title;
}

Series& series_named(std::vector<Series>& all, const std::string& title) {
  for (auto& s : all)
    if (s.title == title) return s;
  all.push_back({title, {}});
  return all.back();
}

Plot against_x(const Table& t, const Record& r, const std::string& key, const std::string& what) {
  const auto roles = plotted_roles(t, r);
  Plot p{r.name + "_" + (key == "area_um2" ? "area" : "period"),
         r.name + ": " + what + " against " + varied_key(r, r.plot.x),
         varied_key(r, r.plot.x),
         what,
         {},
         std::nullopt,
         false};
  for (const auto& row : t.rows) {
    const auto x = number(row, varied_key(r, r.plot.x));
    const auto y = number(row, key);
    if (x && y && plotted(row, roles)) series_named(p.series, series_title(row, r, roles)).xy.push_back({*x, *y});
    if (key == "min_period_ns" && number(row, "period_ns")) p.target = number(row, "period_ns");
  }
  for (auto& s : p.series) std::sort(s.xy.begin(), s.xy.end());
  return p;
}

// Points no other point beats in both latency and area.
Series pareto_front(const std::vector<Series>& all) {
  std::vector<std::pair<double, double>> points;
  for (const auto& s : all) points.insert(points.end(), s.xy.begin(), s.xy.end());
  std::sort(points.begin(), points.end());
  Series front{"Pareto front", {}};
  for (const auto& pt : points)
    if (front.xy.empty() || pt.second < front.xy.back().second) front.xy.push_back(pt);
  return front;
}

Plot pareto(const Table& t, const Record& r) {
  const auto roles = plotted_roles(t, r);
  const std::vector<std::string> first(roles.begin(), roles.begin() + std::min<size_t>(1, roles.size()));
  Plot p{r.name + "_pareto",
         r.name + ": area against latency (" + r.plot.latency + ")",
         "latency (cycles)",
         "area um^2" + (first.empty() ? "" : " (" + first.front() + ")"),
         {},
         std::nullopt,
         true};
  for (const auto& row : t.rows) {
    const auto x = number(row, "latency");
    const auto y = number(row, "area_um2");
    if (x && y && plotted(row, first)) series_named(p.series, series_title(row, r, first)).xy.push_back({*x, *y});
  }
  p.series.push_back(pareto_front(p.series));
  return p;
}

std::string quoted(const std::string& s) {  // gnuplot single-quoted string
  std::string out = "'";
  for (char c : s) out += (c == '\'') ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string data_text(const Plot& p) {
  std::ostringstream dat;
  for (const auto& s : p.series) {
    dat << "# " << s.title << "\n";
    for (const auto& [x, y] : s.xy) dat << util::fixed(x, 3) << " " << util::fixed(y, 3) << "\n";
    dat << "\n\n";  // gnuplot: next index
  }
  return dat.str();
}

bool log_x(const Plot& p) {
  double lo = INFINITY, hi = 0;
  for (const auto& s : p.series)
    for (const auto& xy : s.xy) lo = std::min(lo, xy.first), hi = std::max(hi, xy.first);
  return lo > 0 && hi / lo >= 4;
}

std::string script_text(const Plot& p) {
  std::ostringstream gp;
  gp << "set terminal svg size 800,480 noenhanced\nset output " << quoted(p.name + ".svg") << "\n"
     << "set title " << quoted(p.title) << "\nset xlabel " << quoted(p.xlabel) << "\nset ylabel " << quoted(p.ylabel)
     << "\nset key outside right top\nset grid\nset offsets graph 0.05, graph 0.05, graph 0.05, 0\nset yrange [0:*]\n"
     << (log_x(p) ? "set logscale x 2\n" : "") << "plot ";
  for (size_t i = 0; i < p.series.size(); ++i) {
    const bool front = p.front_last && i + 1 == p.series.size();
    gp << (i ? ", " : "") << quoted(p.name + ".dat") << " index " << i << " using 1:2 with "
       << (front          ? "lines dt 2 lw 2"
           : p.front_last ? "points pt 7 ps 1.2"
                          : "linespoints pt 7")
       << " title " << quoted(p.series[i].title);
  }
  if (p.target)
    gp << ", " << util::fixed(*p.target, 3) << " with lines dt 2 lw 2 lc 'gray40' title "
       << quoted("clock " + util::fixed(*p.target, 2) + " ns");
  gp << "\nset terminal pngcairo size 800,480 noenhanced\nset output " << quoted(p.name + ".png") << "\nreplot\n";
  return gp.str();
}

bool drawable(const Plot& p) {
  return std::any_of(p.series.begin(), p.series.end(), [](const Series& s) { return !s.xy.empty(); });
}

}  // namespace

std::vector<std::string> write_plots(const Table& t, const Record& r, const fs::path& out_dir) {
  std::vector<Plot> plots;
  if (!r.plot.x.empty()) {
    plots.push_back(against_x(t, r, "area_um2", "area um^2"));
    plots.push_back(against_x(t, r, "min_period_ns", "min period ns"));
  }
  if (!r.plot.latency.empty()) plots.push_back(pareto(t, r));
  std::vector<std::string> files;
  for (const auto& p : plots) {
    if (!drawable(p)) continue;
    util::write_text_file(out_dir / (p.name + ".dat"), data_text(p));
    util::write_text_file(out_dir / (p.name + ".gp"), script_text(p));
    files.push_back(p.name + ".gp");
    const fs::path log = out_dir / (p.name + ".gnuplot.log");
    try {
      if (util::run_process({"gnuplot", p.name + ".gp"}, {}, out_dir, log) != 0) {
        std::cerr << "txgen: gnuplot failed on " << (out_dir / (p.name + ".gp")).string() << "; see " << log.string()
                  << "\n";
        continue;
      }
      fs::remove(log);
      files.insert(files.end(), {p.name + ".svg", p.name + ".png"});
    } catch (const std::runtime_error&) {
      std::cerr << "txgen: gnuplot not on PATH (Debian package gnuplot-nox): plots left as scripts\n";
    }
  }
  return files;
}

}  // namespace txgen::sweep
