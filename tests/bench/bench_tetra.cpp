// Tetrahedralizer timings, one JSON line per case and round: Delaunay insertion of random points
// (1e4, 1e5) and the whole pipeline on the Stanford bunny (resolution 10 and 20) and on issue 26's
// kinds of mesh at resolution 10 (tests/core/surfaces.h: three overlapping spheres, a grooved
// block, a box with a vertex pulled 7.6 mm from a neighbour, an open teapot-like mesh with a thin
// handle, a 1 m x 1 m x 5 mm plate, a dome shell 50 mm thick; the plate and a 20 mm dome under a tet
// bound, thickened or meshed coarser), each with the time of each stage,
// the estimate made before running, the output's vertices and tets, min quality and volume error (against the
// solid's volume, overlaps counted once); and the physics per frame of two of them as bodies (step-*). Built natively and
// as wasm; tests/bench/tetra_bench.mjs runs both, interleaved, and reports medians.
// Usage: softbody_bench_tetra [rounds] [case prefix] (after one untimed warm-up round; with a prefix,
// only the cases whose name starts with it, e.g. "delaunay")
#include <bunny_mesh.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <tuple>
#include <utility>
#include <vector>

#include "meshing/delaunay.h"
#include "meshing/tetrahedralizer.h"
#include "solver/world.h"
#include "surfaces.h"

namespace {

using Clock = std::chrono::steady_clock;

std::vector<double> random_points(int64_t n, uint64_t seed) {  // splitmix64, as in the tests
  std::vector<double> p(3 * size_t(n));
  for (double& x : p) {
    uint64_t z = (seed += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    x = double((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
  }
  return p;
}

// The whole pipeline on one surface; prints its JSON line when report is set.
void pipeline(const char* name, const float* xyz, int64_t vertices, const uint32_t* triangles, int64_t count, int resolution,
              bool report, int64_t max_tets = 0, sb::ThinParts thin_parts = sb::ThinParts::Sample) {
  sb::TetraOptions o;
  o.resolution = resolution;
  o.max_tets = max_tets;
  o.thin_parts = thin_parts;
  const auto start = Clock::now();
  sb::Tetrahedralizer t(xyz, vertices, triangles, count, o);
  t.estimate_tets();  // timed with the rest; a thin-parts choice may replace it (the stats keep the last)
  while (t.run(1 << 30) == sb::TetraStatus::Working) {
  }
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  const sb::TetraStats& s = t.stats();
  if (report)
    std::printf("{\"case\":\"%s\",\"ms\":%.3f,\"points\":%lld,\"tets\":%lld,\"estimatedTets\":%lld,\"parts\":%lld,"
                "\"stages\":{\"cleanup\":%.3f,\"sampling\":%.3f,\"delaunay\":%.3f,\"inside\":%.3f,\"improve\":%.3f,"
                "\"finish\":%.3f},\"minQuality\":%.4f,\"volumeError\":%.5f}\n",
                name, ms, (long long)s.vertices, (long long)s.tets, (long long)s.estimated_tets, (long long)s.parts, s.cleanup_ms,
                s.sampling_ms, s.delaunay_ms, s.inside_ms, s.improve_ms, s.finish_ms, s.min_quality,
                s.volume / s.surface_volume - 1);
}

// What a body costs per frame: the surface meshed at `resolution`, dropped at the page's defaults
// (the simple model under XPBD, 10 substeps, one pass, edge compliance 1e-4 m/N, damping 1/s) and
// stepped for 60 frames (1 s: falling, then landing on the ground); ms per frame and us per tet.
// The page prices an import's tets at the step time per tet it measures itself (import_messages.js);
// this is the same cost on a known scene.
void step_cost(const char* name, const testing_surfaces::Soup& soup, int resolution, bool report) {
  sb::TetraOptions o;
  o.resolution = resolution;
  sb::Tetrahedralizer t(soup.positions.data(), soup.vertex_count(), soup.triangles.data(), soup.triangle_count(), o);
  while (t.run(1 << 30) == sb::TetraStatus::Working) {
  }
  sb::TetMesh mesh;
  mesh.positions = t.positions();
  mesh.tets = t.tets();
  for (size_t i = 1; i < mesh.positions.size(); i += 3) mesh.positions[i] += 1.0f;  // 1 m up
  sb::World w;
  sb::BodyParams p;
  p.edge_compliance = 1e-4f;  // m/N
  p.damping = 1.0f;           // 1/s
  w.add_body(mesh, p);
  const int frames = 60;
  const auto start = Clock::now();
  for (int f = 0; f < frames; ++f) w.step(1.0f / 60.0f, nullptr);
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count() / frames;
  const auto tets = int64_t(mesh.tets.size() / 4);
  if (report)
    std::printf("{\"case\":\"%s\",\"ms\":%.3f,\"points\":%lld,\"tets\":%lld,\"usPerTet\":%.4f}\n", name, ms,
                (long long)(mesh.positions.size() / 3), (long long)tets, 1000.0 * ms / double(tets));
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 1;
  const char* only = argc > 2 ? argv[2] : "";
  auto wanted = [&](const char* name) { return std::strncmp(name, only, std::strlen(only)) == 0; };
  // Round -1 warms up (in wasm, V8 first runs a baseline compile of the code) and prints nothing.
  for (int round = -1; round < rounds; ++round) {
    const bool report = round >= 0;
    for (int64_t n : {10000, 100000}) {
      if (!wanted(n == 10000 ? "delaunay-10000" : "delaunay-100000")) continue;
      const auto p = random_points(n, 7 + uint64_t(round));
      const auto start = Clock::now();
      sb::Delaunay d(p.data(), n);
      d.insert_all();
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      if (report)
        std::printf("{\"case\":\"delaunay-%lld\",\"ms\":%.3f,\"points\":%lld,\"tets\":%lld}\n", (long long)n, ms,
                  (long long)n, (long long)d.live_tet_count());
    }
    for (int resolution : {10, 20}) {
      const char* name = resolution == 10 ? "bunny-10" : "bunny-20";
      if (wanted(name))
        pipeline(name, bunny::kPositions, bunny::kVertexCount, bunny::kTriangles, bunny::kTriangleCount, resolution, report);
    }
    // Issue 26's kinds of mesh at the default resolution. (The union's volume error is against the
    // sum of its spheres' volumes, overlaps counted twice; the teapot is open.)
    using namespace testing_surfaces;
    const std::pair<const char*, Soup> meshes[] = {
        {"union-10", sphere_union()},         {"groove-10", grooved_block(3, 0.08f, 0.3f)},
        {"pulled-10", pulled_box(0.9937f, 0.9983f, 0.0039f)}, {"teapot-10", teapot_like()},
        {"plate5mm-10", box(1, 1, 0.005f)},   {"dome50mm-10", dome_shell(0.5, 0.05)}};
    for (const auto& [name, soup] : meshes)
      if (wanted(name))
        pipeline(name, soup.positions.data(), soup.vertex_count(), soup.triangles.data(), soup.triangle_count(), 10, report);
    // The thin-parts choice (thin_parts.cpp) under a bound the thin parts exceed as sampled.
    const std::tuple<const char*, Soup, int64_t, sb::ThinParts> choices[] = {
        {"plate5mm-thicken-15000", box(1, 1, 0.005f), 15000, sb::ThinParts::Thicken},
        {"plate5mm-coarsen-15000", box(1, 1, 0.005f), 15000, sb::ThinParts::Coarsen},
        {"dome20mm-thicken-30000", dome_shell(0.5, 0.02), 30000, sb::ThinParts::Thicken},
        {"dome20mm-coarsen-30000", dome_shell(0.5, 0.02), 30000, sb::ThinParts::Coarsen}};
    for (const auto& [name, soup, bound, choice] : choices)
      if (wanted(name))
        pipeline(name, soup.positions.data(), soup.vertex_count(), soup.triangles.data(), soup.triangle_count(), 10, report,
                 bound, choice);
    // A frame of physics per tet, on a solid and on a thin plate sampled by its thickness.
    if (wanted("step-union-10")) step_cost("step-union-10", sphere_union(), 10, report);
    if (wanted("step-plate5mm-10")) step_cost("step-plate5mm-10", box(1, 1, 0.005f), 10, report);
    std::fflush(stdout);
  }
  return 0;
}
