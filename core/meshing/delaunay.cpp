// Bowyer-Watson insertion over a flat array of tets with neighbour links.
#include "meshing/delaunay.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "math/predicates.h"

namespace sb {

namespace {

// The three vertex slots of the face opposite slot i, in an order that keeps orientation irrelevant
// here (faces are matched by vertex ids, not by winding).
constexpr int kFace[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};

uint64_t spread_bits(uint64_t v) {  // 21 bits -> every third bit of 63 (Morton interleaving)
  v &= 0x1fffff;
  v = (v | v << 32) & 0x1f00000000ffffULL;
  v = (v | v << 16) & 0x1f0000ff0000ffULL;
  v = (v | v << 8) & 0x100f00f00f00f00fULL;
  v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
  v = (v | v << 2) & 0x1249249249249249ULL;
  return v;
}

// The slot of tet vertices v holding vertex z (one of them). Branch-free: which one it is cannot be
// predicted.
inline int slot_of(const int32_t* v, int32_t z) { return (v[1] == z) + 2 * (v[2] == z) + 3 * (v[3] == z); }

// Whether point v lies inside the circumsphere of the tet with vertices tv (points: xyz by id).
// Exactly on it, symbolic perturbation decides: internal ids are the perturbation order (later
// points and the enclosing vertices perturbed more); any fixed order is consistent.
// (Never inlined: it is the rare path, and inlined it would crowd the hot loop's registers.)
__attribute__((noinline)) bool conflicts(const double* points, const int32_t* tv, int32_t v) {
  const double* q[5] = {points + 3 * size_t(tv[0]), points + 3 * size_t(tv[1]), points + 3 * size_t(tv[2]),
                        points + 3 * size_t(tv[3]), points + 3 * size_t(v)};
  const int s = insphere(q[0], q[1], q[2], q[3], q[4]);
  if (s != 0) return s > 0;
  const int64_t ids[5] = {tv[0], tv[1], tv[2], tv[3], v};
  return insphere_tie_break(q[0], q[1], q[2], q[3], q[4], ids) > 0;
}

// Position along a 3D Hilbert curve of `bits`-bit integer coordinates (Skilling, "Programming the
// Hilbert curve", 2004): undo the curve's rotations and reflections level by level, Gray-encode,
// then interleave the bits. Unlike the Morton curve it never jumps, so consecutive points are close.
// Branch-free: the bit tests are random, and mispredicting them cost more than the arithmetic.
uint64_t hilbert_key(uint32_t x[3], int bits) {
  for (int level = bits - 1; level > 0; --level) {
    const uint32_t low = (1u << level) - 1;
    for (int i = 0; i < 3; ++i) {
      const uint32_t set = 0u - ((x[i] >> level) & 1u);  // all ones when bit `level` of x[i] is set
      const uint32_t t = (x[0] ^ x[i]) & low & ~set;       // set: reflect x[0]; clear: swap low bits
      x[0] ^= t ^ (low & set);
      x[i] ^= t;
    }
  }
  x[1] ^= x[0];
  x[2] ^= x[1];
  uint32_t t = 0;
  for (int level = bits - 1; level > 0; --level) t ^= ((1u << level) - 1) & (0u - ((x[2] >> level) & 1u));
  for (int i = 0; i < 3; ++i) x[i] ^= t;
  return spread_bits(x[0]) << 2 | spread_bits(x[1]) << 1 | spread_bits(x[2]);
}

// Sorts ids by key, stably (least significant digit first, 12 bits per pass; keys below 2^bits).
// Linear time: for 1e5 points several times faster than a comparison sort.
void radix_sort(std::vector<uint64_t>& key, std::vector<int32_t>& id, int bits) {
  constexpr int kDigit = 12;
  std::vector<uint64_t> key_out(key.size());
  std::vector<int32_t> id_out(id.size());
  std::vector<uint32_t> start(size_t(1) << kDigit);
  for (int shift = 0; shift < bits; shift += kDigit) {
    std::fill(start.begin(), start.end(), 0u);
    for (uint64_t k : key) ++start[(k >> shift) & ((1u << kDigit) - 1)];
    uint32_t sum = 0;
    for (uint32_t& s : start) sum += std::exchange(s, sum);  // counts -> first position of each digit
    for (size_t i = 0; i < key.size(); ++i) {
      const uint32_t at = start[(key[i] >> shift) & ((1u << kDigit) - 1)]++;
      key_out[at] = key[i];
      id_out[at] = id[i];
    }
    key.swap(key_out);
    id.swap(id_out);
  }
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

Delaunay::Delaunay(const double* xyz, int64_t count, Order order)
    : count_(count), order_(order == Order::kSpatial ? spatial_order(xyz, count) : given_order(count)) {
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
  // A Delaunay mesh of n points in general position has about 6.5 n tets: reserve that much up
  // front, so the arrays rarely move (a move copies everything and touches fresh pages).
  // The arrays are sized (not just reserved) up front and slots_ counts the slots in use: growing
  // them one slot at a time cost a call per new tet (vector::resize / push_back: 3 % of the time
  // in wasm, 1 % natively), while one bulk fill costs a memset.
  const size_t expected_tets = 7 * size_t(count) + 64;
  tet_.resize(8 * expected_tets);
  flag_.assign(expected_tets, 0);
  sphere_.resize(expected_tets);
  const int32_t first[8] = {v[0], v[1], v[2], v[3], -1, -1, -1, -1};
  std::copy(first, first + 8, tet_.begin());
  slots_ = 1;
  local_of_.assign(size_t(count) + 4, -1);
  edge_table_.assign(size_t(kMaxTableVertices) * (kMaxTableVertices - 1) / 2, 0);
  prepare_sphere(point(v[0]), point(v[1]), point(v[2]), point(v[3]), sphere_[0]);
}

std::vector<int32_t> Delaunay::given_order(int64_t count) {
  std::vector<int32_t> order(size_t(std::max<int64_t>(count, 0)));
  for (size_t i = 0; i < order.size(); ++i) order[i] = int32_t(i);
  return order;
}

std::vector<int32_t> Delaunay::spatial_order(const double* xyz, int64_t count) {
  const size_t n = size_t(std::max<int64_t>(count, 0));
  std::vector<int32_t> order(n);
  if (n == 0) return order;
  double lo[3], hi[3];
  bounding_box(xyz, count, lo, hi);
  const double size = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1e-30});
  // Biased randomized insertion order (Amenta, Choi, Rote 2003): a deterministic shuffle splits the
  // points into rounds, each sorted along a Hilbert curve. Early rounds spread over the whole
  // domain, so later cavities stay small; within a round consecutive points are close, so walks
  // are short and the tets they touch are still in cache. Each round is 8x the one before (the
  // last holds 7/8 of the points), as in CGAL's multiscale sort: one long sweep keeps memory local.
  for (size_t i = 0; i < n; ++i) order[i] = int32_t(i);
  uint64_t rng = 0x2545F4914F6CDD1DULL;
  for (size_t i = n - 1; i > 0; --i) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    std::swap(order[i], order[size_t(rng % uint64_t(i + 1))]);
  }
  std::vector<size_t> ends;  // where each round ends, from the last round back: n, n/8, ... <= 64
  for (size_t end = n; ; end /= 8) {
    ends.push_back(end);
    if (end <= 64) break;
  }
  int round_bits = 0;
  while ((size_t(1) << round_bits) < ends.size()) ++round_bits;
  // A curve with at least 16 cells per point is fine enough (few points share a cell) and its
  // keys sort in few passes; the round number goes above the curve position, so one sort does all.
  int bits = 2;
  while (bits < 16 && (uint64_t(1) << (3 * bits)) < 16 * uint64_t(n)) ++bits;
  const double scale = double((1u << bits) - 1) / size;
  std::vector<uint64_t> key(n);
  size_t current = ends.size() - 1;  // ends[current] ends the round of shuffled position i
  for (size_t i = 0; i < n; ++i) {
    if (i == ends[current]) --current;
    const uint64_t round = ends.size() - 1 - current;  // 0 for the first round
    const int32_t id = order[i];
    uint32_t q[3];
    for (int k = 0; k < 3; ++k)
      q[k] = uint32_t(std::min((xyz[3 * size_t(id) + k] - lo[k]) * scale, double((1u << bits) - 1)));
    key[i] = round << (3 * bits) | hilbert_key(q, bits);
  }
  radix_sort(key, order, 3 * bits + round_bits);
  return order;
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
  int entry = -1;  // the face just crossed: the point is known to lie on this tet's side of it
  for (int64_t step = 0; step < max_steps; ++step) {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 17;
    rng_ ^= rng_ << 5;
    const int start = int(rng_ & 3);  // random first face avoids cycling on degenerate walks
    const int32_t* tv = &tet_[8 * size_t(t)];
    int next = -1;
    for (int k = 0; k < 4; ++k) {
      const int i = (start + k) & 3;
      if (i == entry) continue;
      const double* q[4] = {point(tv[0]), point(tv[1]), point(tv[2]), point(tv[3])};
      q[i] = p;
      if (orient3d(q[0], q[1], q[2], q[3]) < 0) {
        next = i;
        break;
      }
    }
    if (next < 0) return t;
    const int32_t link = tv[4 + next];
    if (link < 0) return -1;  // outside the enclosing tet: cannot happen for the points it was built on
    t = link >> 2;
    entry = link & 3;
  }
  // Fallback: test every live tet.
  for (int32_t s = 0; s < slots_; ++s) {
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

  // 1. The cavity: every tet whose (perturbed) circumsphere contains p, grown breadth first from
  // the tet holding p; it is connected and star-shaped from p. Its boundary faces are recorded in
  // boundary_ (with the outside tet's link) once it is complete.
  // (Raw pointers in locals: the byte stores to flag_ could alias any member, so the compiler would
  // otherwise reload every vector's data pointer after each of them.)
  const double* const points = pts_.data();
  int32_t* tet = tet_.data();
  uint8_t* flag = flag_.data();
  int32_t* local_of = local_of_.data();
  PreparedSphere* sphere = sphere_.data();
  size_t cavity_size = 0, faces = 0;
  int32_t boundary_vertices = 0;
  auto push_face = [&](int32_t t, int i, int32_t link) {
    if (faces + 1 >= boundary_.size()) {  // (one spare record: the edge table's scratch face)
      boundary_.resize(2 * faces + 64);
      boundary_vertex_.resize(3 * boundary_.size());  // a face brings at most 3 new vertices
    }
    BoundaryFace& f = boundary_[faces];
    int32_t* rec = tet + 8 * size_t(t);
    f.tet = t;
    f.slot = i;
    for (int k = 0; k < 4; ++k) {
      f.v[k] = rec[k];
      f.link[k] = kUnlinked;
    }
    for (int k : kFace[i]) {  // number the face's vertices; branch-free, as whether one is new is random
      const int32_t x = rec[k];
      const int32_t seen = local_of[x];
      const int32_t local = seen < 0 ? boundary_vertices : seen;
      local_of[x] = local;
      boundary_vertex_[size_t(boundary_vertices)] = x;  // kept only when x was new
      boundary_vertices += seen < 0;
      f.local[k] = local;
    }
    f.v[i] = v;  // p is on the same side of the face as the vertex it replaces: still positive
    f.link[i] = link;
    ++faces;
  };
  // Each neighbour of a cavity tet is untested, in the cavity, or tested outside; whether an
  // untested one is inside is a coin toss. Mispredicted branches on these cost more than the
  // arithmetic, so the neighbours are classified without branches: the in-sphere test runs for
  // each one (it is cheap), and the cavity and the list of boundary faces (as 4 * tet + slot)
  // grow by 0 or 1 entries each time. The faces are recorded once the cavity is complete.
  size_t candidates = 0;
  if (cavity_.empty()) cavity_.resize(64);
  cavity_[cavity_size++] = start;
  flag[start] = kInCavity;
  for (size_t c = 0; c < cavity_size; ++c) {
    if (cavity_.size() < cavity_size + 4) cavity_.resize(2 * cavity_size + 64);
    if (candidate_.size() < candidates + 4) candidate_.resize(2 * candidates + 64);
    int32_t* const cavity = cavity_.data();
    int32_t* const candidate = candidate_.data();
    const int32_t t = cavity[c];
    const int32_t* rec = tet + 8 * size_t(t);
    for (int i = 0; i < 4; ++i) {
      const int32_t link = rec[4 + i];
      if (link < 0) {  // a face of the enclosing tet: always on the boundary (rare)
        candidate[candidates++] = 4 * t + i;
        continue;
      }
      const int32_t n = link >> 2;
      const int32_t state = flag[n];
      const int32_t* nv = tet + 8 * size_t(n);
      double det, bound;
      prepared_insphere(sphere[n], points + 3 * size_t(nv[0]), p, det, bound);
      const int32_t untested = state == 0;
      int32_t in = untested & (det < -bound);
      if (!(std::fabs(det) > bound)) {  // rare: too close to call in floating point (or NaN), so exactly
        if (untested) in = conflicts(points, nv, v);
      }
      cavity[cavity_size] = n;
      cavity_size += size_t(in);
      flag[n] = uint8_t(state + untested * (kOutside - in));  // untested -> in cavity or outside
      candidate[candidates] = 4 * t + i;
      candidates += size_t((1 - in) & (state != kInCavity));  // tested outside, now or before
    }
  }
  for (size_t j = 0; j < candidates; ++j) {
    const int32_t t = candidate_[j] >> 2, i = candidate_[j] & 3;
    push_face(t, i, tet[8 * size_t(t) + 4 + size_t(i)]);
  }

  // 2. Slots for the new tets, one per boundary face: the cavity's own slots first, then freed
  // ones, then new ones. Nothing is written yet: the linking below still reads the cavity.
  BoundaryFace* const face = boundary_.data();
  for (size_t b = 0; b < faces; ++b) {
    if (b < cavity_size) {
      face[b].id = cavity_[b];
    } else if (!free_.empty()) {
      face[b].id = free_.back();
      free_.pop_back();
    } else {
      if (size_t(slots_) == flag_.size()) {  // beyond the estimate (rare): grow geometrically
        tet_.resize(16 * size_t(slots_));
        flag_.resize(2 * size_t(slots_), 0);
        sphere_.resize(2 * size_t(slots_));
      }
      face[b].id = slots_++;
    }
  }
  tet = tet_.data();
  flag = flag_.data();
  sphere = sphere_.data();

  // 3. Links between new tets. The new tet on boundary face b has three faces through p; the one
  // opposite slot k holds the edge (x, y) of the two vertices in neither slot k nor b's slot. Its
  // neighbour is the new tet on the other boundary face with that edge: the cavity's boundary is a
  // closed surface, so exactly two faces share each edge, and the edge table pairs them.
  if (boundary_vertices <= kMaxTableVertices) {
    int32_t* const table = edge_table_.data();
    face[faces].id = 0;  // the scratch face: its links are junk, but its id is read
    for (size_t b = 0; b < faces; ++b) {
      BoundaryFace& f = face[b];
      const int* other = kFace[f.slot];
      for (int m = 0; m < 3; ++m) {
        const int k = other[m];
        const int32_t x = f.local[other[m == 2 ? 0 : m + 1]], y = f.local[other[m == 0 ? 2 : m - 1]];
        // Branch-free, as which face comes first is random: the smaller and larger of x and y,
        // then, when this face comes first, the link is written into a scratch face past the end
        // (its own link gets a placeholder, overwritten by the face that comes second).
        const int32_t diff = (x - y) & ((x - y) >> 31);  // x - y when x < y, else 0
        const int32_t lo = y + diff, hi = x - diff;
        int32_t& entry = table[size_t(hi) * size_t(hi - 1) / 2 + size_t(lo)];
        const int32_t first = entry;  // 0, or 1 + (4 * face + slot) of the face that came first
        entry = (int32_t(4 * b) + k + 1) & -int32_t(first == 0);
        const int32_t code = first != 0 ? first - 1 : int32_t(4 * faces);
        BoundaryFace& g = face[code >> 2];
        f.link[k] = g.id << 2 | (code & 3);
        g.link[code & 3] = f.id << 2 | k;
      }
    }
  } else {
    ++large_cavities_;
    // A cavity with too many vertices for the table (rare: inserting the centre of points on a
    // sphere) turns about each edge (x, y) through the cavity instead. Each boundary face's link in
    // its cavity tet is first overwritten with ~(its index in boundary_) (the outside link is in
    // the record), so inside the cavity a link >= 0 leads to a cavity tet and one < 0 to a boundary
    // face. In each tet on the way,
    // `exit` is the slot opposite the face to cross and `third` the slot of that face's vertex
    // besides x and y; the tet beyond holds that third vertex at the slot opposite its own next face,
    // and the vertex it does not share becomes the next third. So the turn needs neither x nor y,
    // only one vertex lookup per tet.
    for (size_t b = 0; b < faces; ++b) tet[8 * size_t(face[b].tet) + 4 + size_t(face[b].slot)] = ~int32_t(b);
    for (size_t b = 0; b < faces; ++b) {
      BoundaryFace& f = face[b];
      for (int k = 0; k < 4; ++k) {
        if (f.link[k] != kUnlinked) continue;  // the slot of the boundary face, or set from the other side
        int32_t cur = f.tet;
        int exit = k, third = f.slot;
        for (size_t guard = 0; guard <= cavity_size; ++guard) {
          const int32_t link = tet[8 * size_t(cur) + 4 + size_t(exit)];
          if (link < 0) {  // (cur, exit) is the other boundary face around the edge
            BoundaryFace& g = face[~link];
            f.link[k] = g.id << 2 | third;  // g's face through p and the edge is opposite `third`
            g.link[third] = f.id << 2 | k;
            break;
          }
          const int32_t z = tet[8 * size_t(cur) + size_t(third)];
          cur = link >> 2;
          third = link & 3;
          exit = slot_of(tet + 8 * size_t(cur), z);
        }
      }
    }
  }

  // 4. Write the new tets and point the outside tets back at them.
  for (size_t b = 0; b < faces; ++b) {
    const BoundaryFace& f = face[b];
    int32_t* rec = tet + 8 * size_t(f.id);
    for (int k = 0; k < 4; ++k) {
      rec[k] = f.v[k];
      rec[4 + k] = f.link[k];
    }
    flag[f.id] = 0;
    prepare_sphere(points + 3 * size_t(rec[0]), points + 3 * size_t(rec[1]), points + 3 * size_t(rec[2]),
                   points + 3 * size_t(rec[3]), sphere[f.id]);
    const int32_t outside = f.link[f.slot];
    if (outside >= 0) {
      tet[8 * size_t(outside >> 2) + 4 + size_t(outside & 3)] = f.id << 2 | f.slot;
      flag[outside >> 2] = 0;  // tested outside: clear for the next insertion
    }
  }
  for (int32_t j = 0; j < boundary_vertices; ++j) local_of[boundary_vertex_[size_t(j)]] = -1;
  for (size_t c = faces; c < cavity_size; ++c) {  // a cavity with more tets than faces
    tet[8 * size_t(cavity_[c])] = -1;
    free_.push_back(cavity_[c]);
  }
  last_ = face[faces - 1].id;
  return true;
}

std::vector<int32_t> Delaunay::tets() const {
  std::vector<int32_t> out;
  out.reserve(size_t(live_tet_count()) * 4);
  for (size_t t = 0; t < size_t(slots_); ++t) {
    const int32_t* v = &tet_[8 * t];
    if (v[0] < 0) continue;
    if (v[0] >= count_ || v[1] >= count_ || v[2] >= count_ || v[3] >= count_) continue;
    for (int k = 0; k < 4; ++k) out.push_back(order_[size_t(v[k])]);
  }
  return out;
}

bool Delaunay::check_links() const {
  for (size_t t = 0; t < size_t(slots_); ++t) {
    const int32_t* v = &tet_[8 * t];
    if (v[0] < 0) continue;
    if (orient3d(point(v[0]), point(v[1]), point(v[2]), point(v[3])) <= 0) return false;
    PreparedSphere fresh;  // the prepared in-sphere test belongs to the tet's current vertices
    prepare_sphere(point(v[0]), point(v[1]), point(v[2]), point(v[3]), fresh);
    const PreparedSphere& s = sphere_[t];
    if (fresh.n[0] != s.n[0] || fresh.n[1] != s.n[1] || fresh.n[2] != s.n[2] || fresh.d != s.d || fresh.g != s.g ||
        fresh.h != s.h)
      return false;
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
