// Formal proofs of a generated module's properties (the `ifdef FORMAL
// assertions the emitters state through hdl::Module::assert_always): Yosys
// prepares the design, yosys-smtbmc with z3 runs a bounded model check of
// each property from reset and k-induction over the properties that pass it.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace txgen::formal {

struct ProveRequest {
  std::string top;                         // the module whose properties are proven
  std::vector<std::string> verilog_files;  // every file of the design (other modules' properties are ignored)
  std::vector<std::string> only;           // prove only these properties (all when empty)
  unsigned depth = 20;                     // BMC steps from reset, and the induction length
  std::string work_dir;                    // created; scripts, logs, SMT2, traces
  bool assume_members = false;             // the other modules' properties as assumptions, not removed
};

enum class Verdict {
  Proven,   // k-induction closed (with the other proven properties), and BMC passed to the depth
  Bounded,  // BMC passed to the depth and the deeper search; induction did not close
  Failed,   // BMC found a counterexample
};

const char* verdict_name(Verdict v);

struct PropertyResult {
  std::string name;
  Verdict verdict = Verdict::Bounded;
  unsigned depth = 0;       // the steps from reset its bounded model checks covered
  double bmc_seconds = 0;   // the bounded model checks of this property alone
  unsigned fail_step = 0;   // Failed: the step of the counterexample (0 = the reset cycle)
  std::string trace;        // Failed: the counterexample (VCD); Bounded: the last induction step's trace
};

struct TopResult {
  std::string top;
  unsigned depth = 0;
  std::vector<std::string> names;  // every property of the top
  std::vector<PropertyResult> properties;  // the ones proven (req.only)
  std::vector<std::string> assumptions;  // named environment assumptions of the top
  double prepare_seconds = 0;
  double induction_seconds = 0;  // all induction runs together
  bool induction_closed = false;
  unsigned induction_k = 0;  // when closed: the earlier steps the induction step needed
};

// A property induction leaves open is checked again from reset to this depth,
// so a bug needing more steps than the induction length still shows as a
// counterexample.
unsigned search_depth(unsigned depth);

// Runs the whole flow for one top. Throws std::runtime_error naming the log
// when a tool fails (not when a property fails).
TopResult prove_top(const ProveRequest& req);

// A Markdown table per top under a "### title" heading, and its JSON.
std::string results_markdown(const std::vector<TopResult>& results, const std::string& title);
nlohmann::json results_json(const std::vector<TopResult>& results);

}  // namespace txgen::formal
