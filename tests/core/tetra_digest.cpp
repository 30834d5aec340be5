// Prints digests of tetrahedralizations, one line per case. Built natively and as wasm;
// tests/bridge/tetra_determinism.test.mjs runs both and requires identical output.
#include <cstdio>

#include "meshing/delaunay.h"
#include "bunny_surface.h"
#include "surfaces.h"
#include "meshing/tetrahedralizer.h"

using namespace testing_surfaces;

namespace {

void digest_surface(const char* name, const Soup& s, int resolution) {
  sb::TetraOptions o;
  o.resolution = resolution;
  sb::Tetrahedralizer t(s.positions.data(), s.vertex_count(), s.triangles.data(), s.triangle_count(), o);
  while (t.run(1 << 20) == sb::TetraStatus::Working) {
  }
  const uint64_t h = fnv1a(t.tets().data(), t.tets().size() * 4, fnv1a(t.positions().data(), t.positions().size() * 4));
  std::printf("%s resolution %d: %zu vertices, %zu tets, digest %016llx\n", name, resolution, t.positions().size() / 3,
              t.tets().size() / 4, (unsigned long long)h);
}

}  // namespace

int main() {
  for (int n : {1000, 10000}) {
    const auto p = random_points(n, 99);
    sb::Delaunay d(p.data(), n);
    d.insert_all();
    const auto tets = d.tets();
    std::printf("delaunay %d random points: %zu tets, digest %016llx\n", n, tets.size() / 4,
                (unsigned long long)fnv1a(tets.data(), tets.size() * 4));
  }
  digest_surface("cube", cube(), 8);
  digest_surface("sphere", uv_sphere(0.5f, 48, 24), 10);
  const Soup bunny = testing_surfaces::bunny_soup();
  digest_surface("bunny", bunny, 10);
  digest_surface("bunny", bunny, 20);
  // A plate sampled coarser than it is thick: one lattice per face (tetrahedralizer.cpp).
  digest_surface("plate 1 x 0.5 x 0.001", box(1, 0.5f, 0.001f), 20);
  return 0;
}
