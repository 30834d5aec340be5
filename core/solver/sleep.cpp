#include "solver/sleep.h"

#include "solver/soft_body.h"

namespace sb {

void SleepIslands::update(SoftBody* const* bodies, uint32_t count, const uint64_t* pair_keys, size_t pair_count,
                          float seconds) {
  islands_.reset(count);
  restless_.assign(count, 0);
  for (size_t k = 0; k < pair_count; ++k) {
    const uint32_t i = uint32_t(pair_keys[k] >> 32), j = uint32_t(pair_keys[k]);
    if (i == j || i >= count || j >= count || bodies[i]->diverged() || bodies[j]->diverged()) continue;
    islands_.join(i, j);
  }
  // Force-based bodies do not sleep (their energy behaviour is what the comparison view shows).
  for (uint32_t i = 0; i < count; ++i) {
    const SoftBody& b = *bodies[i];
    if (b.diverged()) continue;
    const bool ready = b.position_based() && (b.asleep() || b.quiet_seconds() >= seconds);
    if (!ready) restless_[size_t(islands_.find(i))] = 1;
  }
  for (uint32_t i = 0; i < count; ++i) {
    SoftBody& b = *bodies[i];
    if (b.diverged()) continue;
    if (restless_[size_t(islands_.find(i))]) {
      if (b.asleep()) b.wake();
    } else if (!b.asleep()) {
      b.fall_asleep();
    }
  }
}

}  // namespace sb
