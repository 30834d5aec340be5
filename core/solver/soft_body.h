// A tetrahedral soft body: particles, constraints, and the solvers that advance them: XPBD and PBD
// (position-based, the substep loop here) or a force-based integrator (integrators.h) on the same model.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "contact/collider.h"
#include "contact/collider_candidates.h"
#include "materials/neo_hookean.h"
#include "materials/neo_hookean_xpbd.h"
#include "materials/plasticity.h"
#include "solver/integrators.h"
#include "solver/parallel_batches.h"
#include "solver/inverted_tets.h"
#include "solver/static_solver.h"
#include "solver/vbd.h"
#include "solver/xpbd_partition.h"
#include "meshing/skinning.h"
#include "shapes/cloth_mesh.h"
#include "shapes/tet_mesh.h"
#include "solver/cloth_aero.h"
#include "solver/cloth_attachments.h"
#include "solver/cloth_constraints.h"
#include "solver/convergence.h"
#include "math/vec3.h"

namespace sb {

// The elastic model of a body's tets. Simple: a spring per edge and a volume term per tet, each with
// its own compliance (per constraint: the body's stiffness depends on its mesh). NeoHookean: stable
// Neo-Hookean in pascals (materials/neo_hookean.h): the same E and nu give the same body at any
// resolution. Bodies without tets (ropes, jellies, pressure balls) are always Simple.
enum class Material : int32_t { Simple = 0, NeoHookean = 1 };

// Material and contact parameters of one body. Defaults are what a new body gets.
struct BodyParams {
  Material material = Material::Simple;
  float youngs_modulus = 1e5f;     // Pa, NeoHookean only (soft silicone)
  float poisson_ratio = 0.45f;     // NeoHookean only, [0, 0.5)
  int32_t iterations = 1;          // XPBD/PBD Gauss-Seidel passes per substep (with no stiffness_target)
  // Convergence by target (convergence.h), XPBD with the Neo-Hookean material and VBD: passes or
  // sweeps run until the substep's stiffness reached is at least stiffness_target (a fraction, 0..1)
  // or max_iterations of them ran (the budget). 0 = no target: `iterations` passes, as before.
  float stiffness_target = 0.0f;
  int32_t max_iterations = 16;
  // XPBD with Neo-Hookean under a stiffness target, off the ground: start each substep from the last
  // one's multipliers when it met its target (soft_body_position_based.cpp; measured in the commit).
  bool warm_start = true;
  float edge_compliance = 0.0f;    // m/N, alpha = 1/k of each edge spring; 0 = inextensible
  float volume_compliance = 0.0f;  // m^5/N, alpha of C = 6(V - V0) per tet (C in m^3); 0 = incompressible
  float density = 1000.0f;         // kg/m^3; vertex mass = sum over its tets of density * V0 / 4
  float damping = 0.0f;            // 1/s; velocities decay as exp(-damping * t), whatever the substeps
  float restitution = 0.2f;        // ground bounce: normal speed after / before, 0..1
  float friction = 0.5f;           // Coulomb coefficient against the ground
  float grab_compliance = 0.0f;    // m/N; 0 = the grabbed particles follow the pointer kinematically
  float grab_radius = 0.0f;        // m; vertices this close to the picked one are held with it
  float spring_damping = 0.0f;     // N s/m, c of f = -c (dl/dt) along each edge (XPBD: constraint damping, Neo-Hookean: EdgeDashpotPass; VBD: vbd.h)
  float pbd_stiffness = 1.0f;      // PBD only: fraction of each correction applied, 0..1 (per iteration!)
  float pressure = 0.0f;           // nRT of a gas inside the surface, J (p = nRT / V); 0 = none
  // Plasticity (materials/plasticity.h), bodies with tets: past this equivalent strain a tet's rest
  // shape flows toward its shape at creep_rate (1/s; 0 = elastic, the default).
  float plastic_yield = 0.1f;      // equivalent Green strain, dimensionless
  float plastic_creep = 0.0f;      // 1/s
  // Cloth bodies only (cloth_constraints.h; their edge_compliance is the sheet's in-plane compliance
  // 1/Y, m/N, spread over the edges by triangle area, and `density` is unused).
  float areal_density = 0.2f;      // kg/m^2; vertex mass = this x a third of its triangles' area
  float bending_stiffness = 1e-5f; // N m, D of U = 1/2 D kappa^2 per m^2 (0 = no bending resistance)
  float thickness = 0.002f;        // m; the sheet keeps half of it from the ground
  // Long-range attachments (cloth_attachments.h): 0 = off; else no free vertex gets farther from its
  // nearest pin than this x its rest distance along the sheet (1 = not at all; 1.1 = 10 % slack).
  float long_range_stretch = 0.0f; // dimensionless
  // Wind and drag on cloth (cloth_aero.h): 0 = none (the defaults). A flat plate face-on: C_d ~ 1.2.
  float drag_coefficient = 0.0f;   // C_d, dimensionless
  float lift_coefficient = 0.0f;   // C_l, dimensionless, >= 0 (the lift's side is the flow's, cloth_aero.h)
  // Tearing (cloth_tearing.cpp): an edge stretched past this strain (l - l0) / l0 breaks at the end
  // of the frame and the sheet cracks across it. 0 = never (the default).
  float tear_strain = 0.0f;        // dimensionless
  // Node-smoothed strain against bending locking (strain_smoothing.h): the share a of the Neo-Hookean
  // energy taken by the particles' smoothing domains, [0, 1]; 0 = plain linear tets. The static
  // solver and the force-based integrators have it; XPBD, VBD and PBD do not.
  float strain_smoothing = 0.0f;   // dimensionless
};

// How a body is advanced. XPBD and PBD run the position-based substep loop; the others integrate
// the force model of spring_forces.h with stiffness k = 1/compliance, so all simulate the same physics.
enum class Solver : int32_t {
  Xpbd = 0,
  Pbd = 1,
  ExplicitEuler = 2,
  SemiImplicitEuler = 3,
  Verlet = 4,
  Midpoint = 5,
  Heun = 6,
  Rk4 = 7,
  ImplicitEuler = 8,
  // Vertex Block Descent (vbd.h): position based like XPBD (same substep loop, contacts and grab), but
  // minimising the force model's energy vertex by vertex, `iterations` sweeps per substep.
  Vbd = 9,
};
constexpr int32_t kSolverCount = 10;
// VBD's Chebyshev acceleration: the estimated spectral radius of one sweep (0 = no acceleration).
constexpr float kVbdChebyshevRho = 0.9f;
// VBD sweeps below this count run as symmetric forward-backward pairs (soft_body.cpp vbd_solve).
constexpr int32_t kVbdForwardSweeps = 8;
// VBD's ground friction (vbd.h): sliding slower than this over a substep is its smoothed, sticking
// part, m/s. Small enough that a resting body creeps negligibly (at most this under a push near
// mu lambda), large enough that eps = speed h stays far above float rounding of the positions.
constexpr float kVbdStickSpeed = 1e-3f;
// VBD's grab: the hand (the held vertices' target) moves toward the pointer at most this fast, m/s.
// A kinematic hand puts the energy of its jump into the tets it stretches before any sweep runs; a
// pointer target jumping 21 m in a frame put 10^7-10^8 J into a 64 kg rubber bar (test_vbd_stable.cpp).
constexpr float kVbdGrabSpeed = 10.0f;
inline bool is_force_based(Solver s) { return s != Solver::Xpbd && s != Solver::Pbd && s != Solver::Vbd; }
// Solvers that integrate the energy with k = 1/compliance, so the simple model needs compliances > 0.
inline bool needs_force_form(Solver s) { return is_force_based(s) || s == Solver::Vbd; }

class WorkerPool;
// The smallest left-over colour the XPBD passes split across threads (StepSettings::split_min; a
// body's vertex-group units are not split, xpbd_partition.h): a colour of n constraints becomes
// n / split_min chunks. Not tuned (docs, benchmark: threads).
constexpr uint32_t kDefaultSplitMin = 256;

// Per-frame settings that come from the world.
struct StepSettings {
  float gravity[3] = {0.0f, -9.81f, 0.0f};  // m/s^2
  int substeps = 10;
  bool ground = true;  // the plane y = 0
  // The air (cloth_aero.h): cloth with a drag or lift coefficient feels it. World::step turns the
  // gust into the wind of each frame: wind x (1 + wind_gust sin(2 pi t / wind_gust_period)).
  float wind[3] = {0.0f, 0.0f, 0.0f};  // m/s
  float wind_gust = 0.0f;              // dimensionless amplitude, 0..1
  float wind_gust_period = 2.0f;       // s
  float air_density = 1.2f;            // kg/m^3
  // Sleep (sleep.h): a body quiet (root-mean-square speed under sleep_speed) for sleep_seconds, in an
  // island of bodies all so, is not stepped until something wakes it. sleep_speed 0: never.
  float sleep_speed = 0.0f;    // m/s
  float sleep_seconds = 0.5f;  // s
  // The obstacles bodies collide with during this step (the world's live colliders, each sweeping
  // from its previous pose to its pose over the step); set by World::step.
  const Collider* colliders = nullptr;
  uint32_t collider_count = 0;
  // Threads (worker_pool.h): the world's pool, set by World::step (null: one thread). The XPBD/PBD
  // passes run their units across its threads and split each left-over colour of at least
  // split_min constraints; smaller colours run on one thread, where a hand-over would cost more
  // than the split gains.
  WorkerPool* pool = nullptr;
  uint32_t split_min = kDefaultSplitMin;
  // Read when a body is made (World::add_body), not per frame: the smallest vertex group of its
  // XPBD solve order (xpbd_partition.h). Tests lower it to cut small bodies into groups.
  uint32_t group_min_vertices = kDefaultGroupMinVertices;
};

struct BodyStats {
  double volume_ratio = 1.0;    // current / rest volume of all tets
  double kinetic_energy = 0.0;  // J
  double mass = 0.0;            // kg (pinned vertices included)
  double min_y = 0.0;           // m
  double max_edge_strain = 0.0; // max |l - l0| / l0 over edges
  double center[3] = {0, 0, 0};   // centre of mass, m
  double momentum[3] = {0, 0, 0}; // kg m/s
  double elastic_energy = 0.0;    // J, springs + volume terms at k = 1/compliance (0 for compliance 0)
  double potential_energy = 0.0;  // J, gravitational, relative to y = 0
  // XPBD: the largest |C + alpha~ lambda| of the last substep, over the constraint's scale (edges: l0,
  // volumes: 6 V0; Neo-Hookean: |P(F) + Lambda / (h^2 V0)| / (lambda + mu), neo_hookean_xpbd.h), read at the frame's end: how far the passes left the
  // implicit step from solved (0 = converged; ~1e-3 and above means the body is visibly softer than
  // its material). VBD: the last sweep's relative force imbalance, sum |net force| / sum of the
  // magnitudes of the forces acting (vbd.h): ~3e-3 is float rounding's floor on a stiff beam, 1e-2
  // and above means far from solved. 0 for the other solvers.
  double residual = 0.0;
  // XPBD with Neo-Hookean: the stiffness number of the last substep (neo_hookean_xpbd.h; supported up
  // to kXpbdNeoHookeanMaxStiffness). 0 otherwise.
  double stiffness_number = 0.0;
  bool finite = true;           // false once the state diverged (non-finite or blown up; the body is then frozen)
  bool asleep = false;          // resting in an island at rest: not stepped until something wakes it (sleep.h)
  uint32_t inverted_tets = 0;   // tets whose signed volume is <= 0 now (turned inside out or flat)
  uint32_t contacts = 0;        // particles in contact (ground, colliders, bodies) in the last substep
  double max_penetration = 0.0; // m, deepest contact corrected during the last step
};

// A body whose bounding box has grown past this many times its rest shape's diagonal has blown up
// (a spike to 1e18 m is still finite): no material here stretches a body 100-fold, and thrown or
// squashed bodies stay within a few times their size.
constexpr float kBlownUpExtent = 100.0f;

class SoftBody {
 public:
  // `mesh` must pass check_tet_mesh. Allocates everything the step loop will ever need.
  // group_min_vertices: see StepSettings (the solve order depends on the mesh and it only).
  SoftBody(const TetMesh& mesh, const BodyParams& params, uint32_t group_min_vertices = kDefaultGroupMinVertices);
  // A cloth body (cloth_constraints.h) from a mesh that passes check_cloth_mesh: its triangles are
  // the surface, a spring per edge stretches, the hinges bend. It runs under every solver but PBD
  // (cloth_forces.h for the force-based ones and VBD), and touches no other body by default
  // (collision mask 0: contact between bodies assumes closed surfaces).
  SoftBody(const ClothMesh& mesh, const BodyParams& params, uint32_t group_min_vertices = kDefaultGroupMinVertices);
  bool is_cloth() const { return !cloth_.empty(); }
  // The energy and forces the force-based solvers integrate and VBD minimises (spring_forces.h;
  // cloth: its bending too, cloth_forces.h), at gravity in m/s^2.
  ForceModel force_model(const float gravity[3]) const;
  const ClothModel& cloth() const { return cloth_; }
  // Cloth with long_range_stretch > 0: each free vertex's nearest pin and its rest distance (built at
  // the start of the first frame after the pins change; empty before).
  const LongRangeAttachments& long_range_attachments() const { return lra_; }
  // Cloth: unit area-weighted vertex normals of the triangles, kept current with the positions
  // (after each step, reset, squash). Null for other bodies.
  const float* normals() const { return normals_.empty() ? nullptr : normals_.data(); }
  // Tearing (cloth_tearing.cpp): counts the changes of the vertices and triangles. Each one rebuilds
  // the body, so its buffers (positions, triangles, normals, edges...) move and grow: zero-copy
  // readers compare this with what they saw and take the pointers and counts again.
  uint32_t topology_version() const { return topology_version_; }
  uint32_t torn_edges() const { return torn_edges_; }  // edges broken since creation (reset mends them)
  // The most vertices tearing may grow the body to: twice its vertex count at creation.
  uint32_t tear_vertex_capacity() const { return 2 * creation_vertices_; }

  // Advances one frame of dt seconds in settings.substeps XPBD substeps. No allocation.
  // Returns false if the state diverged in this call (non-finite, or blown up: see kBlownUpExtent):
  // the body is then restored to its last sane shape (the end of the last step that was finite,
  // not blown up and had no inverted tet), its velocities zeroed, and frozen until reset().
  bool step(float dt, const StepSettings& settings);

  // step()'s phases, for a world that solves contacts between bodies inside each substep:
  // frame_begin; per substep: substep_solve (predict, constraints, ground, colliders), the world's
  // body contacts, substep_finish (velocities); then frame_end (the divergence check; its result is
  // step()'s). step() is exactly these calls with nothing in between.
  void frame_begin();
  void substep_solve(float h, const StepSettings& s, int sub);
  // substep_solve in three calls, so the world can solve body contacts between the passes
  // (contact inside the solve): substep_begin (predict), substep_passes for passes [first,
  // first + count) of the body's `iterations` (VBD: all its sweeps at first == 0; nothing past its
  // count), substep_end (ground, grab, plate, colliders).
  void substep_begin(float h, const StepSettings& s, int sub);
  void substep_passes(int first, int count);
  void substep_end();
  // The most passes substep_passes runs per substep (1 for the solvers it does not split), and
  // whether this substep's are over (its budget spent or its stiffness target met).
  int passes_per_substep() const;
  bool substep_passes_done() const;
  void substep_finish(float h, const StepSettings& s);
  // The ground again, after the world's body contacts pushed particles (a body pressed down by another
  // must not end the substep below y = 0).
  void resolve_ground(const StepSettings& s);
  bool frame_end();
  // Collider contact of the last frame: candidates, fallbacks and the wall time of its phases.
  const ColliderCandidateStats& collider_stats() const { return collider_candidates_.stats(); }
  // VBD's line search and first guesses, counted since the body was made (vbd.h).
  const VbdStepStats& vbd_step_stats() const { return vbd_stats_; }
  bool position_based() const { return !is_force_based(solver_); }
  bool neo_hookean() const { return params_.material == Material::NeoHookean && tet_count() > 0; }
  // XPBD with Neo-Hookean (neo_hookean_xpbd.h): the stiffness number of a substep of h seconds with the
  // current material, masses and rest shapes (0 unless the material is Neo-Hookean), and the fewest
  // substeps of a frame of dt seconds that keep it within kXpbdNeoHookeanMaxStiffness.
  double xpbd_stiffness_number(float h) const { return neo_hookean() ? stiffness_per_h2_ * double(h) * h : 0.0; }
  int32_t xpbd_min_substeps(float dt) const;

  // Contact between bodies (contact/body_contact.h): bodies touch when (group_a & mask_b) and
  // (group_b & mask_a) are both nonzero. Default group 1, mask all: everything touches; mask 0 = none.
  void set_collision_filter(uint32_t group, uint32_t mask) {
    wake();
    collision_group_ = group;
    collision_mask_ = mask;
  }
  uint32_t collision_group() const { return collision_group_; }
  // Self-collision (contact/body_contact.h): off by default (it costs a hash of the body's own
  // surface every frame). thickness_m: the gap the surface keeps from itself, m.
  void set_self_collision(bool on, float thickness_m) {
    wake();
    self_collision_ = on;
    self_thickness_ = thickness_m;
  }
  bool self_collision() const { return self_collision_; }
  float self_thickness() const { return self_thickness_; }
  uint32_t collision_mask() const { return collision_mask_; }
  const uint32_t* surface_vertices() const { return surface_vertices_.data(); }  // sorted, unique
  uint32_t surface_vertex_count() const { return uint32_t(surface_vertices_.size()); }
  const float* previous_positions() const { return prev_.data(); }  // at the current substep's start
  // Vertex v belongs to a tet the last substep's passes left inverted (XPBD, simple model).
  bool in_inverted_tet(uint32_t v) const { return v < in_inverted_.size() && in_inverted_[v] != 0; }
  // Body contact's swept test: vertex v's count of recent substeps with a crossing (body_contact_sweep.cpp).
  uint16_t& sweep_streak(uint32_t v) { return sweep_streak_[v]; }
  const float* inverse_masses() const { return inv_mass_.data(); }   // 1/kg, 0 = immovable
  // The world reports contacts it solved for this body in the current substep.
  void add_contacts(uint32_t count, float max_depth) {
    substep_contacts_ += count;
    if (max_depth > max_penetration_) max_penetration_ = max_depth;
  }
  // The world says another body pressed on this one in the current substep: the repair of inverted
  // tets then leaves it alone in the next (inverted_tets.h, "When").
  void mark_pressed_by_body() { pressed_by_other_ = true; }

  void reset();                              // back to the creation state; releases any grab
  // Switches the solver (allocating its buffers here, not in step). Force-based solvers need finite
  // stiffness: returns false, changing nothing, if edge compliance is 0 or (with tets) volume compliance is.
  bool set_solver(Solver solver);
  Solver solver() const { return solver_; }
  const CgReport& last_cg() const { return last_cg_; }  // implicit Euler's last linear solve
  // The last frame's passes against the stiffness target (convergence.h).
  const ConvergenceReport& convergence() const { return convergence_; }
  // Convergence by target applies to this body now: XPBD with the Neo-Hookean material, or VBD.
  bool target_supported() const { return solver_ == Solver::Vbd || (solver_ == Solver::Xpbd && neo_hookean()); }
  // Density changes recompute masses. Returns false, changing nothing, if a force-based solver is
  // active and a compliance would become 0 (infinite stiffness has no force form).
  bool set_params(const BodyParams& params);
  const BodyParams& params() const { return params_; }
  void set_pinned(uint32_t vertex, bool pinned);
  // Moves the body to its static equilibrium under `gravity` (m/s^2) with its pinned vertices held
  // (static_solver.h: Newton on the same energy every solver uses, k = 1/compliance for the simple
  // model), and stops it (velocities 0). Whatever the current solver; contacts play no part. The
  // simple model needs compliances > 0 like the force-based solvers; a pressure body is refused.
  // Unless the status is Converged nothing changes.
  StaticReport settle_static(const float gravity[3], const StaticSettings& settings = StaticSettings{});
  // Vertex groups: the listed vertices' mass is multiplied by mass_scale and the stiffness of every
  // edge and tet they belong to by stiffness_scale (a constraint takes the mean over its vertices,
  // so a painted region stiffens smoothly into its surroundings). Sets, not multiplies: 1 and 1 undo
  // it. Kept across reset, like pins. Callers check the indices and ranges (the C API does).
  void set_vertex_scales(const uint32_t* vertices, uint32_t count, float mass_scale, float stiffness_scale);
  // The same with a mass and a stiffness scale per listed vertex (puts back what set_vertex_scales replaced).
  void set_vertex_scales_each(const uint32_t* vertices, uint32_t count, const float* mass_scales,
                              const float* stiffness_scales);
  float vertex_mass_scale(uint32_t vertex) const { return vertex_mass_scale_[vertex]; }
  float vertex_stiffness_scale(uint32_t vertex) const { return vertex_stiffness_scale_[vertex]; }
  bool pinned(uint32_t vertex) const { return pinned_[vertex] != 0; }
  // Presses to factor x height, widening to keep the volume; stops motion. Returns false, changing
  // nothing, when the result would not be finite (positions overwritten through the shared buffer
  // with NaN or huge values): it becomes the shape a divergence falls back to, so it must be finite.
  bool squash(float factor);
  // squash(factor), then holds the body under a frictionless plate (a ceiling y <= plate height,
  // solved every substep like the ground) that starts at the squashed top and rises at constant speed
  // to the top before the squash over release_seconds of simulated time, then disappears. So the
  // stored elastic energy is handed back slowly instead of throwing the body up. release_seconds = 0
  // is squash. reset, squash, a new press and grab_begin remove the plate.
  bool press(float factor, float release_seconds);  // false (nothing changed) when squash refuses
  bool plate_active() const { return plate_.active; }
  float plate_height() const { return plate_.height; }  // m, while plate_active()

  // Grabbing: one vertex (plus those within grab_radius of it, keeping their offsets) is driven to a
  // target that moves once per frame; the step interpolates the target across its substeps.
  void grab_begin(uint32_t vertex, const float target[3]);
  void grab_move(const float target[3]);
  void grab_end(const float release_velocity[3]);  // m/s, the pointer's velocity: lets you throw
  int32_t grabbed_vertex() const { return grab_vertex_; }
  size_t grabbed_count() const { return grab_set_.size(); }

  // A render surface that follows the tets (skinning.h), bound at the creation shape and moved by
  // every step, reset and squash. Returns how many of its vertices lay outside every tet.
  uint32_t set_visual(const float* xyz, uint32_t count, const uint32_t* triangles, uint32_t triangle_count);
  VisualSkin& visual() { return visual_; }

  uint32_t nearest_vertex(const float point[3]) const;
  BodyStats stats(const float gravity[3]) const;  // potential energy measured in this gravity
  BodyStats stats() const {
    const float none[3] = {0, 0, 0};
    return stats(none);
  }
  bool diverged() const { return diverged_; }
  // Sleep (sleep.h): a body at rest is not stepped while its whole island rests; like a diverged body
  // it is then an immovable obstacle to others. Every call that changes the body wakes it.
  bool asleep() const { return asleep_; }
  bool frozen() const { return diverged_ || asleep_; }  // not stepped this frame: others meet it immovable
  void wake() {
    asleep_ = false;
    quiet_seconds_ = 0.0f;
  }
  void fall_asleep();  // velocities to 0; the substep's start where it is
  // After a frame: seconds this body has been quiet (root-mean-square speed below speed m/s, nothing
  // grabbing or pressing it), 0 once it is not.
  void note_quiet(float dt, float speed);
  float quiet_seconds() const { return quiet_seconds_; }

  uint32_t vertex_count() const { return uint32_t(inv_mass_.size()); }
  uint32_t tet_count() const { return uint32_t(tet_rest6_.size()); }
  uint32_t edge_count() const { return uint32_t(edge_rest_.size()); }
  uint32_t surface_triangle_count() const { return uint32_t(surface_.size() / 3); }
  float* positions() { return pos_.data(); }
  const float* positions() const { return pos_.data(); }
  float* velocities() { return vel_.data(); }  // m/s; writable for tests and tools
  const float* velocities() const { return vel_.data(); }
  const uint32_t* surface_triangles() const { return surface_.data(); }
  const uint32_t* tets() const { return tet_ids_.data(); }  // in solve order
  const float* rest_positions() const { return rest_pos_.data(); }  // the creation shape, xyz
  const uint32_t* edges() const { return edge_ids_.data(); }
  const float* edge_rest_lengths() const { return edge_rest_.data(); }  // m, in edges() order (plasticity changes them)
  const float* tet_rest_volumes6() const { return tet_rest6_.data(); }  // 6 V0 per tet, m^3, in tets() order
  // B per tet, 9 floats, in tets() order (computed on first use: see tet_inverse_rest_).
  const float* inverse_rest_shapes() {
    ensure_inverse_rest();
    return tet_inverse_rest_.data();
  }
  uint32_t plastic_tets_last_frame() const { return last_plastic_tets_; }
  // The most colours of any unit of the solve order (xpbd_partition.h), and its vertex groups.
  size_t edge_colors() const { return edge_plan_.most_colours; }
  size_t tet_colors() const { return tet_plan_.most_colours; }
  uint32_t vertex_groups() const { return uint32_t(vertex_bounds_.size()) - 1; }
  // The solve order of the edges (kind 0) or tets (kind 1) cut into batches for a many-core device
  // (parallel_batches.h), built on first call (allocates: never from the step loop).
  const ParallelBatches& parallel_batches(int kind);

 private:
  void compute_masses();
  void shape_changed();  // the visual skin and the cloth normals follow the positions
  // Tearing (cloth_tearing.cpp), at a verified frame end: breaks up to kMaxTearsPerFrame of the most
  // overstretched edges and rebuilds the body on the torn mesh, keeping its state. Allocates, only
  // in a frame where an edge breaks.
  void tear_overstretched();
  // The state of a body being replaced by `next` (the same body, torn or mended: next's vertex i
  // is a copy of this one's source[i]) handed over, then next moved into this.
  void become(SoftBody&& next, const std::vector<uint32_t>& source);
  // reset() of a torn body: back to the mesh it was made from.
  void mend();
  float ground_y() const { return is_cloth() ? 0.5f * params_.thickness : 0.0f; }  // m, where particles rest
  // The colliders this body's particles meet: the world's, or for cloth copies grown by half its
  // thickness (cloth_body.cpp; padded_colliders_, sized at creation).
  const Collider* contact_colliders(const StepSettings& s);
  void plan_solve_order(const std::vector<uint32_t>& edges, const std::vector<uint32_t>& tets, uint32_t group_min_vertices);
  void pre_solve(float h, const float gravity[3], float damping_factor, float grab_t, bool ground);
  void solve_grab(float h, float grab_t);
  void post_solve(float h, bool ground, float rest_threshold);
  void apply_pressure(float h);
  double mechanical_energy(const float gravity[3]) const;  // kinetic + gravity + elastic, J
  void vbd_limit_energy(const float gravity[3]);
  void position_based_substep(float h, const StepSettings& s, int sub);
  void position_based_begin(float h, const StepSettings& s, int sub);
  void position_based_passes(int first, int count);
  void position_based_end();
  // The per-vertex passes of a substep fused into the XPBD job's copies (xpbd_schedule.h), run on
  // each vertex range by whichever thread packs or unpacks it: each vertex gets the same operations
  // in the same order as in the serial passes, so the bits do not change.
  struct VertexWork {
    SoftBody* body = nullptr;
    float h = 0.0f, damping_factor = 1.0f, rest_threshold = 0.0f;
    const float* gravity = nullptr;
    bool ground = false;
    bool velocities = false;  // post_solve too (the body steps alone: nothing comes between)
  };
  // A position-based substep between its begin, passes and end (position_based_begin).
  struct PositionBasedSubstep {
    const StepSettings* s = nullptr;
    int sub = 0;
    float h = 0.0f;                      // s
    float edge_alpha = 0.0f, volume_alpha = 0.0f;  // compliance / h^2
    float scale = 1.0f, gamma = 0.0f;
    bool pbd = false, fuse = false;
    VertexWork work;
    const Collider* colliders = nullptr;  // this substep's (contact_colliders: cloth's are padded)
    float nh_origin[3] = {0.0f, 0.0f, 0.0f};  // m: the Neo-Hookean passes' origin this substep
    // The substep's passes so far (they may come in several calls): how many, the stiffness reached
    // after the last measured one (-1: none), whether the target was met, whether they are over.
    int passes = 0;
    double reached = -1.0;
    bool met = false, finished = false;
    DeformationFrame frame;  // the Neo-Hookean measure's frame, from the prediction (convergence.h)
  };
  // Passes per substep: the budget under a stiffness target (Neo-Hookean XPBD), else `iterations`.
  int xpbd_budget() const;
  PositionBasedSubstep pb_;
  void predict(uint32_t begin, uint32_t end, float h, const float gravity[3], float damping_factor);
  void update_velocities(uint32_t begin, uint32_t end, float h, bool ground, float rest_threshold);
  static void fused_before(void* ctx, uint32_t unit, uint32_t begin, uint32_t end);
  static void fused_after(void* ctx, uint32_t unit, uint32_t begin, uint32_t end);
  void xpbd_solve(bool pbd, float edge_alpha, float volume_alpha, float scale, float gamma, bool last,
                  WorkerPool* pool, uint32_t split_min, VertexWork* work, bool ground, float gravity, int first, int count);
  void neo_hookean_planes_begin(bool ground, NeoHookeanPass* pass, const float origin[3]);
  void neo_hookean_planes_attach(bool ground, NeoHookeanPass* pass, const float origin[3]);
  void neo_hookean_planes_end();
  NeoHookeanPass neo_hookean_pass() const;
  void update_stiffness_number();
  void apply_vertex_scales();
  void vbd_solve(bool ground, float gravity);  // at the substep of last_inv_h2_; gravity |g|, m/s^2
  // soft_body_vbd.cpp: the sweeps (Chebyshev-accelerated or not), their safe start, and G at x_n.
  int vbd_sweeps(const VbdModel& m, bool accelerate, const DeformationFrame& frame, ForceBalance* balance, bool* met);
  void vbd_safe_start(const VbdModel& m, double g_start);
  double vbd_substep_start_potential(const VbdModel& m);
  void force_based_substep(float h, const StepSettings& s, int sub);
  void hold_on_planes(float h, bool ground);
  void hold_friction();
  void pass_origin(float origin[3]) const;
  Vec3 grab_target(float t) const;
  // The grab's target for the substep ending at t (of the frame) of h seconds: under VBD the hand,
  // moved toward grab_target(t) by at most kVbdGrabSpeed h; else grab_target(t).
  Vec3 grab_hand(float t, float h);
  void advance_plate(float h);
  void hold_frozen_shape();
  bool blown_up() const;
  uint32_t count_inverted_tets() const;
  void shape_rest_data();
  void ensure_inverse_rest();  // tet_inverse_rest_ sized and computed from the rest shape, once
  void restore_rest_shape();

  BodyParams params_;
  // Hot particle state, structure of arrays. pos_ is the buffer the renderer reads.
  std::vector<float> pos_, prev_, vel_;  // xyz per particle: m, m, m/s
  std::vector<float> scratch_force_;     // N per particle, for the pressure under XPBD/PBD
  // Collider contacts of the current substep, for the restitution in post_solve (collider.h).
  std::vector<float> contact_normal_, contact_surface_velocity_;  // xyz per particle; -, m/s
  std::vector<float> contact_restitution_;  // per particle; < 0: no collider contact this substep
  ColliderCandidates collider_candidates_;  // gathered at each frame's first substep (collider_candidates.h)
  std::vector<float> inv_mass_;          // 1/kg, 0 = immovable (pinned or held kinematically)
  InvertedTetRepair inverted_repair_;    // XPBD, simple model: tangles put back (inverted_tets.h)
  std::vector<uint8_t> in_inverted_;      // per vertex: 1 if in a tet the last substep left inverted
  std::vector<uint32_t> in_inverted_list_;  // the vertices marked there
  std::vector<uint16_t> sweep_streak_;    // per vertex: body contact's count of recent swept crossings
  bool pressed_by_other_ = false;  // another body or a collider touched this one in the last substep
  double vbd_energy_start_ = 0.0;  // J, mechanical_energy at the VBD substep's start
  uint32_t substeps_free_ = 0;     // substeps since another body or a collider last touched this one
  std::vector<float> packed_;            // XPBD scratch: x, y, z (m), 1/m (1/kg) per particle (xpbd_solve)
  // The XPBD passes' origin (pass_origin): the vertex nearest the rest shape's middle, the offset
  // from it to that middle and the rest shape's half extent, m.
  uint32_t origin_vertex_ = 0;
  float origin_offset_[3] = {0, 0, 0}, half_extent_[3] = {0, 0, 0};
  // Hot constraint data, in solve order (xpbd_partition.h).
  std::vector<uint32_t> edge_ids_;
  std::vector<float> edge_rest_;   // m
  std::vector<uint32_t> tet_ids_;
  std::vector<float> tet_rest6_;   // 6 V0, m^3
  // B = Dm^-1 per tet (9 floats, 1/m): the Neo-Hookean material and plastic flow. 36 bytes per tet, a
  // quarter of a large simple body's memory: empty until one of them (or inverse_rest_shapes) needs it.
  std::vector<float> tet_inverse_rest_;
  std::vector<float> tet_energy_volume_;  // V0 x the tet's stiffness scale per tet, m^3: Neo-Hookean's weight
  // Vertex groups: per-vertex multipliers of mass and stiffness (1 by default), and the per-constraint
  // stiffness multipliers they give (the mean over a constraint's vertices; empty while all are 1, so
  // the solvers keep their uniform-compliance path).
  std::vector<float> vertex_mass_scale_, vertex_stiffness_scale_;
  std::vector<float> edge_stiffness_scale_, tet_stiffness_scale_;
  NeoHookean neo_hookean_;               // from params_.youngs_modulus and poisson_ratio
  // XPBD multipliers of the current substep (zeroed at its start), in the constraints' order.
  std::vector<float> edge_lambda_, volume_lambda_, tet_lambda_;  // tet_lambda_: 9 per tet (neo_hookean_xpbd.h)
  float last_inv_h2_ = 0.0f;  // 1/h^2 of the last substep, 1/s^2 (for the residual)
  double stiffness_per_h2_ = 0.0;
  // XPBD with Neo-Hookean and several passes: the substep's prediction and a double sum per vertex
  // (neo_hookean_positions); sized when the material becomes Neo-Hookean.
  std::vector<float> nh_target_;
  std::vector<double> nh_sum_;  // Neo-Hookean's stiffness number per h^2, 1/s^2 (update_stiffness_number)
  // XPBD with Neo-Hookean: the positions relative to pass_origin the passes run on (m), and with spring
  // damping EdgeDashpotPass's x and moved (sized in update_stiffness_number).
  std::vector<double> dashpot_x_, dashpot_moved_;
  std::vector<float> nh_relative_;
  std::vector<float> nh_between_;  // the positions after the last of a substep's split pass calls, m
  // Neo-Hookean XPBD: the ground and the press plate inside the passes (NeoHookeanPass::plane), per
  // vertex: its plane state, what the substep's clamp onto the ground moved it (m), the impulses the
  // planes supplied in the passes (kg m; y, then x and z), and whether static friction held it on the
  // ground in the last substep. nh_planes_ says they are in use this substep.
  std::vector<int8_t> nh_plane_;
  std::vector<uint8_t> nh_stuck_;
  std::vector<float> nh_plane_push_, nh_plane_impulse_, nh_plane_tangent_;
  bool nh_planes_ = false;
  VertexAdjacency adjacency_;    // VBD: the tets and edges of each vertex (built when VBD is chosen)
  HingeAdjacency hinge_adjacency_;  // VBD on cloth: the hinges of each vertex (built when VBD is chosen)
  std::vector<float> vbd_target_;  // VBD: the inertial target y of the substep, m
  std::vector<uint8_t> vbd_supported_;  // VBD: vertices on the ground or a collider (left out of the residual)
  std::vector<float> vbd_support_;      // VBD: the ground's or plate's force on each vertex in the last sweep, N (vbd.h)
  std::vector<float> vbd_friction_;     // VBD: mu times the ground's push of the last substep, on the vertices it holds now, N
  std::vector<float> vbd_old_, vbd_older_;  // VBD: the two previous iterates (Chebyshev acceleration), m
  std::vector<float> vbd_start_, vbd_previous_;  // VBD: the substep's start and prev_ in world coordinates / relative to the origin, m
  float vbd_imbalance_ = 0.0f;     // VBD: relative force imbalance of the last sweep (the residual)
  VbdStepStats vbd_stats_;         // VBD: the line search's counts since the body was made (vbd.h)
  float nh_warm_h2_ = 0.0f;  // s^2: h^2 of the substep whose multipliers tet_lambda_ holds for a warm start (0: none)
  ConvergenceReport convergence_;       // the last frame's (convergence.h)
  ConvergenceReport frame_convergence_; // the current frame's, so far
  // A substep's passes are done: passes run, the stiffness they reached (< 0: not measured), and
  // whether a target was set and met.
  void count_passes(int passes, double stiffness, bool target, bool met);
  PlasticState plastic_;           // built when plasticity is first switched on (empty before)
  float frame_seconds_ = 0.0f;     // s simulated in the current frame (for the plastic flow)
  uint32_t last_plastic_tets_ = 0; // tets whose rest shape flowed at the end of the last frame
  // Cold data.
  std::vector<float> rest_pos_, last_good_pos_, mass_, point_volume_;  // kg, m^3
  std::vector<uint8_t> pinned_, grabbed_;  // per vertex flags
  std::vector<uint32_t> surface_;
  ClothModel cloth_;            // empty unless a cloth body
  LongRangeAttachments lra_;    // cloth with long_range_stretch > 0: rebuilt at a frame's start after pins change
  bool lra_dirty_ = true;
  std::vector<float> aero_dv_;  // cloth: scratch, 3 per vertex (cloth_aero.h)
  bool aero_active() const { return is_cloth() && (params_.drag_coefficient > 0.0f || params_.lift_coefficient != 0.0f); }
  bool lra_active() const { return is_cloth() && params_.long_range_stretch > 0.0f && !lra_.empty(); }
  std::vector<float> cloth_edge_weight_;  // cloth: sum_t A_t / l^2 per edge (stretch multiplier)
  std::vector<float> normals_;  // cloth: xyz per vertex, unit
  std::vector<Collider> padded_colliders_;  // cloth: the world's colliders grown by half the thickness
  // The solve order's units and phases (xpbd_partition.h; their `order` is dropped once applied).
  PassPlan edge_plan_, tet_plan_;
  ParallelBatches edge_batches_, tet_batches_;  // empty until parallel_batches() is called
  std::vector<uint32_t> vertex_bounds_;  // the vertex groups: their first vertices, then the count
  std::vector<uint32_t> copy_bounds_;    // the vertex ranges the xyzw copies run in, as units
  uint32_t most_units_ = 1;     // of any phase: 1 (and no colour split) = nothing for a second thread
  uint32_t largest_split_ = 0;  // constraints of the largest one-colour phase (split when >= split_min)
  // The ground's deepest correction (m) and contacts per copy range, when it runs in the XPBD job.
  std::vector<float> unit_depth_;
  std::vector<uint32_t> unit_touching_;
  bool stepping_alone_ = false;   // inside step(): a substep's finish follows its solve directly
  bool velocities_done_ = false;  // this substep's post_solve ran in the XPBD job
  bool split_substep_ = false;    // between substep_begin and substep_end of a split position-based substep
  std::vector<uint32_t> surface_vertices_;   // vertices of surface_, sorted
  uint32_t collision_group_ = 1, collision_mask_ = 0xffffffffu;
  bool self_collision_ = false;
  float self_thickness_ = 0.005f;  // m
  uint32_t substep_contacts_ = 0, last_contacts_ = 0;  // particles in contact: this substep, the last one
  float max_penetration_ = 0.0f;             // m, over the current step
  double rest_volume_ = 0.0;  // m^3
  float rest_diagonal_ = 0.0f;  // m, of the creation shape's bounding box (the blown-up test)
  bool diverged_ = false;
  bool asleep_ = false;
  float quiet_seconds_ = 0.0f;  // s, see note_quiet
  // Tearing (cloth_tearing.cpp): the creation arguments a rebuild repeats, the mesh to mend to
  // (kept from the first tear), and the counts.
  uint32_t group_min_vertices_ = 0, creation_vertices_ = 0;
  std::vector<float> untorn_positions_;
  std::vector<uint32_t> untorn_triangles_;
  uint32_t topology_version_ = 0, torn_edges_ = 0;
  Solver solver_ = Solver::Xpbd;
  IntegratorScratch scratch_;
  // Strain smoothing's workspace (kSmoothingWork doubles per particle; sized in set_params, written
  // by every force evaluation, including const ones such as the energy: hence mutable).
  mutable std::vector<double> smoothing_work_;
  CgReport last_cg_;
  int32_t grab_vertex_ = -1;
  float grab_from_[3] = {0, 0, 0}, grab_to_[3] = {0, 0, 0};  // target at frame start and end, m
  Vec3 grab_hand_ = {0, 0, 0};      // VBD: where the hand is, following the target at kVbdGrabSpeed, m
  Vec3 grab_substep_target_ = {0, 0, 0};  // this substep's grab target (grab_hand), m
  std::vector<uint32_t> grab_set_;  // held vertices (sized at grab_begin, never in the step loop)
  std::vector<Vec3> grab_offset_;   // their offsets from the picked vertex at grab time, m
  std::vector<float> grab_saved_;   // VBD: their positions and velocities while the hand's energy is read (6 each)
  VisualSkin visual_;               // empty unless set_visual was called
  struct Plate {
    bool active = false;
    float from = 0.0f, to = 0.0f;  // m: heights at the start and the end of the release
    float height = 0.0f;           // m, now (updated at the start of each substep)
    float speed = 0.0f;            // m/s, (to - from) / duration
    double elapsed = 0.0, duration = 0.0;  // s of simulated time
  } plate_;
};

}  // namespace sb
