// Convergence benchmark (issue 28's table): a slender Neo-Hookean cantilever clamped at one end,
// settled under gravity by one solver configuration; prints one JSON line per run with the tip's
// sag over the static solver's answer on the same mesh, the wall time per frame and what the
// convergence report said. With --drop h the body is instead a free box dropped h metres onto the
// ground and left to rest (no static answer: the static solver has no contact); the line gives its
// top height over the rest height, ms per frame and what the report said over the timed frames.
// Driven by tests/bench/convergence_bench.mjs (npm run bench).
//
//   softbody_bench_convergence [--cells nx ny nz] [--size lx ly lz] [--youngs Pa] [--poisson nu]
//                              [--substeps n] [--frames n] [--timed n] [--damping 1/s] [--drop m]
//                              --solver xpbd|vbd|implicit [--iterations n | --target s --budget n] [--cold]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "shapes/shapes.h"
#include "solver/soft_body.h"

namespace {

struct Options {
  int cells[3] = {24, 8, 2};
  float size[3] = {2.4f, 0.24f, 0.06f};  // m
  float youngs = 5e6f, poisson = 0.3f;   // Pa, -
  int substeps = 10, frames = 300, timed = 30;
  std::string solver = "xpbd";
  int iterations = 1, budget = 16;
  float target = 0.0f;
  bool warm = true;
  float damping = 10.0f;  // 1/s: the dynamic solvers come to rest in a few seconds; the rest state is not moved by it
  float drop = -1.0f;     // m; < 0: the clamped cantilever
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr, "softbody_bench_convergence: %s\n", why);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  auto num = [&](int& i) {
    if (++i >= argc) usage("missing value");
    char* end = nullptr;
    const double v = std::strtod(argv[i], &end);
    if (end == argv[i] || *end) usage(argv[i]);
    return v;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--cells") for (int k = 0; k < 3; ++k) o.cells[k] = int(num(i));
    else if (a == "--size") for (int k = 0; k < 3; ++k) o.size[k] = float(num(i));
    else if (a == "--youngs") o.youngs = float(num(i));
    else if (a == "--poisson") o.poisson = float(num(i));
    else if (a == "--substeps") o.substeps = int(num(i));
    else if (a == "--frames") o.frames = int(num(i));
    else if (a == "--timed") o.timed = int(num(i));
    else if (a == "--iterations") o.iterations = int(num(i));
    else if (a == "--budget") o.budget = int(num(i));
    else if (a == "--target") o.target = float(num(i));
    else if (a == "--solver" && i + 1 < argc) o.solver = argv[++i];
    else if (a == "--damping") o.damping = float(num(i));
    else if (a == "--drop") o.drop = float(num(i));
    else if (a == "--cold") o.warm = false;
    else usage(("unknown argument " + a).c_str());
  }
  return o;
}

std::unique_ptr<sb::SoftBody> beam(const Options& o) {
  sb::BodyParams p;
  p.material = sb::Material::NeoHookean;
  p.youngs_modulus = o.youngs;
  p.poisson_ratio = o.poisson;
  p.damping = o.damping;
  p.iterations = o.iterations;
  p.stiffness_target = o.target;
  p.max_iterations = o.budget;
  p.warm_start = o.warm;
  auto b = std::make_unique<sb::SoftBody>(
      sb::make_box(o.cells[0], o.cells[1], o.cells[2], o.size[0], o.size[1], o.size[2], 0.5f * o.size[0], 1.0f, 0.0f), p);
  for (uint32_t i = 0; i < b->vertex_count(); ++i)
    if (b->rest_positions()[3 * i] < 1e-5f) b->set_pinned(i, true);
  return b;
}

double tip_sag(const sb::SoftBody& b, float length) {
  double sum = 0;
  int n = 0;
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    if (b.rest_positions()[3 * i] > length - 1e-5f) sum += b.rest_positions()[3 * i + 1] - b.positions()[3 * i + 1], ++n;
  return sum / n;
}

// The box mode: a free box, its bottom o.drop above the ground, dropped and left to rest at the
// page's settings (ground on, restitution 0.2, friction 0.5: BodyParams' defaults).
int run_box(const Options& o) {
  sb::BodyParams p;
  p.material = sb::Material::NeoHookean;
  p.youngs_modulus = o.youngs;
  p.poisson_ratio = o.poisson;
  p.damping = o.damping;
  p.iterations = o.iterations;
  p.stiffness_target = o.target;
  p.max_iterations = o.budget;
  p.warm_start = o.warm;
  sb::SoftBody b(sb::make_box(o.cells[0], o.cells[1], o.cells[2], o.size[0], o.size[1], o.size[2], 0.0f,
                              o.drop + 0.5f * o.size[1], 0.0f),
                 p);
  const sb::Solver solver = o.solver == "vbd" ? sb::Solver::Vbd : o.solver == "implicit" ? sb::Solver::ImplicitEuler : sb::Solver::Xpbd;
  if (!b.set_solver(solver)) usage("solver refused");
  auto top = [&] {
    float y = -1e30f;
    for (uint32_t i = 0; i < b.vertex_count(); ++i) y = std::max(y, b.positions()[3 * i + 1]);
    return double(y);
  };
  sb::StepSettings s;
  s.substeps = o.substeps;
  std::vector<double> ms, reached;
  double top_before = 0.0;
  int passes = 0, substeps = 0, met = 0;
  bool finite = true;
  for (int f = 0; f < o.frames && finite; ++f) {
    if (f == o.frames - o.timed) top_before = top();
    const auto t0 = std::chrono::steady_clock::now();
    finite = b.step(1.0f / 60, s);
    const auto t1 = std::chrono::steady_clock::now();
    if (f >= o.frames - o.timed) {
      ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      const sb::ConvergenceReport& c = b.convergence();
      passes += c.passes, substeps += c.substeps;
      reached.push_back(c.stiffness_reached);
      met += c.status == sb::ConvergenceStatus::Met;
    }
  }
  std::sort(ms.begin(), ms.end());
  std::sort(reached.begin(), reached.end());
  const double h = top();
  // Heights over the rest height o.size[1]; drift over the timed frames says whether it had settled.
  std::printf("{\"solver\":\"%s\",\"iterations\":%d,\"target\":%g,\"budget\":%d,\"substeps\":%d,\"tets\":%u,"
              "\"youngs\":%g,\"height\":%.6g,\"drift\":%.3g,\"msPerFrame\":%.4f,\"passesPerSubstep\":%.3f,"
              "\"stiffnessMedian\":%.4f,\"stiffnessMin\":%.4f,\"framesMet\":%d,\"timed\":%zu,\"status\":%d,\"finite\":%s}\n",
              o.solver.c_str(), o.iterations, double(o.target), o.budget, o.substeps, b.tet_count(), double(o.youngs),
              h / o.size[1], (h - top_before) / o.size[1], ms.empty() ? 0.0 : ms[ms.size() / 2],
              substeps ? double(passes) / substeps : 0.0, reached.empty() ? 0.0 : reached[reached.size() / 2],
              reached.empty() ? 0.0 : reached.front(), met, ms.size(), int(b.convergence().status), finite ? "true" : "false");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (o.drop >= 0.0f) return run_box(o);
  const float g[3] = {0.0f, -9.81f, 0.0f};
  auto reference = beam(o);
  const sb::StaticReport st = reference->settle_static(g);
  const double static_tip = tip_sag(*reference, o.size[0]);

  auto b = beam(o);
  const sb::Solver solver = o.solver == "vbd" ? sb::Solver::Vbd : o.solver == "implicit" ? sb::Solver::ImplicitEuler : sb::Solver::Xpbd;
  if (!b->set_solver(solver)) usage("solver refused");
  sb::StepSettings s;
  s.ground = false;
  s.substeps = o.substeps;
  std::vector<double> ms;
  double tip_before = 0.0;
  int passes = 0, substeps = 0;
  bool finite = true;
  for (int f = 0; f < o.frames && finite; ++f) {
    if (f == o.frames - o.timed) tip_before = tip_sag(*b, o.size[0]);
    const auto t0 = std::chrono::steady_clock::now();
    finite = b->step(1.0f / 60, s);
    const auto t1 = std::chrono::steady_clock::now();
    if (f >= o.frames - o.timed) {
      ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      passes += b->convergence().passes, substeps += b->convergence().substeps;
    }
  }
  std::sort(ms.begin(), ms.end());
  const double tip = tip_sag(*b, o.size[0]);
  const sb::ConvergenceReport& c = b->convergence();
  std::printf("{\"solver\":\"%s\",\"iterations\":%d,\"target\":%g,\"budget\":%d,\"substeps\":%d,\"tets\":%u,"
              "\"staticConverged\":%s,\"staticTip\":%.9g,\"tip\":%.9g,\"ratio\":%.6g,\"drift\":%.3g,\"msPerFrame\":%.4f,"
              "\"stiffnessReached\":%.4f,\"status\":%d,\"passesPerSubstep\":%.3f,\"finite\":%s,\"stiffnessNumber\":%.4g}\n",
              o.solver.c_str(), o.iterations, double(o.target), o.budget, o.substeps, b->tet_count(),
              st.status == sb::StaticStatus::Converged ? "true" : "false", static_tip, tip, tip / static_tip,
              (tip - tip_before) / static_tip, ms.empty() ? 0.0 : ms[ms.size() / 2], c.stiffness_reached, int(c.status),
              substeps ? double(passes) / substeps : 0.0, finite ? "true" : "false",
              b->xpbd_stiffness_number(1.0f / 60 / o.substeps));
  return 0;
}
