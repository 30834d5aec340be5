// Memory per tet (issue 26: the largest box body took 3x the memory per tet it once did). One case
// per process, so the peak is this case's: `softbody_bench_memory body N [NY NZ]` makes an N^3-cell
// (or N x NY x NZ) box body (6 tets per cell, the simple material) and `softbody_bench_memory tetra R` tetrahedralizes a 1 m
// ball at R cells. Prints one JSON line: tets, the peak resident set added (VmHWM, bytes per tet) and
// the heap the body or the finished job holds (mallinfo2: in use plus mmapped, bytes per tet).
// Native (Linux) only; measured 2026-11-28, 3.07 M tets: body peak 102 B/tet, held 82 (147 and 119
// before the inverse rest shapes were made lazy and the edge list freed early).
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "meshing/tetrahedralizer.h"
#include "shapes/shapes.h"
#include "solver/world.h"
#include "surfaces.h"

namespace {

long status_kb(const char* key) {  // a field of /proc/self/status, kB
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind(key, 0) == 0) return std::atol(line.c_str() + std::strlen(key));
  return -1;
}

double heap_bytes() {
  const struct mallinfo2 m = mallinfo2();
  return double(m.uordblks + m.hblkhd);
}

}  // namespace

int main(int argc, char** argv) {
  if ((argc != 3 && argc != 5) || (std::strcmp(argv[1], "body") != 0 && std::strcmp(argv[1], "tetra") != 0)) {
    std::fprintf(stderr, "usage: softbody_bench_memory body N [NY NZ] | tetra N\n");
    return 2;
  }
  const int n = std::atoi(argv[2]);
  double tets = 0, held = 0;
  long peak_before = 0;
  if (std::strcmp(argv[1], "body") == 0) {
    const int ny = argc == 5 ? std::atoi(argv[3]) : n, nz = argc == 5 ? std::atoi(argv[4]) : n;
    const sb::TetMesh m = sb::make_box(n, ny, nz, 1, 1, 1, 0, 0.5f, 0);
    tets = double(m.tets.size() / 4);
    peak_before = status_kb("VmHWM:");
    const double heap = heap_bytes();
    sb::World w;
    w.add_body(m, sb::BodyParams{});
    held = heap_bytes() - heap;
  } else {
    const testing_surfaces::Soup s = testing_surfaces::uv_sphere(0.5f, 48, 24);
    sb::TetraOptions o;
    o.resolution = n;
    peak_before = status_kb("VmHWM:");
    const double heap = heap_bytes();
    sb::Tetrahedralizer t(s.positions.data(), s.vertex_count(), s.triangles.data(), s.triangle_count(), o);
    while (t.run(1 << 30) == sb::TetraStatus::Working) {
    }
    tets = double(t.stats().tets);
    held = heap_bytes() - heap;
  }
  const double peak = double(status_kb("VmHWM:") - peak_before) * 1024.0;
  std::printf("{\"case\":\"%s\",\"n\":%d,\"tets\":%.0f,\"peakBytesPerTet\":%.1f,\"heldBytesPerTet\":%.1f}\n", argv[1], n, tets,
              peak / tets, held / tets);
  return 0;
}
