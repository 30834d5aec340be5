#include "solver/world.h"

#include <chrono>
#include <cmath>
#include <utility>

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
  slot.body = std::make_unique<SoftBody>(mesh, params, settings.group_min_vertices);
  return {uint32_t(index), slot.generation};
}

BodyHandle World::add_cloth(const ClothMesh& mesh, const BodyParams& params) {
  const size_t index = free_slot();
  if (index == slots_.size()) slots_.emplace_back();
  Slot& slot = slots_[index];
  slot.body = std::make_unique<SoftBody>(mesh, params, settings.group_min_vertices);
  return {uint32_t(index), slot.generation};
}

bool World::remove_body(BodyHandle h) {
  if (!body(h)) return false;
  Slot& slot = slots_[h.index];
  slot.body.reset();
  wake_all();  // what rested on it falls
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

size_t World::free_collider_slot() const {
  size_t index = 0;
  while (index < collider_slots_.size() && (collider_slots_[index].alive || collider_slots_[index].generation == 0)) ++index;
  return index;
}

bool World::can_add_collider() const { return free_collider_slot() < kMaxColliderSlots; }

ColliderHandle World::add_collider(const Collider& collider, std::shared_ptr<const MeshShape> mesh) {
  const size_t index = free_collider_slot();
  if (index == collider_slots_.size()) collider_slots_.emplace_back();
  ColliderSlot& slot = collider_slots_[index];
  slot.collider = collider;
  slot.mesh = std::move(mesh);
  slot.collider.mesh = slot.mesh.get();
  wake_all();  // colliders change what the bodies rest on
  slot.collider.previous = slot.collider.pose;
  slot.alive = true;
  return {uint32_t(index), slot.generation};
}

bool World::remove_collider(ColliderHandle h) {
  if (!collider(h)) return false;
  ColliderSlot& slot = collider_slots_[h.index];
  slot.alive = false;
  wake_all();
  slot.mesh.reset();
  slot.collider.mesh = nullptr;
  slot.generation = slot.generation == kMaxColliderGeneration ? 0 : slot.generation + 1;  // retire, never wrap
  return true;
}

Collider* World::collider(ColliderHandle h) {
  if (h.index >= collider_slots_.size()) return nullptr;
  ColliderSlot& slot = collider_slots_[h.index];
  return slot.alive && slot.generation == h.generation ? &slot.collider : nullptr;
}

bool World::set_collider_pose(ColliderHandle h, const Pose& pose, bool teleport) {
  Collider* c = collider(h);
  if (!c) return false;
  c->pose = pose;
  if (teleport) c->previous = pose;
  wake_all();
  return true;
}

size_t World::collider_count() const {
  size_t n = 0;
  for (const ColliderSlot& s : collider_slots_) n += s.alive ? 1 : 0;
  return n;
}

bool World::set_threads(int n) {
  if (n < 1 || n > WorkerPool::kMaxThreads) return false;
  if (!pool_) {
    if (n == 1) return true;
    pool_ = std::make_unique<WorkerPool>();
  }
  return pool_->set_threads(n);
}

bool World::xpbd_out_of_range(float dt, int substeps, BodyHandle* body, int32_t* min_substeps) const {
  const float h = dt / float(substeps);
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    const SoftBody* b = slots_[i].body.get();
    if (!b || b->solver() != Solver::Xpbd || b->xpbd_stiffness_number(h) <= kXpbdNeoHookeanMaxStiffness) continue;
    *body = {i, slots_[i].generation};
    *min_substeps = b->xpbd_min_substeps(dt);
    return true;
  }
  return false;
}

int World::step(float dt, BodyHandle* first_diverged) {
  last_dt_ = dt;
  // The live colliders in slot order (a fixed order keeps runs deterministic); the vector keeps its
  // capacity, so a steady scene allocates nothing here.
  active_colliders_.clear();
  for (const ColliderSlot& s : collider_slots_)
    if (s.alive) active_colliders_.push_back(s.collider);
  StepSettings step_settings = settings;
  // This frame's wind, with its gust (cloth_aero.h).
  if (settings.wind_gust > 0.0f && settings.wind_gust_period > 0.0f) {
    const float gust = 1.0f + settings.wind_gust * float(std::sin(6.283185307179586 * time_ / double(settings.wind_gust_period)));
    for (float& w : step_settings.wind) w *= gust;
  }
  step_settings.colliders = active_colliders_.data();
  step_settings.collider_count = uint32_t(active_colliders_.size());
  step_settings.pool = pool_ && pool_->threads() > 1 ? pool_.get() : nullptr;
  int diverged = 0;
  // Bodies that could touch each other (position-based, with a collision mask): with two or more, or
  // any body touching itself, the world runs their substeps side by side and solves contacts between
  // them in each one.
  stepping_.clear();
  stepping_handles_.clear();
  uint32_t touching = 0;
  bool self_touching = false;
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    SoftBody* b = slots_[i].body.get();
    if (!b) continue;
    stepping_.push_back(b);
    stepping_handles_.push_back({i, slots_[i].generation});
    touching += b->position_based() && b->collision_mask() != 0 ? 1 : 0;
    self_touching |= b->position_based() && b->self_collision();
  }
  contact_report_ = ContactReport{};
  const bool sleep_on = step_settings.sleep_speed > 0.0f;
  if (touching < 2 && !self_touching) {
    if (sleep_on) sleep_.update(stepping_.data(), uint32_t(stepping_.size()), nullptr, 0, step_settings.sleep_seconds);
    // Each body on its own (identical to the interleaved loop when nothing can touch).
    for (size_t k = 0; k < stepping_.size(); ++k) {
      if (stepping_[k]->step(dt, step_settings)) continue;
      if (diverged++ == 0 && first_diverged) *first_diverged = stepping_handles_[k];
    }
  } else {
    using Clock = std::chrono::steady_clock;
    auto ms_since = [](Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); };
    const float h = dt / float(step_settings.substeps);
    if (sleep_on) {
      // Islands from this frame's broad phase, before anything is solved: a body about to reach a
      // sleeping one wakes it now (sleep.h).
      contact_.broad_phase(stepping_.data(), uint32_t(stepping_.size()), dt, body_contact);
      sleep_.update(stepping_.data(), uint32_t(stepping_.size()), contact_.broad_pairs().data(), contact_.broad_pairs().size(),
                    step_settings.sleep_seconds);
    }
    for (SoftBody* b : stepping_) b->frame_begin();
    const Clock::time_point gather = Clock::now();
    contact_.begin_frame(stepping_.data(), uint32_t(stepping_.size()), dt, body_contact);
    contact_report_.gather_ms = ms_since(gather);
    contact_report_.broad_ms = contact_.broad_ms();
    contact_report_.candidates = contact_.candidate_count();
    contact_report_.edge_pairs = contact_.edge_pair_count();
    contact_report_.edge_ms = contact_.edge_ms();
    // Contact inside the solve: with several passes (or a stiffness target's budget), the contacts
    // between bodies are solved after each round of passes, so the passes carry what contact does
    // into the bodies. Solved only after the last, the passes of a stiff body dragged the surface the
    // contact stopped on into the other body with the rest of it, every substep, and only the
    // surface's momentum was taken.
    int rounds = 1;
    for (const SoftBody* b : stepping_) rounds = std::max(rounds, b->passes_per_substep());
    for (int sub = 0; sub < step_settings.substeps; ++sub) {
      for (SoftBody* b : stepping_) b->substep_begin(h, step_settings, sub);
      contact_.begin_substep();
      for (int k = 0; k + 1 < rounds; ++k) {
        for (SoftBody* b : stepping_) b->substep_passes(k, 1);
        const Clock::time_point between = Clock::now();
        contact_.solve(stepping_.data(), uint32_t(stepping_.size()), body_contact, false);
        contact_report_.solve_ms += ms_since(between);
        // Every body's budget spent or stiffness target met (convergence.h): no more rounds.
        bool done = true;
        for (const SoftBody* b : stepping_) done = done && b->substep_passes_done();
        if (done) break;
      }
      for (SoftBody* b : stepping_) b->substep_passes(rounds - 1, 1 << 30);
      for (SoftBody* b : stepping_) b->substep_end();
      const Clock::time_point solve = Clock::now();
      const uint32_t solved = contact_.solve(stepping_.data(), uint32_t(stepping_.size()), body_contact, true);
      contact_report_.solve_ms += ms_since(solve);
      contact_report_.contacts += solved;
      if (solved > 0)
        for (SoftBody* b : stepping_) b->resolve_ground(step_settings);
      for (SoftBody* b : stepping_) b->substep_finish(h, step_settings);
    }
    contact_report_.bound_ms = contact_.bound_ms();
    for (size_t k = 0; k < stepping_.size(); ++k) {
      if (stepping_[k]->frame_end()) continue;
      if (diverged++ == 0 && first_diverged) *first_diverged = stepping_handles_[k];
    }
  }
  // How long each awake body has been quiet, for the next frame's islands.
  for (SoftBody* b : stepping_) {
    if (!sleep_on) {
      if (b->asleep()) b->wake();  // sleep turned off
    } else if (!b->frozen() && b->position_based()) {
      b->note_quiet(dt, step_settings.sleep_speed);
    }
  }
  if (step_settings.collider_count > 0) {
    ColliderCandidateStats& sum = contact_report_.colliders;
    for (const SoftBody* b : stepping_) {
      if (!b->position_based() || b->frozen()) continue;  // no candidates gathered this frame
      const ColliderCandidateStats& s = b->collider_stats();
      sum.particles += s.particles;
      sum.faces += s.faces;
      sum.fallbacks += s.fallbacks;
      sum.tested += s.tested;
      sum.gather_ms += s.gather_ms;
      sum.solve_ms += s.solve_ms;
    }
  }
  // This frame's sweep is done: the next starts where each collider is now.
  for (ColliderSlot& s : collider_slots_) s.collider.previous = s.collider.pose;
  time_ += dt;
  return diverged;
}

void World::wake_all() {
  for (Slot& s : slots_)
    if (s.body) s.body->wake();
}

void World::clamp_target(float target[3]) const {
  if (settings.ground && target[1] < 0.0f) target[1] = 0.0f;
}

}  // namespace sb
