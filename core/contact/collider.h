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
};

struct Collider {
  ShapeKind kind = ShapeKind::kPlane;
  float size[3] = {0.0f, 0.0f, 0.0f};
  Pose pose;      // now (the end of the frame being simulated)
  Pose previous;  // at the start of that frame: the substeps sweep from previous to pose
  float friction = 0.5f;     // Coulomb coefficient
  float restitution = 0.2f;  // normal speed after / before (used by the post-solve, not here)
};

// Signed distance (m, negative inside) from world point p to the collider's surface at `pose`,
// and the outward unit normal of the surface nearest to p (world frame).
float signed_distance(const Collider& c, const Pose& pose, Vec3 p, Vec3* normal);

// One contact pass over `count` particles (xyz interleaved) against one collider, for the substep
// that runs from fraction t0 to t1 of the frame (the collider sweeps from c.previous to c.pose).
// prev: the particles' positions at the substep's start. Particles with inverse mass 0 (pinned,
// grabbed) are left alone. Returns how many particles were in contact.
uint32_t solve_collider(float* pos, const float* prev, const float* inv_mass, uint32_t count, const Collider& c,
                        float t0, float t1);

// The same contact for the force-based integrators, at velocity level (as their ground contact):
// a particle inside is moved out along the normal; its velocity relative to the surface (whose
// velocity is the collider's motion over the substep / h) loses any approach speed, and Coulomb
// friction removes up to friction x that change from its sliding speed. h: the substep, s.
uint32_t collide_velocity_level(float* pos, float* vel, const float* inv_mass, uint32_t count, const Collider& c,
                                float t0, float t1, float h);

}  // namespace sb
