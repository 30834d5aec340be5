#include "meshing/thickness_rays.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <utility>

#include "meshing/surface_query.h"
#include "meshing/union_find.h"

namespace sb {

namespace {

// At most this many crossings of inner sheets (overlapping pieces) are stepped over per ray.
constexpr int kMaxCrossings = 64;
// Pieces' bounding boxes, grown by this (grid units: the offset of the buried test), against which
// faces are checked before a winding number; with more pieces than kMaxPieceBoxes every face is.
constexpr double kBoxMargin = 1e-2;
constexpr size_t kMaxPieceBoxes = 256;


}  // namespace

ThicknessRays::ThicknessRays(const std::vector<double>& p, const std::vector<uint32_t>& t, const SurfaceQuery& query)
    : p_(p), t_(t), query_(query) {
  const size_t faces = t.size() / 3;
  normal_.assign(3 * faces, 0.0);
  for (size_t f = 0; f < faces; ++f) {
    const double* a = &p[3 * size_t(t[3 * f])];
    const double* b = &p[3 * size_t(t[3 * f + 1])];
    const double* c = &p[3 * size_t(t[3 * f + 2])];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (len > 0)
      for (int k = 0; k < 3; ++k) normal_[3 * f + size_t(k)] = n[k] / len;
  }
  // A soup: open edges (an edge not on exactly two faces) or more than one piece over shared vertices.
  std::vector<std::array<uint32_t, 2>> edges;
  edges.reserve(t.size());
  for (size_t f = 0; f < faces; ++f)
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = t[3 * f + size_t(k)], b = t[3 * f + size_t((k + 1) % 3)];
      edges.push_back({std::min(a, b), std::max(a, b)});
    }
  std::sort(edges.begin(), edges.end());
  for (size_t i = 0, j = 0; i < edges.size() && !soup_; i = j) {
    for (j = i + 1; j < edges.size() && edges[j] == edges[i]; ++j) {
    }
    soup_ = j - i != 2;
  }
  UnionFind pieces_of(p.size() / 3);
  for (const auto& e : edges) pieces_of.join(e[0], e[1]);
  int64_t pieces = 0;
  std::vector<uint8_t> used(p.size() / 3, 0);
  for (uint32_t v : t) used[v] = 1;
  for (size_t v = 0; v < used.size(); ++v) pieces += used[v] && pieces_of.find(int64_t(v)) == int64_t(v);
  soup_ = soup_ || pieces > 1;
  if (!soup_) return;
  // Each face by its centroid; a face whose neighbour across an edge came out otherwise is along
  // a crease and is tested per sample (buried_at). (Testing each face's corners too cost four
  // winding numbers per face: 0.5 s for the three spheres of the tests, 0.05 s now.)
  buried_.assign(faces, kClear);
  // Only a face that reaches into another piece's bounding box can be inside it (checked against
  // up to kMaxPieceBoxes boxes; beyond that every face is tested): a model of many separate parts
  // that do not overlap costs no winding number here.
  std::vector<int64_t> piece_of(p.size() / 3, -1);
  std::vector<std::array<double, 6>> boxes;  // lo xyz, hi xyz per piece
  for (size_t v = 0; v < used.size(); ++v) {
    if (!used[v]) continue;
    const int64_t root = pieces_of.find(int64_t(v));
    if (piece_of[size_t(root)] < 0) {
      piece_of[size_t(root)] = int64_t(boxes.size());
      boxes.push_back({HUGE_VAL, HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL, -HUGE_VAL});
    }
    piece_of[v] = piece_of[size_t(root)];
    auto& b = boxes[size_t(piece_of[v])];
    for (int k = 0; k < 3; ++k) {
      b[size_t(k)] = std::min(b[size_t(k)], p[3 * v + size_t(k)] - kBoxMargin);
      b[size_t(k) + 3] = std::max(b[size_t(k) + 3], p[3 * v + size_t(k)] + kBoxMargin);
    }
  }
  std::vector<uint8_t> candidate(faces, 1);
  if (boxes.size() <= kMaxPieceBoxes)
    for (size_t f = 0; f < faces; ++f) {
      const int64_t own = piece_of[t[3 * f]];
      bool reaches = false;
      for (size_t b = 0; b < boxes.size() && !reaches; ++b) {
        if (int64_t(b) == own) continue;
        bool overlap = true;
        for (int k = 0; k < 3 && overlap; ++k) {
          double lo = HUGE_VAL, hi = -HUGE_VAL;
          for (int v = 0; v < 3; ++v) {
            lo = std::min(lo, p[3 * size_t(t[3 * f + size_t(v)]) + size_t(k)]);
            hi = std::max(hi, p[3 * size_t(t[3 * f + size_t(v)]) + size_t(k)]);
          }
          overlap = hi >= boxes[b][size_t(k)] && lo <= boxes[b][size_t(k) + 3];
        }
        reaches = overlap;
      }
      candidate[f] = reaches;
    }
  for (size_t f = 0; f < faces; ++f) {
    if (!candidate[f]) continue;
    double c[3];
    for (int k = 0; k < 3; ++k)
      c[k] = (p[3 * size_t(t[3 * f]) + size_t(k)] + p[3 * size_t(t[3 * f + 1]) + size_t(k)] + p[3 * size_t(t[3 * f + 2]) + size_t(k)]) / 3;
    if (outside_is_inside(c, uint32_t(f))) buried_[f] = kBuried;
  }
  std::vector<std::pair<std::array<uint32_t, 2>, uint32_t>> sides;  // (edge, face)
  sides.reserve(t.size());
  for (size_t f = 0; f < faces; ++f)
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = t[3 * f + size_t(k)], b = t[3 * f + size_t((k + 1) % 3)];
      sides.push_back({{std::min(a, b), std::max(a, b)}, uint32_t(f)});
    }
  std::sort(sides.begin(), sides.end());
  std::vector<uint8_t> mixed(faces, 0);
  for (size_t i = 0, j = 0; i < sides.size(); i = j) {
    bool any_buried = false, any_clear = false;
    for (j = i; j < sides.size() && sides[j].first == sides[i].first; ++j) {
      any_buried = any_buried || buried_[sides[j].second] == kBuried;
      any_clear = any_clear || buried_[sides[j].second] == kClear;
    }
    if (any_buried && any_clear)
      for (size_t m = i; m < j; ++m) mixed[sides[m].second] = 1;
  }
  // ... or whose corners come out otherwise than its centroid (each vertex once, a thousandth of a
  // cell along the mean of its faces' normals).
  std::vector<double> vertex_normal(p.size(), 0.0);
  for (size_t f = 0; f < faces; ++f)
    for (int k = 0; k < 3; ++k)
      for (int c = 0; c < 3; ++c) vertex_normal[3 * size_t(t[3 * f + size_t(k)]) + size_t(c)] += normal_[3 * f + size_t(c)];
  std::vector<int8_t> vertex_buried(p.size() / 3, -1);
  for (size_t f = 0; f < faces; ++f)
    for (int k = 0; k < 3 && candidate[f]; ++k) {
      const uint32_t v = t[3 * f + size_t(k)];
      if (vertex_buried[v] < 0) {
        double* n = &vertex_normal[3 * size_t(v)];
        const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        const double y[3] = {p[3 * size_t(v)] + (len > 0 ? 1e-3 * n[0] / len : 0),
                             p[3 * size_t(v) + 1] + (len > 0 ? 1e-3 * n[1] / len : 0),
                             p[3 * size_t(v) + 2] + (len > 0 ? 1e-3 * n[2] / len : 0)};
        vertex_buried[v] = int8_t(winding_above_half(y));
      }
      if ((vertex_buried[v] == 1) != (buried_[f] == kBuried)) mixed[f] = 1;
    }
  for (size_t f = 0; f < faces; ++f)
    if (mixed[f]) buried_[f] = kMixed;
}

bool ThicknessRays::winding_above_half(const double y[3]) const {
  // The coarse sum decides when it is clearly off the threshold (as the inside test does).
  const double coarse = query_.winding_number(y, 1.5);
  return std::fabs(coarse - 0.5) > 0.25 ? coarse > 0.5 : query_.winding_number(y) > 0.5;
}

// Whether the winding number a thousandth of a cell outside x (grid units, on the face) is > 1/2.
bool ThicknessRays::outside_is_inside(const double x[3], uint32_t face) const {
  const double* n = normal(face);
  if (!(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > 0.5)) return false;
  const double y[3] = {x[0] + 1e-3 * n[0], x[1] + 1e-3 * n[1], x[2] + 1e-3 * n[2]};
  return winding_above_half(y);
}

double ThicknessRays::longest_edge(uint32_t face) const {
  const double* p = p_.data();
  double l = 0;
  for (int k = 0; k < 3; ++k) {
    const double* a = &p[3 * size_t(t_[3 * size_t(face) + size_t(k)])];
    const double* b = &p[3 * size_t(t_[3 * size_t(face) + size_t((k + 1) % 3)])];
    l = std::max(l, std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2])));
  }
  return l;
}

bool ThicknessRays::buried_at(const double x[3], uint32_t face) const {
  if (buried_.empty() || buried_[face] == kClear) return false;
  if (buried_[face] == kBuried) return true;
  return outside_is_inside(x, face);
}

// A neighbour hit at `hit` along -normal(face) from o: from there a ray along the hit face's inward
// normal leaves, within kClosedSectionReach times the first ray's length, through a third side (a
// face facing neither way of the two, sharing a corner with the first): a closed thin section, such
// as a triangular rod's, whose sides all share its edges. In a two-face wedge of a larger body it
// comes back to the first side or runs on into the body.
bool ThicknessRays::closed_section(const double o[3], uint32_t face, double hit, uint32_t hit_face) const {
  const double* n = normal(face);
  const double* m = normal(hit_face);
  const double x[3] = {o[0] - hit * n[0], o[1] - hit * n[1], o[2] - hit * n[2]};
  const double d[3] = {-m[0], -m[1], -m[2]};
  int32_t third = -1;
  const double second = query_.ray_hit(x, d, int32_t(hit_face), 1e-9, kClosedSectionReach * hit, &third);
  if (second == HUGE_VAL || third < 0) return false;
  const double* k = normal(uint32_t(third));
  const double leaving = k[0] * d[0] + k[1] * d[1] + k[2] * d[2];
  const double like_first = k[0] * n[0] + k[1] * n[1] + k[2] * n[2];
  const double like_hit = k[0] * m[0] + k[1] * m[1] + k[2] * m[2];
  // ... and closes the section: a neighbour of the first side too (a triangle's three sides).
  const uint32_t* own = &t_[3 * size_t(face)];
  const uint32_t* other = &t_[3 * size_t(third)];
  bool closes = false;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) closes = closes || own[i] == other[j];
  // ... by three faces with no corner in common (faces around a tip all share it).
  const uint32_t* hit_own = &t_[3 * size_t(hit_face)];
  bool tip = false;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int l = 0; l < 3; ++l) tip = tip || (own[i] == other[j] && own[i] == hit_own[l]);
  if (tip) return false;
  return closes && leaving >= kOpposedCosine && like_first < kSameSideCosine && like_hit < kSameSideCosine;
}

double ThicknessRays::thickness(const double o[3], uint32_t face, double reach, bool* closed) const {
  const double* n = normal(face);
  if (!(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > 0.5)) return HUGE_VAL;
  const double d[3] = {-n[0], -n[1], -n[2]};
  const uint32_t* own = &t_[3 * size_t(face)];
  double from = 1e-9;
  auto skip = int32_t(face);
  for (int crossing = 0; crossing < kMaxCrossings; ++crossing) {
    int32_t hit_face = -1;
    const double hit = query_.ray_hit(o, d, skip, from, reach, &hit_face);
    if (hit == HUGE_VAL || hit_face < 0) return HUGE_VAL;
    const double* m = normal(uint32_t(hit_face));
    const double along = m[0] * d[0] + m[1] * d[1] + m[2] * d[2];  // > 0: the ray leaves through it
    bool way_out = along > 0;
    if (way_out && soup_) {
      // Just beyond the crossing (a thousandth of the distance, at least 1e-6 cell): still inside
      // another piece means an inner sheet of a union.
      const double beyond = hit + std::max(1e-6, 1e-3 * hit);
      const double x[3] = {o[0] + beyond * d[0], o[1] + beyond * d[1], o[2] + beyond * d[2]};
      way_out = query_.winding_number(x) < 0.5;
    }
    if (way_out) {
      const uint32_t* other = &t_[3 * size_t(hit_face)];
      bool neighbour = false;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) neighbour = neighbour || own[i] == other[j];
      if (along < kOpposedCosine) return HUGE_VAL;
      if (!neighbour) return hit;
      // A rod's side: a long face (a fold's or a tip's faces are about as long as the part is thick)
      // whose neighbours close a section around the ray.
      const bool rod = !soup_ && longest_edge(face) >= kRodSideLength * hit && closed_section(o, face, hit, uint32_t(hit_face));
      if (rod && closed != nullptr) *closed = true;
      return rod ? hit : HUGE_VAL;
    }
    from = hit;
    skip = hit_face;
  }
  return HUGE_VAL;
}

}  // namespace sb
