// Inverted tets of the simple model (edges + volumes) under XPBD: found by the volume pass, put back
// region by region on their rest shape before the substep's contacts, without a kick.
//
// Why (issue 25). The volume constraint C = 6V - 6V0 is defined through V <= 0, but in a tangled mesh
// (a body pressed or flattened to 5 % of its height, whose tets folded over each other) the hard
// volume constraints are infeasible together: the tets' signed volumes sum to the volume the tangled
// boundary encloses, whatever the interior does. Every pass then jumps vertices, and the substep turns
// each jump into velocity, v = dx / h. Measured on main (page defaults, 1 m box of 5^3 cells pressed to
// 5 %): ~340 of 750 tets inverted at every second for 10 s, 6-9 MJ of kinetic energy, thrown up to 29 m.
// The edge springs cannot undo it either: a mirrored tet with every edge at its rest length has no
// edge energy, so folds whose tets are all upright again can stay for good (measured, damping the
// inverted tets' velocities alone: 0 inverted but 51 intersecting surface triangle pairs, at rest).
//
// What is done. The tets found inverted (6V <= 0 when the volume pass visits them) are joined into
// regions, connected through shared vertices, and each region's vertices are put on their rest
// positions placed rigidly, x_i* = c + R (X_i - X_c): c, X_c the mass-weighted centres of the
// region's current and rest vertices, R the proper rotation nearest A = sum_i m_i (x_i - c)(X_i - X_c)^T
// (math/rotation.h; the goal positions of Mueller et al. 2005's shape matching, with the reflection
// removed as Irving, Teran, Fedkiw 2004 do for inverted elements). One target per region, not one per
// tet: neighbouring tets' own targets disagree, and snapping tet by tet (tried) kept knots of 20-30
// inverted tets re-snapping each other for good (2-60 kJ), and snapped single tets of a body squeezed
// by 30 % to full height, which inverted their squeezed neighbours in turn (a chain reaction to 2.8 MJ).
// The targets keep the region's linear momentum (sum m_i (x_i* - c) = 0) and exert no torque about c
// (R A^T is symmetric).
//
// When. On a tangle (kRepairTangledFraction of the body's tets inverted at once) once no other body and
// no collider has touched the body for kRepairFreeSubsteps, and on any inverted tet once none has for
// kRepairAnyFreeSubsteps: its neighbours in a pile flatten
// a few tets of it, and snapped back against them every substep, bunnies there trembled for good. After the elastic passes and before the ground,
// press plate and colliders, so those still have
// the last word and the substep's start `prev` is left where the vertices really were (continuous
// collision detection traces prev -> x, the repair included).
//
// And without a kick: an inverted tet of an incompressible body is a state the model has no finite
// energy for, so there is no physical velocity to give its region. Its vertices leave the substep with
// the region's mass-weighted mean velocity (a perfectly inelastic, momentum-keeping collision of the
// region with itself; spin about c is dropped too). As velocity, the repair's jumps rethrew the body.
//
// Cost on the common path: one compare per four tets in the volume pass and a scan of one byte per tet
// per substep; the rest runs only in substeps that found an inverted tet.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sb {

// A body is repaired only after this many substeps with no other body or collider touching it (a resting
// contact with a neighbour comes and goes with the contact gap from substep to substep).
constexpr uint32_t kRepairFreeSubsteps = 30;

// A body is repaired only when at least this fraction of its tets is inverted in a substep: a tangle
// (a box pressed to 5 % inverts 20-45 % of its tets at once), not a few tets flattened by neighbours
// (0.3-2 % of a bunny's), which snapped back against what presses on them set a pile's bodies
// trembling (tests/bridge/scenes.test.mjs)...
constexpr float kRepairTangledFraction = 0.01f;

// ...unless no other body or collider has touched it for this many substeps (0.5 s at the default 10):
// then any inverted tet is repaired. A body that landed alone keeps a few tets folded flat against the
// ground for good otherwise (the bunny at the page's defaults: 11-12 of 5,538 from 4 s to 10 s; with
// this, none from 2 s), while in a pile every body is touched far more often than that.
constexpr uint32_t kRepairAnyFreeSubsteps = 300;

// Only bodies whose volume terms are this stiff or stiffer (compliance in m^5/N; 0, incompressible, is
// the page's default): inverted tets of a body with soft or no volume terms (the article's "edges
// only" box, compliance 10) are a state its model allows, and they must collapse as it says.
constexpr float kRepairMaxVolumeCompliance = 1e-4f;

class InvertedTetRepair {
 public:
  // Sized for a body of vertex_count vertices and tet_count tets (allocates; never in the step loop).
  void resize(uint32_t vertex_count, uint32_t tet_count);
  // One byte per tet, set to 1 by the volume pass (VolumePass::inverted) for each tet it finds
  // inverted; cleared by repair().
  uint8_t* flags() { return flags_.data(); }
  const uint8_t* flags() const { return flags_.data(); }

  // Puts each region of flagged tets on its rigidly placed rest shape (see above). pos, rest: xyz per
  // vertex (m); mass (kg) and inv_mass (1/kg, 0 = immovable) per vertex; tets: 4 ids each, in the order
  // the flags are. A region with an immovable vertex is placed by its immovable vertices alone, which
  // keep their places. Returns the number of flagged tets (0: nothing done).
  uint32_t repair(float* pos, const float* rest, const float* mass, const float* inv_mass, const uint32_t* tets);
  // How many tets the volume pass flagged (a scan of one byte per tet).
  uint32_t flagged() const;
  // Clears the flags the volume pass set, for a substep that does not repair.
  void forget() { std::fill(flags_.begin(), flags_.end(), uint8_t(0)); }
  // Vertices of the last repair's regions that moved, for the ground clamp after it (sorted).
  const std::vector<uint32_t>& members() const { return members_; }
  // After the substep's velocities: every movable vertex of the last repair's regions leaves with its
  // region's mass-weighted mean velocity (0 for a region held by an immovable vertex). Then forgets
  // the regions.
  void settle_velocities(float* vel, const float* mass, const float* inv_mass);

 private:
  uint32_t root(uint32_t v);
  std::vector<uint8_t> flags_;       // per tet
  std::vector<uint32_t> parent_;     // per vertex: union-find of the regions
  std::vector<uint32_t> region_of_;  // per vertex: its region's index, or kNone
  std::vector<uint32_t> members_;    // vertices of all regions, in vertex order
  std::vector<uint32_t> region_;     // per member: its region
  std::vector<uint8_t> anchored_;    // per region: holds an immovable vertex
  static constexpr size_t kPerRegion = 16;
  std::vector<double> work_;         // kPerRegion per region: sums and the rotation
  uint32_t regions_ = 0;
  uint32_t tet_count_ = 0;
};

}  // namespace sb
