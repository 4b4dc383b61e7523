// The jobs of a sweep: one per step of every point, each a txgen command run in
// the point's directory (keyed by its configuration hash and the txgen
// version) that leaves a stamp when it succeeds; and the three job lists that
// run them: build.ninja, a GNU parallel job file and a Slurm array script.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "txgen/sweep/spec.h"

namespace txgen::sweep {

struct Job {
  std::string point;              // point name
  std::string dir;                // point directory, relative to the sweep directory
  std::string step;               // report, gen, synth, cosim, eval
  std::string block;              // "" for report and eval
  std::vector<std::string> args;  // txgen arguments
  std::string stdout_file;        // in dir; the log unless the output is stdout (report)
  std::string log;                // in dir
  std::string stamp;              // in dir; written when the step succeeds
  std::string workload = "";      // eval: the one workload it replays
  std::string name() const {
    return step + (block.empty() ? "" : "_" + block) + (workload.empty() ? "" : "_" + workload);
  }
  // What the runners print: "synth point (block)", "eval point (workload)"
  std::string label() const {
    return step + " " + point + (block.empty() ? "" : " (" + block + ")") +
           (workload.empty() ? "" : " (" + workload + ")");
  }
};

// points/<name>-<config hash>-<txgen version>
std::string point_dir(const std::string& name, const std::string& config_hash);

std::vector<Job> point_jobs(const Spec& spec, const std::string& point, const std::string& dir);

// The job as one line of POSIX shell, run in the sweep directory. It skips a
// job whose stamp exists, so every runner repeats only what has not passed.
std::string shell_line(const Job& job, const std::string& txgen);

std::string ninja_file(const std::vector<Job>& jobs, const std::string& txgen, const std::string& spec_file);
std::string parallel_file(const std::vector<Job>& jobs, const std::string& txgen);  // one line per job
// Task i runs line i + 1 of `list` (relative to sweep_dir) there.
std::string slurm_script(size_t jobs, const std::filesystem::path& sweep_dir, const std::string& name,
                         const std::string& list = "jobs.txt");

enum class JobState { Passed, Failed, NotRun };
JobState job_state(const std::filesystem::path& sweep_dir, const Job& job);

}  // namespace txgen::sweep
