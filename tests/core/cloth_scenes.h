// Issue 29's self-contact scenes for tests: a square sheet dropped on a sphere collider, on a jelly,
// crumpled on the ground by its centre, and twisted by its two opposite edges; every frame the
// intersecting triangle pairs among all bodies are counted exactly (surface_intersections.h).
// test_cloth_twist.cpp runs the twist's hardest seconds per commit; `npm run soak:cloth` runs every
// scene for 20 s at two resolutions.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "shapes/cloth_mesh.h"
#include "shapes/shapes.h"
#include "solver/soft_body.h"
#include "solver/world.h"
#include "surface_intersections.h"

namespace cloth_scenes {

// Intersecting surface-triangle pairs among the given bodies, each with itself and with the others.
inline uint32_t intersections(const std::vector<const sb::SoftBody*>& bodies, std::vector<uint32_t>* pairs = nullptr) {
  std::vector<float> xyz;
  std::vector<uint32_t> tris;
  for (const sb::SoftBody* b : bodies) {
    const uint32_t base = uint32_t(xyz.size() / 3);
    xyz.insert(xyz.end(), b->positions(), b->positions() + 3 * b->vertex_count());
    for (uint32_t k = 0; k < 3 * b->surface_triangle_count(); ++k) tris.push_back(base + b->surface_triangles()[k]);
  }
  return testing_surfaces::count_surface_intersections(xyz.data(), tris.data(), uint32_t(tris.size() / 3), pairs);
}

enum class Scene { Sphere, Jelly, Crumple, Twist };

inline const char* scene_name(Scene s) {
  switch (s) {
    case Scene::Sphere: return "on a sphere";
    case Scene::Jelly: return "on a jelly";
    case Scene::Crumple: return "crumpled on the ground";
    case Scene::Twist: return "twisted";
  }
  return "?";
}

struct SceneResult {
  uint32_t worst = 0;         // the most intersecting pairs at any frame
  int first_bad = -1;         // the first frame with any (-1: none)
  int bad_frames = 0;         // frames with any
  bool finite = true;         // every position finite at the end, no body diverged
  double kinetic_end = 0.0;   // J, the sheet's at the last frame
  float min_y = 0.0f;         // m, the sheet's lowest vertex at the end
  float turns = 0.0f;         // the twist's turns reached
  std::vector<float> final_positions;  // the sheet's, for determinism checks
};

// The twist's schedule: the turned edge turns `turns` times about the sheet's axis over `seconds`
// (s), coming in towards the held edge by `approach` x the sheet's length meanwhile, then holds.
struct TwistPlan {
  float turns = 2.0f;
  float seconds = 8.0f;
  float approach = 0.25f;  // the share of the sheet's length the turned edge comes in by
};

// A 0.5 m square sheet of `across` triangle bases (spacing 0.5 / across m), 0.2 kg/m^2, Y = 10^4 N/m,
// D = 10^-5 N m, 2 mm thick, self thickness 0.4 x the spacing (body_contact.h's lower end), damping
// 0.5 1/s, at the world's default 10 substeps of 1/60 s frames; `frames` frames.
// on_bad (optional): called at each frame with intersections, with the world, the sheet and the pairs
// (triangle indices in the bodies' concatenated surfaces, the sheet's first).
using OnBad = std::function<void(int frame, sb::World&, sb::SoftBody&, const std::vector<uint32_t>& pairs)>;

inline SceneResult run_scene(Scene scene, int across, int frames, int threads = 1, TwistPlan plan = {}, const OnBad& on_bad = nullptr) {
  using namespace sb;
  const float L = 0.5f;                                 // m
  const int rows = int(std::lround(across * 2 / std::sqrt(3.0)));  // near-equilateral: a square
  const float spacing = L / float(across);             // m
  World w;
  REQUIRE(w.set_threads(threads));
  BodyParams p;
  p.areal_density = 0.2f;
  p.edge_compliance = 1e-4f;
  p.bending_stiffness = 1e-5f;
  p.thickness = 0.002f;
  p.damping = 0.5f;
  p.friction = 0.5f;
  float y0 = 0.4f;  // m, the sheet's start height
  BodyHandle other{};
  bool with_other = false;
  if (scene == Scene::Sphere) {
    Collider ball;
    ball.kind = ShapeKind::kSphere;
    ball.size[0] = 0.12f;
    ball.pose.position.y = 0.12f;
    ball.previous = ball.pose;
    w.add_collider(ball);
  } else if (scene == Scene::Jelly) {
    BodyParams jp;
    jp.density = 100.0f;
    jp.edge_compliance = 2e-3f;
    jp.damping = 3.0f;
    other = w.add_body(make_jelly(4, 0.2f, 0, 0.1f, 0), jp);
    with_other = true;
  } else if (scene == Scene::Crumple) {
    y0 = 0.3f;
  } else {
    y0 = 0.6f;
  }
  const BodyHandle h = w.add_cloth(make_cloth_rectangle(across, rows, L, L, 0, y0, 0, false), p);
  SoftBody& s = *w.body(h);
  s.set_self_collision(true, 0.4f * spacing);
  // The twist's two edges: the first and last rows (z = -L/2 and +L/2), pinned; the +z one turned.
  std::vector<uint32_t> turned;
  std::vector<float> turned_rest;
  if (scene == Scene::Twist) {
    float zlo = INFINITY, zhi = -INFINITY;
    for (uint32_t i = 0; i < s.vertex_count(); ++i) zlo = std::min(zlo, s.rest_positions()[3 * i + 2]), zhi = std::max(zhi, s.rest_positions()[3 * i + 2]);
    for (uint32_t i = 0; i < s.vertex_count(); ++i) {
      const float z = s.rest_positions()[3 * i + 2];
      if (z < zlo + 1e-4f) s.set_pinned(i, true);
      if (z > zhi - 1e-4f) {
        s.set_pinned(i, true);
        turned.push_back(i);
        turned_rest.insert(turned_rest.end(), s.rest_positions() + 3 * i, s.rest_positions() + 3 * i + 3);
      }
    }
  }
  if (scene == Scene::Crumple) {
    const float centre[3] = {0, y0, 0};
    s.grab_begin(s.nearest_vertex(centre), centre);
  }
  SceneResult r;
  BodyHandle diverged;
  const float dt = 1.0f / 60;
  for (int f = 0; f < frames; ++f) {
    const float t = (f + 1) * dt;  // s, at the end of this frame
    if (scene == Scene::Crumple) {
      // Lifted by its centre to 0.8 m in 1.5 s while circling 0.1 m about the axis once a second
      // (it hangs in swirling folds), lowered to 3 cm in 1.5 s still circling, let go at 3 s.
      const float pi2 = 6.2831853f;
      if (t <= 3.0f) {
        const float height = t < 1.5f ? y0 + (0.8f - y0) * t / 1.5f : 0.8f - (0.8f - 0.03f) * (t - 1.5f) / 1.5f;
        const float target[3] = {0.1f * std::sin(pi2 * t), height, 0.1f * std::cos(pi2 * t) - 0.1f};
        s.grab_move(target);
      } else if (s.grabbed_vertex() >= 0) {
        const float still[3] = {0, 0, 0};
        s.grab_end(still);
      }
    }
    if (scene == Scene::Twist) {
      // Kinematic pins: the turned edge placed where the schedule has it at this frame's end (the
      // C API's sb_body_positions is writable the same way).
      const float u = std::min(1.0f, t / plan.seconds);
      const float angle = 6.2831853f * plan.turns * u;
      const float c = std::cos(angle), sn = std::sin(angle);
      for (size_t k = 0; k < turned.size(); ++k) {
        const float x = turned_rest[3 * k], y = turned_rest[3 * k + 1] - y0, z = turned_rest[3 * k + 2];
        float* at = s.positions() + 3 * turned[k];
        at[0] = c * x - sn * y;
        at[1] = y0 + sn * x + c * y;
        at[2] = z - plan.approach * L * u;
      }
      r.turns = plan.turns * u;
    }
    REQUIRE(w.step(dt, &diverged) == 0);
    std::vector<const SoftBody*> bodies{&s};
    if (with_other) bodies.push_back(w.body(other));
    std::vector<uint32_t> pairs;
    const uint32_t n = intersections(bodies, on_bad ? &pairs : nullptr);
    if (n > 0 && on_bad) on_bad(f, w, s, pairs);
    if (n > 0) {
      if (r.first_bad < 0) r.first_bad = f;
      ++r.bad_frames;
    }
    r.worst = std::max(r.worst, n);
  }
  for (uint32_t i = 0; i < 3 * s.vertex_count(); ++i) r.finite = r.finite && std::isfinite(s.positions()[i]);
  r.finite = r.finite && !s.diverged();
  r.kinetic_end = s.stats().kinetic_energy;
  r.min_y = s.stats().min_y;
  r.final_positions.assign(s.positions(), s.positions() + 3 * s.vertex_count());
  return r;
}

}  // namespace cloth_scenes
