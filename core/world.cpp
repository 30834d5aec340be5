#include "world.h"

namespace sb {

size_t World::free_slot() const {
  size_t index = 0;
  while (index < slots_.size() && (slots_[index].body || slots_[index].generation == 0)) ++index;
  return index;
}

bool World::can_add_body() const { return free_slot() < kMaxSlots; }

BodyHandle World::add_body(const TetMesh& mesh, const BodyParams& params) {
  const size_t index = free_slot();
  if (index == slots_.size()) slots_.emplace_back();
  Slot& slot = slots_[index];
  slot.body = std::make_unique<SoftBody>(mesh, params);
  return {uint32_t(index), slot.generation};
}

bool World::remove_body(BodyHandle h) {
  if (!body(h)) return false;
  Slot& slot = slots_[h.index];
  slot.body.reset();
  // Invalidates old handles; after the last generation the slot retires rather than wrap around.
  slot.generation = slot.generation == kMaxGeneration ? 0 : slot.generation + 1;
  return true;
}

void World::set_slot_generation_for_test(uint32_t index, uint32_t generation) {
  if (index < slots_.size() && !slots_[index].body) slots_[index].generation = generation;
}

SoftBody* World::body(BodyHandle h) {
  if (h.index >= slots_.size()) return nullptr;
  Slot& slot = slots_[h.index];
  return slot.generation == h.generation && h.generation != 0 ? slot.body.get() : nullptr;
}

size_t World::body_count() const {
  size_t n = 0;
  for (const Slot& s : slots_) n += s.body ? 1 : 0;
  return n;
}

int World::step(float dt, BodyHandle* first_diverged) {
  int diverged = 0;
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    SoftBody* b = slots_[i].body.get();
    if (!b || b->step(dt, settings)) continue;
    if (diverged++ == 0 && first_diverged) *first_diverged = {i, slots_[i].generation};
  }
  time_ += dt;
  return diverged;
}

void World::clamp_target(float target[3]) const {
  if (settings.ground && target[1] < 0.0f) target[1] = 0.0f;
}

}  // namespace sb
