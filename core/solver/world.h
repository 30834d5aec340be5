// A world: global settings (gravity, substeps, ground) and the bodies in it, reached through small
// handles (slot index + generation) so a stale handle is detected instead of reaching a new body.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "contact/body_contact.h"
#include "contact/mesh_shape.h"
#include "solver/sleep.h"
#include "solver/soft_body.h"
#include "solver/worker_pool.h"

namespace sb {

struct BodyHandle {
  uint32_t index = 0;
  uint32_t generation = 0;
};

// A collider's handle: index into the world's colliders and a generation, as for bodies.
struct ColliderHandle {
  uint32_t index = 0;
  uint32_t generation = 0;
};

class World {
 public:
  // Handles: slot index (13 bits, up to 8,191 slots) and generation (18 bits, 1..262,143), so the C
  // API packs them into a positive int32. A slot hands out each generation once; after the last it
  // is retired and never reused, so a stale handle can never name a newer body.
  static constexpr uint32_t kIndexBits = 13;
  static constexpr uint32_t kMaxSlots = (1u << kIndexBits) - 1;        // index + 1 fits the bits
  static constexpr uint32_t kMaxGeneration = (1u << (31 - kIndexBits)) - 1;

  StepSettings settings;
  BodyContactSettings body_contact;  // contact between bodies (contact/body_contact.h)

  // False when every slot is alive or retired and no new one fits the index bits (after about two
  // billion bodies made in this world).
  bool can_add_body() const;
  // Takes a validated mesh; the body's buffers never move while it lives. Call can_add_body first.
  BodyHandle add_body(const TetMesh& mesh, const BodyParams& params);
  BodyHandle add_cloth(const ClothMesh& mesh, const BodyParams& params);  // a mesh that passed check_cloth_mesh
  bool remove_body(BodyHandle h);
  SoftBody* body(BodyHandle h);  // null for a stale or unknown handle
  size_t body_count() const;

  // Steps every live body one frame. Returns how many bodies diverged (went non-finite) in this
  // call; the first of them is in *first_diverged.
  int step(float dt, BodyHandle* first_diverged);
  double time() const { return time_; }  // simulated seconds
  // The dt of the last step, s (1/60 before the first): what checks made between steps assume.
  float last_dt() const { return last_dt_; }
  // The first live body that runs XPBD with Neo-Hookean beyond its stiffness limit at this dt and
  // substep count (soft_body.h xpbd_stiffness_number); false if none. *min_substeps: what it needs.
  bool xpbd_out_of_range(float dt, int substeps, BodyHandle* body, int32_t* min_substeps) const;

  // Threads that step the bodies (worker_pool.h): n in [1, WorkerPool::kMaxThreads], 1 by default.
  // The XPBD/PBD passes run in units of vertex groups across them (xpbd_partition.h;
  // settings.split_min: the smallest left-over colour split); results are the same to the bit for any n. False (nothing changed) for n out of range,
  // n > 1 in a build without threads, or when the OS refuses a thread.
  bool set_threads(int n);
  int threads() const { return pool_ ? pool_->threads() : 1; }

  // Wakes every body (sleep.h): for changes to the world a resting body must answer (gravity, wind,
  // the ground, colliders, a body removed from under others, sleep settings).
  void wake_all();

  // Grab targets below the ground would drag the body into it; keep them on or above y = 0.
  void clamp_target(float target[3]) const;

  // Collider handles pack like body handles: 9 index bits (up to 511 slots), 22 generation bits;
  // a slot that used its last generation retires.
  static constexpr uint32_t kColliderIndexBits = 9;
  static constexpr uint32_t kMaxColliderSlots = (1u << kColliderIndexBits) - 1;
  static constexpr uint32_t kMaxColliderGeneration = (1u << (31 - kColliderIndexBits)) - 1;
  bool can_add_collider() const;

  // Obstacles (collider.h). A new collider starts at rest at its pose. Setting a pose moves it
  // during the next step, sweeping from where it was; teleport puts it there at once instead.
  // A kMesh collider takes its shape here; the slot keeps it alive and collider.mesh points at it.
  ColliderHandle add_collider(const Collider& collider, std::shared_ptr<const MeshShape> mesh = nullptr);
  bool remove_collider(ColliderHandle h);
  Collider* collider(ColliderHandle h);  // null for a stale or unknown handle
  bool set_collider_pose(ColliderHandle h, const Pose& pose, bool teleport);
  size_t collider_count() const;
  // Body (and self) contact over the last step: candidates gathered, contacts solved over its
  // substeps, and the wall time of both phases (ms; measured, so not part of the deterministic state).
  struct ContactReport {
    // Between bodies (body_contact.h): candidates gathered once per frame, contacts solved over its
    // substeps, and the wall time of the gathering (broad_ms of it pairing bodies) and of the solving.
    uint32_t candidates = 0, contacts = 0;
    double gather_ms = 0.0, solve_ms = 0.0, broad_ms = 0.0;
    // Cloth's share (cloth_contact.h): edge-edge pairs gathered, the ms of gathering them (part of
    // gather_ms) and of the bounded displacement over the substeps (part of solve_ms).
    uint32_t edge_pairs = 0;
    double edge_ms = 0.0, bound_ms = 0.0;
    // With colliders (collider_candidates.h), summed over the bodies.
    ColliderCandidateStats colliders;
  };
  const ContactReport& contact_report() const { return contact_report_; }

  // For tests only: the generation the next body made in free slot `index` gets.
  void set_slot_generation_for_test(uint32_t index, uint32_t generation);

 private:
  struct Slot {
    std::unique_ptr<SoftBody> body;
    uint32_t generation = 1;  // 0: retired
  };
  size_t free_slot() const;  // the first slot neither alive nor retired, or slots_.size()
  std::vector<Slot> slots_;
  struct ColliderSlot {
    Collider collider;
    std::shared_ptr<const MeshShape> mesh;  // kMesh only
    bool alive = false;
    uint32_t generation = 1;  // 0: retired
  };
  size_t free_collider_slot() const;
  std::vector<ColliderSlot> collider_slots_;
  std::vector<Collider> active_colliders_;  // the live ones, gathered for each step (capacity kept)
  std::vector<SoftBody*> stepping_;          // live bodies in slot order, for the interleaved step
  std::vector<BodyHandle> stepping_handles_;
  BodyContact contact_;
  SleepIslands sleep_;
  ContactReport contact_report_;
  std::unique_ptr<WorkerPool> pool_;  // made by the first set_threads(n > 1)
  double time_ = 0.0;
  float last_dt_ = 1.0f / 60.0f;
};

}  // namespace sb
