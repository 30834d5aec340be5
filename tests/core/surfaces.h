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

// A box of x by y by z metres from the origin: the cube scaled per axis (thin rods and plates).
inline Soup box(float x, float y, float z) {
  Soup s = cube();
  for (size_t i = 0; i < s.positions.size(); i += 3) {
    s.positions[i] *= x;
    s.positions[i + 1] *= y;
    s.positions[i + 2] *= z;
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

// Two disjoint spheres, the second smaller (radius 0.7 m, 2.5 m along x): at 10 cells it is only
// three cells across, so its curvature decides how densely it is sampled.
inline Soup two_spheres() {
  Soup a = uv_sphere(1.0f, 32, 16);
  const Soup b = uv_sphere(0.7f, 32, 16);
  const auto base = uint32_t(a.vertex_count());
  for (size_t i = 0; i < b.positions.size(); ++i) a.positions.push_back(b.positions[i] + (i % 3 == 0 ? 2.5f : 0.0f));
  for (uint32_t t : b.triangles) a.triangles.push_back(t + base);
  return a;
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

// A (p, q) torus knot tube, as three.js's TorusKnotGeometry builds it: the curve
// ((2 + cos(q u / p)) cos u, (2 + cos(q u / p)) sin u, sin(q u / p)) * radius / 2 for u in [0, 2 pi p],
// a circle of `tube` radius swept along it in the frame of (tangent, curve point), with a seam row
// and column like an export. torus_knot(2, 0.25, 256, 16) is a (2,3) knot spanning 6.5 m whose
// tube is 0.5 m across: thin and curved at once (a 32 m curve whose bends have radii down to 1.4 m;
// vertices 0.12 m apart along it and 0.1 m around the tube).
inline Soup torus_knot(double radius, double tube, int segments, int sides, int p = 2, int q = 3) {
  Soup s;
  const double pi = 3.14159265358979323846;
  auto curve = [&](double u, double out[3]) {
    const double qu = double(q) / p * u, cs = std::cos(qu);
    out[0] = radius * (2 + cs) * 0.5 * std::cos(u);
    out[1] = radius * (2 + cs) * 0.5 * std::sin(u);
    out[2] = radius * 0.5 * std::sin(qu);
  };
  for (int j = 0; j <= segments; ++j) {
    const double u = double(j) / segments * p * 2 * pi;
    double a[3], b[3];
    curve(u, a);
    curve(u + 0.01, b);
    const double t[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, n0[3] = {b[0] + a[0], b[1] + a[1], b[2] + a[2]};
    double bn[3] = {t[1] * n0[2] - t[2] * n0[1], t[2] * n0[0] - t[0] * n0[2], t[0] * n0[1] - t[1] * n0[0]};
    double n[3] = {bn[1] * t[2] - bn[2] * t[1], bn[2] * t[0] - bn[0] * t[2], bn[0] * t[1] - bn[1] * t[0]};
    const double lb = std::sqrt(bn[0] * bn[0] + bn[1] * bn[1] + bn[2] * bn[2]);
    const double ln = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; ++k) {
      bn[k] /= lb;
      n[k] /= ln;
    }
    for (int i = 0; i <= sides; ++i) {
      const double v = double(i) / sides * 2 * pi, cx = -tube * std::cos(v), cy = tube * std::sin(v);
      for (int k = 0; k < 3; ++k) s.positions.push_back(float(a[k] + cx * n[k] + cy * bn[k]));
    }
  }
  for (int j = 1; j <= segments; ++j)
    for (int i = 1; i <= sides; ++i) {
      const auto a = uint32_t((sides + 1) * (j - 1) + i - 1), b = uint32_t((sides + 1) * j + i - 1);
      const auto c = uint32_t((sides + 1) * j + i), d = uint32_t((sides + 1) * (j - 1) + i);
      s.triangles.insert(s.triangles.end(), {a, b, d, b, c, d});
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

// A box of x by y by z metres from the origin whose two faces across z are each an n x n grid of
// quads (two triangles each), their inner corners moved at random by up to `jitter` of a quad in
// the face, and whose four sides are n quads along by one across (a plate as a modeller exports it
// after subdividing, or triangulated irregularly). Closed and outward once clean-up welds the
// vertices that the faces repeat.
inline Soup tiled_box(float x, float y, float z, int n, double jitter, uint64_t seed = 1) {
  Soup s;
  Rng rng(seed);
  const float size[3] = {x, y, z};
  // Faces as (along, across, normal axis, at the low or high end of it).
  const int faces[6][4] = {{1, 0, 2, 0}, {0, 1, 2, 1}, {0, 2, 1, 0}, {2, 0, 1, 1}, {2, 1, 0, 0}, {1, 2, 0, 1}};
  for (const auto& f : faces) {
    const int nu = f[2] == 2 ? n : (f[0] == 2 ? 1 : n), nv = f[2] == 2 ? n : (f[1] == 2 ? 1 : n);
    const auto base = uint32_t(s.positions.size() / 3);
    for (int j = 0; j <= nv; ++j)
      for (int i = 0; i <= nu; ++i) {
        const bool inner = i > 0 && i < nu && j > 0 && j < nv;
        const double du = inner ? jitter * (rng.uniform() - 0.5) : 0, dv = inner ? jitter * (rng.uniform() - 0.5) : 0;
        float p[3];
        p[f[0]] = float(size[f[0]] * (i + du) / nu);
        p[f[1]] = float(size[f[1]] * (j + dv) / nv);
        p[f[2]] = f[3] ? size[f[2]] : 0.0f;
        s.positions.insert(s.positions.end(), p, p + 3);
      }
    for (int j = 0; j < nv; ++j)
      for (int i = 0; i < nu; ++i) {
        const auto a = uint32_t(base + j * (nu + 1) + i), b = a + 1, c = a + uint32_t(nu + 1), d = c + 1;
        s.triangles.insert(s.triangles.end(), {a, b, d, a, d, c});
      }
  }
  return s;
}

inline std::vector<double> random_points(int64_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<double> p(3 * size_t(n));
  for (double& x : p) x = rng.uniform();
  return p;
}

// The lower half of a sphere of radius r about the origin as one open sheet (a bowl), its rim at y = 0.
inline Soup bowl(float r, int segments, int rings) {
  Soup s;
  const double pi = 3.14159265358979323846;
  for (int j = 0; j <= rings; ++j)
    for (int i = 0; i < segments; ++i) {
      const double theta = pi / 2 + (pi / 2) * j / rings, phi = 2 * pi * i / segments;
      s.positions.push_back(float(r * std::sin(theta) * std::cos(phi)));
      s.positions.push_back(float(r * std::cos(theta)));
      s.positions.push_back(float(r * std::sin(theta) * std::sin(phi)));
    }
  for (int j = 0; j < rings; ++j)
    for (int i = 0; i < segments; ++i) {
      const auto a = uint32_t(j * segments + i), b = uint32_t(j * segments + (i + 1) % segments);
      const auto c = a + uint32_t(segments), d = b + uint32_t(segments);
      s.triangles.insert(s.triangles.end(), {a, c, b, b, c, d});
    }
  return s;
}

// FNV-1a over raw bytes: a digest to compare outputs across runs and builds.
inline uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 1469598103934665603ULL) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

}  // namespace testing_surfaces
