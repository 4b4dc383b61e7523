// Counts heap allocations (every global operator new) so that the speed bench
// can report allocations per simulated cycle: the lock-step pair should make
// none once warmed up. The count is the only thing added to the allocator.
#include <atomic>
#include <cstdlib>
#include <new>

#include "cosim_util.h"

namespace {
std::atomic<uint64_t> g_allocations{0};

void* counted_allocation(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
}  // namespace

// GCC sees std::free on a pointer from operator new and warns; the pair is matched here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t n) { return counted_allocation(n); }
void* operator new[](std::size_t n) { return counted_allocation(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

uint64_t txgen::verif::heap_allocations() { return g_allocations.load(std::memory_order_relaxed); }
