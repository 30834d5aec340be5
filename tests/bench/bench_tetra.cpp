// Tetrahedralizer timings, one JSON line per case and round: Delaunay insertion of random points
// (1e4, 1e5) and the whole pipeline on the Stanford bunny (resolution 10 and 20, with the time of
// each stage, the output's vertices and tets, min quality and volume error). Built natively and
// as wasm; tests/bench/tetra_bench.mjs runs both, interleaved, and reports medians.
// Usage: softbody_bench_tetra [rounds] [case prefix] (after one untimed warm-up round; with a prefix,
// only the cases whose name starts with it, e.g. "delaunay")
#include <bunny_mesh.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "meshing/delaunay.h"
#include "meshing/tetrahedralizer.h"

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
      if (!wanted(resolution == 10 ? "bunny-10" : "bunny-20")) continue;
      sb::TetraOptions o;
      o.resolution = resolution;
      const auto start = Clock::now();
      sb::Tetrahedralizer t(bunny::kPositions, bunny::kVertexCount, bunny::kTriangles, bunny::kTriangleCount, o);
      while (t.run(1 << 30) == sb::TetraStatus::Working) {
      }
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      const sb::TetraStats& s = t.stats();
      if (report)
        std::printf("{\"case\":\"bunny-%d\",\"ms\":%.3f,\"points\":%lld,\"tets\":%lld,\"stages\":{\"cleanup\":%.3f,"
                    "\"sampling\":%.3f,\"delaunay\":%.3f,\"inside\":%.3f,\"improve\":%.3f,\"finish\":%.3f},"
                    "\"minQuality\":%.4f,\"volumeError\":%.5f}\n",
                    resolution, ms, (long long)s.vertices, (long long)s.tets, s.cleanup_ms, s.sampling_ms, s.delaunay_ms,
                    s.inside_ms, s.improve_ms, s.finish_ms, s.min_quality, s.volume / s.cleanup.volume - 1);
    }
    std::fflush(stdout);
  }
  return 0;
}
