// C API: cloth bodies (core/shapes/cloth_mesh.h, core/solver/cloth_constraints.h). Every entry point
// validates everything first and only then touches the world.
#include <cmath>

#include "api_state.h"
#include "shapes/cloth_mesh.h"

using namespace sbapi;

namespace {

// A cloth body's defaults: the body defaults plus a finite in-plane stiffness (1e4 N/m, woven cotton's
// order) instead of the inextensible edges tet bodies start with.
sb::BodyParams cloth_defaults() {
  sb::BodyParams p;
  p.edge_compliance = 1e-4f;  // m/N = 1/Y
  return p;
}

int32_t add_cloth(sb::World* w, const sb::ClothMesh& mesh) {
  if (w->body_count() >= SB_MAX_BODIES_PER_WORLD)
    return fail(SB_ERR_LIMIT, "world already holds %d bodies (SB_MAX_BODIES_PER_WORLD)", SB_MAX_BODIES_PER_WORLD);
  if (!w->can_add_body())
    return fail(SB_ERR_LIMIT, "every body handle of this world has been used (%u slots x %u bodies each); create a new world",
                sb::World::kMaxSlots, sb::World::kMaxGeneration);
  return encode_body(w->add_cloth(mesh, cloth_defaults()));
}

int32_t cloth_error(const sb::ClothCheck& c) {
  const long long i = c.index;
  switch (c.problem) {
    case sb::ClothProblem::None: return SB_OK;
    case sb::ClothProblem::NonFiniteVertex: return fail(SB_ERR_NOT_FINITE, "vertex %lld has a NaN or infinite coordinate", i);
    case sb::ClothProblem::IndexOutOfRange:
      return fail(SB_ERR_INDEX_OUT_OF_RANGE, "triangle %lld refers to a vertex index >= vertex_count", i);
    case sb::ClothProblem::RepeatedIndex: return fail(SB_ERR_DEGENERATE_TRIANGLE, "triangle %lld uses the same vertex twice", i);
    case sb::ClothProblem::DegenerateTriangle:
      return fail(SB_ERR_DEGENERATE_TRIANGLE,
                  "triangle %lld has (near) zero area (2 x area <= %g x longest edge^2) or an edge below %g m "
                  "(SB_MIN_TRIANGLE_EDGE)", i, sb::kDegenerateRelArea, double(SB_MIN_TRIANGLE_EDGE));
    case sb::ClothProblem::NonManifoldEdge:
      return fail(SB_ERR_NON_MANIFOLD, "triangle %lld is the third on one of its edges: a cloth edge joins at most two", i);
    case sb::ClothProblem::InconsistentWinding:
      return fail(SB_ERR_NON_MANIFOLD,
                  "triangle %lld runs along an edge in the same direction as its neighbour there: wind all triangles "
                  "the same way (counter-clockwise seen from the front)", i);
    case sb::ClothProblem::UnusedVertex:
      return fail(SB_ERR_UNUSED_VERTEX, "vertex %lld belongs to no triangle and would have no mass", i);
  }
  return fail(SB_ERR_OUT_OF_RANGE, "unknown cloth mesh problem");
}

bool check_center(float x, float y, float z, const char* what) {
  return check_range(x, -SB_MAX_COORDINATE, SB_MAX_COORDINATE, what) &&
         check_range(y, -SB_MAX_COORDINATE, SB_MAX_COORDINATE, what) &&
         check_range(z, -SB_MAX_COORDINATE, SB_MAX_COORDINATE, what);
}

bool check_flag(int32_t v, const char* what) {
  if (v == 0 || v == 1) return true;
  fail(SB_ERR_OUT_OF_RANGE, "%s must be 0 or 1, got %d", what, v);
  return false;
}

}  // namespace

extern "C" {

sb_body sb_body_create_cloth(sb_world world, const float* xyz, int32_t vertex_count, const uint32_t* triangles,
                             int32_t triangle_count) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (!xyz || !triangles) return fail(SB_ERR_NULL_POINTER, "%s is NULL", !xyz ? "xyz" : "triangles");
  if (vertex_count < 3 || vertex_count > SB_MAX_VERTICES)
    return fail(SB_ERR_BAD_COUNT, "vertex_count must be in [3, %d], got %d", SB_MAX_VERTICES, vertex_count);
  if (triangle_count < 1 || triangle_count > SB_MAX_CLOTH_TRIANGLES)
    return fail(SB_ERR_BAD_COUNT, "triangle_count must be in [1, %d], got %d", SB_MAX_CLOTH_TRIANGLES, triangle_count);
  const sb::ClothCheck check = sb::check_cloth_mesh(xyz, vertex_count, triangles, triangle_count);
  if (check.problem != sb::ClothProblem::None) return cloth_error(check);
  sb::ClothMesh mesh;
  mesh.positions.assign(xyz, xyz + 3 * size_t(vertex_count));
  mesh.triangles.assign(triangles, triangles + 3 * size_t(triangle_count));
  return add_cloth(w, mesh);
}

sb_body sb_body_create_cloth_rectangle(sb_world world, int32_t cells_u, int32_t cells_v, float size_u, float size_v,
                                       float center_x, float center_y, float center_z, int32_t vertical) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  for (int32_t n : {cells_u, cells_v})
    if (n < 1 || n > 1024) return fail(SB_ERR_BAD_COUNT, "cloth rectangle cells must be in [1, 1024], got %d", n);
  if (!check_range(size_u, 1e-3f, 1000.0f, "cloth size u (m)") || !check_range(size_v, 1e-3f, 1000.0f, "cloth size v (m)") ||
      !check_center(center_x, center_y, center_z, "cloth centre (m)") || !check_flag(vertical, "vertical"))
    return sb_last_error_code();
  // Far from equilateral the triangles' cotangents (the bending weights) grow without bound; the
  // mesh check names a triangle that is too thin.
  const sb::ClothMesh mesh = sb::make_cloth_rectangle(cells_u, cells_v, size_u, size_v, center_x, center_y, center_z, vertical == 1);
  const sb::ClothCheck check = sb::check_cloth_mesh(mesh.positions.data(), int64_t(mesh.positions.size() / 3),
                                                    mesh.triangles.data(), int64_t(mesh.triangles.size() / 3));
  if (check.problem != sb::ClothProblem::None) return cloth_error(check);
  return add_cloth(w, mesh);
}

sb_body sb_body_create_cloth_disc(sb_world world, float radius, int32_t rings, float center_x, float center_y,
                                  float center_z, int32_t vertical) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (rings < 1 || rings > 512) return fail(SB_ERR_BAD_COUNT, "cloth disc rings must be in [1, 512], got %d", rings);
  if (!check_range(radius, 1e-3f, 1000.0f, "cloth disc radius (m)") ||
      !check_center(center_x, center_y, center_z, "cloth disc centre (m)") || !check_flag(vertical, "vertical"))
    return sb_last_error_code();
  const sb::ClothMesh mesh = sb::make_cloth_disc(radius, rings, center_x, center_y, center_z, vertical == 1);
  const sb::ClothCheck check = sb::check_cloth_mesh(mesh.positions.data(), int64_t(mesh.positions.size() / 3),
                                                    mesh.triangles.data(), int64_t(mesh.triangles.size() / 3));
  if (check.problem != sb::ClothProblem::None) return cloth_error(check);
  return add_cloth(w, mesh);
}

int32_t sb_body_is_cloth(sb_world world, sb_body body) {
  clear_error();
  const sb::SoftBody* b = find_body(world, body);
  if (!b) return sb_last_error_code();
  return b->is_cloth() ? 1 : 0;
}

const float* sb_body_normals(sb_world world, sb_body body) {
  clear_error();
  const sb::SoftBody* b = find_body(world, body);
  if (!b) return nullptr;
  if (!b->is_cloth()) {
    fail(SB_ERR_NOT_CLOTH, "body %d is not cloth: its surface normals come with a visual (sb_body_visual_normals) or "
         "from its triangles", body);
    return nullptr;
  }
  return b->normals();
}

int32_t sb_body_topology_version(sb_world world, sb_body body) {
  clear_error();
  const sb::SoftBody* b = find_body(world, body);
  if (!b) return sb_last_error_code();
  return int32_t(b->topology_version() & 0x7fffffffu);  // non-negative: negatives are errors
}

}  // extern "C"
