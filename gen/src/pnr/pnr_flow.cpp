// txgen pnr: txgen's synthesis, then qflow's synthesize (reading txgen's
// netlist), place (graywolf) and route (qrouter) stages, the routed nets'
// parasitics as SPEF and OpenSTA with synth/sta.tcl. Each tool writes its
// full log into the work directory; errors name the log to read.
#include "txgen/pnr/pnr_flow.h"

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

#include "txgen/pnr/fanout.h"
#include "txgen/pnr/parse.h"
#include "txgen/pnr/picture.h"
#include "txgen/synth/format.h"
#include "txgen/util/process.h"
#include "txgen/util/text_file.h"

namespace txgen::pnr {
namespace fs = std::filesystem;

namespace {

// osu018's spacer cell (qflow's tech script: fillcell=FILL): no liberty
// timing and no signal pins, so it is left out of the netlist OpenSTA reads
// and out of the cell count.
const std::set<std::string> kFillCells = {"FILL"};

// The clock and the reset reach every flip-flop from their ports. Both are
// ideal in the timing (an ideal clock has no latency through buffers, and
// recovery/removal checks are off), but routing them as single nets fails:
// they get trees as qflow's blifFanout would build (CLKBUF1 on the clock,
// BUFX4 on the reset), 16 loads per buffer.
const std::vector<IdealNet> kIdealNets = {{"clk_i", {"CLK"}, "CLKBUF1", "A", "Y"},
                                          {"rst_ni", {"R", "S"}, "BUFX4", "A", "Y"}};
constexpr unsigned kTreeFanout = 16;

constexpr const char* kReadNetlistYs = "read_netlist.ys";
constexpr const char* kReadNetlistTcl = "read_netlist.tcl";
constexpr const char* kPostRouteSta = "post_route_sta.tcl";
constexpr const char* kStaScript = "sta.tcl";

using Clock = std::chrono::steady_clock;

[[noreturn]] void fail(const std::string& what, const fs::path& log) {
  throw std::runtime_error("txgen pnr: " + what + " (log: " + log.string() + ")");
}

std::string read_or_fail(const fs::path& file, const std::string& what, const fs::path& log) {
  if (!fs::is_regular_file(file)) fail(what + ": no " + file.string(), log);
  return util::read_text_file(file);
}

void copy_into(const fs::path& from, const fs::path& dir) {
  if (!fs::is_regular_file(from)) throw std::runtime_error("txgen pnr: no such file: " + from.string());
  fs::copy_file(from, dir / from.filename(), fs::copy_options::overwrite_existing);
}

// qflow's project: source/ (txgen's netlist and the Yosys step that reads
// it), synthesis/, layout/, log/, and project_vars.sh with the options.
unsigned stage_project(const PnrRequest& req, const fs::path& project) {
  // A rerun starts clean: qflow would keep a previous run's files beside the new ones.
  fs::remove_all(project);
  for (const char* dir : {"source", "synthesis", "layout", "log"}) fs::create_directories(project / dir);
  const fs::path scripts(req.pnr_scripts_dir);
  copy_into(scripts / kReadNetlistYs, project / "source");
  copy_into(scripts / kReadNetlistTcl, project / "source");
  copy_into(scripts / kPostRouteSta, project);
  copy_into(fs::path(req.synth.scripts_dir) / kStaScript, project);
  copy_into(req.synth.sdc_path, project);
  // qflow looks for a Verilog file defining the top in source/ before it
  // runs any stage: the mapped netlist, with buffer trees on the clock and
  // the reset, is that file (and what Yosys reads).
  const BufferedNetlist buffered =
      buffer_ideal_nets(util::read_text_file(fs::absolute(req.synth.work_dir) / "netlist.v"), kIdealNets, kTreeFanout);
  util::write_text_file(project / "source" / (req.synth.top + ".v"), buffered.verilog);
  std::ostringstream vars;
  vars << "# txgen pnr: qflow options (tcsh)\n"
       << "# synthesize: read txgen's mapped netlist instead of synthesizing the RTL again\n"
       << "set yosys_options = \"-s " << kReadNetlistYs << "\"\n"
       << "# keep the netlist as mapped: no blifFanout resizing or buffering\n"
       << "set nofanout = 1\n";
  if (req.utilization)
    vars << "# graywolf places at this density (decongest.tcl adds fill cells)\n"
         << "set initial_density = " << synth::fixed(*req.utilization, 3) << "\n";
  util::write_text_file(project / "project_vars.sh", vars.str());
  return buffered.buffers;
}

// One qflow stage in the project; its own log is log/<log_name>.
void run_qflow(const PnrRequest& req, const fs::path& project, const std::string& stage, const std::string& top,
               const util::EnvVars& env, const std::string& log_name) {
  const fs::path out = project / ("qflow_" + stage + ".out");
  const fs::path log = project / "log" / log_name;
  const int rc = util::run_process({"qflow", stage, top, "-T", req.tech}, env, project, out);
  const std::string text = fs::is_regular_file(log) ? util::read_text_file(log) : "";
  if (rc != 0 || text.find("error condition") != std::string::npos)
    fail("qflow " + stage + " failed (exit " + std::to_string(rc) + "; qflow's output: " + out.string() + ")", log);
}

void check_routed(const fs::path& project) {
  const fs::path log = project / "log" / "route.log";
  const RouteFigures route = parse_route_log(read_or_fail(log, "qrouter wrote no log", log));
  if (!route.finished) fail("qrouter did not finish routing (no \"Final:\" line)", log);
  if (route.failed_nets > 0)
    fail("qrouter left " + std::to_string(route.failed_nets) + " net(s) unrouted; see the failed nets in the log", log);
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  return buf;
}

// Routed netlist without fill cells, and the SPEF of qrouter's RC trees.
// qflow's own SPEF (rc2dly) cannot be read by this OpenSTA: its internal
// nodes lack the net prefix ("1_1", not "*1:1") and it declares fF for
// values in pF (docs/pnr.md).
// Returns the mapped netlist's instance names of the routed instances.
std::map<std::string, std::string> write_parasitics(const fs::path& project, const std::string& top, PnrResult& r) {
  const fs::path log = project / "log" / "route.log";
  const std::string verilog = read_or_fail(project / "synthesis" / (top + ".rtlnopwr.v"), "no routed netlist", log);
  const std::string routed = netlist_without_cells(verilog, {kFillCells.begin(), kFillCells.end()});
  util::write_text_file(project / (top + ".routed.v"), routed);
  const Netlist netlist = parse_flat_netlist(routed);
  std::vector<RcNet> nets = parse_rc(read_or_fail(project / "layout" / (top + ".rc"), "no RC file", log));
  r.wire_cap_pf = 0.0;
  for (const auto& n : nets) r.wire_cap_pf += n.total_cap_pf();
  r.cells = static_cast<unsigned>(netlist.instances.size());
  r.rc_repaired_sinks = repair_unresolved_sinks(nets, netlist);
  for (const auto& n : nets) r.rc_repeated_pins += n.repeated_pins;
  r.spef_path = (project / (top + ".spef")).string();
  util::write_text_file(r.spef_path, write_spef(nets, netlist, utc_now()));
  const auto names =
      original_instance_names(read_or_fail(project / "synthesis" / (top + ".blif"), "no BLIF", log), netlist);
  r.named_instances = static_cast<unsigned>(names.size());
  return names;
}

double field(const StaReport& report, const std::string& key, const fs::path& log) {
  const auto it = report.values.find(key);
  if (it == report.values.end()) fail("OpenSTA output lacks " + key, log);
  try {
    return std::stod(it->second);
  } catch (const std::exception&) {
    fail("cannot parse " + key + " = '" + it->second + "'", log);
  }
}

void run_post_route_sta(const PnrRequest& req, const fs::path& project, const std::string& top, PnrResult& r) {
  const fs::path log = project / "post_route_sta.log";
  const util::EnvVars env = {
      {"TXGEN_TOP", top},
      {"TXGEN_NETLIST", (project / (top + ".routed.v")).string()},
      {"TXGEN_LIBERTY", fs::absolute(req.synth.liberty_path).string()},
      {"TXGEN_SDC", (project / fs::path(req.synth.sdc_path).filename()).string()},
      {"TXGEN_SPEF", r.spef_path},
  };
  const int rc = util::run_process({"sta", "-no_splash", "-exit", kPostRouteSta}, env, project, log);
  r.sta_log = log.string();
  const StaReport report = parse_sta_report(util::read_text_file(log));
  if (rc != 0) fail("sta exited with " + std::to_string(rc), log);
  if (!report.errors.empty()) fail("sta reported: " + report.errors.front(), log);
  if (!report.done) fail("sta did not finish (no TXGEN_STA_DONE)", log);
  // A net or pin read_spef cannot find would leave that net without wires.
  if (!report.parasitic_warnings.empty())
    fail(std::to_string(report.parasitic_warnings.size()) +
             " parasitics not matched to the netlist, first: " + report.parasitic_warnings.front(),
         log);
  r.period_ns = req.synth.period_ns;
  r.worst_slack_ns = field(report, "worst_slack_ns", log);
  if (std::fabs(r.worst_slack_ns) > 1e6) fail("worst slack is unbounded: no constrained path", log);
  r.min_period_ns = r.period_ns - r.worst_slack_ns;
  r.path_start = report.values.count("path_start") ? report.values.at("path_start") : "";
  r.path_end = report.values.count("path_end") ? report.values.at("path_end") : "";
  r.logic_depth_cells = static_cast<unsigned>(field(report, "logic_depth_cells", log));
}

// Cells, fill, core (the rows' bounding box: every component, fill
// included), utilization and wirelength from the routed DEF.
void read_layout(const PnrRequest& req, const fs::path& project, const std::string& top, PnrResult& r,
                 DefLayout& layout, std::map<std::string, MacroSize>& sizes) {
  const fs::path def = project / "layout" / (top + ".def");
  r.def_path = def.string();
  layout = parse_def(read_or_fail(def, "no routed DEF", project / "log" / "route.log"));
  sizes = parse_lef_sizes(util::read_text_file(fs::path(req.tech_dir) / (req.tech + "_stdcells.lef")));
  double x1 = 1e300, y1 = 1e300, x2 = -1e300, y2 = -1e300;
  r.fill_cells = 0;
  r.cell_area_um2 = 0.0;
  for (const auto& c : layout.components) {
    const auto it = sizes.find(c.cell);
    if (it == sizes.end()) fail("cell " + c.cell + " of the DEF is not in the LEF", def);
    x1 = std::min(x1, c.x_um);
    y1 = std::min(y1, c.y_um);
    x2 = std::max(x2, c.x_um + it->second.width_um);
    y2 = std::max(y2, c.y_um + it->second.height_um);
    if (kFillCells.count(c.cell)) {
      ++r.fill_cells;
    } else {
      r.cell_area_um2 += it->second.width_um * it->second.height_um;
    }
  }
  if (layout.components.empty()) fail("the routed DEF has no components", def);
  r.core_width_um = x2 - x1;
  r.core_height_um = y2 - y1;
  r.core_area_um2 = r.core_width_um * r.core_height_um;
  r.die_area_um2 = (layout.die_x2 - layout.die_x1) * (layout.die_y2 - layout.die_y1);
  r.utilization = r.cell_area_um2 / r.core_area_um2;
  r.nets = layout.nets;
  r.wirelength_um = layout.wirelength_um();
}

// Runs `step`, records its wall time under `name`, tells the user first.
template <typename Step>
void timed(PnrResult& r, const Progress& progress, const std::string& name, Step step) {
  if (progress) progress(name);
  const auto start = Clock::now();
  step();
  r.times.push_back({name, std::chrono::duration<double>(Clock::now() - start).count()});
}

}  // namespace

PnrResult run_pnr(const PnrRequest& req, const Progress& progress) {
  const auto start = Clock::now();
  const std::string& top = req.synth.top;
  const fs::path project = fs::absolute(req.work_dir);
  PnrResult r;
  r.work_dir = project.string();
  timed(r, progress, "synthesis (txgen synth flow)", [&] { r.pre = synth::run_synth(req.synth); });
  r.flops = r.pre.flops;
  r.tree_buffers = stage_project(req, project);
  const util::EnvVars env = {
      {"TXGEN_TOP", top},
      {"TXGEN_NETLIST", (project / "source" / (top + ".v")).string()},
      {"TXGEN_LIBERTY", fs::absolute(req.synth.liberty_path).string()},
  };
  timed(r, progress, "netlist into qflow (qflow synthesize)",
        [&] { run_qflow(req, project, "synthesize", top, env, "synth.log"); });
  timed(r, progress, "placement (graywolf)", [&] { run_qflow(req, project, "place", top, env, "place.log"); });
  timed(r, progress, "routing (qrouter)", [&] {
    // qflow's router.sh exits 1 when nets stay unrouted: the count in the
    // log is the clearer message, so it is checked first.
    try {
      run_qflow(req, project, "route", top, env, "route.log");
    } catch (const std::runtime_error&) {
      check_routed(project);
      throw;
    }
    check_routed(project);
  });
  std::map<std::string, std::string> names;
  timed(r, progress, "parasitics (qrouter RC -> SPEF)", [&] { names = write_parasitics(project, top, r); });
  r.extra_cells = static_cast<int>(r.cells) - static_cast<int>(r.pre.cells) - static_cast<int>(r.tree_buffers);
  timed(r, progress, "post-route timing (OpenSTA)", [&] { run_post_route_sta(req, project, top, r); });
  r.routed_path_start = r.path_start;
  r.routed_path_end = r.path_end;
  r.path_start = rename_pin(r.path_start, names);
  r.path_end = rename_pin(r.path_end, names);
  DefLayout layout;
  std::map<std::string, MacroSize> sizes;
  read_layout(req, project, top, r, layout, sizes);
  if (!req.picture.empty()) {
    timed(r, progress, "picture (gnuplot)", [&] {
      std::ostringstream title;
      title << top << ": " << r.cells << " cells, " << synth::fixed(100.0 * r.utilization, 0) << " % utilization, "
            << synth::with_thousands(r.wirelength_um) << " um of wire";
      draw_layout(layout, sizes, kFillCells, title.str(), project / "picture", req.picture);
      r.picture = req.picture;
    });
  }
  r.total_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

// ---------------------------------------------------------------- reports

namespace {

double difference_ns(const PnrResult& r) { return r.min_period_ns - r.pre.min_period_ns; }
double difference_percent(const PnrResult& r) { return 100.0 * difference_ns(r) / r.pre.min_period_ns; }

std::string signed_fixed(double value, int decimals) {
  const std::string text = synth::fixed(value, decimals);
  return value >= 0.0 && text.find_first_not_of("0.") != std::string::npos ? "+" + text : text;
}

}  // namespace

std::string pnr_markdown(const PnrResult& r, const std::string& title, const std::string& picture_link) {
  using synth::fixed;
  using synth::kTimeDecimals;
  using synth::markdown_cell;
  using synth::with_thousands;
  std::ostringstream md;
  md << "### Placed and routed: " << title << "\n\n";
  md << "| module | cells | core um x um | core area um^2 | utilization | wirelength um | failed nets | pre-layout min "
        "period ns | post-route min period ns | difference ns | difference % | post-route critical path | run time s "
        "|\n";
  md << "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n";
  md << "| " << markdown_cell(r.pre.top) << " | " << r.cells << " | " << fixed(r.core_width_um, 1) << " x "
     << fixed(r.core_height_um, 1) << " | " << with_thousands(r.core_area_um2) << " | "
     << fixed(100.0 * r.utilization, 1) << " % | " << with_thousands(r.wirelength_um) << " | " << r.failed_nets << " | "
     << fixed(r.pre.min_period_ns, kTimeDecimals) << " | " << fixed(r.min_period_ns, kTimeDecimals) << " | "
     << signed_fixed(difference_ns(r), kTimeDecimals) << " | " << signed_fixed(difference_percent(r), 1) << " | "
     << markdown_cell(r.path_start + " -> " + r.path_end) << " | " << fixed(r.total_seconds, 0) << " |\n";
  md << "\nqflow 1.3 on osu018: txgen's mapped netlist (" << r.pre.cells
     << " cells) with buffer trees on the clock and the reset (" << r.tree_buffers
     << " cells, at most 16 loads each), placed by graywolf and routed by qrouter (" << with_thousands(r.nets)
     << " nets, " << r.fill_cells << " fill cells); OpenSTA with the block's SDC (" << fixed(r.period_ns, kTimeDecimals)
     << " ns clock, ideal) on the routed netlist and the routed wires' RC (" << fixed(1000.0 * r.wire_cap_pf, 1)
     << " fF of wire in all). Pre-layout: the same netlist without wires ("
     << "txgen synth; critical path " << markdown_cell(r.pre.path_start + " -> " + r.pre.path_end)
     << "). Utilization = the cells' area (LEF, " << with_thousands(r.cell_area_um2)
     << " um^2) / the rows' area. Instance names are the mapped netlist's (qflow's CELL_n mapped back: "
     << r.named_instances << " of " << r.cells << " instances).";
  if (r.rc_repaired_sinks != 0)
    md << " qrouter's RC file named " << r.rc_repaired_sinks
       << " sink(s) \"ERROR\"; each was given the net's missing sink (docs/pnr.md).";
  if (r.extra_cells != 0)
    md << " The routed netlist has " << r.extra_cells
       << " cell(s) more than those: buffers BLIF needs for nets with two port names.";
  md << "\n";
  if (!picture_link.empty()) md << "\n![layout of " << r.pre.top << "](" << picture_link << ")\n";
  return md.str();
}

std::string pnr_json(const PnrResult& r, const std::string& block, const std::string& config,
                     const std::string& config_hash) {
  using synth::kAreaDecimals;
  using synth::kTimeDecimals;
  using synth::rounded;
  nlohmann::ordered_json times = nlohmann::ordered_json::array();
  for (const auto& t : r.times) times.push_back({{"stage", t.stage}, {"seconds", rounded(t.seconds, 1)}});
  nlohmann::ordered_json doc = {
      {"block", block},
      {"config", config},
      {"config_hash", config_hash},
      {"module", r.pre.top},
      {"flow", "qflow 1.3 (graywolf, qrouter) on osu018, OpenSTA with qrouter's RC as SPEF"},
      {"cells", r.cells},
      {"pre_layout_cells", r.pre.cells},
      {"tree_buffers", r.tree_buffers},
      {"extra_cells", r.extra_cells},
      {"flip_flops", r.flops},
      {"fill_cells", r.fill_cells},
      {"cell_area_um2", rounded(r.cell_area_um2, kAreaDecimals)},
      {"synth_area_um2", rounded(r.pre.area_um2, kAreaDecimals)},
      {"core_width_um", rounded(r.core_width_um, 2)},
      {"core_height_um", rounded(r.core_height_um, 2)},
      {"core_area_um2", rounded(r.core_area_um2, kAreaDecimals)},
      {"die_area_um2", rounded(r.die_area_um2, kAreaDecimals)},
      {"utilization", rounded(r.utilization, 4)},
      {"nets", r.nets},
      {"failed_nets", r.failed_nets},
      {"wirelength_um", rounded(r.wirelength_um, 1)},
      {"wire_cap_pf", rounded(r.wire_cap_pf, 4)},
      {"period_ns", rounded(r.period_ns, kTimeDecimals)},
      {"pre_layout_min_period_ns", rounded(r.pre.min_period_ns, kTimeDecimals)},
      {"pre_layout_path_start", r.pre.path_start},
      {"pre_layout_path_end", r.pre.path_end},
      {"post_route_worst_slack_ns", rounded(r.worst_slack_ns, kTimeDecimals)},
      {"post_route_min_period_ns", rounded(r.min_period_ns, kTimeDecimals)},
      {"difference_ns", rounded(difference_ns(r), kTimeDecimals)},
      {"difference_percent", rounded(difference_percent(r), 2)},
      {"post_route_path_start", r.path_start},
      {"post_route_path_end", r.path_end},
      {"routed_path_start", r.routed_path_start},
      {"routed_path_end", r.routed_path_end},
      {"named_instances", r.named_instances},
      {"rc_repaired_sinks", r.rc_repaired_sinks},
      {"rc_repeated_pins", r.rc_repeated_pins},
      {"post_route_logic_depth_cells", r.logic_depth_cells},
      {"run_time_s", rounded(r.total_seconds, 1)},
      {"stages", times},
      {"work_dir", r.work_dir},
      {"def", r.def_path},
      {"spef", r.spef_path},
      {"sta_log", r.sta_log},
      {"picture", r.picture},
  };
  return doc.dump(2) + "\n";
}

std::string pnr_csv(const PnrResult& r) {
  using synth::csv_cell;
  using synth::fixed;
  using synth::kTimeDecimals;
  std::ostringstream csv;
  csv << "module,cells,fill_cells,cell_area_um2,core_area_um2,utilization,wirelength_um,failed_nets,pre_layout_min_"
         "period_ns,post_route_min_period_ns,difference_ns,difference_percent,post_route_path_start,post_route_path_"
         "end,run_time_s\n";
  csv << csv_cell(r.pre.top) << ',' << r.cells << ',' << r.fill_cells << ',' << fixed(r.cell_area_um2, 1) << ','
      << fixed(r.core_area_um2, 1) << ',' << fixed(r.utilization, 4) << ',' << fixed(r.wirelength_um, 1) << ','
      << r.failed_nets << ',' << fixed(r.pre.min_period_ns, kTimeDecimals) << ','
      << fixed(r.min_period_ns, kTimeDecimals) << ',' << fixed(difference_ns(r), kTimeDecimals) << ','
      << fixed(difference_percent(r), 2) << ',' << csv_cell(r.path_start) << ',' << csv_cell(r.path_end) << ','
      << fixed(r.total_seconds, 1) << '\n';
  return csv.str();
}

}  // namespace txgen::pnr
