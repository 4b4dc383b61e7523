#include "eval_progress.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace txgen::verif {
namespace {

// 5998, 12.3 k, 4.56 M
std::string quantity(double n) {
  char buf[32];
  if (n >= 1e6)
    std::snprintf(buf, sizeof buf, "%.2f M", n / 1e6);
  else if (n >= 1e4)
    std::snprintf(buf, sizeof buf, "%.1f k", n / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f", n);
  return buf;
}

std::string duration(double s) {
  char buf[32];
  if (s < 120)
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 7200)
    std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
  else
    std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
  return buf;
}

}  // namespace

EvalProgress::EvalProgress(uint64_t total_requests, double log_interval_seconds)
    : total_(total_requests), tty_(::isatty(STDERR_FILENO) == 1), interval_(log_interval_seconds) {
  thread_ = std::thread([this] { report(); });
}

EvalProgress::~EvalProgress() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (drawn_) std::fprintf(stderr, "\r\033[K");
}

std::string EvalProgress::line(uint64_t done, uint64_t total, double seconds) {
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  const double pct = total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 0;
  char buf[32];
  std::snprintf(buf, sizeof buf, " (%.0f %%), ", pct);
  std::string s = quantity(static_cast<double>(done)) + " of " + quantity(static_cast<double>(total)) + " requests" +
                  buf + quantity(rate) + " requests/s";
  if (rate > 0 && done < total) s += ", " + duration(static_cast<double>(total - done) / rate) + " left";
  return s;
}

void EvalProgress::report() {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const auto first = std::chrono::duration<double>(tty_ ? 1.0 : interval_);
  const auto every = std::chrono::duration<double>(tty_ ? 0.5 : interval_);
  std::unique_lock<std::mutex> lock(mutex_);
  if (wake_.wait_for(lock, first, [this] { return stop_; })) return;
  do {
    const double seconds = std::chrono::duration<double>(clock::now() - start).count();
    const std::string text = "txgen eval: " + line(done_.load(std::memory_order_relaxed), total_, seconds);
    if (tty_) {
      std::fprintf(stderr, "\r\033[K%s", text.c_str());
      drawn_ = true;
    } else {
      std::fprintf(stderr, "%s\n", text.c_str());
    }
    std::fflush(stderr);
  } while (!wake_.wait_for(lock, every, [this] { return stop_; }));
}

}  // namespace txgen::verif
