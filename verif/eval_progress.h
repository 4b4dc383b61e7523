// The progress of a long trace evaluation on stderr: requests replayed of
// all the replays' requests, the rate and an estimate of the time left. On a
// terminal one line redrawn twice a second (after the first second); in a log,
// a line every `interval` seconds. A run shorter than that prints nothing.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace txgen::verif {

class EvalProgress {
 public:
  EvalProgress(uint64_t total_requests, double log_interval_seconds);
  ~EvalProgress();  // stops the reporter and clears a terminal line
  EvalProgress(const EvalProgress&) = delete;
  EvalProgress& operator=(const EvalProgress&) = delete;

  void add(uint64_t requests) { done_.fetch_add(requests, std::memory_order_relaxed); }
  // "1.23 M of 4.56 M requests (27 %), 412.5 k requests/s, 8 s left"
  static std::string line(uint64_t done, uint64_t total, double seconds);

 private:
  void report();

  std::atomic<uint64_t> done_{0};
  const uint64_t total_;
  const bool tty_;
  const double interval_;
  bool drawn_ = false;
  bool stop_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
};

}  // namespace txgen::verif
