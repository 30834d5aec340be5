// Rigid obstacles a soft body collides with (issue 12, first part): a shape (plane, sphere, oriented
// box, capsule) at a pose that may move between frames (kinematic), with Coulomb friction. This
// file holds the geometry (signed distance and normal of each shape) and the contact rules: at
// position level for the XPBD/PBD substep (beside the ground), at velocity level for the
// force-based integrators. The world keeps the colliders (world.h); the C API and the page come next.
//
// Contact rule (Macklin et al. 2014, "Unified particle physics", sec. 6.1, as for the ground): a
// particle found inside a collider at the end of a substep is moved out along the surface normal by
// its depth d; then its motion over the substep RELATIVE TO THE COLLIDER'S SURFACE is split into
// normal and tangential parts, and the tangential part is cancelled up to friction * d (static
// friction inside the cone, kinetic sliding outside it). Measuring the motion against the moving
// surface is what lets a moving paddle carry or throw a body.
#pragma once
#include <cmath>
#include <cstdint>

#include "math/vec3.h"

namespace sb {

// A rotation as a unit quaternion (x, y, z, w).
struct Quat {
  float x = 0.0f, y = 0.0f, z = 0.0f, w = 1.0f;
};

Vec3 rotate(Quat q, Vec3 v);
Quat conjugate(Quat q);
// Normalized linear interpolation: adequate for the small rotation of one substep.
Quat nlerp(Quat a, Quat b, float t);
// The rotation of `angle` radians about the unit axis.
Quat axis_angle(Vec3 axis, float angle);

struct Pose {
  Vec3 position{0.0f, 0.0f, 0.0f};  // m
  Quat rotation;
};

Pose interpolate(const Pose& a, const Pose& b, float t);
Vec3 to_local(const Pose& pose, Vec3 world);
Vec3 to_world(const Pose& pose, Vec3 local);

enum class ShapeKind : uint8_t {
  kPlane,    // the half-space local y <= 0 (solid below, normal +y)
  kSphere,   // size[0] = radius, m
  kBox,      // size = half extents along local x, y, z, m
  kCapsule,  // size[0] = radius, size[1] = half length of the axis segment along local y, m
  kMesh,     // `mesh`, in the collider's frame (mesh_shape.h)
};

class MeshShape;

struct Collider {
  ShapeKind kind = ShapeKind::kPlane;
  float size[3] = {0.0f, 0.0f, 0.0f};
  Pose pose;      // now (the end of the frame being simulated)
  Pose previous;  // at the start of that frame: the substeps sweep from previous to pose
  float friction = 0.5f;     // Coulomb coefficient
  float restitution = 0.2f;  // normal speed after / before, relative to the surface (post-solve)
  const MeshShape* mesh = nullptr;  // kMesh only; owned by the world's collider slot
};

// Signed distance (m, negative inside) from world point p to the collider's surface at `pose`,
// and the outward unit normal of the surface nearest to p (world frame). Exact for every shape.
// A mesh stops searching beyond `limit` m and then returns `limit` (outside); the analytic shapes
// ignore it.
float signed_distance(const Collider& c, const Pose& pose, Vec3 p, Vec3* normal, float limit = INFINITY);

// A sphere about the collider's position that holds it (m); infinite for a plane.
float bounding_radius(const Collider& c);
// A world box that holds the collider at `pose` (its shape's box, rotated); infinite for a plane.
void world_box(const Collider& c, const Pose& pose, Vec3* lo, Vec3* hi);

// The distance queries of one particle's contact: the collider at `pose`, and for a mesh either its
// whole tree or only `faces` (a frame's candidates, collider_candidates.h). The analytic shapes
// ignore the faces.
struct ColliderQuery {
  const Collider* collider = nullptr;
  Pose pose;
  bool faces_only = false;
  const uint32_t* faces = nullptr;
  uint32_t face_count = 0;
  // signed_distance's contract at `pose`.
  float distance(Vec3 p, float limit, Vec3* normal) const;
};

// What a contact pass leaves for the velocity update after the substep (restitution) and for the
// stats. Per-particle arrays (xyz interleaved where 3-wide) owned by the caller; any may be null.
struct ContactRecord {
  float* normal = nullptr;            // outward surface normal at the contact
  float* surface_velocity = nullptr;  // m/s, the collider's surface velocity at the contact
  float* restitution = nullptr;       // the collider's restitution; untouched for particles not in contact
  float max_depth = 0.0f;             // m, deepest penetration met (raised, never lowered, by each pass)
};

// One contact pass over `count` particles (xyz interleaved) against one collider, for the substep
// of h seconds that runs from fraction t0 to t1 of the frame (the collider sweeps from c.previous
// to c.pose). prev: the particles' positions at the substep's start. Particles with inverse mass 0
// (pinned, grabbed) are left alone. Returns how many particles were in contact.
//
// Continuous detection: a particle that ends the substep outside but whose path RELATIVE TO THE
// COLLIDER crossed it (a fast body and a thin board; a fast paddle and a resting body) is stopped
// where the path first meets the surface, found by sphere tracing the signed distance (exact for
// every shape here, so each step is safe). Without it, a particle moving more than the collider's
// thickness per substep would pass through.
uint32_t solve_collider(float* pos, const float* prev, const float* inv_mass, uint32_t count, const Collider& c,
                        float t0, float t1, float h, ContactRecord* record);

// One particle's contact in solve_collider, for callers that choose the query per particle
// (collider_candidates.h). x: its position now (moved when in contact); start: its substep start
// carried into query.pose (the collider's pose at the substep's end); prev: its substep start; before:
// the collider's pose at the substep's start. Returns whether it was in contact, and then fills *out.
struct ParticleContact {
  Vec3 normal{0.0f, 1.0f, 0.0f};          // outward surface normal at the contact
  Vec3 surface_motion{0.0f, 0.0f, 0.0f};  // m, the surface's own motion under the particle this substep
  float depth = 0.0f;                     // m, how far the motion went past the surface
};
bool contact_particle(Vec3* x, Vec3 start, Vec3 prev, const ColliderQuery& query, const Pose& before,
                      ParticleContact* out);
// Stores particle i's contact in the record (any of whose arrays may be null). inv_h: 1/substep, 1/s.
void record_contact(ContactRecord* record, uint32_t i, const ParticleContact& contact, float restitution, float inv_h);

// Thin obstacles between particles: a sphere or capsule thinner than the particle spacing can pass
// between the vertices of a surface triangle, where solve_collider, which tests particles, cannot see
// it. This pass takes each surface triangle whose nearest point to the shape's centre (sphere) or axis
// (capsule) lay on one of its edges or inside its face at the substep's start (prev, the collider at
// fraction t0 of the frame), and if that point of the triangle is now (pos, the collider at t1)
// within the radius along that offset, moves the triangle's vertices by their inverse masses,
// weighted by its barycentric coordinates, until it is on the surface (the collider does not move:
// C = (q - a) . n - r >= 0, q the triangle's point, a the axis point, n the offset's direction at
// the start). Taking point and direction at the start keeps a face that the axis has just crossed on
// its side. Nearest points at a vertex are solve_collider's. Coulomb friction as for particles.
// Returns the triangles in contact; raises *max_depth (m). Other shapes: 0.
uint32_t solve_collider_faces(float* pos, const float* prev, const float* inv_mass, const uint32_t* triangles,
                              uint32_t triangle_count, const Collider& c, float t0, float t1, float* max_depth);

// The post-substep velocity rule for particles a collider touched (Mueller et al. 2020, sec. 3.6,
// as for the ground): relative to the surface, an approach faster than rest_speed (m/s) is
// reflected by the restitution, a slower one comes to rest in the normal direction; the tangential
// velocity (friction's result) is kept. v_before: the velocity at the substep's start, m/s.
Vec3 restitution_velocity(Vec3 v, Vec3 v_before, Vec3 normal, Vec3 surface_velocity, float restitution,
                          float rest_speed);

// The same contact for the force-based integrators, at velocity level (as their ground contact):
// a particle inside is moved out along the normal; its velocity relative to the surface (whose
// velocity is the collider's motion over the substep / h) has its approach speed reflected by the
// restitution (or zeroed below rest_speed, m/s), and Coulomb friction removes up to friction x that
// change from its sliding speed. h: the substep, s. (No continuous detection here: these solvers
// keep no start-of-substep positions.)
uint32_t collide_velocity_level(float* pos, float* vel, const float* inv_mass, uint32_t count, const Collider& c,
                                float t0, float t1, float h, float rest_speed);

}  // namespace sb
