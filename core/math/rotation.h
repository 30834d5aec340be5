// The rotation nearest a 3 x 3 matrix: the polar decomposition's rotation, with any reflection
// removed. Used to give an inverted (or collapsed) tet a rest shape to return to.
#pragma once

namespace sb {

// R = U V^T for A = U diag(s1, s2, s3) V^T with U and V proper rotations and s1 >= s2 >= |s3|: the
// proper rotation that maximises tr(R^T A) (Kabsch; for det A < 0 this is Irving, Teran, Fedkiw
// 2004's "invertible" SVD, the smallest singular value taken negative, so the reflection is undone
// along the tet's thinnest direction). A and R row-major. Defined for every finite A: rank 2 or 1
// completes U with cross products, A = 0 gives the identity. R A^T is symmetric (U s U^T), so
// targets placed by R about a mass-weighted centre exert no net torque (Mueller et al. 2005, shape
// matching). Jacobi on A^T A in double, a fixed sweep limit: the same bits for the same A.
void closest_rotation(const double A[3][3], double R[3][3]);

}  // namespace sb
