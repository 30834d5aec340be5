#include "shapes.h"

#include <algorithm>
#include <cmath>

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

}  // namespace sb
