// Bowyer-Watson insertion over a flat array of tets with neighbour links.
#include "delaunay.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "predicates.h"

namespace sb {

namespace {

// The three vertex slots of the face opposite slot i, in an order that keeps orientation irrelevant
// here (faces are matched by vertex ids, not by winding).
constexpr int kFace[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};

uint64_t spread_bits(uint64_t v) {  // 21 bits -> every third bit of 63
  v &= 0x1fffff;
  v = (v | v << 32) & 0x1f00000000ffffULL;
  v = (v | v << 16) & 0x1f0000ff0000ffULL;
  v = (v | v << 8) & 0x100f00f00f00f00fULL;
  v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
  v = (v | v << 2) & 0x1249249249249249ULL;
  return v;
}

void bounding_box(const double* xyz, int64_t count, double lo[3], double hi[3]) {
  for (int k = 0; k < 3; ++k) {
    lo[k] = hi[k] = count > 0 ? xyz[k] : 0.0;
    for (int64_t i = 1; i < count; ++i) {
      lo[k] = std::min(lo[k], xyz[3 * i + k]);
      hi[k] = std::max(hi[k], xyz[3 * i + k]);
    }
  }
}

}  // namespace

Delaunay::Delaunay(const double* xyz, int64_t count)
    : count_(count), order_(spatial_order(xyz, count)) {
  pts_.resize(3 * size_t(count));
  for (int64_t v = 0; v < count; ++v)
    for (int k = 0; k < 3; ++k) pts_[3 * size_t(v) + size_t(k)] = xyz[3 * size_t(order_[size_t(v)]) + size_t(k)];
  double lo[3], hi[3];
  bounding_box(xyz, count, lo, hi);
  double size = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1e-30});
  // The corners of a cube's alternate vertices: a tet whose inscribed sphere has radius S / sqrt(3).
  const double s = 1000.0 * size;
  const double corner[4][3] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
  for (auto& c : corner)
    for (int k = 0; k < 3; ++k) pts_.push_back(0.5 * (lo[k] + hi[k]) + s * c[k]);
  int32_t v[4] = {int32_t(count), int32_t(count + 1), int32_t(count + 2), int32_t(count + 3)};
  if (orient3d(point(v[0]), point(v[1]), point(v[2]), point(v[3])) < 0) std::swap(v[2], v[3]);
  tet_.assign({v[0], v[1], v[2], v[3], -1, -1, -1, -1});
  mark_.assign(1, 0);
  edge_key_.assign(256, 0);
  edge_val_.assign(256, 0);
}

std::vector<int32_t> Delaunay::spatial_order(const double* xyz, int64_t count) {
  std::vector<int32_t> order(size_t(std::max<int64_t>(count, 0)));
  if (count == 0) return order;
  double lo[3], hi[3];
  bounding_box(xyz, count, lo, hi);
  const double size = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1e-30});
  const double scale = double((1 << 21) - 1) / size;
  // Biased randomized insertion order (Amenta, Choi, Rote 2003): a deterministic shuffle splits the
  // points into rounds of doubling size, each sorted along the curve. Early rounds spread over the
  // whole domain, so later cavities stay small; within a round consecutive points are close.
  std::vector<std::pair<uint64_t, int32_t>> keyed(order.size());
  uint64_t rng = 0x2545F4914F6CDD1DULL;
  std::vector<int32_t> shuffled(order.size());
  for (int64_t i = 0; i < count; ++i) shuffled[size_t(i)] = int32_t(i);
  for (int64_t i = count - 1; i > 0; --i) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    std::swap(shuffled[size_t(i)], shuffled[size_t(rng % uint64_t(i + 1))]);
  }
  for (int64_t i = 0; i < count; ++i) {
    const int32_t id = shuffled[size_t(i)];
    uint64_t code = 0;
    for (int k = 0; k < 3; ++k) {
      const auto q = uint64_t(std::min((xyz[3 * size_t(id) + k] - lo[k]) * scale, double((1 << 21) - 1)));
      code |= spread_bits(q) << k;
    }
    keyed[size_t(i)] = {code, id};
  }
  size_t begin = 0;
  for (size_t end = std::min<size_t>(keyed.size(), 64); ; end = std::min(keyed.size(), end * 2)) {
    std::sort(keyed.begin() + long(begin), keyed.begin() + long(end));  // (code, id): a total order
    if (end == keyed.size()) break;
    begin = end;
  }
  for (size_t i = 0; i < keyed.size(); ++i) order[i] = keyed[i].second;
  return order;
}

int32_t Delaunay::new_tet() {
  if (!free_.empty()) {
    const int32_t t = free_.back();
    free_.pop_back();
    return t;
  }
  const auto t = int32_t(tet_.size() / 8);
  tet_.resize(tet_.size() + 8);
  mark_.push_back(0);
  return t;
}

bool Delaunay::conflicts(int32_t t, int32_t v) const {
  const int32_t* tv = &tet_[8 * size_t(t)];
  // Internal ids are the perturbation order: later-inserted points and the enclosing vertices are
  // perturbed more. Any fixed order gives a consistent answer; this one is deterministic.
  const int64_t ids[5] = {tv[0], tv[1], tv[2], tv[3], v};
  return insphere_sos(point(tv[0]), point(tv[1]), point(tv[2]), point(tv[3]), point(v), ids) > 0;
}

int32_t Delaunay::locate(int32_t v) {
  const double* p = point(v);
  int32_t t = last_;
  if (tet_[8 * size_t(t)] < 0) {  // the start tet was freed: take any live one
    t = 0;
    while (tet_[8 * size_t(t)] < 0) ++t;
  }
  // Visibility walk: cross any face that has the point strictly on its far side. Terminates in a
  // Delaunay (regular) mesh; the step cap is only a guard against a bug turning into a hang.
  const int64_t max_steps = 4 * live_tet_count() + 64;
  for (int64_t step = 0; step < max_steps; ++step) {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 17;
    rng_ ^= rng_ << 5;
    const int start = int(rng_ & 3);  // random first face avoids cycling on degenerate walks
    const int32_t* tv = &tet_[8 * size_t(t)];
    int next = -1;
    for (int k = 0; k < 4; ++k) {
      const int i = (start + k) & 3;
      const double* q[4] = {point(tv[0]), point(tv[1]), point(tv[2]), point(tv[3])};
      q[i] = p;
      if (orient3d(q[0], q[1], q[2], q[3]) < 0) {
        next = i;
        break;
      }
    }
    if (next < 0) return t;
    const int32_t link = tet_[8 * size_t(t) + 4 + size_t(next)];
    if (link < 0) return -1;  // outside the enclosing tet: cannot happen for the points it was built on
    t = link >> 2;
  }
  // Fallback: test every live tet.
  for (int32_t s = 0; s < int32_t(tet_.size() / 8); ++s) {
    const int32_t* tv = &tet_[8 * size_t(s)];
    if (tv[0] < 0) continue;
    bool inside = true;
    for (int i = 0; i < 4 && inside; ++i) {
      const double* q[4] = {point(tv[0]), point(tv[1]), point(tv[2]), point(tv[3])};
      q[i] = p;
      inside = orient3d(q[0], q[1], q[2], q[3]) >= 0;
    }
    if (inside) return s;
  }
  return -1;
}

bool Delaunay::insert_next() {
  if (done()) return false;
  const auto v = int32_t(next_++);
  const int32_t start = locate(v);
  const double* p = point(v);
  bool duplicate = start < 0;  // (a failed walk is reported like a duplicate: not inserted)
  for (int i = 0; i < 4 && !duplicate; ++i) {
    const double* q = point(tet_[8 * size_t(start) + size_t(i)]);
    duplicate = q[0] == p[0] && q[1] == p[1] && q[2] == p[2];
  }
  if (duplicate) {
    rejected_.push_back(order_[size_t(v)]);
    return false;
  }

  // Cavity: every tet whose (perturbed) circumsphere contains p; connected and star-shaped from p.
  ++stamp_;
  const uint32_t in_cavity = 2 * stamp_ + 1, outside = 2 * stamp_ + 2;
  cavity_.clear();
  boundary_.clear();
  cavity_.push_back(start);  // p lies in it (or on its boundary), so strictly inside its sphere
  mark_[size_t(start)] = in_cavity;
  for (size_t c = 0; c < cavity_.size(); ++c) {
    const int32_t t = cavity_[c];
    for (int i = 0; i < 4; ++i) {
      const int32_t link = tet_[8 * size_t(t) + 4 + size_t(i)];
      const int32_t u = link >> 2;  // -1 stays -1
      if (link >= 0 && mark_[size_t(u)] == in_cavity) continue;
      if (link >= 0 && mark_[size_t(u)] != outside) {
        if (conflicts(u, v)) {
          mark_[size_t(u)] = in_cavity;
          cavity_.push_back(u);
          continue;
        }
        mark_[size_t(u)] = outside;
      }
      BoundaryFace f{i, link, {0, 0, 0, 0}};
      for (int k = 0; k < 4; ++k) f.v[k] = tet_[8 * size_t(t) + size_t(k)];
      f.v[i] = v;  // p is on the same side of the face as the vertex it replaces: still positive
      boundary_.push_back(f);
    }
  }

  for (const int32_t t : cavity_) {
    tet_[8 * size_t(t)] = -1;
    free_.push_back(t);
  }

  // The open-addressing table needs load <= 1/2: 3 entries per new tet.
  size_t table = edge_key_.size();
  while (table < 6 * boundary_.size()) table *= 2;
  if (table != edge_key_.size()) {
    edge_key_.assign(table, 0);
    edge_val_.assign(table, 0);
  }
  int shift = 64;
  for (size_t t = table; t > 1; t >>= 1) --shift;  // the hash takes the product's top log2(table) bits
  const size_t mask = table - 1;
  edge_used_.clear();

  int32_t n = -1;
  for (const BoundaryFace& f : boundary_) {
    n = new_tet();
    for (int k = 0; k < 4; ++k) tet_[8 * size_t(n) + size_t(k)] = f.v[k];
    tet_[8 * size_t(n) + 4 + size_t(f.slot)] = f.outside;
    if (f.outside >= 0) link_at(f.outside) = n << 2 | f.slot;  // the outside tet's face, by its link
    mark_[size_t(n)] = 0;
    // The three faces through p: the one opposite slot k holds p and the two vertices other than k
    // and f.slot. Each such edge is shared by exactly two new tets; pair them up through the table.
    for (int k = 0; k < 4; ++k) {
      if (k == f.slot) continue;
      int32_t a = -1, b = -1;
      for (int m = 0; m < 4; ++m) {
        if (m == k || m == f.slot) continue;
        (a < 0 ? a : b) = f.v[m];
      }
      if (a > b) std::swap(a, b);
      const uint64_t key = (uint64_t(uint32_t(a)) << 32 | uint32_t(b)) + 1;  // 0 = empty
      size_t h = size_t((key * 0x9E3779B97F4A7C15ULL) >> shift);  // Fibonacci hashing
      while (edge_key_[h] != 0 && edge_key_[h] != key) h = (h + 1) & mask;
      if (edge_key_[h] == key) {
        const int32_t other = edge_val_[h];
        tet_[8 * size_t(n) + 4 + size_t(k)] = other;
        link_at(other) = n << 2 | k;
        edge_key_[h] = ~uint64_t(0);  // matched: a tombstone no later key equals
      } else {
        edge_key_[h] = key;
        edge_val_[h] = n << 2 | k;
        edge_used_.push_back(h);
      }
    }
  }
  for (const size_t h : edge_used_) edge_key_[h] = 0;  // empty again for the next insertion
  last_ = n;
  return true;
}

std::vector<int32_t> Delaunay::tets() const {
  std::vector<int32_t> out;
  out.reserve(size_t(live_tet_count()) * 4);
  for (size_t t = 0; t < tet_.size() / 8; ++t) {
    const int32_t* v = &tet_[8 * t];
    if (v[0] < 0) continue;
    if (v[0] >= count_ || v[1] >= count_ || v[2] >= count_ || v[3] >= count_) continue;
    for (int k = 0; k < 4; ++k) out.push_back(order_[size_t(v[k])]);
  }
  return out;
}

bool Delaunay::check_links() const {
  for (size_t t = 0; t < tet_.size() / 8; ++t) {
    const int32_t* v = &tet_[8 * t];
    if (v[0] < 0) continue;
    if (orient3d(point(v[0]), point(v[1]), point(v[2]), point(v[3])) <= 0) return false;
    for (int i = 0; i < 4; ++i) {
      const int32_t link = tet_[8 * t + 4 + size_t(i)];
      if (link < 0) continue;
      const int32_t u = link >> 2;
      if (tet_[8 * size_t(u)] < 0) return false;
      if (tet_[8 * size_t(link >> 2) + 4 + size_t(link & 3)] != int32_t(4 * t + size_t(i))) return false;  // the link back
      int back = 0, shared = 0;
      for (int j = 0; j < 4; ++j) back += (tet_[8 * size_t(u) + 4 + size_t(j)] >> 2) == int32_t(t);
      for (int a : kFace[i])
        for (int j = 0; j < 4; ++j) shared += tet_[8 * size_t(u) + size_t(j)] == v[a];
      if (back != 1 || shared != 3) return false;
    }
  }
  return true;
}

}  // namespace sb
