// Exact-sign orient3d / insphere: a filtered floating-point stage, then exact expansion arithmetic.
// An expansion is a sum of doubles, sorted by increasing magnitude and non-overlapping, that
// represents a real number exactly; sums and products of expansions are exact (Shewchuk 1997).
// Needs IEEE double arithmetic without fused multiply-add contraction (-ffp-contract=off).
#include "math/predicates.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

namespace sb {

namespace {

constexpr double kEpsilon = 1.1102230246251565e-16;  // 2^-53, half an ulp of 1
constexpr double kSplitter = 134217729.0;             // 2^27 + 1: splits a double into two 26-bit halves
// Forward error bounds of the floating-point evaluations below (Shewchuk's errboundA constants).
constexpr double kOrientBound = (7.0 + 56.0 * kEpsilon) * kEpsilon;
constexpr double kInsphereBound = (16.0 + 224.0 * kEpsilon) * kEpsilon;

PredicateCounters g_counters;

// x + y == a + b exactly, x = fl(a + b).
inline void two_sum(double a, double b, double& x, double& y) {
  x = a + b;
  const double b_virtual = x - a;
  const double a_virtual = x - b_virtual;
  y = (a - a_virtual) + (b - b_virtual);
}
// Same, when |a| >= |b| is known.
inline void fast_two_sum(double a, double b, double& x, double& y) {
  x = a + b;
  y = b - (x - a);
}
inline void two_diff(double a, double b, double& x, double& y) {
  x = a - b;
  const double b_virtual = a - x;
  const double a_virtual = x + b_virtual;
  y = (a - a_virtual) + (b_virtual - b);
}
inline void split(double a, double& hi, double& lo) {
  const double c = kSplitter * a;
  hi = c - (c - a);
  lo = a - hi;
}
// x + y == a * b exactly (Dekker), with b already split.
inline void two_product_presplit(double a, double b, double b_hi, double b_lo, double& x, double& y) {
  x = a * b;
  double a_hi, a_lo;
  split(a, a_hi, a_lo);
  const double err1 = x - a_hi * b_hi;
  const double err2 = err1 - a_lo * b_hi;
  const double err3 = err2 - a_hi * b_lo;
  y = a_lo * b_lo - err3;
}

// A view of an expansion living in the arena.
struct Exp {
  const double* v;
  int n;
};

// Bump allocator for one exact evaluation; reset at its start. Sized once for the worst case of
// insphere (products of up to 24- and 192-term expansions), so pointers never move.
class Arena {
 public:
  double* alloc(size_t n) {
    if (buf_.empty()) buf_.resize(size_t(1) << 19);  // 4 MB; insphere's worst case needs under 200k
    if (used_ + n > buf_.size()) {
      // Cannot happen for the bounded determinants below; fail loudly rather than corrupt memory.
      std::abort();
    }
    double* p = buf_.data() + used_;
    used_ += n;
    return p;
  }
  void reset() { used_ = 0; }

 private:
  std::vector<double> buf_;
  size_t used_ = 0;
};
Arena g_arena;

// h = e + f, both non-overlapping and increasing in magnitude; zero components dropped. h has room
// for e.n + f.n components; returns how many it holds.
int add_into(Exp e, Exp f, double* h) {
  int i = 0, j = 0, k = 0;
  // Next component by increasing magnitude (the merge of the two sorted lists).
  auto take = [&]() -> double {
    if (j >= f.n || (i < e.n && std::fabs(e.v[i]) < std::fabs(f.v[j]))) return e.v[i++];
    return f.v[j++];
  };
  const int total = e.n + f.n;
  double q = take();
  double q_new, hh;
  if (total > 1) {
    fast_two_sum(take(), q, q_new, hh);
    q = q_new;
    if (hh != 0.0) h[k++] = hh;
  }
  while (i + j < total) {
    two_sum(q, take(), q_new, hh);
    q = q_new;
    if (hh != 0.0) h[k++] = hh;
  }
  if (q != 0.0 || k == 0) h[k++] = q;
  return k;
}

Exp add(Exp e, Exp f) {
  double* h = g_arena.alloc(size_t(e.n + f.n));
  return {h, add_into(e, f, h)};
}

Exp negate(Exp e) {
  double* h = g_arena.alloc(size_t(e.n));
  for (int i = 0; i < e.n; ++i) h[i] = -e.v[i];
  return {h, e.n};
}

Exp sub(Exp e, Exp f) { return add(e, negate(f)); }

// h = e * b for one double b; h has room for 2 e.n components.
int scale_into(Exp e, double b, double* h) {
  double b_hi, b_lo;
  split(b, b_hi, b_lo);
  int k = 0;
  double q, hh, product1, product0, sum;
  two_product_presplit(e.v[0], b, b_hi, b_lo, q, hh);
  if (hh != 0.0) h[k++] = hh;
  for (int i = 1; i < e.n; ++i) {
    two_product_presplit(e.v[i], b, b_hi, b_lo, product1, product0);
    two_sum(q, product0, sum, hh);
    if (hh != 0.0) h[k++] = hh;
    fast_two_sum(product1, sum, q, hh);
    if (hh != 0.0) h[k++] = hh;
  }
  if (q != 0.0 || k == 0) h[k++] = q;
  return k;
}

// e * f: the sum over f's components of e scaled by each, accumulated in two buffers used in turn,
// so memory stays 4 e.n f.n + 2 e.n whatever the lengths (the worst case fits the arena).
Exp mul(Exp e, Exp f) {
  const size_t cap = 2 * size_t(e.n) * size_t(f.n);
  double* acc = g_arena.alloc(cap);
  double* next = g_arena.alloc(cap);
  double* term = g_arena.alloc(2 * size_t(e.n));
  int n = scale_into(e, f.v[0], acc);
  for (int j = 1; j < f.n; ++j) {
    const int m = scale_into(e, f.v[j], term);
    n = add_into({acc, n}, {term, m}, next);
    std::swap(acc, next);
  }
  return {acc, n};
}

// a - b as an exact expansion of at most two terms.
Exp diff(double a, double b) {
  double* h = g_arena.alloc(2);
  double x, y;
  two_diff(a, b, x, y);
  int k = 0;
  if (y != 0.0) h[k++] = y;
  if (x != 0.0 || k == 0) h[k++] = x;
  return {h, k};
}

// The sign of an expansion is the sign of its largest component.
int sign_of(Exp e) { return e.v[e.n - 1] > 0.0 ? 1 : (e.v[e.n - 1] < 0.0 ? -1 : 0); }

// det[a - d; b - d; c - d], exactly (Shewchuk's orientation: the negative of ours).
int orient_exact(const double* a, const double* b, const double* c, const double* d) {
  g_arena.reset();
  const Exp adx = diff(a[0], d[0]), ady = diff(a[1], d[1]), adz = diff(a[2], d[2]);
  const Exp bdx = diff(b[0], d[0]), bdy = diff(b[1], d[1]), bdz = diff(b[2], d[2]);
  const Exp cdx = diff(c[0], d[0]), cdy = diff(c[1], d[1]), cdz = diff(c[2], d[2]);
  const Exp t1 = mul(adz, sub(mul(bdx, cdy), mul(cdx, bdy)));
  const Exp t2 = mul(bdz, sub(mul(cdx, ady), mul(adx, cdy)));
  const Exp t3 = mul(cdz, sub(mul(adx, bdy), mul(bdx, ady)));
  return sign_of(add(add(t1, t2), t3));
}

// Shewchuk's in-sphere determinant over rows (p - e, |p - e|^2), exactly: positive when e is inside
// the sphere of a tet that is positive in his orientation (negative in ours).
int insphere_exact(const double* a, const double* b, const double* c, const double* d, const double* e) {
  g_arena.reset();
  const Exp aex = diff(a[0], e[0]), aey = diff(a[1], e[1]), aez = diff(a[2], e[2]);
  const Exp bex = diff(b[0], e[0]), bey = diff(b[1], e[1]), bez = diff(b[2], e[2]);
  const Exp cex = diff(c[0], e[0]), cey = diff(c[1], e[1]), cez = diff(c[2], e[2]);
  const Exp dex = diff(d[0], e[0]), dey = diff(d[1], e[1]), dez = diff(d[2], e[2]);
  const Exp ab = sub(mul(aex, bey), mul(bex, aey));
  const Exp bc = sub(mul(bex, cey), mul(cex, bey));
  const Exp cd = sub(mul(cex, dey), mul(dex, cey));
  const Exp da = sub(mul(dex, aey), mul(aex, dey));
  const Exp ac = sub(mul(aex, cey), mul(cex, aey));
  const Exp bd = sub(mul(bex, dey), mul(dex, bey));
  const Exp abc = add(sub(mul(aez, bc), mul(bez, ac)), mul(cez, ab));
  const Exp bcd = add(sub(mul(bez, cd), mul(cez, bd)), mul(dez, bc));
  const Exp cda = add(add(mul(cez, da), mul(dez, ac)), mul(aez, cd));
  const Exp dab = add(add(mul(dez, ab), mul(aez, bd)), mul(bez, da));
  auto lift = [](Exp x, Exp y, Exp z) { return add(add(mul(x, x), mul(y, y)), mul(z, z)); };
  const Exp alift = lift(aex, aey, aez), blift = lift(bex, bey, bez);
  const Exp clift = lift(cex, cey, cez), dlift = lift(dex, dey, dez);
  const Exp left = sub(mul(dlift, abc), mul(clift, dab));
  const Exp right = sub(mul(blift, cda), mul(alift, bcd));
  return sign_of(add(left, right));
}

}  // namespace

PredicateCounters& predicate_counters() { return g_counters; }

namespace {

// insphere's floating-point stage: from the coordinates of a, b, c, d relative to e, Shewchuk's
// determinant over rows (p - e, |p - e|^2) and its forward error bound (errboundA times the
// permanent, the same expression with every product's magnitude).
void insphere_filter(const double x[4], const double y[4], const double z[4], double& det, double& bound) {
  const double aex = x[0], bex = x[1], cex = x[2], dex = x[3];
  const double aey = y[0], bey = y[1], cey = y[2], dey = y[3];
  const double aez = z[0], bez = z[1], cez = z[2], dez = z[3];
  const double aexbey = aex * bey, bexaey = bex * aey;
  const double bexcey = bex * cey, cexbey = cex * bey;
  const double cexdey = cex * dey, dexcey = dex * cey;
  const double dexaey = dex * aey, aexdey = aex * dey;
  const double aexcey = aex * cey, cexaey = cex * aey;
  const double bexdey = bex * dey, dexbey = dex * bey;
  const double ab = aexbey - bexaey, bc = bexcey - cexbey, cd = cexdey - dexcey;
  const double da = dexaey - aexdey, ac = aexcey - cexaey, bd = bexdey - dexbey;
  const double abc = aez * bc - bez * ac + cez * ab;
  const double bcd = bez * cd - cez * bd + dez * bc;
  const double cda = cez * da + dez * ac + aez * cd;
  const double dab = dez * ab + aez * bd + bez * da;
  const double alift = aex * aex + aey * aey + aez * aez;
  const double blift = bex * bex + bey * bey + bez * bez;
  const double clift = cex * cex + cey * cey + cez * cez;
  const double dlift = dex * dex + dey * dey + dez * dez;
  det = (dlift * abc - clift * dab) + (blift * cda - alift * bcd);

  const double aez_abs = std::fabs(aez), bez_abs = std::fabs(bez), cez_abs = std::fabs(cez), dez_abs = std::fabs(dez);
  const double aexbey_p = std::fabs(aexbey) + std::fabs(bexaey);
  const double bexcey_p = std::fabs(bexcey) + std::fabs(cexbey);
  const double cexdey_p = std::fabs(cexdey) + std::fabs(dexcey);
  const double dexaey_p = std::fabs(dexaey) + std::fabs(aexdey);
  const double aexcey_p = std::fabs(aexcey) + std::fabs(cexaey);
  const double bexdey_p = std::fabs(bexdey) + std::fabs(dexbey);
  const double permanent =
      (cexdey_p * bez_abs + bexdey_p * cez_abs + bexcey_p * dez_abs) * alift +
      (dexaey_p * cez_abs + aexcey_p * dez_abs + cexdey_p * aez_abs) * blift +
      (aexbey_p * dez_abs + bexdey_p * aez_abs + dexaey_p * bez_abs) * clift +
      (bexcey_p * aez_abs + aexcey_p * bez_abs + aexbey_p * cez_abs) * dlift;
  bound = kInsphereBound * permanent;
}

}  // namespace


int orient3d(const double* a, const double* b, const double* c, const double* d) {
  const double adx = a[0] - d[0], bdx = b[0] - d[0], cdx = c[0] - d[0];
  const double ady = a[1] - d[1], bdy = b[1] - d[1], cdy = c[1] - d[1];
  const double adz = a[2] - d[2], bdz = b[2] - d[2], cdz = c[2] - d[2];
  const double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy;
  const double cdxady = cdx * ady, adxcdy = adx * cdy;
  const double adxbdy = adx * bdy, bdxady = bdx * ady;
  const double det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
  const double permanent = (std::fabs(bdxcdy) + std::fabs(cdxbdy)) * std::fabs(adz) +
                           (std::fabs(cdxady) + std::fabs(adxcdy)) * std::fabs(bdz) +
                           (std::fabs(adxbdy) + std::fabs(bdxady)) * std::fabs(cdz);
  const double bound = kOrientBound * permanent;
  // det is Shewchuk's det[a-d; b-d; c-d], the negative of ((b-a) x (c-a)) . (d-a).
  if (det > bound) return -1;
  if (-det > bound) return 1;
  ++g_counters.orient_exact;
  return -orient_exact(a, b, c, d);
}

int insphere(const double* a, const double* b, const double* c, const double* d, const double* e) {
  const double x[4] = {a[0] - e[0], b[0] - e[0], c[0] - e[0], d[0] - e[0]};
  const double y[4] = {a[1] - e[1], b[1] - e[1], c[1] - e[1], d[1] - e[1]};
  const double z[4] = {a[2] - e[2], b[2] - e[2], c[2] - e[2], d[2] - e[2]};
  double det, bound;
  insphere_filter(x, y, z, det, bound);
  // Shewchuk's sign convention is the mirror of ours, so his "inside" is our negative.
  if (det > bound) return -1;
  if (-det > bound) return 1;
  ++g_counters.insphere_exact;
  return -insphere_exact(a, b, c, d, e);
}

// Error bound: every monomial of that degree-5 polynomial passes through at most 17 roundings
// (5 differences, 12 products and sums), so the computed value is within 17.01 eps of the exact
// one times the permanent P (the same polynomial with every monomial's magnitude). With
// S = |u|^2 + |v|^2 + |w|^2, Cauchy-Schwarz and AM-GM give
//   P <= S^1.5 |q|^2 + (S^2 / sqrt 3) |q| <= 1.5 S^1.5 (|q|^2 + S / 9).
// G = 30 eps S^1.5 (20 eps after the 1.5) leaves room for S and |q|^2 themselves being rounded.
// Like Shewchuk's bounds this assumes no underflow: true for any float input (the C API's), whose
// differences are at least 1e-45, so that S^2.5 stays far above the smallest double.
void prepare_sphere(const double* a, const double* b, const double* c, const double* d, PreparedSphere& s) {
  const double ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
  const double vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
  const double wx = d[0] - a[0], wy = d[1] - a[1], wz = d[2] - a[2];
  const double lu = ux * ux + uy * uy + uz * uz;
  const double lv = vx * vx + vy * vy + vz * vz;
  const double lw = wx * wx + wy * wy + wz * wz;
  // N = lu (v x w) + lv (w x u) + lw (u x v), summed in that order, one cross product at a time:
  // fewer values live at once (V8 spilled registers when all three were kept).
  const double vw_x = vy * wz - vz * wy, vw_y = vz * wx - vx * wz, vw_z = vx * wy - vy * wx;
  s.d = ux * vw_x + uy * vw_y + uz * vw_z;
  double nx = lu * vw_x, ny = lu * vw_y, nz = lu * vw_z;
  const double wu_x = wy * uz - wz * uy, wu_y = wz * ux - wx * uz, wu_z = wx * uy - wy * ux;
  nx = nx + lv * wu_x;
  ny = ny + lv * wu_y;
  nz = nz + lv * wu_z;
  const double uv_x = uy * vz - uz * vy, uv_y = uz * vx - ux * vz, uv_z = ux * vy - uy * vx;
  s.n[0] = nx + lw * uv_x;
  s.n[1] = ny + lw * uv_y;
  s.n[2] = nz + lw * uv_z;
  const double sum = lu + lv + lw;
  s.g = 30.0 * kEpsilon * sum * std::sqrt(sum);
  s.h = sum * (1.0 / 9.0);
}

int insphere_sos(const double* a, const double* b, const double* c, const double* d, const double* e,
                 const int64_t ids[5]) {
  const int s = insphere(a, b, c, d, e);
  return s != 0 ? s : insphere_tie_break(a, b, c, d, e, ids);
}

int insphere_tie_break(const double* a, const double* b, const double* c, const double* d, const double* e,
                       const int64_t ids[5]) {
  // On the sphere: the determinant over rows (p, |p|^2, 1) is zero; raising point k's lift by
  // delta_k adds delta_k times its cofactor, (-1)^(k+1) orient(the other four) (k = 1..5). The
  // most-perturbed point whose cofactor is non-zero decides; insphere = -determinant.
  const double* p[5] = {a, b, c, d, e};
  int order[5] = {0, 1, 2, 3, 4};
  for (int i = 1; i < 5; ++i)  // by decreasing id: the largest id is perturbed most
    for (int j = i; j > 0 && ids[order[j]] > ids[order[j - 1]]; --j) std::swap(order[j], order[j - 1]);
  for (int r = 0; r < 5; ++r) {
    const int k = order[r];
    const double* q[4];
    int m = 0;
    for (int i = 0; i < 5; ++i)
      if (i != k) q[m++] = p[i];
    const int o = orient3d(q[0], q[1], q[2], q[3]);
    if (o != 0) return (k % 2 == 0) ? -o : o;  // (-1)^k o for 1-based k, i.e. -(-1)^k o for 0-based k
  }
  return 0;  // all five coplanar: a flat tet, which Delaunay never asks about
}

}  // namespace sb
