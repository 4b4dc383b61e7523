#include "txgen/sweep/slurm.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "txgen/sweep/jobs.h"
#include "txgen/util/env.h"
#include "txgen/util/process.h"
#include "txgen/util/text_file.h"

namespace txgen::sweep {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr size_t kArrayLimit = 1000;  // Slurm's default MaxArraySize is 1001
constexpr int kQueueTries = 5;

const char* kSubmitted = "slurm/submitted.json";

// squeue's view of the cluster: array job id -> task id -> state name.
using Queue = std::map<std::string, std::map<size_t, std::string>>;

// The output of a client command run in root (a scratch file per process, so
// a `status` beside a waiting runner does not clobber its file).
int run_client(const fs::path& root, const std::vector<std::string>& argv, std::string& output) {
  const fs::path scratch = root / "slurm" / (".client." + std::to_string(::getpid()));
  const int rc = util::run_process(argv, {}, root, scratch);
  output = util::read_text_file(scratch);
  fs::remove(scratch);
  return rc;
}

// Every pending, running or completing task of every array ("%F %K %T": array
// job id, task id, state; -r lists the tasks of a pending array one by one).
Queue read_queue(const fs::path& root) {
  std::string out;
  for (int attempt = 1;; ++attempt) {
    if (run_client(root, {"squeue", "-h", "-r", "-o", "%F %K %T"}, out) == 0) break;
    if (attempt == kQueueTries)
      throw std::runtime_error("squeue failed " + std::to_string(kQueueTries) + " times: " + out);
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  Queue q;
  std::istringstream lines(out);
  std::string job, task, state;
  while (lines >> job >> task >> state)
    if (task.find_first_not_of("0123456789") == std::string::npos) q[job][std::stoul(task)] = state;
  return q;
}

bool in_flight(TaskState s) { return s == TaskState::Pending || s == TaskState::Running; }

// How a task left the queue, for its progress line.
std::string left_queue_text(const TaskStatus& s) {
  if (s.state == TaskState::Passed) return "passed ";
  if (s.state == TaskState::Failed) return "FAILED ";
  return "not run (left the queue before it started) ";
}

json read_submitted(const fs::path& root) {
  const fs::path file = root / kSubmitted;
  if (!fs::exists(file)) return json::array();
  try {
    return json::parse(util::read_text_file(file));
  } catch (const json::exception& e) {
    throw std::runtime_error(file.string() + ": not a record of submitted arrays (" + e.what() + ")");
  }
}

}  // namespace

SlurmTask task_of(const Job& job, const std::string& txgen) {
  return {job.label(), shell_line(job, txgen), job.dir + "/" + job.stamp, job.dir + "/" + job.log};
}

double default_poll_seconds() { return util::env_positive("TXGEN_SLURM_POLL", 10.0); }

std::string parse_sbatch_job_id(const std::string& output) {
  static const std::regex kId(R"(^\s*([0-9]+)(;\S*)?\s*$)");
  std::smatch m;
  if (!std::regex_match(output, m, kId)) throw std::runtime_error("sbatch printed no job id: " + output);
  return m[1];
}

SlurmRunner::SlurmRunner(fs::path root, std::vector<SlurmTask> tasks, SlurmOptions options)
    : root_(fs::absolute(std::move(root))), tasks_(std::move(tasks)), options_(std::move(options)) {
  fs::create_directories(root_ / "slurm");
}

std::vector<SlurmRunner::Submitted> SlurmRunner::last_submissions() const {
  std::map<std::string, Submitted> by_stamp;
  for (const json& s : read_submitted(root_)) {
    const json& stamps = s.at("stamps");
    for (size_t i = 0; i < stamps.size(); ++i) by_stamp[stamps[i].get<std::string>()] = {s.at("job"), i};
  }
  std::vector<Submitted> out;
  for (const SlurmTask& t : tasks_) {
    const auto it = by_stamp.find(t.stamp);
    out.push_back(it == by_stamp.end() ? Submitted{"", 0} : it->second);
  }
  return out;
}

std::vector<TaskStatus> SlurmRunner::status() const {
  const std::vector<Submitted> submitted = last_submissions();
  // the queue before the stamps: a task that leaves it between the two has its stamp already
  const bool any = std::any_of(submitted.begin(), submitted.end(), [](const Submitted& s) { return !s.job.empty(); });
  const Queue queue = any ? read_queue(root_) : Queue{};
  std::vector<TaskStatus> out;
  for (size_t i = 0; i < tasks_.size(); ++i) {
    const SlurmTask& t = tasks_[i];
    const Submitted& s = submitted[i];
    TaskStatus st;
    const auto job = queue.find(s.job);
    const bool queued = !s.job.empty() && job != queue.end() && job->second.count(s.index);
    const bool logged = fs::exists(root_ / t.log);
    const std::string slurm_out = "slurm/" + s.job + "_" + std::to_string(s.index) + ".out";
    // Slurm writes the output file when a task starts: a submitted task out of
    // the queue without it never ran (cancelled while pending), and is not run.
    const bool started = !s.job.empty() && fs::exists(root_ / slurm_out);
    if (fs::exists(root_ / t.stamp))
      st.state = TaskState::Passed;
    else if (queued)
      st.state = job->second.at(s.index) == "PENDING" ? TaskState::Pending : TaskState::Running;
    else if (started || logged)
      st.state = TaskState::Failed;
    if (st.state == TaskState::Failed) st.log = logged ? t.log : slurm_out;
    out.push_back(st);
  }
  return out;
}

std::string SlurmRunner::submit_array(const std::vector<size_t>& tasks, size_t serial) {
  const std::string list = "slurm/array-" + std::to_string(serial) + ".txt";
  const std::string script = "slurm/array-" + std::to_string(serial) + ".sh";
  std::string lines;
  for (size_t i : tasks) lines += tasks_[i].line + "\n";
  util::write_text_file(root_ / list, lines);
  util::write_text_file(root_ / script, slurm_script(tasks.size(), root_, options_.name, list));
  std::vector<std::string> argv = {"sbatch", "--parsable", "--array=0-" + std::to_string(tasks.size() - 1)};
  if (!options_.partition.empty()) argv.push_back("--partition=" + options_.partition);
  if (!options_.time.empty()) argv.push_back("--time=" + options_.time);
  if (!options_.mem.empty()) argv.push_back("--mem=" + options_.mem);
  argv.push_back(script);
  std::string out;
  if (run_client(root_, argv, out) != 0) throw std::runtime_error("sbatch " + script + " failed: " + out);
  return parse_sbatch_job_id(out);
}

size_t SlurmRunner::submit() {
  const std::vector<TaskStatus> now = status();
  std::vector<size_t> todo;
  for (size_t i = 0; i < tasks_.size(); ++i)
    if (now[i].state != TaskState::Passed && !in_flight(now[i].state)) todo.push_back(i);
  json submitted = read_submitted(root_);
  for (size_t first = 0; first < todo.size(); first += kArrayLimit) {
    const std::vector<size_t> chunk(todo.begin() + first, todo.begin() + std::min(todo.size(), first + kArrayLimit));
    const std::string job = submit_array(chunk, submitted.size() + 1);
    json stamps = json::array();
    for (size_t i : chunk) stamps.push_back(tasks_[i].stamp);
    submitted.push_back({{"job", job}, {"stamps", stamps}});
    util::write_text_file(root_ / kSubmitted, submitted.dump(1) + "\n");  // after each array: none is forgotten
    std::cout << "txgen: submitted " << chunk.size() << " tasks as Slurm array job " << job << "\n";
  }
  return todo.size();
}

void SlurmRunner::wait() const {
  std::vector<TaskStatus> before = status();
  size_t total = 0, done = 0;
  for (const TaskStatus& s : before) total += in_flight(s.state);
  if (total == 0) return;
  std::cout << "txgen: waiting for " << total << " Slurm tasks\n" << std::flush;
  while (done < total) {
    std::this_thread::sleep_for(std::chrono::duration<double>(options_.poll_seconds));
    const std::vector<TaskStatus> now = status();
    for (size_t i = 0; i < tasks_.size(); ++i) {
      if (!in_flight(before[i].state) || in_flight(now[i].state)) continue;
      ++done;
      std::cout << "[" << done << "/" << total << "] " << left_queue_text(now[i]) << tasks_[i].label
                << (now[i].state == TaskState::Failed ? " (log " + (root_ / now[i].log).string() + ")" : "") << "\n"
                << std::flush;
    }
    before = now;
  }
}

}  // namespace txgen::sweep
