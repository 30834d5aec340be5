#include "solver/vbd.h"

#include <algorithm>
#include <cmath>

#include "math/vec3.h"
#include "solver/convergence.h"
#include "solver/spring_forces.h"
#include "solver/xpbd_constraints.h"

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

// Vertex i's force f = -dG/dx_i (N) and block H = d^2G/dx_i^2 (N/m) at positions x, and the sum of
// the magnitudes of the terms acting on it (N, for the residual).
void vertex_force(const VbdModel& m, const VertexAdjacency& adj, const float* x, uint32_t i, double f[3], Block& H,
                  double* acting) {
  const double inv_h = std::sqrt(double(m.inv_h2));  // 1/s
  const Vec3 xi = load3(x, i);
  // Inertia: f = -m/h^2 (x - y), H = m/h^2 I.
  const double inertia = double(m.mass[i]) * m.inv_h2;
  const Vec3 off = xi - load3(m.target, i);
  f[0] = -inertia * off.x;
  f[1] = -inertia * off.y;
  f[2] = -inertia * off.z;
  // N, the magnitudes of every term acting on the vertex, and its weight as the smallest scale.
  double forces = inertia * length(off) + double(m.mass[i]) * std::max(1.0f, m.gravity);
  H = Block{};
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
  if (m.hinges && m.bending.active())
    for (uint32_t r = m.hinges->start[i]; r < m.hinges->start[i + 1]; ++r) {
      const uint32_t h = m.hinges->refs[r] >> 2, corner = m.hinges->refs[r] & 3u;
      Vec3 g[4];
      hinge_energy_gradient(m.bending, x, h, g);
      forces += length(g[corner]);
      f[0] -= g[corner].x;
      f[1] -= g[corner].y;
      f[2] -= g[corner].z;
      const double kc = m.bending.k[4 * size_t(h) + corner];
      H.add_identity(double(m.bending.stiffness) / m.bending.area[h] * kc * kc);
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
  if (m.friction_load && m.friction_load[i] > 0.0f) {
    // The majoriser of D at x (vbd.h): force -w u, block w in x and z, w = mu lambda f0'(s)/s.
    const double load = m.friction_load[i], eps = m.friction_eps;  // N, m
    const double ux = double(xi.x) - m.previous[3 * i], uz = double(xi.z) - m.previous[3 * i + 2];
    const double s = std::sqrt(ux * ux + uz * uz);
    const double w = load * (s < eps ? 2.0 / eps - s / (eps * eps) : 1.0 / s);  // N/m
    forces += w * s;
    f[0] -= w * ux;
    f[2] -= w * uz;
    H.xx += w;
    H.zz += w;
  }
  *acting = forces;
}

// Stores vertex i at xi + t d for the largest t in 1, 1/2, ... 1/2^kVbdHalvings that does not raise
// its share of G, or leaves it at xi (vbd.h). A start outside the planes is put on the plane first.
// plane: the y the step ends on when a plane holds it, else NaN. Returns whether it ended there.
bool line_search(const VbdModel& m, const VertexAdjacency& adj, float* x, uint32_t i, Vec3 xi, const double d[3],
                 double plane) {
  const Vec3 end = xi + Vec3{float(d[0]), float(d[1]), float(d[2])};
  if (plane == plane && (xi.y < m.floor_y || xi.y > m.ceiling_y)) xi.y = end.y;
  const float end_y = end.y;
  const Vec3 step = end - xi;
  store3(x, i, xi);
  const double before = vbd_vertex_energy(m, adj, x, i);
  Vec3 to = end;
  double t = 1.0, after = 0.0;
  for (int k = 0;; ++k) {
    store3(x, i, to);
    after = vbd_vertex_energy(m, adj, x, i);
    if (after <= before) break;
    if (k == kVbdHalvings) {
      store3(x, i, xi);
      t = 0.0;
      after = before;
      break;
    }
    t *= 0.5;
    to = xi + step * float(t);
  }
  if (m.stats) {
    ++m.stats->steps;
    if (t == 0.0) ++m.stats->rejected;
    else if (t < 1.0) ++m.stats->halved;
    m.stats->largest_rise = std::max(m.stats->largest_rise, after - before);
  }
  return x[3 * i + 1] == end_y;
}

}  // namespace

float vbd_sweep(const VbdModel& m, const VertexAdjacency& adj, float* x, bool backward, ForceBalance* balance) {
  // The residual: how much force is left unbalanced over how much acts (each term's magnitude),
  // summed over vertices, when each vertex is reached. A step length would not do: stiff vertices
  // take tiny steps while the body as a whole is far from solved (measured: 4e-4 of an edge for a
  // beam left 9x too soft).
  double unbalanced = 0.0, acting = 0.0;
  // With tets alone the step is exact only in exact arithmetic: on a tet stretched tens of times
  // its size, J - gamma and the force come from float F with cancellations, and the step can rise
  // (the soak's silicone bunny dragged 17 m long: a vertex moved 3 m by one step raised G by 1.4e11
  // J, and the redo ended 2.7e10 J above its start). So the redo searches every step.
  const bool searched = m.line_search;
  for (uint32_t k = 0; k < m.vertex_count; ++k) {
    const uint32_t i = backward ? m.vertex_count - 1 - k : k;
    if (m.inv_mass[i] == 0.0f) continue;
    const Vec3 xi = load3(x, i);
    double f[3], forces = 0.0;
    Block H;
    vertex_force(m, adj, x, i, f, H, &forces);
    if (!m.supported || !m.supported[i]) {
      unbalanced += std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
      acting += forces;
      if (balance) {
        // The internal force is the net force without the inertia term -m/h^2 (x - y).
        const double inertia = double(m.mass[i]) * m.inv_h2;
        const double internal[3] = {f[0] + inertia * (double(xi.x) - m.target[3 * i]),
                                    f[1] + inertia * (double(xi.y) - m.target[3 * i + 1]),
                                    f[2] + inertia * (double(xi.z) - m.target[3 * i + 2])};
        balance->add(i, x + 3 * size_t(i), f, internal, double(m.mass[i]) * std::max(1.0f, m.gravity));
      }
    }
    double d[3];
    if (!solve_block(H, f, d)) continue;
    // Contact with the ground or the plate: y held on the plane it would cross, x and z from the
    // 2 x 2 block that is left, and the plane's force the part of the model's force it balances.
    const double y_new = double(xi.y) + d[1];
    const double plane = y_new < m.floor_y ? m.floor_y : y_new > m.ceiling_y ? m.ceiling_y : NAN;
    if (m.support) m.support[i] = 0.0f;
    if (plane == plane) {
      d[1] = plane - xi.y;
      const double fx = f[0] - H.xy * d[1], fz = f[2] - H.yz * d[1];
      const double det = H.xx * H.zz - H.xz * H.xz;
      if (det > 0.0) {
        d[0] = (H.zz * fx - H.xz * fz) / det;
        d[2] = (H.xx * fz - H.xz * fx) / det;
      } else {
        d[0] = d[2] = 0.0;
      }
      if (m.support) m.support[i] = float(H.xy * d[0] + H.yy * d[1] + H.yz * d[2] - f[1]);  // N, + up
    }
    // Only where the block is a model (springs, dashpots, hinges): with tets alone the vertex's share
    // of G is quadratic, the block exact and the step (on a plane too) its minimiser.
    if (!searched) {
      store3(x, i, xi + Vec3{float(d[0]), float(d[1]), float(d[2])});
      if (m.stats) ++m.stats->steps;
    } else if (!line_search(m, adj, x, i, xi, d, plane) && m.support) {
      m.support[i] = 0.0f;  // a shortened step that left the plane had no support from it
    }
  }
  return acting > 0.0 ? float(unbalanced / acting) : 0.0f;
}

float vbd_remove_net_impulse(const VbdModel& m, float* x) {
  const uint32_t n = m.vertex_count;
  if (n == 0) return 0.0f;
  // The ground and the plate push along y inside the sweep (vertices held on them): an external force
  // there, whose size a Gauss-Seidel sweep does not know exactly (each vertex's share is taken when
  // it is visited). With any such contact only what they cannot change is taken out: the horizontal
  // net force and the torque about the vertical axis.
  // Friction inside the sweep is an external force along the ground too: then nothing is taken out.
  for (uint32_t i = 0; i < n && m.friction_load; ++i)
    if (m.friction_load[i] > 0.0f) return 0.0f;
  bool planes = false;
  for (uint32_t i = 0; i < n && m.support; ++i) planes = planes || m.support[i] != 0.0f;
  double mass = 0.0, c[3] = {0, 0, 0}, d[3] = {0, 0, 0};  // kg, kg m, kg m
  for (uint32_t i = 0; i < n; ++i) {
    if (m.inv_mass[i] == 0.0f) return 0.0f;  // an external force holds this body: nothing to take out
    const double mi = m.mass[i];
    mass += mi;
    for (int k = 0; k < 3; ++k) {
      c[k] += mi * x[3 * i + k];
      d[k] += mi * (double(x[3 * i + k]) - m.target[3 * i + k]);
    }
  }
  if (planes) d[1] = 0.0;
  if (!(mass > 0.0)) return 0.0f;
  for (int k = 0; k < 3; ++k) c[k] /= mass, d[k] /= mass;  // centre of mass; mean displacement, m
  // Net torque's image L = sum m r x (x - y) and the inertia tensor I about the centre of mass.
  double L[3] = {0, 0, 0};
  Block I;
  for (uint32_t i = 0; i < n; ++i) {
    const double mi = m.mass[i];
    const double r[3] = {x[3 * i] - c[0], x[3 * i + 1] - c[1], x[3 * i + 2] - c[2]};
    const double u[3] = {double(x[3 * i]) - m.target[3 * i] - d[0], double(x[3 * i + 1]) - m.target[3 * i + 1] - d[1],
                         double(x[3 * i + 2]) - m.target[3 * i + 2] - d[2]};
    L[0] += mi * (r[1] * u[2] - r[2] * u[1]);
    L[1] += mi * (r[2] * u[0] - r[0] * u[2]);
    L[2] += mi * (r[0] * u[1] - r[1] * u[0]);
    const double rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    I.xx += mi * (rr - r[0] * r[0]);
    I.yy += mi * (rr - r[1] * r[1]);
    I.zz += mi * (rr - r[2] * r[2]);
    I.xy -= mi * r[0] * r[1];
    I.xz -= mi * r[0] * r[2];
    I.yz -= mi * r[1] * r[2];
  }
  double w[3] = {0, 0, 0};  // the rotation to take out, rad (a flat or one-vertex body has none to solve for)
  if (planes) {
    w[1] = I.yy > 0.0 ? L[1] / I.yy : 0.0;  // about y only (vertical forces have no torque about it)
  } else if (!solve_block(I, L, w)) {
    w[0] = w[1] = w[2] = 0.0;
  }
  float largest = 0.0f;
  for (uint32_t i = 0; i < n; ++i) {
    const double r[3] = {x[3 * i] - c[0], x[3 * i + 1] - c[1], x[3 * i + 2] - c[2]};
    const double wr[3] = {w[1] * r[2] - w[2] * r[1], w[2] * r[0] - w[0] * r[2], w[0] * r[1] - w[1] * r[0]};
    for (int k = 0; k < 3; ++k) {
      const float shift = float(d[k] + wr[k]);
      x[3 * i + k] -= shift;
      largest = std::max(largest, std::fabs(shift));
    }
  }
  return largest;
}

uint32_t vbd_plane_contacts(const VbdModel& m, float* deepest) {
  if (!m.support) return 0;
  uint32_t touching = 0;
  const double h2 = 1.0 / double(m.inv_h2);
  for (uint32_t i = 0; i < m.vertex_count; ++i) {
    const float support = m.support[i];
    if (support == 0.0f || m.inv_mass[i] == 0.0f) continue;
    ++touching;
    if (!(support > 0.0f)) continue;  // the plate
    const float push = float(double(support) * h2 * m.inv_mass[i]);  // m
    *deepest = std::max(*deepest, push);
  }
  return touching;
}

void vbd_plane_support(const VbdModel& m, const VertexAdjacency& adj, const float* x) {
  if (!m.support) return;
  double floor_sum = 0.0;  // N
  bool ceiling = false, pinned = false;
  for (uint32_t i = 0; i < m.vertex_count; ++i) {
    const float held = m.support[i];
    pinned = pinned || m.inv_mass[i] == 0.0f;
    if (held == 0.0f || m.inv_mass[i] == 0.0f) continue;
    double f[3], acting = 0.0;
    Block H;
    vertex_force(m, adj, x, i, f, H, &acting);
    // What the plane must supply to balance the rest, if it pushes the way this plane can.
    const double R = -f[1];
    m.support[i] = held > 0.0f ? float(std::max(R, 0.0)) : float(std::min(R, 0.0));
    if (held > 0.0f) floor_sum += m.support[i];
    ceiling = ceiling || held < 0.0f;
  }
  // On the ground alone (no plate, no pin: no other force along y acts in the sweep), the total is
  // the vertical impulse the body really received, sum m (x - y)_y / h^2; the sweeps' unsolved
  // internal forces (a stiff body after one sweep) made the vertices' own sum 10-15 % larger, and
  // friction with it (measured on a 1 MPa box sliding at 3 m/s).
  if (ceiling || pinned || !(floor_sum > 0.0)) return;
  double received = 0.0;  // N
  for (uint32_t i = 0; i < m.vertex_count; ++i)
    received += double(m.mass[i]) * (double(x[3 * i + 1]) - m.target[3 * i + 1]) * m.inv_h2;
  const double scale = std::max(received, 0.0) / floor_sum;
  if (scale < 1.0)
    for (uint32_t i = 0; i < m.vertex_count; ++i)
      if (m.support[i] > 0.0f) m.support[i] = float(m.support[i] * scale);
}

double vbd_remove_kinetic_energy(const float* mass, const float* inv_mass, uint32_t n, double excess, float* v, bool held) {
  if (!(excess > 0.0)) return 0.0;
  double total = 0.0, p[3] = {0, 0, 0};  // kg, kg m/s
  for (uint32_t i = 0; i < n; ++i) {
    if (inv_mass[i] == 0.0f) continue;
    total += mass[i];
    for (int k = 0; k < 3; ++k) p[k] += double(mass[i]) * v[3 * i + k];
  }
  if (!(total > 0.0)) return 0.0;
  const double c[3] = {p[0] / total, p[1] / total, p[2] / total};  // m/s
  double relative = 0.0;  // J
  for (uint32_t i = 0; i < n; ++i) {
    if (inv_mass[i] == 0.0f) continue;
    for (int k = 0; k < 3; ++k) {
      const double u = double(v[3 * i + k]) - c[k];
      relative += 0.5 * double(mass[i]) * u * u;
    }
  }
  const double taken = std::min(excess, relative), s = relative > 0.0 ? std::sqrt((relative - taken) / relative) : 1.0;
  // What the internal motion cannot give up comes out of the centre of mass's when no vertex is pinned:
  // an undriven free body meets only gravity (free fall makes no excess) and the planes, so that
  // excess is made at an impact, and leaving it made rubber shells land with 30-60 % more energy
  // than they fell with. A held body's common motion is its swing about the pins: taken from it,
  // the 1-sweep cantilever hung at 11 mm of its 89 after 1.5 s. A grabbed body's is not kept: the
  // hand's energy is in the reference, and left there the excess of each substep carried into the
  // next (a rubber rod held still at one end climbed to 10^7 J in 4 s).
  const double common = held ? 0.0 : 0.5 * total * (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);  // J
  const double rest = std::min(excess - taken, common), sc = common > 0.0 ? std::sqrt((common - rest) / common) : 1.0;
  for (uint32_t i = 0; i < n; ++i) {
    if (inv_mass[i] == 0.0f) continue;
    for (int k = 0; k < 3; ++k) v[3 * i + k] = float(sc * c[k] + s * (double(v[3 * i + k]) - c[k]));
  }
  return taken + rest;
}

}  // namespace sb
