#include "solver/vbd.h"

#include <algorithm>
#include <cmath>

#include "math/vec3.h"
#include "solver/spring_forces.h"

namespace sb {

VertexAdjacency vertex_adjacency(const uint32_t* tets, uint32_t tet_count, const uint32_t* edges, uint32_t edge_count,
                                 uint32_t vertex_count) {
  VertexAdjacency a;
  a.tet_start.assign(size_t(vertex_count) + 1, 0);
  a.edge_start.assign(size_t(vertex_count) + 1, 0);
  for (size_t k = 0; k < 4 * size_t(tet_count); ++k) ++a.tet_start[tets[k] + 1];
  for (size_t k = 0; k < 2 * size_t(edge_count); ++k) ++a.edge_start[edges[k] + 1];
  for (uint32_t v = 0; v < vertex_count; ++v) {
    a.tet_start[v + 1] += a.tet_start[v];
    a.edge_start[v + 1] += a.edge_start[v];
  }
  a.tet_refs.resize(4 * size_t(tet_count));
  a.edge_refs.resize(2 * size_t(edge_count));
  std::vector<uint32_t> fill(a.tet_start.begin(), a.tet_start.end() - 1);
  for (uint32_t k = 0; k < 4 * tet_count; ++k) a.tet_refs[fill[tets[k]]++] = k;
  fill.assign(a.edge_start.begin(), a.edge_start.end() - 1);
  for (uint32_t k = 0; k < 2 * edge_count; ++k) a.edge_refs[fill[edges[k]]++] = k;
  return a;
}

namespace {

// A symmetric 3x3 block, in double: the solve divides by its determinant.
struct Block {
  double xx = 0, yy = 0, zz = 0, xy = 0, xz = 0, yz = 0;
  void add_identity(double s) {
    xx += s;
    yy += s;
    zz += s;
  }
  void add_outer(Vec3 q, double s) {  // += s q q^T
    xx += s * q.x * q.x;
    yy += s * q.y * q.y;
    zz += s * q.z * q.z;
    xy += s * q.x * q.y;
    xz += s * q.x * q.z;
    yz += s * q.y * q.z;
  }
};

// Solves H d = f by cofactors; false if H is not safely positive definite.
bool solve_block(const Block& H, const double f[3], double d[3]) {
  const double c00 = H.yy * H.zz - H.yz * H.yz, c01 = H.xz * H.yz - H.xy * H.zz, c02 = H.xy * H.yz - H.xz * H.yy;
  const double det = H.xx * c00 + H.xy * c01 + H.xz * c02;
  if (!(det > 1e-30 * H.xx * H.yy * H.zz) || !(det > 0)) return false;
  const double c11 = H.xx * H.zz - H.xz * H.xz, c12 = H.xy * H.xz - H.xx * H.yz, c22 = H.xx * H.yy - H.xy * H.xy;
  d[0] = (c00 * f[0] + c01 * f[1] + c02 * f[2]) / det;
  d[1] = (c01 * f[0] + c11 * f[1] + c12 * f[2]) / det;
  d[2] = (c02 * f[0] + c12 * f[1] + c22 * f[2]) / det;
  return true;
}

}  // namespace

float vbd_sweep(const VbdModel& m, const VertexAdjacency& adj, float* x) {
  // The residual: how much force is left unbalanced over how much acts (each term's magnitude),
  // summed over vertices, when each vertex is reached. A step length would not do: stiff vertices
  // take tiny steps while the body as a whole is far from solved (measured: 4e-4 of an edge for a
  // beam left 9x too soft).
  double unbalanced = 0.0, acting = 0.0;
  const double inv_h = std::sqrt(double(m.inv_h2));  // 1/s
  for (uint32_t i = 0; i < m.vertex_count; ++i) {
    if (m.inv_mass[i] == 0.0f) continue;
    const Vec3 xi = load3(x, i);
    // Inertia: f = -m/h^2 (x - y), H = m/h^2 I.
    const double inertia = double(m.mass[i]) * m.inv_h2;
    const Vec3 off = xi - load3(m.target, i);
    double f[3] = {-inertia * off.x, -inertia * off.y, -inertia * off.z};
    // N, the magnitudes of every term acting on the vertex, and its weight as the smallest scale.
    double forces = inertia * length(off) + double(m.mass[i]) * std::max(1.0f, m.gravity);
    Block H;
    H.add_identity(inertia);
    for (uint32_t r = adj.tet_start[i]; r < adj.tet_start[i + 1]; ++r) {
      const uint32_t t = adj.tet_refs[r] >> 2, corner = adj.tet_refs[r] & 3u;
      const uint32_t* id = m.tets + 4 * t;
      if (m.neo_hookean) {
        const NeoHookean& nh = *m.neo_hookean;
        const float* B = m.tet_inverse_rest + 9 * size_t(t);
        const Deformation D = deformation(x, id, B);
        const Vec3* F = D.f;
        Vec3 c[3];
        cofactor(D, c);
        const float J = dot(F[0], c[0]);
        const Vec3 b = corner_row(B, int(corner));
        const float s = nh.lambda * (J - nh.gamma);
        // dE/dx = V0 P b with P = mu F + lambda (J - gamma) cof F.
        const Vec3 Fb = F[0] * b.x + F[1] * b.y + F[2] * b.z;
        const Vec3 q = c[0] * b.x + c[1] * b.y + c[2] * b.z;  // dJ/dx at this corner
        const double v0 = m.tet_rest_volume[t];
        const Vec3 grad = Fb * nh.mu + q * s;
        forces += v0 * length(grad);
        f[0] -= v0 * grad.x;
        f[1] -= v0 * grad.y;
        f[2] -= v0 * grad.z;
        H.add_identity(v0 * nh.mu * length_sq(b));
        H.add_outer(q, v0 * nh.lambda);
      } else if (m.volume_stiffness > 0.0f) {
        const TetGradients tg = tet_gradients(x, id);
        const Vec3 g = tg.g[corner];
        const double C = double(tg.vol6) - m.tet_rest6[t];  // 6V - 6V0
        const double k = double(m.volume_stiffness) * scale_at(m.tet_scale, t);
        forces += k * std::fabs(C) * length(g);
        f[0] -= k * C * g.x;
        f[1] -= k * C * g.y;
        f[2] -= k * C * g.z;
        H.add_outer(g, k);
      }
    }
    const bool springs = !m.neo_hookean && m.edge_stiffness > 0.0f, dashpots = m.edge_damping > 0.0f;
    if (springs || dashpots)
      for (uint32_t r = adj.edge_start[i]; r < adj.edge_start[i + 1]; ++r) {
        const uint32_t e = adj.edge_refs[r] >> 1, end = adj.edge_refs[r] & 1u;
        const uint32_t j = m.edges[2 * e + (1 - end)];
        const Vec3 d = xi - load3(x, j);
        const float len = length(d);
        if (len == 0.0f) continue;
        const Vec3 n = d * (1.0f / len);
        if (dashpots) {
          // (c / h) times the edge's stretch over the substep along n, N.
          const Vec3 moved = (xi - load3(m.previous, i)) - (load3(x, j) - load3(m.previous, j));
          const double c_h = double(m.edge_damping) * inv_h, closing = double(dot(n, moved));
          forces += c_h * std::fabs(closing);
          f[0] -= c_h * closing * n.x;
          f[1] -= c_h * closing * n.y;
          f[2] -= c_h * closing * n.z;
          H.add_outer(n, c_h);
        }
        if (!springs) continue;
        const double k = double(m.edge_stiffness) * scale_at(m.edge_scale, e), stretch = double(len) - m.edge_rest[e];
        forces += k * std::fabs(stretch);
        f[0] -= k * stretch * n.x;
        f[1] -= k * stretch * n.y;
        f[2] -= k * stretch * n.z;
        // k [n n^T + max(0, 1 - l0/l) (I - n n^T)]: the transverse part only while stretched.
        const double c = std::max(0.0, 1.0 - double(m.edge_rest[e]) / len);
        H.add_identity(k * c);
        H.add_outer(n, k * (1.0 - c));
      }
    if (!m.supported || !m.supported[i]) {
      unbalanced += std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
      acting += forces;
    }
    double d[3];
    if (!solve_block(H, f, d)) continue;
    store3(x, i, xi + Vec3{float(d[0]), float(d[1]), float(d[2])});
  }
  return acting > 0.0 ? float(unbalanced / acting) : 0.0f;
}

}  // namespace sb
