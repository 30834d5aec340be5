// Sleep: bodies at rest are not stepped. A resting pile otherwise costs as much as a falling one (its
// contacts are gathered and solved every frame) and never quite stops: one Gauss-Seidel pass leaves
// millimetre corrections that the substeps turn into velocity.
//
// Each frame, after the step, every awake body notes how long it has been quiet (SoftBody::note_quiet:
// root-mean-square vertex speed under StepSettings::sleep_speed, nothing grabbing or pressing it).
// Before the next step the bodies that may touch in it (body contact's broad phase: bounds widened by
// the contact reach and the frame's predicted motion) are joined into islands. An island whose bodies
// have all been quiet for sleep_seconds falls asleep together (velocities 0); an island with one body
// that has not wakes together. So a body thrown at a sleeping pile wakes the whole pile in the frame
// its bounds first reach it, before any contact is solved, and a pile sleeps only as a whole.
//
// A sleeping body is not stepped and meets awake bodies as an immovable obstacle (as a diverged one
// does). Every call that changes a body (parameters, pins, grab, press, reset, the solver) wakes it, and
// changes to the world (gravity, wind, the ground, colliders, removing a body) wake every body.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "meshing/union_find.h"

namespace sb {

class SoftBody;

class SleepIslands {
 public:
  // bodies[0..count): the world's bodies this frame; pair_keys: (i << 32 | j) for bodies i and j that
  // may touch this frame (each pair in either or both orders; i == j ignored). Puts islands whose
  // bodies have all been quiet for `seconds` to sleep and wakes islands with a body that has not.
  // Diverged bodies and force-based solvers' bodies never sleep; a diverged body joins no island.
  void update(SoftBody* const* bodies, uint32_t count, const uint64_t* pair_keys, size_t pair_count, float seconds);

 private:
  UnionFind islands_;              // over the bodies
  std::vector<uint8_t> restless_;  // per island root: a body in it has not been quiet long enough
};

}  // namespace sb
