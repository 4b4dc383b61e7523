// Drives Yosys and yosys-smtbmc (../shared/toolflow.md, "Formal with
// yosys-smtbmc"). Every run leaves its script, SMT2 file and log in the work
// directory, so a result can be rerun by hand.
#include "txgen/formal/prove_flow.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "txgen/util/process.h"
#include "txgen/util/text_file.h"

namespace txgen::formal {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void run_yosys(const fs::path& dir, const std::string& name, const std::string& script) {
  util::write_text_file(dir / (name + ".ys"), script);
  const fs::path log = dir / (name + ".yosys.log");
  if (util::run_process({"yosys", "-q", "-l", log.string(), "-s", name + ".ys"}, {}, dir, dir / (name + ".out")) != 0)
    throw std::runtime_error("yosys failed on " + (dir / (name + ".ys")).string() + "; see " + log.string());
}

// One yosys-smtbmc run: its verdict and the assertions its trace violates.
struct SmtbmcRun {
  bool passed = false;
  std::vector<std::string> failed;  // "Assert failed in TOP: name"
  unsigned last_step = 0;           // the last "step N" it reported
  double seconds = 0;
};

SmtbmcRun run_smtbmc(const fs::path& dir, const std::string& name, bool induction, unsigned depth) {
  const fs::path log = dir / (name + ".smtbmc.log");
  // --unroll: z3 solves the unrolled bit-vector problem in a fraction of a
  // second where the default encoding (uninterpreted module functions) took
  // minutes on the 3-tag codec
  std::vector<std::string> argv = {"yosys-smtbmc", "--unroll", "-s", "z3"};
  if (induction) argv.push_back("-i");
  argv.insert(argv.end(), {"-t", std::to_string(depth), "--dump-vcd", name + ".vcd", name + ".smt2"});
  const auto start = Clock::now();
  const int rc = util::run_process(argv, {}, dir, log);
  SmtbmcRun r;
  r.seconds = seconds_since(start);
  const std::string text = util::read_text_file(log);
  if (text.find("Status: PASSED") != std::string::npos && rc == 0) {
    r.passed = true;
  } else if (text.find("Status: FAILED") == std::string::npos) {
    throw std::runtime_error("yosys-smtbmc failed (exit " + std::to_string(rc) + "); see " + log.string());
  }
  static const std::regex failed(R"(Assert failed in [^:]*: ([A-Za-z_][A-Za-z0-9_]*))");
  static const std::regex step(R"(in step (\d+))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), failed); it != std::sregex_iterator(); ++it)
    r.failed.push_back((*it)[1]);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), step); it != std::sregex_iterator(); ++it)
    r.last_step = static_cast<unsigned>(std::stoul((*it)[1]));
  return r;
}

// Names of the labelled cells listed by `select -write` (TOP/name lines).
std::vector<std::string> labelled(const fs::path& list) {
  std::vector<std::string> names;
  std::istringstream in(util::read_text_file(list));
  for (std::string line; std::getline(in, line);) {
    const std::string name = line.substr(line.find('/') + 1);
    if (!name.empty() && name[0] != '$') names.push_back(name);
  }
  return names;
}

// The design as the solver sees it: the top's properties only, flattened,
// asynchronous resets made synchronous for the SMT2 back end.
void prepare(const ProveRequest& req, const fs::path& dir) {
  std::string files;
  for (const auto& f : req.verilog_files) files += " " + fs::absolute(f).string();
  std::string script = "read_verilog -formal" + files + "\nhierarchy -check -top " + req.top + "\nproc\n";
  // other modules' properties have their own proofs: removed, or (proven in
  // the same run) assumed
  const std::string members = req.assume_members ? "chformal -assert2assume" : "chformal -remove";
  script += members + " * " + req.top + " %d\n";
  script += "flatten\nprep -top " + req.top + "\nasync2sync\ndffunmap\n";
  script += "select -write asserts.txt " + req.top + "/t:$assert\n";
  script += "select -write assumes.txt " + req.top + "/t:$assume\n";
  script += "write_rtlil design.il\n";
  run_yosys(dir, "prepare", script);
}

// SMT2 of the design with only the asserts in `keep`.
void smt2_with(const ProveRequest& req, const fs::path& dir, const std::string& name,
               const std::vector<std::string>& keep) {
  std::string script = "read_rtlil design.il\nselect -set keep";
  for (const auto& k : keep) script += " " + req.top + "/" + k;
  script += "\nchformal -remove " + req.top + "/t:$assert @keep %d\nwrite_smt2 -wires " + name + ".smt2\n";
  run_yosys(dir, name, script);
}

// A bounded model check of r's property alone from reset to `depth`.
void bmc(const ProveRequest& req, const fs::path& dir, const std::string& name, unsigned depth, PropertyResult& r) {
  smt2_with(req, dir, name, {r.name});
  const SmtbmcRun run = run_smtbmc(dir, name, false, depth);
  r.bmc_seconds += run.seconds;
  r.depth = depth;
  if (!run.passed) {
    r.verdict = Verdict::Failed;
    r.fail_step = run.last_step;
    r.trace = (dir / (name + ".vcd")).string();
  }
}

// k-induction over the properties that passed BMC; a property whose
// induction step fails is dropped (it stays bounded) and the rest retried,
// so every proven property is proven with proven properties only.
void induction(const ProveRequest& req, const fs::path& dir, TopResult& top) {
  std::set<std::string> open;
  for (const auto& p : top.properties)
    if (p.verdict != Verdict::Failed) open.insert(p.name);
  for (unsigned round = 0; !open.empty(); ++round) {
    const std::string name = "induction" + std::to_string(round);
    smt2_with(req, dir, name, std::vector<std::string>(open.begin(), open.end()));
    const SmtbmcRun run = run_smtbmc(dir, name, true, req.depth);
    top.induction_seconds += run.seconds;
    if (run.passed) {
      top.induction_closed = true;
      top.induction_k = req.depth - run.last_step;
      for (auto& p : top.properties)
        if (open.count(p.name)) p.verdict = Verdict::Proven;
      return;
    }
    size_t dropped = 0;
    for (const auto& f : run.failed) dropped += open.erase(f);
    for (auto& p : top.properties)
      if (!open.count(p.name) && p.verdict == Verdict::Bounded && p.trace.empty())
        p.trace = (dir / (name + ".vcd")).string();
    if (dropped == 0) return;  // a trace that names no open property: nothing provable
  }
}

std::string fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

unsigned search_depth(unsigned depth) { return std::max(2 * depth, depth + 12); }

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Proven: return "proven";
    case Verdict::Bounded: return "bounded";
    case Verdict::Failed: return "FAILED";
  }
  return "?";
}

TopResult prove_top(const ProveRequest& req) {
  const fs::path dir = fs::absolute(req.work_dir);
  fs::remove_all(dir);  // no trace of an earlier run is left to be read as this one's
  fs::create_directories(dir);
  TopResult top;
  top.top = req.top;
  top.depth = req.depth;
  const auto start = Clock::now();
  prepare(req, dir);
  top.prepare_seconds = seconds_since(start);
  top.assumptions = labelled(dir / "assumes.txt");
  top.names = labelled(dir / "asserts.txt");
  for (const auto& p : top.names) {
    if (!req.only.empty() && std::find(req.only.begin(), req.only.end(), p) == req.only.end()) continue;
    PropertyResult r;
    r.name = p;
    bmc(req, dir, "bmc_" + p, req.depth, r);
    top.properties.push_back(r);
  }
  induction(req, dir, top);
  for (auto& p : top.properties)
    if (p.verdict == Verdict::Bounded) bmc(req, dir, "search_" + p.name, search_depth(req.depth), p);
  return top;
}

std::string results_markdown(const std::vector<TopResult>& results, const std::string& title) {
  std::ostringstream os;
  os << "### " << title << "\n\n";
  for (const auto& t : results) {
    os << "`" << t.top << "`: BMC to depth " << t.depth << " from reset, then k-induction ("
       << (t.induction_closed ? "closed at k = " + std::to_string(t.induction_k) : std::string("did not close")) << ", "
       << fixed(t.induction_seconds, 1) << " s in all; preparation " << fixed(t.prepare_seconds, 1) << " s)";
    if (!t.assumptions.empty()) {
      os << "; environment assumptions:";
      for (const auto& a : t.assumptions) os << " `" << a << "`";
    }
    os << "\n\n| property | result | BMC s | trace |\n|---|---|---:|---|\n";
    for (const auto& p : t.properties) {
      std::string result = verdict_name(p.verdict);
      if (p.verdict == Verdict::Bounded) result += " to depth " + std::to_string(p.depth);
      if (p.verdict == Verdict::Failed) result += " at step " + std::to_string(p.fail_step);
      os << "| `" << p.name << "` | " << result << " | " << fixed(p.bmc_seconds, 2) << " | "
         << (p.trace.empty() ? "" : "`" + p.trace + "`") << " |\n";
    }
    os << "\n";
  }
  return os.str();
}

nlohmann::json results_json(const std::vector<TopResult>& results) {
  nlohmann::json tops = nlohmann::json::array();
  for (const auto& t : results) {
    nlohmann::json props = nlohmann::json::array();
    for (const auto& p : t.properties)
      props.push_back({{"name", p.name},
                       {"result", verdict_name(p.verdict)},
                       {"depth", p.depth},
                       {"bmc_seconds", p.bmc_seconds},
                       {"fail_step", p.fail_step},
                       {"trace", p.trace}});
    tops.push_back({{"top", t.top},
                    {"depth", t.depth},
                    {"induction_closed", t.induction_closed},
                    {"induction_k", t.induction_k},
                    {"induction_seconds", t.induction_seconds},
                    {"prepare_seconds", t.prepare_seconds},
                    {"assumptions", t.assumptions},
                    {"properties", props}});
  }
  return tops;
}

}  // namespace txgen::formal
