// The plots of `txgen sweep collect`, as gnuplot data and scripts.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <set>
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
  std::string style = "linespoints pt 7";  // gnuplot "with" clause, without the colour
  size_t colour = 0;                       // 1-based colour index; 0: the series' own
};

struct Plot {
  std::string name, title, xlabel, ylabel;
  std::vector<Series> series;
  std::optional<double> target;  // a horizontal line (the clock period)
  bool tradeoff = false;         // a Pareto plot: drawn only over two latencies or more
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
  for (const auto& path : r.plot.series) {  // a bare number needs its name
    const json& v = row[varied_key(r, path)];
    title += (title.empty() ? "" : " ") + (v.is_number() ? varied_key(r, path) + " " : "") + text(v);
  }
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
  const std::string x = varied_key(r, r.plot.x);
  Plot p{r.name + "_" + (key == "area_um2" ? "area" : "period"),
         r.name + ": " + what + " against " + x,
         x,
         what,
         {},
         std::nullopt,
         false};
  for (const auto& row : t.rows) {
    const auto xv = number(row, x);
    const auto yv = number(row, key);
    if (xv && yv && plotted(row, roles)) series_named(p.series, series_title(row, r, roles)).xy.push_back({*xv, *yv});
    if (key == "min_period_ns" && number(row, "period_ns")) p.target = number(row, "period_ns");
  }
  for (auto& s : p.series) std::sort(s.xy.begin(), s.xy.end());
  return p;
}

// The points of `meets` no other point of it beats in both latency and area.
std::vector<std::pair<double, double>> pareto_front(std::vector<std::pair<double, double>> meets) {
  std::sort(meets.begin(), meets.end());
  std::vector<std::pair<double, double>> front;
  for (const auto& pt : meets)
    if (front.empty() || pt.second < front.back().second) front.push_back(pt);
  return front;
}

// Per series: the points that meet the clock (filled), those that miss it
// (open) and the front of the first, in the series' colour.
Plot pareto(const Table& t, const Record& r) {
  const auto roles = plotted_roles(t, r);
  const std::vector<std::string> first(roles.begin(), roles.begin() + std::min<size_t>(1, roles.size()));
  Plot p{r.name + "_pareto",
         r.name + ": area against latency",
         "latency (cycles: " + r.plot.latency + " of the report)",
         "area um^2" + (first.empty() ? "" : " (" + first.front() + ")"),
         {},
         std::nullopt,
         true};
  std::vector<Series> meets, misses;
  for (const auto& row : t.rows) {
    const auto x = number(row, "latency");
    const auto y = number(row, "area_um2");
    if (!x || !y || !plotted(row, first)) continue;
    const std::string title = series_title(row, r, first);
    series_named(meets, title);
    series_named(misses, title + " (misses the clock)");
    auto& into = number(row, "worst_slack_ns").value_or(0) < 0 ? series_named(misses, title + " (misses the clock)")
                                                               : series_named(meets, title);
    into.xy.push_back({*x, *y});
  }
  for (size_t i = 0; i < meets.size(); ++i) {
    meets[i].style = "points pt 7 ps 1.3";
    misses[i].style = "points pt 6 ps 1.3";
    const Series front{meets[i].title + ": front (meets the clock)", pareto_front(meets[i].xy),
                       "linespoints dt 2 lw 2 pt 4 ps 2.2", i + 1};
    for (Series s : {meets[i], misses[i], front}) {
      s.colour = i + 1;
      p.series.push_back(s);
    }
  }
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
    if (s.xy.empty()) continue;  // gnuplot does not count an empty data set as an index
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

// Areas in um^2 read best with SI prefixes (5.0 M); periods and latencies
// as plain numbers (2.5, not 2.5 with a blank prefix or 500.0 m).
std::string y_format(const Plot& p) {
  double hi = 0;
  for (const auto& s : p.series)
    for (const auto& xy : s.xy) hi = std::max(hi, xy.second);
  return hi >= 1000 ? "'%.1s %c'" : "'%g'";
}

std::string script_text(const Plot& p) {
  std::ostringstream gp;
  gp << "set terminal svg size 800,480 noenhanced\nset output " << quoted(p.name + ".svg") << "\n"
     << "set title " << quoted(p.title) << "\nset xlabel " << quoted(p.xlabel) << "\nset ylabel " << quoted(p.ylabel)
     << "\nset key outside right top\nset grid\nset offsets graph 0.05, graph 0.05, graph 0.05, 0\nset yrange [0:*]\n"
     << "set format y " << y_format(p) << "\n"
     << (log_x(p) ? "set logscale x 2\n" : "") << "plot ";
  std::string sep;
  size_t index = 0;  // of the non-empty series, as data_text writes them
  for (const Series& s : p.series) {
    if (s.xy.empty()) continue;
    gp << sep << quoted(p.name + ".dat") << " index " << index++ << " using 1:2 with " << s.style
       << (s.colour ? " lc " + std::to_string(s.colour) : "") << " title " << quoted(s.title);
    sep = ", ";
  }
  if (p.target)
    gp << sep << util::fixed(*p.target, 3) << " with lines dt 2 lw 2 lc 'gray40' title "
       << quoted("clock " + util::fixed(*p.target, 2) + " ns");
  gp << "\nset terminal pngcairo size 800,480 noenhanced\nset output " << quoted(p.name + ".png") << "\nreplot\n";
  return gp.str();
}

// Something to see: a point at least, and for a Pareto front two latencies.
bool drawable(const Plot& p) {
  std::set<double> xs;
  for (const auto& s : p.series)
    for (const auto& xy : s.xy) xs.insert(xy.first);
  return !xs.empty() && (!p.tradeoff || xs.size() > 1);
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
