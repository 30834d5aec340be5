// Native timing of issue 29's cloth scenes (the same worlds as tests/bench/cloth_bench.mjs builds in
// wasm): a 1 m sheet of near-equilateral triangles, `across` bases wide, self-collision at half the
// base, dropped from 0.7 m onto a 0.3 m sphere collider or a soft 0.5 m box (4 cells), 10 substeps of
// 1/60 s, one thread. After --settle frames, --frames frames are timed: this thread's CPU time per
// frame (median and mean, ms; the machine is shared, so CPU time rather than wall time), and the
// contact's phases as the world reports them (wall ms, means per frame), and a hash of the sheet's
// final positions (for changes meant to leave the results identical).
//
//   softbody_bench_cloth [--across N] [--support sphere|box|both] [--settle F] [--frames F]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "softbody.h"

namespace {

double cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

void run(int across, bool sphere, int settle, int frames) {
  sb_world w = sb_world_create();
  sb_world_set_substeps(w, 10);
  sb_world_set_gravity(w, 0, -9.81f, 0);
  sb_world_set_ground(w, 1);
  if (sphere) sb_collider_create_sphere(w, 0.3f, 0, 0.3f, 0);
  else sb_body_create_box(w, 4, 4, 4, 0.5f, 0.5f, 0.5f, 0, 0.25f, 0);
  const int rows = int(across / 0.866 + 0.5);
  const sb_body sheet = sb_body_create_cloth_rectangle(w, across, rows, 1, 1, 0, 0.7f, 0, 0);
  sb_body_set_self_collision(w, sheet, 1, 0.5f / float(across));
  const float dt = 1.0f / 60.0f;
  for (int f = 0; f < settle; ++f) sb_world_step(w, dt);
  std::vector<double> ms;
  double gather = 0, edge = 0, solve = 0, bound = 0, colliders = 0, cand = 0, pairs = 0, contacts = 0;
  for (int f = 0; f < frames; ++f) {
    const double t0 = cpu_ms();
    sb_world_step(w, dt);
    ms.push_back(cpu_ms() - t0);
    sb_world_contact_stats c{};
    sb_world_get_contact_stats(w, &c);
    gather += c.gather_ms, edge += c.edge_ms, solve += c.solve_ms, bound += c.bound_ms;
    colliders += c.collider_gather_ms + c.collider_solve_ms;
    cand += c.candidates, pairs += c.edge_pairs, contacts += c.contacts;
  }
  double mean = 0;
  for (double m : ms) mean += m;
  mean /= frames;
  std::sort(ms.begin(), ms.end());
  const double n = frames;
  // FNV-1a of the sheet's positions after the last frame: changes that claim identical results keep it.
  const float* x = sb_body_positions(w, sheet);
  const auto* bytes = reinterpret_cast<const unsigned char*>(x);
  unsigned long long hash = 1469598103934665603ull;
  for (size_t i = 0; i < sizeof(float) * 3 * size_t(sb_body_vertex_count(w, sheet)); ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
  std::printf("%d x %d on the %s: cpu ms/frame median %.2f mean %.2f | gather %.2f (edge pairs %.2f) solve %.2f (bounds %.2f) "
              "colliders %.2f | candidates %.0f edge pairs %.0f contacts %.0f | positions %016llx\n",
              across, rows, sphere ? "sphere" : "soft box", ms[ms.size() / 2], mean, gather / n, edge / n, solve / n, bound / n,
              colliders / n, cand / n, pairs / n, contacts / n, hash);
  sb_world_destroy(w);
}

}  // namespace

int main(int argc, char** argv) {
  int across = 64, settle = 45, frames = 30;
  const char* support = "both";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--across")) across = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--support")) support = argv[i + 1];
    else if (!std::strcmp(argv[i], "--settle")) settle = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--frames")) frames = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (frames < 1) return 2;
  if (std::strcmp(support, "box")) run(across, true, settle, frames);
  if (std::strcmp(support, "sphere")) run(across, false, settle, frames);
  return 0;
}
