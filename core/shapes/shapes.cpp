#include "shapes/shapes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace sb {

namespace {

// The six tets of a unit cube, corners numbered by bits (x = 1, y = 2, z = 4), oriented positively.
struct CubeSplit {
  int tets[6][4];
  CubeSplit() {
    static const int kPerm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int t = 0; t < 6; ++t) {
      const int a = 0, b = 1 << kPerm[t][0], c = b | (1 << kPerm[t][1]), d = 7;
      // Orientation of this path through the cube: sign of a 3x3 determinant of corner offsets.
      auto corner = [](int bits, int axis) { return float((bits >> axis) & 1); };
      float m[3][3];
      for (int k = 0; k < 3; ++k) {
        m[0][k] = corner(b, k);
        m[1][k] = corner(c, k);
        m[2][k] = corner(d, k);
      }
      const float det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                        m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                        m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
      tets[t][0] = a;
      tets[t][1] = det > 0 ? b : c;
      tets[t][2] = det > 0 ? c : b;
      tets[t][3] = d;
    }
  }
};

TetMesh lattice(int nx, int ny, int nz, const float origin[3], const float cell[3]) {
  static const CubeSplit split;
  TetMesh mesh;
  const int sx = nx + 1, sy = ny + 1, sz = nz + 1;
  mesh.positions.reserve(size_t(3) * sx * sy * sz);
  for (int k = 0; k < sz; ++k)
    for (int j = 0; j < sy; ++j)
      for (int i = 0; i < sx; ++i) {
        mesh.positions.push_back(origin[0] + cell[0] * i);
        mesh.positions.push_back(origin[1] + cell[1] * j);
        mesh.positions.push_back(origin[2] + cell[2] * k);
      }
  mesh.tets.reserve(size_t(24) * nx * ny * nz);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        for (const auto& t : split.tets) {
          // Mirror the split in every axis by cell parity, so the diagonals alternate and the lattice
          // has no preferred direction (one global diagonal makes a squashed box shear sideways).
          // Mirroring across a shared face maps that face's diagonal onto itself, so cells still conform.
          const int flip = (i & 1) | (j & 1) << 1 | (k & 1) << 2;
          uint32_t ids[4];
          for (int v = 0; v < 4; ++v) {
            const int c = t[v] ^ flip;
            ids[v] = uint32_t((i + (c & 1)) + sx * ((j + ((c >> 1) & 1)) + sy * (k + ((c >> 2) & 1))));
          }
          // A mirror image in an odd number of axes is inverted: swap two vertices to fix it.
          if (__builtin_parity(unsigned(flip))) std::swap(ids[1], ids[2]);
          mesh.tets.insert(mesh.tets.end(), ids, ids + 4);
        }
  return mesh;
}

}  // namespace

TetMesh make_box(int nx, int ny, int nz, float size_x, float size_y, float size_z, float center_x,
                 float center_y, float center_z) {
  const float origin[3] = {center_x - 0.5f * size_x, center_y - 0.5f * size_y, center_z - 0.5f * size_z};
  const float cell[3] = {size_x / nx, size_y / ny, size_z / nz};
  return lattice(nx, ny, nz, origin, cell);
}

TetMesh make_ball(float radius, int cells, float center_x, float center_y, float center_z) {
  const int n = std::max(2, cells + (cells & 1));
  const float origin[3] = {-1.0f, -1.0f, -1.0f};
  const float cell[3] = {2.0f / n, 2.0f / n, 2.0f / n};
  TetMesh mesh = lattice(n, n, n, origin, cell);
  const float center[3] = {center_x, center_y, center_z};
  for (size_t v = 0; v < mesh.positions.size(); v += 3) {
    const double x = mesh.positions[v], y = mesh.positions[v + 1], z = mesh.positions[v + 2];
    const double r = std::max({std::fabs(x), std::fabs(y), std::fabs(z)});  // which cube shell
    double s[3] = {0.0, 0.0, 0.0};
    if (r > 0.0) {
      // Point on the unit cube's surface mapped to the unit sphere (the standard smooth
      // cube-to-sphere map); its result has length exactly 1.
      const double u = x / r, w = y / r, q = z / r;
      s[0] = u * std::sqrt(1.0 - w * w / 2 - q * q / 2 + w * w * q * q / 3);
      s[1] = w * std::sqrt(1.0 - q * q / 2 - u * u / 2 + q * q * u * u / 3);
      s[2] = q * std::sqrt(1.0 - u * u / 2 - w * w / 2 + u * u * w * w / 3);
    }
    for (int k = 0; k < 3; ++k) mesh.positions[v + k] = float(center[k] + radius * r * s[k]);
  }
  return mesh;
}

namespace {

// Unique sorted vertex pairs of a pair list, as a flat spring list.
std::vector<uint32_t> unique_pairs(std::vector<uint64_t> keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<uint32_t> out;
  out.reserve(2 * keys.size());
  for (uint64_t k : keys) out.insert(out.end(), {uint32_t(k >> 32), uint32_t(k & 0xffffffffu)});
  return out;
}

uint64_t pair_key(uint32_t a, uint32_t b) { return a < b ? uint64_t(a) << 32 | b : uint64_t(b) << 32 | a; }

}  // namespace

TetMesh make_rope(int segments, float length, float radius, float anchor_x, float anchor_y, float anchor_z) {
  TetMesh rope;
  const float share = float(M_PI) * radius * radius * length / float(segments + 1);  // m^3 per particle
  for (int i = 0; i <= segments; ++i) {
    rope.positions.insert(rope.positions.end(), {anchor_x + length * float(i) / float(segments), anchor_y, anchor_z});
    rope.point_volumes.push_back(share);
    if (i > 0) rope.springs.insert(rope.springs.end(), {uint32_t(i - 1), uint32_t(i)});
  }
  return rope;
}

TetMesh make_jelly(int cells, float size, float center_x, float center_y, float center_z) {
  // The box lattice gives the particles (same numbering) and, through its tets, the outer surface.
  const TetMesh box = make_box(cells, cells, cells, size, size, size, center_x, center_y, center_z);
  TetMesh jelly;
  jelly.positions = box.positions;
  jelly.surface = boundary_triangles(box.tets.data(), int64_t(box.tets.size() / 4));
  const uint32_t s = uint32_t(cells + 1);
  auto id = [s](int i, int j, int k) { return uint32_t(i) + s * (uint32_t(j) + s * uint32_t(k)); };
  std::vector<uint64_t> keys;
  for (int k = 0; k < cells; ++k)
    for (int j = 0; j < cells; ++j)
      for (int i = 0; i < cells; ++i)
        // every pair of the cell's 8 corners: 12 edges, 12 face diagonals, 4 body diagonals
        for (int a = 0; a < 8; ++a)
          for (int b = a + 1; b < 8; ++b)
            keys.push_back(pair_key(id(i + (a & 1), j + (a >> 1 & 1), k + (a >> 2 & 1)),
                                    id(i + (b & 1), j + (b >> 1 & 1), k + (b >> 2 & 1))));
  jelly.springs = unique_pairs(std::move(keys));
  jelly.point_volumes.assign(jelly.positions.size() / 3, size * size * size / float(jelly.positions.size() / 3));
  return jelly;
}

TetMesh make_pressure_ball(float radius, int cells, float center_x, float center_y, float center_z) {
  const TetMesh ball = make_ball(radius, cells, center_x, center_y, center_z);
  const std::vector<uint32_t> surface = boundary_triangles(ball.tets.data(), int64_t(ball.tets.size() / 4));
  std::vector<int64_t> remap(ball.positions.size() / 3, -1);
  TetMesh out;
  for (uint32_t v : surface)
    if (remap[v] < 0) {
      remap[v] = int64_t(out.positions.size() / 3);
      out.positions.insert(out.positions.end(), {ball.positions[3 * v], ball.positions[3 * v + 1], ball.positions[3 * v + 2]});
    }
  std::vector<uint64_t> keys;
  for (size_t t = 0; t < surface.size(); t += 3) {
    uint32_t tri[3];
    for (int k = 0; k < 3; ++k) tri[k] = uint32_t(remap[surface[t + k]]);
    out.surface.insert(out.surface.end(), tri, tri + 3);
    for (int k = 0; k < 3; ++k) keys.push_back(pair_key(tri[k], tri[(k + 1) % 3]));
  }
  out.springs = unique_pairs(std::move(keys));
  const float sphere = 4.0f / 3.0f * float(M_PI) * radius * radius * radius;
  out.point_volumes.assign(out.positions.size() / 3, sphere / float(out.positions.size() / 3));
  return out;
}

}  // namespace sb
