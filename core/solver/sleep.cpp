#include "solver/sleep.h"

#include "solver/soft_body.h"

namespace sb {

uint32_t SleepIslands::root(uint32_t i) {
  while (parent_[i] != i) {
    parent_[i] = parent_[parent_[i]];  // path halving
    i = parent_[i];
  }
  return i;
}

void SleepIslands::update(SoftBody* const* bodies, uint32_t count, const uint64_t* pair_keys, size_t pair_count,
                          float seconds) {
  parent_.resize(count);
  restless_.assign(count, 0);
  for (uint32_t i = 0; i < count; ++i) parent_[i] = i;
  for (size_t k = 0; k < pair_count; ++k) {
    const uint32_t i = uint32_t(pair_keys[k] >> 32), j = uint32_t(pair_keys[k]);
    if (i == j || i >= count || j >= count || bodies[i]->diverged() || bodies[j]->diverged()) continue;
    const uint32_t a = root(i), b = root(j);
    if (a != b) parent_[a < b ? b : a] = a < b ? a : b;
  }
  // Force-based bodies do not sleep (their energy behaviour is what the comparison view shows).
  for (uint32_t i = 0; i < count; ++i) {
    const SoftBody& b = *bodies[i];
    if (b.diverged()) continue;
    const bool ready = b.position_based() && (b.asleep() || b.quiet_seconds() >= seconds);
    if (!ready) restless_[root(i)] = 1;
  }
  for (uint32_t i = 0; i < count; ++i) {
    SoftBody& b = *bodies[i];
    if (b.diverged()) continue;
    if (restless_[root(i)]) {
      if (b.asleep()) b.wake();
    } else if (!b.asleep()) {
      b.fall_asleep();
    }
  }
}

}  // namespace sb
