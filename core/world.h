// A world: global settings (gravity, substeps, ground) and the bodies in it, reached through small
// handles (slot index + generation) so a stale handle is detected instead of reaching a new body.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "soft_body.h"

namespace sb {

struct BodyHandle {
  uint32_t index = 0;
  uint32_t generation = 0;
};

class World {
 public:
  StepSettings settings;

  // Takes a validated mesh; the body's buffers never move while it lives.
  BodyHandle add_body(const TetMesh& mesh, const BodyParams& params);
  bool remove_body(BodyHandle h);
  SoftBody* body(BodyHandle h);  // null for a stale or unknown handle
  size_t body_count() const;

  // Steps every live body one frame. Returns how many bodies diverged (went non-finite) in this
  // call; the first of them is in *first_diverged.
  int step(float dt, BodyHandle* first_diverged);
  double time() const { return time_; }  // simulated seconds

  // Grab targets below the ground would drag the body into it; keep them on or above y = 0.
  void clamp_target(float target[3]) const;

 private:
  struct Slot {
    std::unique_ptr<SoftBody> body;
    uint32_t generation = 1;
  };
  std::vector<Slot> slots_;
  double time_ = 0.0;
};

}  // namespace sb
