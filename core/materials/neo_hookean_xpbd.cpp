#include "materials/neo_hookean_xpbd.h"

#include <algorithm>
#include <cmath>

namespace sb {

namespace {

// 3x3 matrices as columns: m[j][r] is row r of column j (F's columns are the mapped rest edges).
using M3 = double[3][3];

// Gauss-Newton steps while their estimated contraction per step is below this: each then removes at
// least 3/4 of the error, so one or two end a visit; above it the exact 9 x 9 Newton step (~4x the
// cost of one) converges in fewer. Chosen, not tuned.
constexpr double kGaussNewtonLimit = 0.25;
// A step this small (in F, dimensionless: 1e-4 of an edge) ends the visit; the next pass or substep goes on.
constexpr double kStepTolerance = 1e-4;

// The tet's local problem (header): g(F) = 1/2 tr((F - Fy) K (F - Fy)^T) + Psi(F), K = W^-1 / (h^2 V0)
// (Pa, like Psi: everything per unit rest volume), Psi without its rest constant. Double precision: K can be
// 1e6 times stiffer in the directions a tet with pinned vertices cannot move (see regularised_inverse).
// K is per row of F (per spatial axis r): a vertex held by a plane along y has w_y = 0, so row y has
// its own inertia metric (NeoHookeanPass::plane); otherwise the three are equal (isotropic).
struct LocalProblem {
  M3 Fy;
  M3 K[3];  // symmetric, per row r
  bool isotropic = true;
  double mu, lambda, gamma;
};

void cofactor(const M3 F, M3 c) {
  for (int j = 0; j < 3; ++j) {
    const double* a = F[(j + 1) % 3];
    const double* b = F[(j + 2) % 3];
    c[j][0] = a[1] * b[2] - a[2] * b[1];
    c[j][1] = a[2] * b[0] - a[0] * b[2];
    c[j][2] = a[0] * b[1] - a[1] * b[0];
  }
}

double dot9(const M3 a, const M3 b) {
  double s = 0.0;
  for (int j = 0; j < 3; ++j)
    for (int r = 0; r < 3; ++r) s += a[j][r] * b[j][r];
  return s;
}

double determinant(const M3 F) {
  return F[0][0] * (F[1][1] * F[2][2] - F[1][2] * F[2][1]) + F[0][1] * (F[1][2] * F[2][0] - F[1][0] * F[2][2]) +
         F[0][2] * (F[1][0] * F[2][1] - F[1][1] * F[2][0]);
}

double objective(const LocalProblem& lp, const M3 F) {
  M3 d, c;
  for (int j = 0; j < 3; ++j)
    for (int r = 0; r < 3; ++r) d[j][r] = F[j][r] - lp.Fy[j][r];
  double inertia = 0.0;
  if (lp.isotropic) {
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) inertia += lp.K[0][j][k] * (d[j][0] * d[k][0] + d[j][1] * d[k][1] + d[j][2] * d[k][2]);
  } else {
    for (int r = 0; r < 3; ++r)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) inertia += lp.K[r][j][k] * d[j][r] * d[k][r];
  }
  cofactor(F, c);
  const double J = F[0][0] * c[0][0] + F[0][1] * c[0][1] + F[0][2] * c[0][2];
  return 0.5 * inertia + 0.5 * lp.mu * dot9(F, F) + 0.5 * lp.lambda * (J - lp.gamma) * (J - lp.gamma);
}

// Solves H x = rhs for symmetric H (n = 9) by LDL^T; false if a pivot is not safely positive (H not
// positive definite): the caller then drops the indefinite part.
bool solve_ldlt9(double H[9][9], const double rhs[9], double x[9]) {
  double L[9][9], d[9];
  double largest = 0.0;
  for (int i = 0; i < 9; ++i) largest = std::max(largest, std::fabs(H[i][i]));
  for (int j = 0; j < 9; ++j) {
    double dj = H[j][j];
    for (int k = 0; k < j; ++k) dj -= L[j][k] * L[j][k] * d[k];
    if (!(dj > 1e-12 * largest)) return false;
    d[j] = dj;
    for (int i = j + 1; i < 9; ++i) {
      double v = H[i][j];
      for (int k = 0; k < j; ++k) v -= L[i][k] * L[j][k] * d[k];
      L[i][j] = v / dj;
    }
  }
  for (int i = 0; i < 9; ++i) {
    double v = rhs[i];
    for (int k = 0; k < i; ++k) v -= L[i][k] * x[k];
    x[i] = v;
  }
  for (int i = 0; i < 9; ++i) x[i] /= d[i];
  for (int i = 8; i >= 0; --i) {
    double v = x[i];
    for (int k = i + 1; k < 9; ++k) v -= L[k][i] * x[k];
    x[i] = v;
  }
  return true;
}

// The Hessian of g at F (index 3 j + r): K_jk I + mu I + lambda c c^T + s d^2J, where d^2J/df_j df_k = -[f_l]x for k = j + 1 and +[f_l]x
// for k = j + 2 (cyclic, l the third column): J = f0 . (f1 x f2) is linear in each column.
void hessian(const LocalProblem& lp, const M3 F, const M3 c, double s, double H[9][9]) {
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k)
      for (int r = 0; r < 3; ++r)
        for (int q = 0; q < 3; ++q) {
          double v = lp.lambda * c[j][r] * c[k][q];
          if (r == q) v += lp.K[r][j][k] + (j == k ? lp.mu : 0.0);
          H[3 * j + r][3 * k + q] = v;
        }
  for (int j = 0; j < 3; ++j) {
    const int k = (j + 1) % 3, l = (j + 2) % 3;
    const double* f = F[l];
    // block (j, k) = -s [f_l]x, block (k, j) its transpose.
    const double cross[3][3] = {{0, -f[2], f[1]}, {f[2], 0, -f[0]}, {-f[1], f[0], 0}};
    for (int r = 0; r < 3; ++r)
      for (int q = 0; q < 3; ++q) {
        H[3 * j + r][3 * k + q] -= s * cross[r][q];
        H[3 * k + q][3 * j + r] -= s * cross[r][q];
      }
  }
}

void inverse3(const M3 A, M3 inv) {
  M3 c;
  cofactor(A, c);  // symmetric A: its cofactor matrix is its adjugate
  const double inv_det = 1.0 / (A[0][0] * c[0][0] + A[0][1] * c[0][1] + A[0][2] * c[0][2]);
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k) inv[j][k] = c[j][k] * inv_det;
}

// X A for a matrix X given by columns and a symmetric A: (A (x) I) applied to vec X.
void times_sym(const M3 X, const M3 A, M3 out) {
  for (int j = 0; j < 3; ++j)
    for (int r = 0; r < 3; ++r) out[j][r] = X[0][r] * A[0][j] + X[1][r] * A[1][j] + X[2][r] * A[2][j];
}

// The same with a symmetric A_r per row r of X (times_sym when the three are equal, to the bit).
void times_rows(const M3 X, const M3 A[3], M3 out) {
  for (int j = 0; j < 3; ++j)
    for (int r = 0; r < 3; ++r) out[j][r] = X[0][r] * A[r][0][j] + X[1][r] * A[r][1][j] + X[2][r] * A[r][2][j];
}

// The Gauss-Newton step: (A (x) I + lambda c c^T) D = -G with A = K + mu I (per row), by
// Sherman-Morrison on the rank-one volume term: D = -(G + lambda tau c) A^-1, tau = c : D. About 150 flops.
void gauss_newton_step(const M3 Ainv[3], const M3 G, const M3 c, double lambda, M3 D) {
  M3 GA, cA;
  times_rows(G, Ainv, GA);
  times_rows(c, Ainv, cA);
  const double tau = -dot9(c, GA) / (1.0 + lambda * dot9(c, cA));
  for (int j = 0; j < 3; ++j)
    for (int r = 0; r < 3; ++r) D[j][r] = -(GA[j][r] + lambda * tau * cA[j][r]);
}

// Minimises g from F (in place); returns the iterations used. Each step is Newton's with the exact
// Hessian, or Gauss-Newton's (the indefinite s d^2J part dropped: cheap, but it converges only at
// about |s| |F| / (k_min + mu) per step, k_min the smallest eigenvalue of K, so slowly when a tet's
// shear stiffness outweighs its inertia). A backtracking line search keeps every step downhill.
int minimise(const LocalProblem& lp, M3 F, int max_iterations, const M3 Ainv[3], double k_min) {
  int it = 0;
  for (; it < max_iterations; ++it) {
    M3 c, grad, D;
    cofactor(F, c);
    const double J = F[0][0] * c[0][0] + F[0][1] * c[0][1] + F[0][2] * c[0][2];
    const double s = lp.lambda * (J - lp.gamma);
    for (int j = 0; j < 3; ++j)
      for (int r = 0; r < 3; ++r) {
        double v = lp.mu * F[j][r] + s * c[j][r];
        for (int k = 0; k < 3; ++k) v += lp.K[r][j][k] * (F[k][r] - lp.Fy[k][r]);
        grad[j][r] = v;
      }
    const double contraction = std::fabs(s) * std::sqrt(dot9(F, F) / 3.0) / (k_min + lp.mu);
    bool newton = false;
    if (contraction > kGaussNewtonLimit) {
      double H[9][9], step[9], rhs[9];
      for (int i = 0; i < 9; ++i) rhs[i] = -grad[i / 3][i % 3];
      hessian(lp, F, c, s, H);
      if (solve_ldlt9(H, rhs, step)) {
        for (int i = 0; i < 9; ++i) D[i / 3][i % 3] = step[i];
        newton = true;
      }
    }
    if (!newton) gauss_newton_step(Ainv, grad, c, lp.lambda, D);
    const double slope = dot9(grad, D);
    if (!(slope < 0.0)) break;
    double largest = 0.0;
    for (int i = 0; i < 9; ++i) largest = std::max(largest, std::fabs(D[i / 3][i % 3]));
    // Psi without Smith et al.'s log term has a spurious local minimum at F = 0 (its Hessian there is
    // mu I): a whole step that shrinks an upright tet's volume more than fourfold could land in its
    // basin and collapse the tet for good, so such steps are shortened. Contracting Gauss-Newton steps
    // need no other line search; Newton's must go downhill on g.
    const double j_floor = J > 0.0 ? 0.25 * J : -INFINITY;
    const double g0 = newton ? objective(lp, F) : 0.0;
    double t = 1.0;
    M3 trial;
    for (int halvings = 0;; ++halvings) {
      for (int i = 0; i < 9; ++i) trial[i / 3][i % 3] = F[i / 3][i % 3] + t * D[i / 3][i % 3];
      if (halvings == 10) break;
      if (determinant(trial) >= j_floor && (!newton || objective(lp, trial) <= g0 + 1e-4 * t * slope)) break;
      t *= 0.5;
    }
    for (int i = 0; i < 9; ++i) F[i / 3][i % 3] = trial[i / 3][i % 3];
    // Converged: the step was small, or (Gauss-Newton) what it left, about contraction x the step,
    // is below the tolerance, so another iteration would only confirm it.
    if (t * largest < kStepTolerance || (!newton && t == 1.0 && contraction * largest < kStepTolerance)) { ++it; break; }
  }
  return it;
}

// (W + eps I)^-1 for symmetric positive semi-definite W: with two or more of its vertices immovable a
// tet's W is singular (F can only change in the free vertices' directions); eps = 1e-6 tr W makes those
// directions a million times stiffer instead, which the vertices' w_i = 0 then makes exact (they do
// not move). False if W = 0 (every vertex immovable).
bool regularised_inverse(const M3 W, M3 inv) {
  const double eps = 1e-6 * (W[0][0] + W[1][1] + W[2][2]);
  if (!(eps > 0.0)) return false;
  M3 A;
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k) A[j][k] = W[j][k] + (j == k ? eps : 0.0);
  M3 c;
  cofactor(A, c);  // symmetric A: its cofactor matrix is its adjugate
  const double det = A[0][0] * c[0][0] + A[0][1] * c[0][1] + A[0][2] * c[0][2];
  if (!(det > 0.0)) return false;
  const double inv_det = 1.0 / det;
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k) inv[j][k] = c[j][k] * inv_det;
  return true;
}

// The rows b_i of dF/dx_i (x_i moves F by dx b_i^T): B's rows for corners 1..3, minus their sum for 0.
void corner_rows(const float* B, double b[4][3]) {
  for (int i = 1; i < 4; ++i)
    for (int j = 0; j < 3; ++j) b[i][j] = B[3 * (i - 1) + j];
  for (int j = 0; j < 3; ++j) b[0][j] = -(b[1][j] + b[2][j] + b[3][j]);
}

// F (columns) of tet `id` from edge vectors in double.
void deformation_gradient(const float* pos, const uint32_t* id, const double b[4][3], M3 F) {
  double e[3][3];
  for (int i = 0; i < 3; ++i)
    for (int r = 0; r < 3; ++r) e[i][r] = double(pos[3 * id[i + 1] + r]) - double(pos[3 * id[0] + r]);
  for (int j = 0; j < 3; ++j)
    for (int r = 0; r < 3; ++r) F[j][r] = e[0][r] * b[1][j] + e[1][r] * b[2][j] + e[2][r] * b[3][j];
}

// The vertices' inertia in F's terms, W = sum_i w_i b_i b_i^T (1/(kg m^2)).
void inertia_metric(const double w[4], const double b[4][3], M3 W) {
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k) W[j][k] = w[0] * b[0][j] * b[0][k] + w[1] * b[1][j] * b[1][k] + w[2] * b[2][j] * b[2][k] + w[3] * b[3][j] * b[3][k];
}

// The multiplier's change that moves F0 to F: dLambda = (F - F0) W^+. W^+ = W_r^-1 W W_r^-1 (W and
// W_r share eigenvectors): W_r^-1 where the vertices can move F, 0 where they cannot, so the
// multipliers keep no part that moves nothing (through W_r^-1 alone it would grow by itself every
// pass). With every vertex movable W has full rank and W^+ is W_r^-1 (to its 1e-6 regularisation).
// Per row r with that row's W_r (full_rank[r]: none of its w_i is 0).
void multiplier_change(const M3 F, const M3 F0, const M3 W[3], const M3 Winv[3], const bool full_rank[3], M3 dl) {
  M3 dF, tmp, Wplus[3];
  for (int j = 0; j < 3; ++j)
    for (int r = 0; r < 3; ++r) dF[j][r] = F[j][r] - F0[j][r];
  for (int r = 0; r < 3; ++r) {
    if (full_rank[r]) {
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) Wplus[r][j][k] = Winv[r][j][k];
      continue;
    }
    times_sym(Winv[r], W[r], tmp);
    times_sym(tmp, Winv[r], Wplus[r]);
  }
  times_rows(dF, Wplus, dl);
}

// Each vertex moves by w_i dLambda b_i (rounded to float once), w_i per axis r: w[r][i].
void apply_impulse(float* pos, const uint32_t* id, const double w[3][4], const double b[4][3], const M3 dl) {
  for (int i = 0; i < 4; ++i) {
    for (int r = 0; r < 3; ++r) {
      if (w[r][i] == 0.0) continue;
      const double dx = w[r][i] * (dl[0][r] * b[i][0] + dl[1][r] * b[i][1] + dl[2][r] * b[i][2]);
      pos[3 * id[i] + r] = float(double(pos[3 * id[i] + r]) + dx);
    }
  }
}

// The tet's local problem from the positions (F0) and its multipliers, solved with per-axis inverse
// masses w[r][i]: dLambda in dl. False when nothing of the tet can move.
bool solve_local(const NeoHookeanPass& p, uint32_t t, const double w[3][4], const double b[4][3], const M3 F0,
                 M3 dl) {
  const bool isotropic = std::equal(w[0], w[0] + 4, w[1]) && std::equal(w[0], w[0] + 4, w[2]);
  M3 W[3], Winv[3];
  for (int r = 0; r < 3; ++r) {
    if (r > 0 && isotropic) {
      std::copy(&W[0][0][0], &W[0][0][0] + 9, &W[r][0][0]);
      std::copy(&Winv[0][0][0], &Winv[0][0][0] + 9, &Winv[r][0][0]);
      continue;
    }
    inertia_metric(w[r], b, W[r]);
    // A row no vertex can move (every w 0 along it): a billion times stiff, so it stays (the rows
    // that can move still solve).
    if (!regularised_inverse(W[r], Winv[r])) {
      if (r == 0 || isotropic) return false;
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) W[r][j][k] = 0.0, Winv[r][j][k] = j == k ? 1e9 * (Winv[0][0][0] + Winv[0][1][1] + Winv[0][2][2]) : 0.0;
    }
  }
  const double c = double(p.h2) * p.rest_volume[t];  // s^2 m^3
  if (!(c > 0.0)) return false;
  LocalProblem lp;
  lp.isotropic = isotropic;
  lp.mu = p.material.mu, lp.lambda = p.material.lambda, lp.gamma = p.material.gamma;
  const float* lam = p.lambda ? p.lambda + 9 * size_t(t) : nullptr;
  M3 F;
  for (int j = 0; j < 3; ++j)
    for (int r = 0; r < 3; ++r) {
      double v = F0[j][r];  // Fy = F0 - Lambda W: where F would be without this tet's impulse
      if (lam) v -= lam[r] * W[r][0][j] + lam[3 + r] * W[r][1][j] + lam[6 + r] * W[r][2][j];
      lp.Fy[j][r] = v;
      F[j][r] = F0[j][r];  // warm start: the current shape
    }
  const double inv_c = 1.0 / c;
  M3 Ainv[3];  // A = K + mu I, the Gauss-Newton metric, per row
  double trace = 0.0;
  for (int r = 0; r < 3; ++r) {
    M3 A;
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) {
        lp.K[r][j][k] = Winv[r][j][k] * inv_c;
        A[j][k] = lp.K[r][j][k] + (j == k ? lp.mu : 0.0);
      }
    inverse3(A, Ainv[r]);
    trace = std::max(trace, W[r][0][0] + W[r][1][1] + W[r][2][2]);
  }
  const double k_min = inv_c / trace;  // a lower bound of K's eigenvalues
  minimise(lp, F, p.newton_iterations, Ainv, k_min);
  bool full_rank[3];
  for (int r = 0; r < 3; ++r) full_rank[r] = w[r][0] != 0.0 && w[r][1] != 0.0 && w[r][2] != 0.0 && w[r][3] != 0.0;
  multiplier_change(F, F0, W, Winv, full_rank, dl);
  return true;
}

// One visit of tet t (header): its local problem from the positions and its multipliers, solved,
// and the result applied to both. A corner that the solve would push through a plane is held where it
// is along y and the tet solved again; a corner stuck on the ground is held on all axes unless the
// solve pulls it up (each corner changes at most twice per visit, so the rounds end).
void solve_tet(const NeoHookeanPass& p, uint32_t t) {
  const uint32_t* id = p.tets + 4 * t;
  double w[3][4], w_free[4];
  for (int i = 0; i < 4; ++i) w_free[i] = w[0][i] = w[1][i] = w[2][i] = p.inv_mass[id[i]];
  const bool planes = p.plane != nullptr;
  if (planes)  // stuck by static friction: immovable, unless the tet lifts it (below)
    for (int i = 0; i < 4; ++i)
      if (p.plane[id[i]] == 2) w[0][i] = w[1][i] = w[2][i] = 0.0;
  double b[4][3];
  corner_rows(p.B + 9 * size_t(t), b);
  M3 F0, dl;
  deformation_gradient(p.pos, id, b, F0);
  auto impulse = [&](int i, int r) { return dl[0][r] * b[i][0] + dl[1][r] * b[i][1] + dl[2][r] * b[i][2]; };  // kg m
  bool released[4] = {false, false, false, false};
  for (int round = 0; round < 6; ++round) {
    if (!solve_local(p, t, w, b, F0, dl)) return;
    if (!planes) break;
    bool changed = false;
    for (int i = 0; i < 4; ++i) {
      if (w_free[i] == 0.0) continue;
      // The ground's push on it so far, with this visit's pull: below zero the ground would pull it.
      const double ground_push = double(p.plane_push[id[i]]) / w_free[i] + p.plane_impulse[id[i]] - impulse(i, 1);
      if (p.plane[id[i]] == 2 && w[0][i] == 0.0 && !released[i] && ground_push < 0.0) {
        w[0][i] = w[1][i] = w[2][i] = w_free[i];  // pulled off the ground: free (once per visit)
        released[i] = changed = true;
        continue;
      }
      if (w[1][i] == 0.0) continue;
      const double to = double(p.pos[3 * id[i] + 1]) + w[1][i] * impulse(i, 1);
      if (to < p.floor_y || to > p.ceiling_y) w[1][i] = 0.0, changed = true;
    }
    if (!changed) break;
  }
  apply_impulse(p.pos, id, w, b, dl);
  if (planes)
    for (int i = 0; i < 4; ++i) {
      if (w_free[i] == 0.0) continue;
      // What the planes held of this tet's push (kg m); then a vertex carried through a plane (by
      // rounding, or when the rounds ran out) back on it.
      if (w[0][i] == 0.0) p.plane_tangent[2 * id[i]] -= float(impulse(i, 0));
      if (w[2][i] == 0.0) p.plane_tangent[2 * id[i] + 1] -= float(impulse(i, 2));
      if (w[1][i] == 0.0) {
        p.plane_impulse[id[i]] -= float(impulse(i, 1));
        continue;
      }
      float& y = p.pos[3 * id[i] + 1];
      const float to = std::min(std::max(y, p.floor_y), p.ceiling_y);
      p.plane_impulse[id[i]] += float(double(to - y) / w_free[i]);
      y = to;
    }
  if (p.lambda) {
    float* lam = p.lambda + 9 * size_t(t);
    for (int j = 0; j < 3; ++j)
      for (int r = 0; r < 3; ++r) lam[3 * j + r] = float(lam[3 * j + r] + dl[j][r]);
  }
}

}  // namespace

void solve_neo_hookean_blocks(const NeoHookeanPass& p) {
  for (uint32_t t = 0; t < p.tet_count; ++t) solve_tet(p, t);
}

void neo_hookean_positions(const NeoHookeanPass& p, const float* target, double* sum, uint32_t vertex_count,
                           const double* moved) {
  if (moved) std::copy(moved, moved + 3 * size_t(vertex_count), sum);
  else std::fill(sum, sum + 3 * size_t(vertex_count), 0.0);
  for (uint32_t t = 0; t < p.tet_count; ++t) {
    const uint32_t* id = p.tets + 4 * t;
    const float* lam = p.lambda + 9 * size_t(t);
    double b[4][3];
    corner_rows(p.B + 9 * size_t(t), b);
    for (int i = 0; i < 4; ++i) {
      const double w = p.inv_mass[id[i]];
      if (w == 0.0) continue;
      for (int r = 0; r < 3; ++r)
        sum[3 * id[i] + r] += w * (lam[r] * b[i][0] + lam[3 + r] * b[i][1] + lam[6 + r] * b[i][2]);
    }
  }
  if (p.plane_impulse)
    for (uint32_t i = 0; i < vertex_count; ++i) {
      const double w = p.inv_mass[i];
      sum[3 * size_t(i)] += w * p.plane_tangent[2 * size_t(i)];
      sum[3 * size_t(i) + 1] += w * p.plane_impulse[i];
      sum[3 * size_t(i) + 2] += w * p.plane_tangent[2 * size_t(i) + 1];
    }
  for (size_t k = 0; k < 3 * size_t(vertex_count); ++k) p.pos[k] = float(double(target[k]) + sum[k]);
}

void solve_edge_dashpots(const EdgeDashpotPass& p) {
  double* x = p.x;
  for (size_t k = 0; k < 3 * size_t(p.vertex_count); ++k) x[k] = p.pos[k];
  for (uint32_t e = 0; e < p.edge_count; ++e) {
    const uint32_t a = p.edges[2 * e], b = p.edges[2 * e + 1];
    const double wa = p.inv_mass[a], wb = p.inv_mass[b];
    if (wa + wb == 0.0) continue;
    double d[3], s0[3];
    for (int r = 0; r < 3; ++r) {
      d[r] = x[3 * a + r] - x[3 * b + r];
      s0[r] = double(p.prev[3 * a + r]) - double(p.prev[3 * b + r]);
    }
    const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (len == 0.0) continue;  // no direction to push along
    const double C = len - std::sqrt(s0[0] * s0[0] + s0[1] * s0[1] + s0[2] * s0[2]);  // m
    const double lam = p.lambda ? p.lambda[e] : 0.0;
    const double dlam = (-C - p.alpha_tilde * lam) / (wa + wb + p.alpha_tilde);  // kg m
    if (p.lambda) p.lambda[e] = float(lam + dlam);
    for (int r = 0; r < 3; ++r) {
      const double n = d[r] / len;
      x[3 * a + r] += wa * dlam * n;
      x[3 * b + r] -= wb * dlam * n;
    }
  }
  for (size_t k = 0; k < 3 * size_t(p.vertex_count); ++k) {
    if (p.moved) p.moved[k] += x[k] - double(p.pos[k]);
    p.pos[k] = float(x[k]);
  }
}

double tet_inertia_trace(const float* inv_mass, const uint32_t* tet, const float* B) {
  double b[4][3];
  corner_rows(B, b);
  double trace = 0.0;  // tr W, 1/(kg m^2)
  for (int i = 0; i < 4; ++i) trace += inv_mass[tet[i]] * (b[i][0] * b[i][0] + b[i][1] * b[i][1] + b[i][2] * b[i][2]);
  return trace;
}

double neo_hookean_stiffness_per_h2(const NeoHookean& m, const float* inv_mass, const uint32_t* tets, const float* B,
                                    const float* rest_volume, uint32_t tet_count) {
  double worst = 0.0;
  for (uint32_t t = 0; t < tet_count; ++t)
    worst = std::max(worst, tet_inertia_trace(inv_mass, tets + 4 * size_t(t), B + 9 * size_t(t)) * rest_volume[t]);
  return worst * (double(m.lambda) + m.mu);
}

float neo_hookean_block_residual(const NeoHookeanPass& p) {
  if (!p.lambda) return 0.0f;
  const NeoHookean& m = p.material;
  double worst = 0.0;
  for (uint32_t t = 0; t < p.tet_count; ++t) {
    const uint32_t* id = p.tets + 4 * t;
    double b[4][3];
    corner_rows(p.B + 9 * size_t(t), b);
    const double w[4] = {p.inv_mass[id[0]], p.inv_mass[id[1]], p.inv_mass[id[2]], p.inv_mass[id[3]]};
    M3 W, Winv, projector, F, c, R, Rp;
    inertia_metric(w, b, W);
    if (!regularised_inverse(W, Winv)) continue;  // nothing can move: nothing to solve
    times_sym(W, Winv, projector);  // onto what the tet's vertices can change of F
    deformation_gradient(p.pos, id, b, F);
    cofactor(F, c);
    const double s = m.lambda * (determinant(F) - m.gamma);
    const double inv_c = 1.0 / (double(p.h2) * p.rest_volume[t]);
    const float* lam = p.lambda + 9 * size_t(t);
    for (int j = 0; j < 3; ++j)
      for (int r = 0; r < 3; ++r) R[j][r] = m.mu * F[j][r] + s * c[j][r] + lam[3 * j + r] * inv_c;
    times_sym(R, projector, Rp);
    worst = std::max(worst, std::sqrt(dot9(Rp, Rp)) / (double(m.lambda) + m.mu));
  }
  return float(worst);
}

}  // namespace sb
