// Exact predicates: signs on inputs built to be exactly degenerate, and one ulp away from it, at
// magnitudes where a plain floating-point evaluation cannot be trusted.
#include <doctest.h>

#include <cmath>
#include <utility>

#include "math/predicates.h"

using namespace sb;

namespace {

// Points on the plane z = x + y, exactly representable (integers below 2^52).
void on_plane(double x, double y, double* p) {
  p[0] = x;
  p[1] = y;
  p[2] = x + y;
}

}  // namespace

TEST_CASE("orient3d: exact zero for coplanar points far from the origin, and the sign one ulp off") {
  const double big = 1099511627776.0;  // 2^40: differences of the inputs still fit, products do not
  double a[3], b[3], c[3], d[3];
  on_plane(big + 1, big + 3, a);
  on_plane(big + 7, big + 2, b);
  on_plane(big + 4, big + 9, c);
  on_plane(big + 123456, big + 654321, d);
  CHECK(orient3d(a, b, c, d) == 0);
  // (b - a) x (c - a) has z = 5*6 - (-1)*3 = 33 > 0, so raising d's z makes the tet positive.
  double up[3] = {d[0], d[1], std::nextafter(d[2], HUGE_VAL)};
  double down[3] = {d[0], d[1], std::nextafter(d[2], -HUGE_VAL)};
  CHECK(orient3d(a, b, c, up) == 1);
  CHECK(orient3d(a, b, c, down) == -1);
  CHECK(orient3d(b, a, c, up) == -1);  // mirrored order flips the sign
  CHECK(predicate_counters().orient_exact > 0);  // these needed the exact stage
}

TEST_CASE("orient3d: tiny offsets near the origin and the plain cases") {
  const double a[3] = {0, 0, 0}, b[3] = {1, 0, 0}, c[3] = {0, 1, 0};
  const double tiny_up[3] = {0.25, 0.25, 1e-300}, tiny_down[3] = {0.25, 0.25, -1e-300}, flat[3] = {0.25, 0.25, 0};
  CHECK(orient3d(a, b, c, tiny_up) == 1);
  CHECK(orient3d(a, b, c, tiny_down) == -1);
  CHECK(orient3d(a, b, c, flat) == 0);
  const double d[3] = {0, 0, 1};
  CHECK(orient3d(a, b, c, d) == 1);  // the unit corner tet is positive (tet_volume6's convention)
}

TEST_CASE("insphere: cospherical integer points far from the origin") {
  // Points with x^2 + y^2 + z^2 = 25 exactly, shifted by 2^30 (still exact in double).
  const double s = 1073741824.0;
  auto shifted = [&](double x, double y, double z, double* p) {
    p[0] = s + x;
    p[1] = s + y;
    p[2] = s + z;
  };
  double a[3], b[3], c[3], d[3], e[3];
  shifted(5, 0, 0, a);
  shifted(0, 5, 0, b);
  shifted(0, 0, 5, c);
  shifted(-3, -4, 0, d);
  shifted(0, -3, -4, e);
  if (orient3d(a, b, c, d) < 0) std::swap(a, b);
  REQUIRE(orient3d(a, b, c, d) == 1);
  CHECK(insphere(a, b, c, d, e) == 0);
  // Nudge e one ulp towards or away from the centre along z (e_z = s - 4 < s).
  double in[3] = {e[0], e[1], std::nextafter(e[2], HUGE_VAL)};
  double out[3] = {e[0], e[1], std::nextafter(e[2], -HUGE_VAL)};
  CHECK(insphere(a, b, c, d, in) == 1);
  CHECK(insphere(a, b, c, d, out) == -1);
  CHECK(insphere(b, a, c, d, in) == -1);  // a mirrored tet flips the sign
  const double centre[3] = {s, s, s}, far[3] = {s + 100, s, s};
  CHECK(insphere(a, b, c, d, centre) == 1);
  CHECK(insphere(a, b, c, d, far) == -1);
  CHECK(predicate_counters().insphere_exact > 0);
}

TEST_CASE("insphere_sos: a consistent, non-zero answer for cospherical points") {
  // The eight corners of a unit cube are cospherical: every insphere among them is 0.
  double corner[8][3];
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < 3; ++k) corner[i][k] = (i >> k) & 1;
  int decided = 0;
  for (int i0 = 0; i0 < 8; ++i0)
    for (int i1 = 0; i1 < 8; ++i1)
      for (int i2 = 0; i2 < 8; ++i2)
        for (int i3 = 0; i3 < 8; ++i3)
          for (int i4 = 0; i4 < 8; ++i4) {
            const int id[5] = {i0, i1, i2, i3, i4};
            bool distinct = true;
            for (int x = 0; x < 5; ++x)
              for (int y = x + 1; y < 5; ++y) distinct &= id[x] != id[y];
            if (!distinct || orient3d(corner[i0], corner[i1], corner[i2], corner[i3]) <= 0) continue;
            REQUIRE(insphere(corner[i0], corner[i1], corner[i2], corner[i3], corner[i4]) == 0);
            const int64_t ids[5] = {i0, i1, i2, i3, i4};
            const int s = insphere_sos(corner[i0], corner[i1], corner[i2], corner[i3], corner[i4], ids);
            CHECK(s != 0);
            // An even permutation of the tet keeps its orientation, so the answer must not change.
            const int64_t rotated[5] = {i1, i2, i0, i3, i4};
            CHECK(insphere_sos(corner[i1], corner[i2], corner[i0], corner[i3], corner[i4], rotated) == s);
            ++decided;
          }
  CHECK(decided > 100);
}

TEST_CASE("insphere on points rounded onto a sphere: exact stage with long expansions, antisymmetric") {
  // Coordinates from sin/cos carry all 53 bits, so differences and products need full-length
  // expansions: the exact stage's worst case for memory, which must neither crash nor disagree.
  auto on_sphere = [](int i, double* p) {
    const double t = 0.7 * i + 0.1, u = 1.3 * i * i + 0.2;
    p[0] = 3.0 + std::sin(t) * std::cos(u);
    p[1] = -2.0 + std::sin(t) * std::sin(u);
    p[2] = 5.0 + std::cos(t);
  };
  const uint64_t before = predicate_counters().insphere_exact;
  int checked = 0;
  for (int i = 0; i < 40; ++i) {
    double a[3], b[3], c[3], d[3], e[3];
    on_sphere(5 * i, a);
    on_sphere(5 * i + 1, b);
    on_sphere(5 * i + 2, c);
    on_sphere(5 * i + 3, d);
    on_sphere(5 * i + 4, e);
    if (orient3d(a, b, c, d) == 0) continue;
    const int s = insphere(a, b, c, d, e);
    CHECK(insphere(b, a, c, d, e) == -s);  // swapping two tet vertices mirrors the answer
    CHECK(insphere(b, c, a, d, e) == s);   // an even permutation keeps it
    ++checked;
  }
  CHECK(checked > 30);
  CHECK(predicate_counters().insphere_exact > before);  // rounding left the filter undecided
}

namespace {

// The prepared test's verdict: +1 inside, -1 outside, 0 undecided (insphere's job).
int prepared_sign(const double* a, const double* b, const double* c, const double* d, const double* p) {
  PreparedSphere s;
  prepare_sphere(a, b, c, d, s);
  double value, bound;
  prepared_insphere(s, a, p, value, bound);
  return value < -bound ? 1 : (value > bound ? -1 : 0);
}

}  // namespace

TEST_CASE("prepared in-sphere test: never contradicts insphere, abstains on cospherical points") {
  // The error bound is proved, not tuned (predicates.cpp), so it must hold where rounding is
  // worst: exactly cospherical points (the filter must abstain), one ulp off them, far from the
  // origin (large coordinates, small differences), and on slivers.
  const double s = 1073741824.0;  // 2^30
  double a[3] = {s + 5, s, s}, b[3] = {s, s + 5, s}, c[3] = {s, s, s + 5}, d[3] = {s - 3, s - 4, s};
  if (orient3d(a, b, c, d) < 0) std::swap(a, b);
  const double on[3] = {s, s - 3, s - 4};  // |on - (s, s, s)| = 5: on the sphere
  REQUIRE(insphere(a, b, c, d, on) == 0);
  CHECK(prepared_sign(a, b, c, d, on) == 0);
  for (double step : {HUGE_VAL, -HUGE_VAL}) {
    const double off[3] = {on[0], on[1], std::nextafter(on[2], step)};
    const int verdict = prepared_sign(a, b, c, d, off);
    CHECK((verdict == 0 || verdict == insphere(a, b, c, d, off)));
  }
  // The unit cube's corners: every tet among them has all the others on its sphere.
  int corner_tets = 0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 8; ++k)
        for (int l = 0; l < 8; ++l) {
          double p[4][3];
          const int id[4] = {i, j, k, l};
          for (int m = 0; m < 4; ++m)
            for (int x = 0; x < 3; ++x) p[m][x] = 1000.0 + ((id[m] >> x) & 1);
          if (orient3d(p[0], p[1], p[2], p[3]) <= 0) continue;
          for (int e = 0; e < 8; ++e) {
            const double q[3] = {1000.0 + (e & 1), 1000.0 + ((e >> 1) & 1), 1000.0 + ((e >> 2) & 1)};
            CHECK(prepared_sign(p[0], p[1], p[2], p[3], q) == 0);
          }
          ++corner_tets;
        }
  CHECK(corner_tets > 50);

  // Random tets, slivers among them, against random points and points near their spheres: every
  // decided verdict agrees with the exact predicate, and generic points are nearly all decided
  // (a bound so loose that everything went to the exact stage would be correct but useless).
  uint64_t seed = 12345;
  auto uniform = [&]() {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return double(seed >> 11) * (1.0 / 9007199254740992.0);
  };
  int generic = 0, generic_decided = 0, near = 0, wrong = 0;
  for (int t = 0; t < 2000; ++t) {
    double v[4][3];
    for (auto& p : v)
      for (double& x : p) x = 7.0 + uniform();
    if (t % 4 == 0)  // a sliver: the fourth vertex a hair off the plane of the first three
      for (int x = 0; x < 3; ++x) v[3][x] = (v[0][x] + v[1][x] + v[2][x]) / 3.0 + 1e-9 * (uniform() - 0.5);
    const int o = orient3d(v[0], v[1], v[2], v[3]);
    if (o == 0) continue;
    if (o < 0) std::swap(v[0], v[1]);
    for (int k = 0; k < 20; ++k) {
      double q[3];
      for (double& x : q) x = 7.0 + 1.5 * uniform() - 0.25;
      const int verdict = prepared_sign(v[0], v[1], v[2], v[3], q);
      wrong += verdict != 0 && verdict != insphere(v[0], v[1], v[2], v[3], q);
      ++generic;
      generic_decided += verdict != 0;
    }
    // A fifth point rounded onto the sphere: a point of the tet moved a tiny way along a random
    // direction is still within rounding of it.
    for (int k = 0; k < 4; ++k) {
      double q[3];
      for (int x = 0; x < 3; ++x) q[x] = v[k][x] + 1e-14 * (uniform() - 0.5);
      const int verdict = prepared_sign(v[0], v[1], v[2], v[3], q);
      wrong += verdict != 0 && verdict != insphere(v[0], v[1], v[2], v[3], q);
      ++near;
    }
  }
  CHECK(wrong == 0);
  CHECK(near > 7000);
  CHECK(generic_decided > 0.99 * generic);
}
