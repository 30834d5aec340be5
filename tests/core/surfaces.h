// Test inputs shared by the tetrahedralizer suites: triangle surfaces and a portable random source.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

namespace testing_surfaces {

struct Soup {
  std::vector<float> positions;     // xyz
  std::vector<uint32_t> triangles;  // 3 per face
  int32_t vertex_count() const { return int32_t(positions.size() / 3); }
  int32_t triangle_count() const { return int32_t(triangles.size() / 3); }
};

// An axis-aligned cube of side `size` from the origin, 4 vertices per face (24, like an exported
// mesh with per-face normals), outward faces. `skip_face` >= 0 leaves that face out (a hole).
inline Soup cube(float size = 1.0f, int skip_face = -1) {
  static const int faces[6][4][3] = {{{0, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0}}, {{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}},
                                     {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}}, {{0, 1, 0}, {0, 1, 1}, {1, 1, 1}, {1, 1, 0}},
                                     {{0, 0, 0}, {0, 0, 1}, {0, 1, 1}, {0, 1, 0}}, {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {1, 0, 1}}};
  Soup s;
  for (int f = 0; f < 6; ++f) {
    if (f == skip_face) continue;
    const auto base = uint32_t(s.positions.size() / 3);
    for (const auto& v : faces[f])
      for (int k = 0; k < 3; ++k) s.positions.push_back(size * float(v[k]));
    s.triangles.insert(s.triangles.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
  }
  return s;
}

// A latitude-longitude sphere with a seam column and pole rows of zero-area triangles, wound
// inward (so clean-up must weld, drop and flip everything), like many exported spheres.
inline Soup uv_sphere(float radius, int segments, int rings) {
  Soup s;
  const double pi = 3.14159265358979323846;
  for (int j = 0; j <= rings; ++j)
    for (int i = 0; i <= segments; ++i) {
      const double theta = pi * j / rings, phi = 2 * pi * i / segments;
      s.positions.push_back(float(radius * std::sin(theta) * std::cos(phi)));
      s.positions.push_back(float(radius * std::cos(theta)));
      s.positions.push_back(float(radius * std::sin(theta) * std::sin(phi)));
    }
  for (int j = 0; j < rings; ++j)
    for (int i = 0; i < segments; ++i) {
      const auto a = uint32_t(j * (segments + 1) + i), b = a + uint32_t(segments + 1);
      s.triangles.insert(s.triangles.end(), {a, b, a + 1, a + 1, b, b + 1});
    }
  return s;
}


// A torus about the y axis (ring radius R, tube radius r), with a seam row and column like an export.
inline Soup torus(float R, float r, int segments, int sides) {
  Soup s;
  const double pi = 3.14159265358979323846;
  for (int j = 0; j <= segments; ++j)
    for (int i = 0; i <= sides; ++i) {
      const double u = 2 * pi * j / segments, v = 2 * pi * i / sides;
      s.positions.push_back(float((R + r * std::cos(v)) * std::cos(u)));
      s.positions.push_back(float(r * std::sin(v)));
      s.positions.push_back(float((R + r * std::cos(v)) * std::sin(u)));
    }
  for (int j = 0; j < segments; ++j)
    for (int i = 0; i < sides; ++i) {
      const auto a = uint32_t(j * (sides + 1) + i), b = a + uint32_t(sides + 1);
      s.triangles.insert(s.triangles.end(), {a, a + 1, b, a + 1, b + 1, b});
    }
  return s;
}

// splitmix64: the same numbers on every platform (std distributions are implementation-defined).
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)
};

inline std::vector<double> random_points(int64_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<double> p(3 * size_t(n));
  for (double& x : p) x = rng.uniform();
  return p;
}

// FNV-1a over raw bytes: a digest to compare outputs across runs and builds.
inline uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 1469598103934665603ULL) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

}  // namespace testing_surfaces
