// Running jobs on a Slurm cluster: the jobs not yet passed are submitted as
// one job array (sbatch --array), followed with squeue until none is queued,
// and judged by the stamps and logs they leave, as the ninja runner judges
// them. Used by `txgen sweep --slurm` and `txgen eval --slurm`.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "txgen/sweep/jobs.h"

namespace txgen::sweep {

// Seconds between two looks at the queue: TXGEN_SLURM_POLL, else 10.
double default_poll_seconds();

struct SlurmOptions {
  std::string partition, time, mem;  // sbatch --partition, --time, --mem ("": the cluster's default)
  std::string name;                  // the array's job name is txgen-<name>
  double poll_seconds = default_poll_seconds();
};

// One job: a line of POSIX shell run in the root directory, which has passed
// when its stamp exists; its log says why it failed. Paths relative to root.
struct SlurmTask {
  std::string label;  // in progress lines: "synth point (block)"
  std::string line;
  std::string stamp, log;
};

// A sweep job as a task: its shell line (shell_line) and its stamp and log
// relative to the directory its line runs in.
SlurmTask task_of(const Job& job, const std::string& txgen);

// NotRun: never submitted, or submitted and gone from the queue before it
// started (cancelled while pending); a rerun submits it.
enum class TaskState { Passed, Failed, Pending, Running, NotRun };

struct TaskStatus {
  TaskState state = TaskState::NotRun;
  std::string log;  // Failed: the task's log, or Slurm's output file when it wrote none
};

class SlurmRunner {
 public:
  SlurmRunner(std::filesystem::path root, std::vector<SlurmTask> tasks, SlurmOptions options);

  // Submits every task that has neither passed nor sits in the queue (arrays
  // of at most 1,000 tasks), recorded in root/slurm/submitted.json; returns
  // how many. Throws std::runtime_error when sbatch fails.
  size_t submit();
  // Every task's state: the stamps, the logs and the queue.
  std::vector<TaskStatus> status() const;
  // Waits until no task is pending or running, printing "[k/n] passed LABEL"
  // (or FAILED, with the log) as each ends.
  void wait() const;

 private:
  struct Submitted {
    std::string job;  // array job id
    size_t index;     // task id within it
  };
  std::vector<Submitted> last_submissions() const;  // per task; job "" when never submitted
  std::string submit_array(const std::vector<size_t>& tasks, size_t serial);

  std::filesystem::path root_;
  std::vector<SlurmTask> tasks_;
  SlurmOptions options_;
};

// The job id sbatch --parsable printed ("123" or "123;cluster"); throws on anything else.
std::string parse_sbatch_job_id(const std::string& output);

}  // namespace txgen::sweep
