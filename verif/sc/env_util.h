// Pieces shared by the SystemC tests' environments (verif/sc/*_env.h).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

#include "cosim_util.h"

namespace txgen::verif::sc {

// The cycle of the one reset an environment adds, in the middle third of the run.
inline uint64_t mid_run_reset(Rng& rng, uint64_t cycles) { return cycles / 3 + rng.below(cycles / 3 + 1); }

// Work taken by a responder (an L2-TLB, a page walker) and answered once due:
// in order (the oldest, once it is due) or, given an Rng, any one that is due.
template <class T>
class DueQueue {
 public:
  void push(uint64_t due, T item) { q_.emplace_back(due, std::move(item)); }
  void clear() { q_.clear(); }
  bool empty() const { return q_.empty(); }

  std::optional<T> pop_due(uint64_t now, Rng* any = nullptr) {
    std::size_t pick = q_.size();
    if (!any) {
      if (!q_.empty() && q_.front().first <= now) pick = 0;
    } else {
      std::size_t due = 0;
      for (const auto& e : q_) due += e.first <= now;
      if (due > 0) pick = nth_due(now, any->below(due));
    }
    if (pick == q_.size()) return std::nullopt;
    T item = std::move(q_[pick].second);
    q_.erase(q_.begin() + static_cast<long>(pick));
    return item;
  }

 private:
  std::size_t nth_due(uint64_t now, uint64_t n) const {
    for (std::size_t i = 0; i < q_.size(); ++i)
      if (q_[i].first <= now && n-- == 0) return i;
    return q_.size();
  }
  std::deque<std::pair<uint64_t, T>> q_;
};

}  // namespace txgen::verif::sc
