// Issue 29's self-contact target (tests/core/cloth_scenes.h): a sheet twisted by its two opposite
// edges, on a sphere, on a jelly and crumpled on the ground never passes through itself or the other
// body: `npm run soak:cloth` (skipped in the suite: 13 s natively for the twist, a minute or more
// for each 20 s scene).
#include <doctest.h>

#include <cstdio>
#include <cstdlib>

#include "cloth_scenes.h"

using namespace cloth_scenes;

// In the soak, not the suite: 13 s natively. With one contact round the wasm build (other rounding)
// met the squeezed-pair failure (2 pairs at frame 437); with three (cloth_contact.h), 0 in both.
TEST_CASE("Soak: cloth twist, a sheet turned twice by one edge about its axis never passes through itself" * doctest::skip()) {
  // 0.5 m square, 20 bases across (25 mm spacing, self thickness 10 mm), both end rows pinned, the
  // +z row turned 2 full turns in 8 s while coming in 0.125 m, then held (cloth_scenes.h). The
  // sheet wraps into a rope pressed on itself along its whole length; its border rows are the
  // half triangles whose pairs are nearer than the exclusion at rest (cloth_contact.h): excluded,
  // they folded through each other (intersecting pairs from frame 487 on, up to 3 at once).
  // Exact count of intersecting triangle pairs at every frame: 0.
  TwistPlan plan;
  plan.turns = 2.0f;
  plan.seconds = 8.0f;
  const SceneResult r = run_scene(Scene::Twist, 20, 510, 1, plan);
  MESSAGE("twisted " << r.turns << " turns: worst " << r.worst << " intersecting pairs (first at frame " << r.first_bad << ")");
  CHECK(r.turns == doctest::Approx(2.0));
  CHECK(r.finite);
  CHECK(r.worst == 0);
}

// Per commit: the twist's squeezed phase, quickly. The rope is wound 2 turns in 2 s (4x the soak's
// rate) and held for half a second, at 20 across: its layers press on each other as in the soak's
// last seconds. 0 intersecting pairs at every frame (exact count). ~10 s natively: off the ASan run
// (CMakeLists.txt -tce=, "Cloth self-contact: *").
TEST_CASE("Cloth self-contact: a sheet twisted fast into a rope and held never passes through itself") {
  TwistPlan plan;
  plan.turns = 2.0f;
  plan.seconds = 2.0f;
  const SceneResult r = run_scene(Scene::Twist, 20, 150, 1, plan);
  MESSAGE("twisted fast: worst " << r.worst << " intersecting pairs (first at frame " << r.first_bad << ")");
  CHECK(r.finite);
  CHECK(r.worst == 0);
}

namespace {

void soak(Scene scene, int across, float turns = 2.0f) {
  TwistPlan plan;
  plan.turns = turns;
  plan.seconds = turns > 2.0f ? 9.0f : 8.0f;
  const SceneResult r = run_scene(scene, across, 1200, 1, plan);
  std::printf("soak: %s (%g turns) at %d across, 20 s: worst %u intersecting pairs, first at frame %d, %d frames with any; KE at the end %.3g J\n",
              scene_name(scene), scene == Scene::Twist ? turns : 0.0f, across, r.worst, r.first_bad, r.bad_frames, r.kinetic_end);
  CHECK(r.finite);
  CHECK(r.worst == 0);
}

}  // namespace

// `npm run soak:cloth` (skipped in the suite: 20 s of simulation each, a minute or more natively).
TEST_CASE("Soak: cloth on a sphere for 20 s, 20 and 32 across" * doctest::skip()) {
  soak(Scene::Sphere, 20);
  soak(Scene::Sphere, 32);
}
TEST_CASE("Soak: cloth on a jelly for 20 s, 20 and 32 across" * doctest::skip()) {
  soak(Scene::Jelly, 20);
  soak(Scene::Jelly, 32);
}
TEST_CASE("Soak: cloth crumpled on the ground for 20 s, 20 and 32 across" * doctest::skip()) {
  soak(Scene::Crumple, 20);
  soak(Scene::Crumple, 32);
}
TEST_CASE("Soak: cloth twisted for 20 s, 20 and 32 across" * doctest::skip()) {
  soak(Scene::Twist, 20);
  soak(Scene::Twist, 32);
}
TEST_CASE("Soak: cloth twisted 3 turns for 20 s, 20 and 32 across" * doctest::skip()) {
  soak(Scene::Twist, 20, 3.0f);
  soak(Scene::Twist, 32, 3.0f);
}
