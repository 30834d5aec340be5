// Test inputs shared by the tetrahedralizer suites: triangle surfaces and a portable random source.
#pragma once
#include <cmath>
#include <array>
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

// Appends b to a, moved by (dx, dy, dz) m: overlapping pieces make a soup that the winding number
// unites (issue 26's unions: creases where the pieces cross, nothing thin).
inline void append_moved(Soup& a, const Soup& b, float dx, float dy, float dz) {
  const auto base = uint32_t(a.vertex_count());
  for (size_t i = 0; i < b.positions.size(); ++i) a.positions.push_back(b.positions[i] + (i % 3 == 0 ? dx : i % 3 == 1 ? dy : dz));
  for (uint32_t t : b.triangles) a.triangles.push_back(t + base);
}

// Three overlapping UV spheres of radii 0.5, 0.35 and 0.3 m (a soup, not a boolean union): concave
// creases along their intersection circles, every part at least 0.6 m thick.
inline Soup sphere_union() {
  Soup s = uv_sphere(0.5f, 48, 24);
  append_moved(s, uv_sphere(0.35f, 40, 20), 0.6f, 0.1f, 0.0f);
  append_moved(s, uv_sphere(0.3f, 32, 16), 0.15f, 0.45f, 0.2f);
  return s;
}

// Two boxes crossing in a plus sign (1 x 0.3 x 0.3 m and 0.3 x 0.3 x 0.8 m), overlapping soup.
inline Soup box_cross() {
  Soup s = box(1.0f, 0.3f, 0.3f);
  append_moved(s, box(0.3f, 0.3f, 0.8f), 0.35f, 0.0f, -0.25f);
  return s;
}

// A closed prism: the polygon (x, z) (counter-clockwise seen from -y... any orientation: clean-up
// orients) whose x increase from the first point to the last along its top, standing on z = 0,
// extruded along y by `depth`. The caps are cut into columns between consecutive top points, so the
// top may be any height profile (grooves) and the mesh stays closed.
inline Soup profile_prism(const std::vector<std::array<float, 2>>& top, float depth) {
  Soup s;
  const auto n = uint32_t(top.size());
  // Vertices: for y = 0 and y = depth, the top points then their feet on z = 0.
  for (int side = 0; side < 2; ++side) {
    for (const auto& q : top) s.positions.insert(s.positions.end(), {q[0], side * depth, q[1]});
    for (const auto& q : top) s.positions.insert(s.positions.end(), {q[0], side * depth, 0.0f});
  }
  auto T = [&](int side, uint32_t i) { return uint32_t(side) * 2 * n + i; };
  auto B = [&](int side, uint32_t i) { return uint32_t(side) * 2 * n + n + i; };
  auto quad = [&](uint32_t a, uint32_t b, uint32_t c, uint32_t d) { s.triangles.insert(s.triangles.end(), {a, b, c, a, c, d}); };
  for (uint32_t i = 0; i + 1 < n; ++i) {
    quad(T(0, i), T(0, i + 1), B(0, i + 1), B(0, i));  // cap at y = 0
    quad(T(1, i), B(1, i), B(1, i + 1), T(1, i + 1));  // cap at y = depth
    quad(T(0, i), T(1, i), T(1, i + 1), T(0, i + 1));  // top
    quad(B(0, i), B(0, i + 1), B(1, i + 1), B(1, i));  // bottom
  }
  quad(T(0, 0), B(0, 0), B(1, 0), T(1, 0));              // end at the first x
  quad(T(0, n - 1), T(1, n - 1), B(1, n - 1), B(0, n - 1));  // end at the last
  return s;
}

// A 1 x 0.6 x 0.5 m block (x, y, z) with `grooves` sharp V grooves across its top, each `width` m
// wide at the top and `depth` m deep: concave creases whose walls nearly face each other, yet the
// solid is thick everywhere.
inline Soup grooved_block(int grooves = 3, float width = 0.03f, float depth = 0.3f) {
  std::vector<std::array<float, 2>> top;
  const float length = 1.0f, height = 0.5f;
  top.push_back({0.0f, height});
  for (int g = 0; g < grooves; ++g) {
    const float mid = length * float(g + 1) / float(grooves + 1);
    top.push_back({mid - 0.5f * width, height});
    top.push_back({mid, height - depth});
    top.push_back({mid + 0.5f * width, height});
  }
  top.push_back({length, height});
  return profile_prism(top, 0.6f);
}

// The unit cube as 8 shared vertices and 12 triangles, with vertex (1, 1, 1) moved to `to`: moved
// close to a neighbour it makes long needle faces and sharp dihedral angles, nothing thin (the
// tetrahedralizer fuzzer's smallest case in issue 26, re-made).
inline Soup pulled_box(float tx, float ty, float tz) {
  Soup s;
  for (int v = 0; v < 8; ++v) {
    const float x = float(v & 1), y = float((v >> 1) & 1), z = float((v >> 2) & 1);
    if (v == 7) s.positions.insert(s.positions.end(), {tx, ty, tz});
    else s.positions.insert(s.positions.end(), {x, y, z});
  }
  // Outward faces, two triangles each (x0, x1, y0, y1, z0, z1).
  s.triangles = {0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4,
                 2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6};
  return s;
}

// A closed solid of revolution about y: the profile (r, y) runs from the axis back to the axis;
// r = 0 ends become poles (their zero-area triangles dropped by clean-up).
// A triangular prism rod `length` m along x whose cross-section is an equilateral triangle of side
// `side` m: each side one quad of two long triangles; the caps one triangle each, or (fan) three
// about the cap's centre, as exporters that fan every polygon write them.
inline Soup triangular_rod(float length, float side, bool fan) {
  Soup s;
  const float h = side * std::sqrt(3.0f) / 2;
  const float corner[3][2] = {{0, 0}, {side, 0}, {side / 2, h}};
  for (int e = 0; e < 2; ++e)
    for (const auto& c : corner) s.positions.insert(s.positions.end(), {float(e) * length, c[0], c[1]});
  for (int e = 0; e < 2; ++e) s.positions.insert(s.positions.end(), {float(e) * length, side / 2, h / 3});
  for (uint32_t i = 0; i < 3; ++i) {
    const uint32_t j = (i + 1) % 3;
    s.triangles.insert(s.triangles.end(), {i, j, 3 + j, i, 3 + j, 3 + i});
  }
  if (fan) {
    for (uint32_t i = 0; i < 3; ++i) {
      const uint32_t j = (i + 1) % 3;
      s.triangles.insert(s.triangles.end(), {6, j, i, 7, 3 + i, 3 + j});
    }
  } else {
    s.positions.resize(6 * 3);  // no centres
    s.triangles.insert(s.triangles.end(), {2, 1, 0, 3, 4, 5});
  }
  return s;
}

inline Soup revolve(const std::vector<std::array<double, 2>>& profile, int segments) {
  Soup s;
  const double pi = 3.14159265358979323846;
  const auto m = uint32_t(profile.size());
  for (int i = 0; i < segments; ++i) {
    const double phi = 2 * pi * i / segments;
    for (const auto& q : profile)
      s.positions.insert(s.positions.end(), {float(q[0] * std::cos(phi)), float(q[1]), float(q[0] * std::sin(phi))});
  }
  for (uint32_t i = 0; i < uint32_t(segments); ++i) {
    const uint32_t j = (i + 1) % uint32_t(segments);
    for (uint32_t k = 0; k + 1 < m; ++k) {
      const uint32_t a = i * m + k, b = i * m + k + 1, c = j * m + k + 1, d = j * m + k;
      s.triangles.insert(s.triangles.end(), {a, b, c, a, c, d});
    }
  }
  return s;
}

// A closed hemispherical shell (a dome), outer radius r, `thickness` m thick, open side down with a
// flat annular rim: a curved plate.
inline Soup dome_shell(double r, double thickness, int segments = 48, int rings = 16) {
  const double pi = 3.14159265358979323846;
  std::vector<std::array<double, 2>> profile;
  for (int j = 0; j <= rings; ++j) {  // outer, pole to rim
    const double theta = 0.5 * pi * j / rings;
    profile.push_back({r * std::sin(theta), r * std::cos(theta)});
  }
  for (int j = rings; j >= 0; --j) {  // inner, rim to pole
    const double theta = 0.5 * pi * j / rings;
    profile.push_back({(r - thickness) * std::sin(theta), (r - thickness) * std::cos(theta)});
  }
  return revolve(profile, segments);
}

// A teapot-like open mesh: a 0.8 m ball with a hole at its top (the rings above 30 degrees from the
// pole left out), a thin handle (an open torus tube, radius 0.035 m, whose ends sink into the
// ball) and a thin open spout (a tube of radius 0.04 m). Overlapping, open pieces: one solid.
inline Soup teapot_like() {
  const double pi = 3.14159265358979323846;
  Soup s;
  {  // the body: a UV sphere of radius 0.4 m without its top cap
    const int segments = 40, rings = 20, skip = 3;
    const double r = 0.4;
    for (int j = skip; j <= rings; ++j)
      for (int i = 0; i <= segments; ++i) {
        const double theta = pi * j / rings, phi = 2 * pi * i / segments;
        s.positions.insert(s.positions.end(), {float(r * std::sin(theta) * std::cos(phi)), float(r * std::cos(theta)),
                                               float(r * std::sin(theta) * std::sin(phi))});
      }
    for (int j = 0; j < rings - skip; ++j)
      for (int i = 0; i < segments; ++i) {
        const auto a = uint32_t(j * (segments + 1) + i), b = a + uint32_t(segments + 1);
        s.triangles.insert(s.triangles.end(), {a, a + 1, b, a + 1, b + 1, b});
      }
  }
  // A tube of radius `tube` along a curve c(u), u in [0, 1], open at both ends.
  auto sweep = [&](auto curve, double tube, int along, int around) {
    Soup t;
    for (int j = 0; j <= along; ++j) {
      double a[3], b[3];
      curve(double(j) / along, a);
      curve(double(j) / along + 1e-3, b);
      double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
      const double ld = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      for (double& x : d) x /= ld;
      // A frame: e1 = z x d (the curves lie in the x-y plane), e2 = z.
      double e1[3] = {-d[1], d[0], 0};
      const double l1 = std::sqrt(e1[0] * e1[0] + e1[1] * e1[1]);
      for (double& x : e1) x /= l1;
      const double e2[3] = {0, 0, 1};
      for (int i = 0; i <= around; ++i) {
        const double v = 2 * pi * i / around;
        for (int k = 0; k < 3; ++k) t.positions.push_back(float(a[k] + tube * (std::cos(v) * e1[k] + std::sin(v) * e2[k])));
      }
    }
    for (int j = 0; j < along; ++j)
      for (int i = 0; i < around; ++i) {
        const auto a = uint32_t(j * (around + 1) + i), b = a + uint32_t(around + 1);
        t.triangles.insert(t.triangles.end(), {a, b, a + 1, a + 1, b, b + 1});
      }
    return t;
  };
  // Handle: a C-shaped arc on the -x side (radius 0.25 m about x = -0.33 m, from 72 to 288
  // degrees), its ends 5 cm inside the ball's surface, its middle 0.18 m outside it.
  append_moved(s, sweep([&](double u, double* o) {
           const double ang = pi * (0.4 + 1.2 * u);
           o[0] = -0.33 + 0.25 * std::cos(ang);
           o[1] = 0.25 * std::sin(ang);
           o[2] = 0;
         }, 0.035, 32, 12), 0, 0, 0);
  // Spout: a straight tube from inside the ball up and out along +x.
  append_moved(s, sweep([&](double u, double* o) {
           o[0] = 0.25 + 0.35 * u;
           o[1] = -0.05 + 0.3 * u;
           o[2] = 0;
         }, 0.04, 12, 12), 0, 0, 0);
  return s;
}

// FNV-1a over raw bytes: a digest to compare outputs across runs and builds.
inline uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 1469598103934665603ULL) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

}  // namespace testing_surfaces
