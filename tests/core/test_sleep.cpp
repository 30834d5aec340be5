// Sleep (core/solver/sleep.h): bodies at rest stop being stepped, islands sleep and wake together, and
// every change wakes what it changes. Through the C API, so its validation is covered too.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "softbody.h"

namespace {

const float kFrame = 1.0f / 60.0f;  // s

sb_body_stats stats_of(sb_world w, sb_body b) {
  sb_body_stats s;
  REQUIRE(sb_body_get_stats(w, b, &s) == SB_OK);
  return s;
}

std::vector<float> positions_of(sb_world w, sb_body b) {
  const float* p = sb_body_positions(w, b);
  return std::vector<float>(p, p + 3 * sb_body_vertex_count(w, b));
}

// Steps until body b sleeps or `frames` pass; returns the frames stepped (frames + 1 if it never slept).
int frames_until_asleep(sb_world w, sb_body b, int frames) {
  for (int f = 1; f <= frames; ++f) {
    REQUIRE(sb_world_step(w, kFrame) == SB_OK);
    if (stats_of(w, b).asleep) return f;
  }
  return frames + 1;
}

}  // namespace

TEST_CASE("sleep: off by default; a box set down falls asleep once quiet, then keeps its shape to the bit") {
  sb_world w = sb_world_create();
  // A 0.4 m box of 4^3 cells dropped 5 cm onto the ground.
  const sb_body b = sb_body_create_box(w, 4, 4, 4, 0.4f, 0.4f, 0.4f, 0.0f, 0.25f, 0.0f);
  REQUIRE(b > 0);
  CHECK(frames_until_asleep(w, b, 180) == 181);  // sleep is off: 3 s and awake
  REQUIRE(sb_world_set_sleep(w, 0.01f, 0.5f) == SB_OK);
  // It is at rest by now: 0.5 s of quiet (30 frames) and it sleeps, not before.
  const int slept = frames_until_asleep(w, b, 120);
  CHECK(slept >= 30);
  CHECK(slept <= 32);
  const sb_body_stats s = stats_of(w, b);
  CHECK(s.kinetic_energy == 0.0);  // velocities set to 0
  CHECK(std::fabs(s.min_y) < 2e-3f);  // resting on the ground
  const std::vector<float> before = positions_of(w, b);
  for (int f = 0; f < 60; ++f) REQUIRE(sb_world_step(w, kFrame) == SB_OK);
  CHECK(positions_of(w, b) == before);  // not stepped
  CHECK(stats_of(w, b).asleep == 1);
  sb_world_destroy(w);
}

TEST_CASE("sleep: a call that changes a body wakes it, and changes to the world wake every body") {
  sb_world w = sb_world_create();
  REQUIRE(sb_world_set_sleep(w, 0.01f, 0.25f) == SB_OK);
  const sb_body a = sb_body_create_box(w, 3, 3, 3, 0.3f, 0.3f, 0.3f, -1.0f, 0.2f, 0.0f);
  const sb_body b = sb_body_create_box(w, 3, 3, 3, 0.3f, 0.3f, 0.3f, 1.0f, 0.2f, 0.0f);
  for (int f = 0; f < 120; ++f) REQUIRE(sb_world_step(w, kFrame) == SB_OK);
  REQUIRE(stats_of(w, a).asleep == 1);
  REQUIRE(stats_of(w, b).asleep == 1);
  // A parameter wakes only its body.
  REQUIRE(sb_body_set_param(w, a, SB_PARAM_FRICTION, 0.4f) == SB_OK);
  CHECK(stats_of(w, a).asleep == 0);
  CHECK(stats_of(w, b).asleep == 1);
  // Reading does not.
  sb_body_stats s;
  REQUIRE(sb_body_get_stats(w, b, &s) == SB_OK);
  CHECK(sb_body_get_param(w, b, SB_PARAM_FRICTION) >= 0.0f);
  CHECK(stats_of(w, b).asleep == 1);
  // Gravity turned sideways wakes both, and they slide off along it (friction 0.4 < tan of the pull).
  for (int f = 0; f < 60; ++f) REQUIRE(sb_world_step(w, kFrame) == SB_OK);
  REQUIRE(stats_of(w, a).asleep == 1);
  const float x_before = stats_of(w, b).center[0];
  REQUIRE(sb_world_set_gravity(w, 9.81f, -2.0f, 0.0f) == SB_OK);
  CHECK(stats_of(w, a).asleep == 0);
  CHECK(stats_of(w, b).asleep == 0);
  for (int f = 0; f < 30; ++f) REQUIRE(sb_world_step(w, kFrame) == SB_OK);
  CHECK(stats_of(w, b).center[0] > x_before + 0.05f);  // 0.5 s at >= 9.81 - 0.5 * 2 m/s^2 net: > 1 m
  // A grab wakes its body and moves it.
  REQUIRE(sb_world_set_gravity(w, 0.0f, -9.81f, 0.0f) == SB_OK);
  for (int f = 0; f < 240; ++f) REQUIRE(sb_world_step(w, kFrame) == SB_OK);
  REQUIRE(stats_of(w, a).asleep == 1);
  const sb_body_stats before = stats_of(w, a);
  REQUIRE(sb_body_grab_begin(w, a, 0, before.center[0], before.center[1] + 0.5f, before.center[2]) == SB_OK);
  CHECK(stats_of(w, a).asleep == 0);
  for (int f = 0; f < 30; ++f) REQUIRE(sb_world_step(w, kFrame) == SB_OK);
  CHECK(stats_of(w, a).center[1] > before.center[1] + 0.1f);
  CHECK(stats_of(w, a).asleep == 0);  // held: never quiet
  sb_world_destroy(w);
}

TEST_CASE("sleep: a stack sleeps as one island, and a box dropped on it wakes it before they touch") {
  sb_world w = sb_world_create();
  REQUIRE(sb_world_set_sleep(w, 0.01f, 0.5f) == SB_OK);
  // Two 0.3 m boxes stacked, and a third far to the side that falls asleep on its own.
  const sb_body low = sb_body_create_box(w, 3, 3, 3, 0.3f, 0.3f, 0.3f, 0.0f, 0.16f, 0.0f);
  const sb_body high = sb_body_create_box(w, 3, 3, 3, 0.3f, 0.3f, 0.3f, 0.0f, 0.48f, 0.0f);
  const sb_body aside = sb_body_create_box(w, 3, 3, 3, 0.3f, 0.3f, 0.3f, 3.0f, 0.16f, 0.0f);
  for (int f = 0; f < 240; ++f) REQUIRE(sb_world_step(w, kFrame) == SB_OK);
  REQUIRE(stats_of(w, low).asleep == 1);
  REQUIRE(stats_of(w, high).asleep == 1);
  REQUIRE(stats_of(w, aside).asleep == 1);
  const float low_top = stats_of(w, high).min_y;  // m, where the top box rests
  // A fourth box 1 m above the stack: awake (new), it falls; the stack wakes in the frame its bounds
  // (its predicted path, widened by the contact reach) first meet the stack's, before any contact.
  const sb_body drop = sb_body_create_box(w, 3, 3, 3, 0.3f, 0.3f, 0.3f, 0.0f, 1.6f, 0.0f);
  const float top = low_top + 0.3f;  // m, the stack's top
  float drop_before = 0.0f;          // m, the dropped box's lowest point before the frame that woke the stack
  int woke = -1;
  for (int f = 0; f < 120 && woke < 0; ++f) {
    drop_before = stats_of(w, drop).min_y;
    REQUIRE(sb_world_step(w, kFrame) == SB_OK);
    if (!stats_of(w, high).asleep) woke = f;
  }
  REQUIRE(woke >= 0);
  CHECK(drop_before > top + 0.005f);  // still apart by more than the contact gap when that frame began
  CHECK(drop_before < top + 0.2f);    // and not woken long before: 1.6 m/s^2 ... at ~4 m/s, a frame is 7 cm
  CHECK(stats_of(w, low).asleep == 0);  // the whole island
  CHECK(stats_of(w, aside).asleep == 1);  // another island
  // The impact reaches the stack as it would with sleep off: the top box is pushed down into the
  // lower one (its lowest point below where it rested), not hit as a wall.
  float lowest = low_top;
  for (int f = 0; f < 60; ++f) {
    REQUIRE(sb_world_step(w, kFrame) == SB_OK);
    lowest = std::min(lowest, stats_of(w, high).min_y);
  }
  CHECK(lowest < low_top - 2e-3f);
  // Removing the lower box drops the rest: it wakes every body.
  REQUIRE(frames_until_asleep(w, high, 600) <= 600);
  REQUIRE(sb_body_destroy(w, low) == SB_OK);
  CHECK(stats_of(w, high).asleep == 0);
  for (int f = 0; f < 60; ++f) REQUIRE(sb_world_step(w, kFrame) == SB_OK);
  CHECK(stats_of(w, high).min_y < 0.05f);
  sb_world_destroy(w);
}

TEST_CASE("sleep: the same bytes for 1, 2 and 3 threads, and bad settings refused with nothing changed") {
  std::vector<float> first;
  for (int threads = 1; threads <= 3; ++threads) {
    sb_world w = sb_world_create();
    if (threads > sb_max_threads()) break;
    REQUIRE(sb_world_set_threads(w, threads) == SB_OK);
    REQUIRE(sb_world_set_sleep(w, 0.02f, 0.25f) == SB_OK);
    const sb_body a = sb_body_create_box(w, 6, 6, 6, 0.4f, 0.4f, 0.4f, 0.0f, 0.3f, 0.0f);
    const sb_body b = sb_body_create_box(w, 6, 6, 6, 0.4f, 0.4f, 0.4f, 0.1f, 0.8f, 0.05f);
    for (int f = 0; f < 150; ++f) REQUIRE(sb_world_step(w, kFrame) == SB_OK);
    std::vector<float> now = positions_of(w, a);
    const std::vector<float> pb = positions_of(w, b);
    now.insert(now.end(), pb.begin(), pb.end());
    now.push_back(float(stats_of(w, a).asleep + stats_of(w, b).asleep));
    if (threads == 1) first = now;
    else CHECK(std::memcmp(now.data(), first.data(), 4 * now.size()) == 0);
    sb_world_destroy(w);
  }
  sb_world w = sb_world_create();
  const sb_body b = sb_body_create_box(w, 3, 3, 3, 0.3f, 0.3f, 0.3f, 0.0f, 0.16f, 0.0f);
  CHECK(sb_world_set_sleep(w, -0.1f, 0.5f) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_world_set_sleep(w, NAN, 0.5f) == SB_ERR_NOT_FINITE);
  CHECK(sb_world_set_sleep(w, 2.0f, 0.5f) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_world_set_sleep(w, 0.01f, 0.0f) == SB_ERR_OUT_OF_RANGE);
  CHECK(std::strstr(sb_last_error(), "sleep time") != nullptr);
  CHECK(sb_world_set_sleep(w, 0.01f, INFINITY) == SB_ERR_NOT_FINITE);
  CHECK(sb_world_set_sleep(0, 0.01f, 0.5f) == SB_ERR_INVALID_WORLD);
  for (int f = 0; f < 120; ++f) REQUIRE(sb_world_step(w, kFrame) == SB_OK);
  CHECK(stats_of(w, b).asleep == 0);  // still off
  sb_world_destroy(w);
}
