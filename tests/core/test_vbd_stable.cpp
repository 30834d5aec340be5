// Issue 28: VBD never blows up. One sweep (the fewest the C API allows) under each of the page's
// Neo-Hookean presets, on the page's shapes and on imported-like meshes (the tetrahedralizer's
// teapot-like open mesh and union of spheres, and a box whose vertices are jittered into slivers as
// a TetGen file may have them): drops onto the ground, a grab pulled hard and thrown, a press.
// Energy (kinetic + gravity + elastic) may only come from what drives the body: the grab while
// held, the squash; between those it must not grow. Also every page shape and sample.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "meshing/tetrahedralizer.h"
#include "shapes/shapes.h"
#include "shapes/tet_mesh.h"
#include "solver/soft_body.h"
#include "bunny_surface.h"
#include "surfaces.h"

using namespace sb;
using namespace testing_surfaces;

namespace {

// As the page places an import (placement.js): longest side 1 m, centred in x and z, bottom 0.5 m up.
void place(TetMesh& m) {
  float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
  for (size_t i = 0; i < m.positions.size(); ++i)
    lo[i % 3] = std::min(lo[i % 3], m.positions[i]), hi[i % 3] = std::max(hi[i % 3], m.positions[i]);
  const float k = 1.0f / std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
  const float shift[3] = {-0.5f * (lo[0] + hi[0]) * k, 0.5f - lo[1] * k, -0.5f * (lo[2] + hi[2]) * k};
  for (size_t i = 0; i < m.positions.size(); ++i) m.positions[i] = m.positions[i] * k + shift[i % 3];
}

TetMesh tetrahedralized(const Soup& s, int resolution) {
  TetraOptions o;
  o.resolution = resolution;
  Tetrahedralizer t(s.positions.data(), s.vertex_count(), s.triangles.data(), s.triangle_count(), o);
  REQUIRE(t.problem() == SurfaceProblem::None);
  TetraStatus status;
  while ((status = t.run(1 << 20)) == TetraStatus::Working) {
  }
  REQUIRE(status == TetraStatus::Done);
  TetMesh m;
  m.positions = t.positions();
  m.tets = t.tets();
  place(m);
  return m;
}

// A lattice box whose vertices moved up to 0.45 of a cell at random: slivers and needles (tets
// turned over by the jitter are flipped back), the kind of mesh an imported TetGen file may carry.
TetMesh jittered_box(int cells) {
  TetMesh m = make_box(cells, cells, cells, 1, 1, 1, 0, 1, 0);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-0.45f / float(cells), 0.45f / float(cells));
  for (float& x : m.positions) x += u(rng);
  for (size_t t = 0; t < m.tets.size(); t += 4)
    if (tet_volume6(m.positions.data(), &m.tets[t]) <= 0) std::swap(m.tets[t], m.tets[t + 1]);
  place(m);
  return m;
}

double energy(const SoftBody& b, const StepSettings& s) {
  const BodyStats st = b.stats(s.gravity);
  return st.kinetic_energy + st.potential_energy + st.elastic_energy;
}

struct Preset {
  const char* name;
  float youngs_modulus, poisson_ratio;  // Pa, -
};

// The page's lattices (settings.js SHAPES, coarse) and samples (import/samples.js: the bunny, a
// torus lying flat, a sphere) through the tetrahedralizer at 4 cells, as imports; and the
// tetrahedralizer's teapot-like and union-of-spheres meshes and the jittered box.
struct Shape {
  const char* name;
  TetMesh mesh;
};
// The page's shapes and samples (bar, bunny, torus, sphere) run under rubber only in the per-commit
// test (the stiffest preset, where the energy gains were; the bunny alone is 1,764 vertices), and
// under every preset in the soak.
std::vector<Shape> shapes(bool page = true) {
  if (!page)
    return {{"box", make_box(4, 4, 4, 1, 1, 1, 0, 1, 0)},
            {"ball", make_ball(0.5f, 4, 0, 1, 0)},
            {"teapot-like", tetrahedralized(teapot_like(), 4)},
            {"sphere union", tetrahedralized(sphere_union(), 4)},
            {"jittered box", jittered_box(4)}};
  return {{"box", make_box(4, 4, 4, 1, 1, 1, 0, 1, 0)},
          {"ball", make_ball(0.5f, 4, 0, 1, 0)},
          {"bar", make_box(8, 1, 1, 1.6f, 0.2f, 0.2f, 0, 0.6f, 0)},
          {"bunny", tetrahedralized(bunny_soup(), 4)},
          {"torus", tetrahedralized(torus(0.35f, 0.15f, 48, 24), 4)},
          {"sphere", tetrahedralized(uv_sphere(0.5f, 32, 16), 4)},
          {"teapot-like", tetrahedralized(teapot_like(), 4)},
          {"sphere union", tetrahedralized(sphere_union(), 4)},
          {"jittered box", jittered_box(4)}};
}

// settings.js MATERIAL_PRESETS
const Preset kPresets[] = {{"gelatin", 1e4f, 0.49f}, {"silicone", 1e5f, 0.45f}, {"rubber", 2e6f, 0.49f}};

// `cycles` rounds of 115 frames (1.9 s): a drop (from 0.5 m the first time, from the throw after),
// a grab of the top vertex pulled 1.2 m up and 0.6 m aside in 1/3 s (~4 m/s) and thrown at 2.2 m/s,
// a press to 50 % released over 0.3 s. The grab's x is absolute (0.03 m to 0.6 m), so from the
// second round on its first target is wherever the last throw left the body from: a yank of metres
// in a frame. Returns the largest gain of energy over the start of the undriven phase it is in, /
// that start (at least 1 J), and in *diverged the first frame that was not finite (-1: none; the run
// stops there).
double drop_grab_press(const Shape& shape, const Preset& preset, int cycles, VbdStepStats* stats, int* diverged) {
  BodyParams p;  // the page's defaults (settings.js DEFAULTS) with the preset
  p.material = Material::NeoHookean;
  p.youngs_modulus = preset.youngs_modulus;
  p.poisson_ratio = preset.poisson_ratio;
  p.iterations = 1;
  p.damping = 1.0f;
  p.grab_radius = 0.15f;
  SoftBody b(shape.mesh, p);
  REQUIRE(b.set_solver(Solver::Vbd));
  const StepSettings s;  // 10 substeps, ground, g = 9.81 m/s^2
  uint32_t top = 0;
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    if (b.positions()[3 * i + 1] > b.positions()[3 * top + 1]) top = i;
  // Nothing drives the body in the drop, after the throw, or under the rising plate (which the body
  // pushes up, doing work on it), so the energy may not rise above what it had when each began.
  double reference = energy(b, s), worst = 0.0;  // J; largest excess over the reference / reference
  *diverged = -1;
  for (int f = 0; f < 115 * cycles; ++f) {
    const int c = f % 115;
    if (c == 0) {
      top = 0;
      for (uint32_t i = 0; i < b.vertex_count(); ++i)
        if (b.positions()[3 * i + 1] > b.positions()[3 * top + 1]) top = i;
    }
    float target[3] = {b.positions()[3 * top], b.positions()[3 * top + 1], b.positions()[3 * top + 2]};
    if (c == 35) b.grab_begin(top, target);  // landed (0.5 m fall: 0.32 s), still jiggling
    if (c > 35 && c <= 55) {
      target[0] = 0.03f * float(c - 35);
      target[1] += 0.06f;
      b.grab_move(target);
    }
    if (c == 60) {
      const float thrown[3] = {2.0f, 1.0f, 0.0f};  // m/s
      b.grab_end(thrown);
    }
    if (c == 85) REQUIRE(b.press(0.5f, 0.3f));
    const bool finite = b.step(1.0f / 60, s);
    if (!finite || !b.stats().finite) {
      *diverged = f;
      break;
    }
    const double e = energy(b, s);
    if (c == 60 || c == 85) reference = e;  // driven until here (the throw's speed, the squash)
    const bool driven = c >= 35 && c < 60;
    if (!driven) worst = std::max(worst, (e - reference) / std::max(std::fabs(reference), 1.0));
  }
  *stats = b.vbd_step_stats();
  return worst;
}

}  // namespace

TEST_CASE("VBD at 1 sweep: every preset on page shapes and imported-like meshes drops, is grabbed and pressed without gaining energy") {
  const std::vector<Shape> all = shapes(), some = shapes(false);
  for (const Preset& preset : kPresets)
    for (const Shape& shape : preset.youngs_modulus > 1e6f ? all : some) {
      const std::string name = std::string(preset.name) + " " + shape.name;
      CAPTURE(name);
      VbdStepStats stats;
      int diverged = -1;
      const double worst = drop_grab_press(shape, preset, 1, &stats, &diverged);
      CHECK(diverged == -1);
      // No substep ends above G(x_n) (soft_body_vbd.cpp), so the potential energy never exceeds the
      // energy the substep began with, and vbd_limit_energy takes the excess from the motion, the
      // centre of mass's too for a free body:
      // no gain, up to 1 % for the reading (the energy read
      // from the frame's velocities, (x - x_prev) / h of its last substep, and its positions is not
      // the step's own measure: a body resting under gravity reads ~ m g^2 h^2 / 2 of kinetic
      // energy it does not have). Without the check and the centre of mass's share, rubber
      // gained 8-263 % on the jittered box, sphere union, teapot-like, torus and bunny.
      CHECK(worst < 0.01);
      CHECK(stats.largest_rise <= 0.0);  // J: no block step raised its vertex's share of G
      CHECK(stats.largest_substep_rise <= 0.0);  // J: no substep ended above G(x_n)
      MESSAGE(name << ": largest energy gain " << worst * 100 << " % of the phase's start; steps shortened "
                   << stats.halved << ", not taken " << stats.rejected << " of " << stats.steps);
    }
}

// npm run soak:vbd: the target, 20 s of drops, grabs and presses on every shape and preset.
TEST_CASE("Soak: VBD at 1 sweep for 21 s of drops, grabs and presses on every shape and preset" * doctest::skip()) {
  for (const Preset& preset : kPresets)
    for (const Shape& shape : shapes()) {
      const std::string name = std::string(preset.name) + " " + shape.name;
      CAPTURE(name);
      VbdStepStats stats;
      int diverged = -1;
      const double worst = drop_grab_press(shape, preset, 11, &stats, &diverged);
      // Every run to its end, its failures reported with the others' (not stopped at the first).
      CHECK(diverged == -1);
      CHECK(worst < 0.01);  // as above
      CHECK(stats.largest_rise <= 0.0);
      CHECK(stats.largest_substep_rise <= 0.0);
      MESSAGE(name << ": largest energy gain " << worst * 100 << " %; first frame not finite " << diverged
                   << "; redone " << stats.fallbacks << " of " << stats.substeps << " substeps");
    }
}

TEST_CASE("VBD at 1 sweep: the gelatin bunny yanked by the grab gains no energy after") {
  // The soak's failing situation: in its second cycle the bunny lies where the first throw left it,
  // and the grab's first target (x = 0.03 m) yanks it ~1.5 m in a frame, leaving it stretched metres
  // along the ground. Friction applied after the sweeps then held its ground vertices back where the
  // sweeps had relaxed them, re-storing up to 20 kJ a substep with its velocities already zero: +24 %
  // over the undriven phase after the throw (and the silicone bunny went non-finite at frame 522).
  // Friction is now a potential inside the sweep (vbd.h), under the whole-substep check.
  const std::vector<Shape> all = shapes();
  const Shape& bunny = *std::find_if(all.begin(), all.end(), [](const Shape& sh) { return std::string(sh.name) == "bunny"; });
  VbdStepStats stats;
  int diverged = -1;
  const double worst = drop_grab_press(bunny, kPresets[0], 2, &stats, &diverged);
  CHECK(diverged == -1);
  MESSAGE("gelatin bunny, 2 cycles: largest energy gain " << worst * 100 << " %");
  CHECK(worst < 0.01);  // as above
  CHECK(stats.largest_substep_rise <= 0.0);
}

TEST_CASE("VBD at 1 sweep: a grab yanked metres in a frame drags a rubber rod at the hand's speed, and a still hand adds nothing") {
  // The soak's divergences (npm run soak:vbd): the grab's target jumped to x = 0.03 m from wherever
  // the last throw had left the body, 2-21 m in one frame. A kinematic hand moved the held vertices
  // there before the sweeps, and the tets it stretched held the jump's energy: 1.4e7 J put into the
  // 64 kg rubber bar, which flew 80 m, and the next yank blew it up (frame 1,085); the silicone
  // teapot-like mesh, stretched over 10 m, went non-finite at frame 844. Here a rod of our own: a
  // 0.9 m x 0.12 m x 0.12 m rubber rod (2 MPa, nu = 0.49; 13 kg), at rest on the ground, grabbed
  // at one end, the pointer jumped 4 m along the rod's axis and held there for 3.5 s.
  BodyParams p;
  p.material = Material::NeoHookean;
  p.youngs_modulus = 2e6f;
  p.poisson_ratio = 0.49f;
  p.iterations = 1;
  p.damping = 1.0f;
  p.grab_radius = 0.1f;
  SoftBody b(make_box(6, 1, 1, 0.9f, 0.12f, 0.12f, 0, 0.06f, 0), p);
  REQUIRE(b.set_solver(Solver::Vbd));
  const StepSettings s;  // 10 substeps, ground
  for (int f = 0; f < 30; ++f) REQUIRE(b.step(1.0f / 60, s));
  uint32_t end = 0;  // the vertex farthest along -x
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    if (b.positions()[3 * i] < b.positions()[3 * end]) end = i;
  const float start[3] = {b.positions()[3 * end], b.positions()[3 * end + 1], b.positions()[3 * end + 2]};
  b.grab_begin(end, start);
  const float pointer[3] = {start[0] - 4.0f, start[1] + 0.3f, start[2]};  // m: 4 m in a frame, 240 m/s
  b.grab_move(pointer);
  const double mass = b.stats(s.gravity).mass;  // kg
  double fastest = 0.0, most = 0.0;  // m/s of the held vertex, J of kinetic energy
  double arrived = 0.0, gain = 0.0;  // J at 0.75 s, when the hand has stood still for 0.35 s; largest gain after / it
  for (int f = 0; f < 210; ++f) {
    const float before = b.positions()[3 * end];
    const bool finite = b.step(1.0f / 60, s);
    CAPTURE(f);
    REQUIRE(finite);
    fastest = std::max(fastest, double(std::fabs(b.positions()[3 * end] - before)) * 60.0);
    most = std::max(most, b.stats(s.gravity).kinetic_energy);
    const double e = energy(b, s);
    if (f == 44) arrived = e;
    if (f > 44) gain = std::max(gain, (e - arrived) / arrived);
  }
  // The hand closes the 4 m at kVbdGrabSpeed (10 m/s): there after 0.4 s.
  CHECK(std::fabs(b.positions()[3 * end] - pointer[0]) < 0.01f);
  CHECK(fastest <= double(kVbdGrabSpeed) * 1.001);  // m/s, over a frame
  // Dragged at 10 m/s, the rod's kinetic energy is of the order of M v^2 / 2 = 650 J: its far end
  // whips past the hand (a rod swung about one end moving at v, its tip at 2v, holds 2.3 times it)
  // and the stretch relaxes into motion; measured 2.2 kJ. The kinematic hand put in 73 kJ (112 times).
  MESSAGE("largest kinetic energy " << most << " J; M v^2 / 2 = " << 0.5 * mass * kVbdGrabSpeed * kVbdGrabSpeed << " J");
  CHECK(most < 10.0 * 0.5 * mass * double(kVbdGrabSpeed) * kVbdGrabSpeed);
  // A still hand is a support: it does no work, so the rod's energy may only fall (1 % for the
  // reading, as above). Before the hand's energy was counted in the limit, a rod held still after a
  // 2 m jump climbed from 4 kJ to 10^7 J in 4 s.
  MESSAGE("largest gain with the hand still " << gain * 100 << " % of " << arrived << " J");
  CHECK(gain < 0.01);
}
