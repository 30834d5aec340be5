// Mesh colliders (core/contact/mesh_shape.h): exact distances against brute force, the pseudonormal
// sign against the winding number, shells of a thickness, bodies resting in a bowl and on a mesh box
// as on the analytic box, continuous detection through a thin mesh board, and the C API's checks.
#include <doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "contact/collider.h"
#include "contact/mesh_shape.h"
#include "meshing/surface_cleanup.h"
#include "meshing/surface_query.h"
#include "shapes/shapes.h"
#include "softbody.h"
#include "solver/world.h"
#include "surfaces.h"

using namespace sb;
using testing_surfaces::Soup;
using testing_surfaces::bowl;

namespace {

const float kFrame = 1.0f / 60.0f;  // s

Surface cleaned(const Soup& soup, CleanupReport* report_out = nullptr) {
  Surface s;
  CleanupReport report;
  int64_t at = 0;
  const SurfaceProblem problem =
      clean_surface(soup.positions.data(), soup.vertex_count(), soup.triangles.data(), soup.triangle_count(), s, report, at);
  REQUIRE((problem == SurfaceProblem::None || problem == SurfaceProblem::Flat));
  if (report_out) *report_out = report;
  return s;
}

// A box of the given size from the origin, as a 24-vertex closed soup.
Soup box_soup(float sx, float sy, float sz) {
  Soup s = testing_surfaces::cube(1.0f);
  for (size_t i = 0; i < s.positions.size(); i += 3) {
    s.positions[i] *= sx;
    s.positions[i + 1] *= sy;
    s.positions[i + 2] *= sz;
  }
  return s;
}

double brute_distance(const Surface& s, Vec3 p) {
  const double q[3] = {p.x, p.y, p.z};
  double best = INFINITY;
  for (size_t f = 0; f < s.triangles.size() / 3; ++f) {
    const double* a = &s.positions[3 * s.triangles[3 * f]];
    const double* b = &s.positions[3 * s.triangles[3 * f + 1]];
    const double* c = &s.positions[3 * s.triangles[3 * f + 2]];
    best = std::min(best, point_triangle_distance2(q, a, b, c));
  }
  return std::sqrt(best);
}

Vec3 centre_of(const SoftBody& b) {
  Vec3 sum{0, 0, 0};
  for (uint32_t i = 0; i < b.vertex_count(); ++i) sum = sum + load3(b.positions(), i);
  return sum * (1.0f / float(b.vertex_count()));
}

}  // namespace

TEST_CASE("mesh distances equal brute force, and the pseudonormal sign agrees with the winding number") {
  // A torus (concave and convex regions, saddle vertices): 2,000 random points near it. The nearest
  // distance over the BVH must equal the brute-force minimum over every face (to float32 rounding of
  // ~1 m coordinates, 1e-5 m), and inside/outside must agree with the generalized winding number away
  // from the surface (within 1e-3 m of it float rounding may pick either side, and it does not matter).
  const Surface s = cleaned(testing_surfaces::torus(0.6f, 0.25f, 32, 16));
  const MeshShape mesh(s.positions, s.triangles, true, 0.0f);
  const SurfaceQuery query(s.positions, s.triangles);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  int inside = 0;
  for (int i = 0; i < 2000; ++i) {
    const Vec3 p{u(rng), 0.4f * u(rng), u(rng)};
    Vec3 n;
    const float d = mesh.signed_distance(p, INFINITY, &n);
    const double exact = brute_distance(s, p);
    CHECK(std::fabs(std::fabs(d) - exact) < 1e-5);
    CHECK(std::fabs(length(n) - 1.0f) < 1e-4f);
    if (exact > 1e-3) {
      const double q[3] = {p.x, p.y, p.z};
      const bool wn_inside = query.winding_number(q) > 0.5;
      CHECK((d < 0.0f) == wn_inside);
      inside += wn_inside;
    }
  }
  CHECK(inside > 100);  // the sample did test the inside
  // A limit shorter than the distance: the search stops and reports the limit.
  Vec3 n;
  CHECK(mesh.signed_distance({0, 3.0f, 0}, 0.5f, &n) == 0.5f);
}

TEST_CASE("an open sheet is a two-sided shell of its thickness") {
  const Surface s = cleaned(bowl(1.0f, 24, 8));
  const MeshShape shell(s.positions, s.triangles, false, 0.02f);
  Vec3 n;
  // Inside the bowl, 0.1 m above its bottom (-1): 0.1 m from the sheet, minus half the thickness.
  CHECK(shell.signed_distance({0, -0.9f, 0}, INFINITY, &n) == doctest::Approx(0.09).epsilon(1e-3));
  CHECK(n.y > 0.99f);
  // Below it, outside: the same distance, the normal pointing down.
  CHECK(shell.signed_distance({0, -1.1f, 0}, INFINITY, &n) == doctest::Approx(0.09).epsilon(1e-3));
  CHECK(n.y < -0.99f);
  // Within the shell: negative.
  CHECK(shell.signed_distance({0, -1.005f, 0}, INFINITY, &n) < 0.0f);
}

TEST_CASE("a soft box dropped into a mesh bowl settles at its bottom without passing through") {
  // A hemispherical shell of radius 1 m, 2 cm thick, rim at y = 1; the box falls 0.5 m into it. The
  // contact keeps particles on the shell every substep, so what is left inside at a frame's end is
  // at most one substep's motion at rest (< 1 mm); 3 mm allows the impact. Dropped on the axis, at
  // rest the box sits at the bottom (its centre within 5 cm of the axis: the Gauss-Seidel order's
  // sideways drift, docs) and is still.
  World w;
  w.settings.ground = false;
  const Surface s = cleaned(bowl(1.0f, 32, 12));
  Collider c;
  c.kind = ShapeKind::kMesh;
  c.pose.position = {0.0f, 1.0f, 0.0f};
  const ColliderHandle h = w.add_collider(c, std::make_shared<const MeshShape>(s.positions, s.triangles, false, 0.02f));
  BodyParams p;
  p.edge_compliance = 1e-4f;
  p.damping = 1.0f;
  SoftBody* b = w.body(w.add_body(make_box(3, 3, 3, 0.3f, 0.3f, 0.3f, 0.0f, 0.7f, 0.0f), p));
  float worst = 0.0f;
  for (int f = 0; f < 240; ++f) {
    REQUIRE(w.step(kFrame, nullptr) == 0);
    const Collider& now = *w.collider(h);
    for (uint32_t i = 0; i < b->vertex_count(); ++i) {
      Vec3 n;
      worst = std::max(worst, -signed_distance(now, now.pose, load3(b->positions(), i), &n));
    }
  }
  CHECK(worst < 3e-3f);
  const Vec3 centre = centre_of(*b);
  CHECK(std::hypot(centre.x, centre.z) < 0.05f);
  CHECK(centre.y > 0.0f);   // inside the bowl, not below it
  CHECK(centre.y < 0.35f);  // near the bottom (0.01 m + half the box, ~0.16 m, once settled)
  float vmax = 0.0f;
  for (uint32_t i = 0; i < b->vertex_count(); ++i) vmax = std::max(vmax, length(load3(b->velocities(), i)));
  CHECK(vmax < 0.1f);
}

TEST_CASE("a body rests on a closed mesh box as on the analytic box") {
  // The same 2 m x 1 m x 2 m table, once as a box collider and once as a 12-triangle mesh: distances
  // are exact in both, so the resting bodies agree to float rounding (measured within 1e-5 m; 1 mm allowed).
  float heights[2];
  for (int run = 0; run < 2; ++run) {
    World w;
    w.settings.ground = false;
    if (run == 0) {
      Collider box;
      box.kind = ShapeKind::kBox;
      box.size[0] = 1.0f;
      box.size[1] = 0.5f;
      box.size[2] = 1.0f;
      box.pose.position = {0.0f, 0.5f, 0.0f};
      w.add_collider(box);
    } else {
      CleanupReport report;
      const Surface s = cleaned(box_soup(2.0f, 1.0f, 2.0f), &report);
      CHECK(report.open_edges == 0);
      Collider c;
      c.kind = ShapeKind::kMesh;
      c.pose.position = {-1.0f, 0.0f, -1.0f};  // the soup spans [0, 2] x [0, 1] x [0, 2]
      w.add_collider(c, std::make_shared<const MeshShape>(s.positions, s.triangles, true, 0.01f));
    }
    BodyParams p;
    p.edge_compliance = 1e-4f;
    SoftBody* b = w.body(w.add_body(make_box(3, 3, 3, 0.4f, 0.4f, 0.4f, 0.2f, 1.6f, -0.1f), p));
    for (int f = 0; f < 90; ++f) REQUIRE(w.step(kFrame, nullptr) == 0);
    heights[run] = centre_of(*b).y;
  }
  CHECK(heights[0] == doctest::Approx(1.2).epsilon(0.02));  // resting: 1 m table + half the box
  CHECK(std::fabs(heights[0] - heights[1]) < 1e-3f);
}

TEST_CASE("continuous detection works on meshes: a ball at 30 m/s stops on a 1 cm mesh board") {
  World w;
  w.settings.ground = false;
  const Surface s = cleaned(box_soup(2.0f, 0.01f, 2.0f));
  Collider c;
  c.kind = ShapeKind::kMesh;
  c.pose.position = {-1.0f, -0.01f, -1.0f};  // top at y = 0
  w.add_collider(c, std::make_shared<const MeshShape>(s.positions, s.triangles, true, 0.01f));
  BodyParams p;
  p.edge_compliance = 1e-4f;
  SoftBody* b = w.body(w.add_body(make_ball(0.25f, 5, 0, 0.5f, 0), p));
  for (uint32_t i = 0; i < b->vertex_count(); ++i) b->velocities()[3 * i + 1] = -30.0f;  // m/s
  float lowest = 1.0f;
  for (int f = 0; f < 60; ++f) {
    REQUIRE(w.step(kFrame, nullptr) == 0);
    lowest = std::min(lowest, float(b->stats().min_y));
  }
  CHECK(lowest > -2e-3f);  // never through the board (1 cm would put a particle inside it)
}

TEST_CASE("C API: mesh colliders are made solid or as shells, refused with a message, and stop a body") {
  const sb_world w = sb_world_create();
  REQUIRE(w > 0);
  REQUIRE(sb_world_set_ground(w, 0) == SB_OK);
  const Soup table = box_soup(2.0f, 1.0f, 2.0f);
  const sb_collider solid = sb_collider_create_mesh(w, table.positions.data(), table.vertex_count(), table.triangles.data(),
                                                    table.triangle_count(), 0.01f, -1.0f, 0.0f, -1.0f);
  REQUIRE(solid > 0);
  CHECK(sb_collider_mesh_is_solid(w, solid) == 1);
  const Soup sheet = bowl(1.0f, 16, 6);
  const sb_collider shell = sb_collider_create_mesh(w, sheet.positions.data(), sheet.vertex_count(), sheet.triangles.data(),
                                                    sheet.triangle_count(), 0.02f, 5.0f, 1.0f, 0.0f);
  REQUIRE(shell > 0);
  CHECK(sb_collider_mesh_is_solid(w, shell) == 0);
  CHECK(sb_world_collider_count(w) == 2);
  // Bad input: a code, a message, nothing made.
  const float* xyz = table.positions.data();
  const uint32_t* tri = table.triangles.data();
  const int32_t nv = table.vertex_count(), nt = table.triangle_count();
  CHECK(sb_collider_create_mesh(w, nullptr, nv, tri, nt, 0.01f, 0, 0, 0) == SB_ERR_NULL_POINTER);
  CHECK(sb_collider_create_mesh(w, xyz, nv, nullptr, nt, 0.01f, 0, 0, 0) == SB_ERR_NULL_POINTER);
  CHECK(sb_collider_create_mesh(w, xyz, 2, tri, nt, 0.01f, 0, 0, 0) == SB_ERR_BAD_COUNT);
  CHECK(sb_collider_create_mesh(w, xyz, nv, tri, 0, 0.01f, 0, 0, 0) == SB_ERR_BAD_COUNT);
  CHECK(sb_collider_create_mesh(w, xyz, SB_MAX_COLLIDER_VERTICES + 1, tri, nt, 0.01f, 0, 0, 0) == SB_ERR_TOO_LARGE);
  CHECK(sb_collider_create_mesh(w, xyz, nv, tri, nt, 0.0f, 0, 0, 0) == SB_ERR_OUT_OF_RANGE);
  CHECK(std::string(sb_last_error()).find("thickness") != std::string::npos);
  CHECK(sb_collider_create_mesh(w, xyz, nv, tri, nt, NAN, 0, 0, 0) == SB_ERR_NOT_FINITE);
  CHECK(sb_collider_create_mesh(w, xyz, nv, tri, nt, 0.01f, NAN, 0, 0) == SB_ERR_NOT_FINITE);
  std::vector<float> bad_xyz(table.positions);
  bad_xyz[7] = NAN;
  CHECK(sb_collider_create_mesh(w, bad_xyz.data(), nv, tri, nt, 0.01f, 0, 0, 0) == SB_ERR_NOT_FINITE);
  bad_xyz[7] = 2e6f;
  CHECK(sb_collider_create_mesh(w, bad_xyz.data(), nv, tri, nt, 0.01f, 0, 0, 0) == SB_ERR_OUT_OF_RANGE);
  std::vector<uint32_t> bad_tri(table.triangles);
  bad_tri[5] = uint32_t(nv);
  CHECK(sb_collider_create_mesh(w, xyz, nv, bad_tri.data(), nt, 0.01f, 0, 0, 0) == SB_ERR_INDEX_OUT_OF_RANGE);
  CHECK(std::string(sb_last_error()).find("triangle 1") != std::string::npos);
  const uint32_t flat[3] = {0, 0, 1};
  CHECK(sb_collider_create_mesh(w, xyz, nv, flat, 1, 0.01f, 0, 0, 0) == SB_ERR_EMPTY_MESH);
  CHECK(sb_collider_create_mesh(w + 1000, xyz, nv, tri, nt, 0.01f, 0, 0, 0) == SB_ERR_INVALID_WORLD);
  CHECK(sb_world_collider_count(w) == 2);
  const sb_collider sphere = sb_collider_create_sphere(w, 0.1f, 9, 9, 9);
  CHECK(sb_collider_mesh_is_solid(w, sphere) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_collider_mesh_is_solid(w, 999999) == SB_ERR_INVALID_COLLIDER);
  // A body dropped on the solid table rests on its top (1 m).
  const sb_body box = sb_body_create_box(w, 3, 3, 3, 0.4f, 0.4f, 0.4f, 0, 1.6f, 0);
  REQUIRE(box > 0);
  REQUIRE(sb_body_set_param(w, box, SB_PARAM_EDGE_COMPLIANCE, 1e-4f) == SB_OK);
  for (int f = 0; f < 90; ++f) REQUIRE(sb_world_step(w, kFrame) == SB_OK);
  sb_body_stats st;
  REQUIRE(sb_body_get_stats(w, box, &st) == SB_OK);
  CHECK(st.min_y == doctest::Approx(1.0).epsilon(0.005));
  CHECK(sb_collider_destroy(w, solid) == SB_OK);
  CHECK(sb_world_destroy(w) == SB_OK);
}

TEST_CASE("a particle nudged a touch into a shell and pulled past its middle goes back out on its own side") {
  // The pile's failure (scenes.test.mjs): a bunny's vertex ended a substep 0.5 mm inside the bowl's
  // 6 cm wall (a neighbour's constraint moved it after the contact), its tets then pulled it 3 cm deeper,
  // just past the wall's middle, and "out along the nearest normal" put it outside the bowl, where its
  // own tets held it through the wall for good (edges stretched 16x, 15 cm "contacts" every substep).
  // Out the side it started from, whatever side is nearer at the end; a board (closed) the same.
  const Surface sheet = cleaned(Soup{{-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1}, {0, 2, 1, 0, 3, 2}});
  const Surface board = cleaned(box_soup(2.0f, 0.06f, 2.0f));
  const MeshShape shell(sheet.positions, sheet.triangles, false, 0.06f);  // y in [-0.03, 0.03]
  const MeshShape solid(board.positions, board.triangles, true, 0.0f);
  for (const MeshShape* shape : {&shell, &solid}) {
    CAPTURE(shape->closed());
    Collider c;
    c.kind = ShapeKind::kMesh;
    c.mesh = shape;
    if (shape->closed()) c.pose.position = c.previous.position = {-1.0f, -0.03f, -1.0f};  // board: y in [-0.03, 0.03]
    const float inv_mass[1] = {1.0f};
    const float start[3] = {0.0f, 0.0295f, 0.0f};  // 0.5 mm inside the top face
    float x[3] = {0.0f, -0.002f, 0.0f};            // pulled past the middle: the bottom face is nearer
    CHECK(solve_collider(x, start, inv_mass, 1, c, 0.0f, 1.0f, 1.0f / 600, nullptr) == 1);
    CHECK(x[1] == doctest::Approx(0.03f).epsilon(1e-4));  // back on top, not through the bottom
    // Starting deep inside a shell (a collider moved over the particle) still leaves by the nearest
    // face. (A closed mesh leaves a particle that started deep inside alone: mesh_shape.h's reach.)
    if (shape->closed()) continue;
    const float deep[3] = {0.0f, -0.01f, 0.0f};
    float y[3] = {0.0f, -0.015f, 0.0f};
    CHECK(solve_collider(y, deep, inv_mass, 1, c, 0.0f, 1.0f, 1.0f / 600, nullptr) == 1);
    CHECK(y[1] == doctest::Approx(-0.03f).epsilon(1e-4));
  }
}
