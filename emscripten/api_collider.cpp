// The C API's colliders (softbody.h): validate, translate handles, call the world.
#include <cmath>
#include <memory>
#include <utility>

#include "api_state.h"
#include "contact/mesh_shape.h"
#include "meshing/surface_cleanup.h"

using namespace sbapi;

namespace {

constexpr float kMaxSize = 1000.0f;      // m
constexpr float kMaxCoordinate = 1.0e6f;  // m

static_assert(uint64_t(sb::World::kMaxColliderGeneration) << sb::World::kColliderIndexBits <= uint64_t(INT32_MAX),
              "collider handles are positive");
static_assert(sb::World::kMaxColliderSlots >= SB_MAX_COLLIDERS_PER_WORLD, "room for every live collider");

sb_collider encode(sb::ColliderHandle h) {
  return int32_t((h.generation << sb::World::kColliderIndexBits) | (h.index + 1));
}

sb::ColliderHandle decode(sb_collider c) {
  return {(uint32_t(c) & sb::World::kMaxColliderSlots) - 1, uint32_t(c) >> sb::World::kColliderIndexBits};
}

sb::Collider* find_collider(sb_world world, sb_collider collider, sb::World** world_out) {
  sb::World* w = find_world(world);
  if (!w) return nullptr;
  sb::Collider* c = collider > 0 ? w->collider(decode(collider)) : nullptr;
  if (!c) {
    fail(SB_ERR_INVALID_COLLIDER, "collider handle %d is not a live collider of world %d (never created, or destroyed)",
         collider, world);
    return nullptr;
  }
  if (world_out) *world_out = w;
  return c;
}

bool check_point(float x, float y, float z, const char* what) {
  return check_range(x, -kMaxCoordinate, kMaxCoordinate, what) && check_range(y, -kMaxCoordinate, kMaxCoordinate, what) &&
         check_range(z, -kMaxCoordinate, kMaxCoordinate, what);
}

bool check_size(float value, const char* what) {
  if (!check_finite(value, what)) return false;
  if (value > 0.0f && value <= kMaxSize) return true;
  fail(SB_ERR_OUT_OF_RANGE, "%s must be in (0, %g] m, got %g", what, double(kMaxSize), double(value));
  return false;
}

// Adds a collider made at (cx, cy, cz) after the shared checks.
sb_collider add(sb_world world, sb::Collider c, float cx, float cy, float cz) {
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (!check_point(cx, cy, cz, "collider position (m)")) return sb_last_error_code();
  if (w->collider_count() >= SB_MAX_COLLIDERS_PER_WORLD || !w->can_add_collider()) {
    return fail(SB_ERR_LIMIT, "world %d already holds %d colliders (SB_MAX_COLLIDERS_PER_WORLD)", world,
                SB_MAX_COLLIDERS_PER_WORLD);
  }
  c.pose.position = {cx, cy, cz};
  return encode(w->add_collider(c));
}

sb::Collider shape(sb::ShapeKind kind, float a, float b, float c) {
  sb::Collider col;
  col.kind = kind;
  col.size[0] = a;
  col.size[1] = b;
  col.size[2] = c;
  return col;
}

}  // namespace

extern "C" {

sb_collider sb_collider_create_plane(sb_world world, float px, float py, float pz, float nx, float ny, float nz) {
  clear_error();
  if (!find_world(world)) return sb_last_error_code();
  for (float v : {nx, ny, nz})
    if (!check_finite(v, "plane normal")) return sb_last_error_code();
  const sb::Vec3 n{nx, ny, nz};
  const float len = sb::length(n);
  if (!(len > 1e-6f)) return fail(SB_ERR_OUT_OF_RANGE, "plane normal must have a length > 1e-6, got %g", double(len));
  // The rotation taking the plane's local normal +y onto n: axis y x n, angle between them.
  const sb::Vec3 u = n * (1.0f / len);
  sb::Collider c = shape(sb::ShapeKind::kPlane, 0, 0, 0);
  if (u.y < -0.999999f) {
    c.pose.rotation = sb::axis_angle({1, 0, 0}, float(M_PI));
  } else {
    const sb::Vec3 axis = sb::cross({0, 1, 0}, u);
    const float w = 1.0f + u.y;
    const float norm = std::sqrt(sb::dot(axis, axis) + w * w);
    c.pose.rotation = {axis.x / norm, axis.y / norm, axis.z / norm, w / norm};
  }
  return add(world, c, px, py, pz);
}

sb_collider sb_collider_create_sphere(sb_world world, float radius, float cx, float cy, float cz) {
  clear_error();
  if (!find_world(world)) return sb_last_error_code();
  if (!check_size(radius, "sphere radius")) return sb_last_error_code();
  return add(world, shape(sb::ShapeKind::kSphere, radius, 0, 0), cx, cy, cz);
}

sb_collider sb_collider_create_box(sb_world world, float hx, float hy, float hz, float cx, float cy, float cz) {
  clear_error();
  if (!find_world(world)) return sb_last_error_code();
  if (!check_size(hx, "box half extent x") || !check_size(hy, "box half extent y") || !check_size(hz, "box half extent z"))
    return sb_last_error_code();
  return add(world, shape(sb::ShapeKind::kBox, hx, hy, hz), cx, cy, cz);
}

sb_collider sb_collider_create_capsule(sb_world world, float radius, float half_length, float cx, float cy, float cz) {
  clear_error();
  if (!find_world(world)) return sb_last_error_code();
  if (!check_size(radius, "capsule radius")) return sb_last_error_code();
  if (!check_range(half_length, 0.0f, kMaxSize, "capsule half length (m)")) return sb_last_error_code();
  return add(world, shape(sb::ShapeKind::kCapsule, radius, half_length, 0), cx, cy, cz);
}

sb_collider sb_collider_create_mesh(sb_world world, const float* xyz, int32_t vertex_count, const uint32_t* triangles,
                                    int32_t triangle_count, float thickness, float cx, float cy, float cz) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (!xyz || !triangles) return fail(SB_ERR_NULL_POINTER, "%s is NULL", !xyz ? "xyz" : "triangles");
  if (vertex_count < 3 || triangle_count < 1)
    return fail(SB_ERR_BAD_COUNT, "a mesh collider needs at least 3 vertices and 1 triangle, got %d and %d",
                vertex_count, triangle_count);
  if (vertex_count > SB_MAX_COLLIDER_VERTICES || triangle_count > SB_MAX_COLLIDER_TRIANGLES)
    return fail(SB_ERR_TOO_LARGE, "a mesh collider takes at most %d vertices and %d triangles, got %d and %d",
                SB_MAX_COLLIDER_VERTICES, SB_MAX_COLLIDER_TRIANGLES, vertex_count, triangle_count);
  if (!check_size(thickness, "mesh collider thickness")) return sb_last_error_code();
  for (int64_t i = 0; i < 3 * int64_t(vertex_count); ++i)
    if (std::isfinite(xyz[i]) && std::fabs(xyz[i]) > kMaxCoordinate)
      return fail(SB_ERR_OUT_OF_RANGE, "vertex %lld has a coordinate of %g m, beyond +-%g m", (long long)(i / 3),
                  double(xyz[i]), double(kMaxCoordinate));
  if (!check_point(cx, cy, cz, "collider position (m)")) return sb_last_error_code();
  // Welded, consistently wound, closed pieces facing out: what the pseudonormal sign needs. A flat
  // sheet (a ramp, a floor tile) is a fine obstacle, as a shell.
  sb::Surface surface;
  sb::CleanupReport report;
  int64_t at = 0;
  switch (sb::clean_surface(xyz, vertex_count, triangles, triangle_count, surface, report, at)) {
    case sb::SurfaceProblem::None:
    case sb::SurfaceProblem::Flat:
      break;
    case sb::SurfaceProblem::NonFinite:
      return fail(SB_ERR_NOT_FINITE, "vertex %lld has a NaN or infinite coordinate", (long long)at);
    case sb::SurfaceProblem::IndexOutOfRange:
      return fail(SB_ERR_INDEX_OUT_OF_RANGE, "triangle %lld refers to a vertex index >= vertex_count (%d)", (long long)at,
                  vertex_count);
    case sb::SurfaceProblem::Empty:
      return fail(SB_ERR_EMPTY_MESH, "no triangle has a positive area (all %d repeat a vertex or are collinear)",
                  triangle_count);
  }
  if (w->collider_count() >= SB_MAX_COLLIDERS_PER_WORLD || !w->can_add_collider()) {
    return fail(SB_ERR_LIMIT, "world %d already holds %d colliders (SB_MAX_COLLIDERS_PER_WORLD)", world,
                SB_MAX_COLLIDERS_PER_WORLD);
  }
  // Solid only when every edge has two faces and the pieces enclose volume; otherwise a shell.
  const bool closed = report.open_edges == 0 && report.closed_pieces == report.pieces && report.volume > 0.0;
  auto mesh = std::make_shared<const sb::MeshShape>(surface.positions, surface.triangles, closed, thickness);
  sb::Collider c = shape(sb::ShapeKind::kMesh, thickness, 0, 0);
  c.pose.position = {cx, cy, cz};
  return encode(w->add_collider(c, std::move(mesh)));
}

int32_t sb_collider_mesh_is_solid(sb_world world, sb_collider collider) {
  clear_error();
  const sb::Collider* c = find_collider(world, collider, nullptr);
  if (!c) return sb_last_error_code();
  if (c->kind != sb::ShapeKind::kMesh)
    return fail(SB_ERR_OUT_OF_RANGE, "collider %d is not a mesh collider", collider);
  return c->mesh->closed() ? 1 : 0;
}

int32_t sb_collider_set_pose(sb_world world, sb_collider collider, float px, float py, float pz, float qx, float qy,
                             float qz, float qw, int32_t teleport) {
  clear_error();
  sb::World* w = nullptr;
  if (!find_collider(world, collider, &w)) return sb_last_error_code();
  if (!check_point(px, py, pz, "collider position (m)")) return sb_last_error_code();
  for (float v : {qx, qy, qz, qw})
    if (!check_finite(v, "collider rotation")) return sb_last_error_code();
  const float len = std::sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
  if (!(len >= 0.5f && len <= 2.0f)) {
    return fail(SB_ERR_OUT_OF_RANGE, "collider rotation must be a unit quaternion (length in [0.5, 2]), got length %g",
                double(len));
  }
  if (teleport != 0 && teleport != 1) return fail(SB_ERR_OUT_OF_RANGE, "teleport must be 0 or 1, got %d", teleport);
  sb::Pose pose;
  pose.position = {px, py, pz};
  pose.rotation = {qx / len, qy / len, qz / len, qw / len};
  w->set_collider_pose(decode(collider), pose, teleport == 1);
  return SB_OK;
}

int32_t sb_collider_set_friction(sb_world world, sb_collider collider, float friction) {
  clear_error();
  sb::World* w = nullptr;
  sb::Collider* c = find_collider(world, collider, &w);
  if (!c) return sb_last_error_code();
  if (!check_range(friction, 0.0f, 10.0f, "collider friction")) return sb_last_error_code();
  c->friction = friction;
  w->wake_all();
  return SB_OK;
}

int32_t sb_collider_set_param(sb_world world, sb_collider collider, int32_t param, float value) {
  clear_error();
  sb::World* w = nullptr;
  sb::Collider* c = find_collider(world, collider, &w);
  if (!c) return sb_last_error_code();
  switch (param) {
    case SB_COLLIDER_PARAM_FRICTION:
      if (!check_range(value, 0.0f, 10.0f, "collider friction")) return sb_last_error_code();
      c->friction = value;
      w->wake_all();
      return SB_OK;
    case SB_COLLIDER_PARAM_RESTITUTION:
      if (!check_range(value, 0.0f, 1.0f, "collider restitution")) return sb_last_error_code();
      c->restitution = value;
      w->wake_all();
      return SB_OK;
    default:
      return fail(SB_ERR_UNKNOWN_PARAM, "%d is not an sb_collider_param (0 .. %d)", param, SB_COLLIDER_PARAM_COUNT - 1);
  }
}

float sb_collider_get_param(sb_world world, sb_collider collider, int32_t param) {
  clear_error();
  sb::Collider* c = find_collider(world, collider, nullptr);
  if (!c) return NAN;
  switch (param) {
    case SB_COLLIDER_PARAM_FRICTION: return c->friction;
    case SB_COLLIDER_PARAM_RESTITUTION: return c->restitution;
    default:
      fail(SB_ERR_UNKNOWN_PARAM, "%d is not an sb_collider_param (0 .. %d)", param, SB_COLLIDER_PARAM_COUNT - 1);
      return NAN;
  }
}

int32_t sb_collider_destroy(sb_world world, sb_collider collider) {
  clear_error();
  sb::World* w = nullptr;
  if (!find_collider(world, collider, &w)) return sb_last_error_code();
  w->remove_collider(decode(collider));
  return SB_OK;
}

int32_t sb_world_collider_count(sb_world world) {
  clear_error();
  sb::World* w = find_world(world);
  return w ? int32_t(w->collider_count()) : sb_last_error_code();
}

}  // extern "C"
