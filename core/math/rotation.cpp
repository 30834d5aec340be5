#include "math/rotation.h"

#include <cmath>

namespace sb {

namespace {

double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
void cross(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}
bool normalise(double a[3]) {
  const double n = std::sqrt(dot(a, a));
  if (!(n > 0.0)) return false;
  for (int k = 0; k < 3; ++k) a[k] /= n;
  return true;
}
// A unit vector perpendicular to unit u: u crossed with the axis it is least aligned with.
void perpendicular(const double u[3], double p[3]) {
  const double ax = std::fabs(u[0]), ay = std::fabs(u[1]), az = std::fabs(u[2]);
  const double e[3] = {ax <= ay && ax <= az ? 1.0 : 0.0, ay < ax && ay <= az ? 1.0 : 0.0, az < ax && az < ay ? 1.0 : 0.0};
  cross(u, e, p);
  normalise(p);
}

// Eigenvectors (columns of V) and eigenvalues d of symmetric S by cyclic Jacobi rotations.
void symmetric_eigen(double S[3][3], double V[3][3], double d[3]) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) V[r][c] = r == c ? 1.0 : 0.0;
  for (int sweep = 0; sweep < 12; ++sweep) {
    const double off = S[0][1] * S[0][1] + S[0][2] * S[0][2] + S[1][2] * S[1][2];
    const double diag = S[0][0] * S[0][0] + S[1][1] * S[1][1] + S[2][2] * S[2][2];
    if (!(off > 1e-30 * diag)) break;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        if (S[p][q] == 0.0) continue;
        // The rotation in the (p, q) plane that zeroes S[p][q] (Golub & Van Loan, sec. 8.5.2).
        const double theta = (S[q][q] - S[p][p]) / (2.0 * S[p][q]);
        const double t = (theta >= 0.0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < 3; ++k) {  // S <- S J
          const double a = S[k][p], b = S[k][q];
          S[k][p] = c * a - s * b, S[k][q] = s * a + c * b;
        }
        for (int k = 0; k < 3; ++k) {  // S <- J^T S
          const double a = S[p][k], b = S[q][k];
          S[p][k] = c * a - s * b, S[q][k] = s * a + c * b;
        }
        for (int k = 0; k < 3; ++k) {  // V <- V J
          const double a = V[k][p], b = V[k][q];
          V[k][p] = c * a - s * b, V[k][q] = s * a + c * b;
        }
      }
  }
  for (int k = 0; k < 3; ++k) d[k] = S[k][k];
}

}  // namespace

void closest_rotation(const double A[3][3], double R[3][3]) {
  double S[3][3], V[3][3], d[3];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) S[r][c] = A[0][r] * A[0][c] + A[1][r] * A[1][c] + A[2][r] * A[2][c];  // A^T A
  symmetric_eigen(S, V, d);
  // Columns of V in order of decreasing eigenvalue (singular values squared).
  int order[3] = {0, 1, 2};
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      if (d[order[j]] > d[order[i]]) {
        const int t = order[i];
        order[i] = order[j], order[j] = t;
      }
  double v[3][3], u[3][3];  // v[k], u[k]: the k-th right and left singular vectors
  for (int k = 0; k < 3; ++k)
    for (int r = 0; r < 3; ++r) v[k][r] = V[r][order[k]];
  cross(v[0], v[1], v[2]);  // V proper
  for (int k = 0; k < 2; ++k)
    for (int r = 0; r < 3; ++r) u[k][r] = A[r][0] * v[k][0] + A[r][1] * v[k][1] + A[r][2] * v[k][2];
  if (!normalise(u[0])) {  // A = 0: no rotation to read
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) R[r][c] = r == c ? 1.0 : 0.0;
    return;
  }
  const double along = dot(u[0], u[1]);
  for (int r = 0; r < 3; ++r) u[1][r] -= along * u[0][r];
  // Rank 1 (a tet collapsed onto a line): any direction across u0 will do.
  if (!(dot(u[1], u[1]) > 1e-24 * d[order[0]]) || !normalise(u[1])) perpendicular(u[0], u[1]);
  cross(u[0], u[1], u[2]);  // U proper: the sign of s3 takes the reflection
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) R[r][c] = u[0][r] * v[0][c] + u[1][r] * v[1][c] + u[2][r] * v[2][c];
}

}  // namespace sb
