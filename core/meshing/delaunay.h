// Incremental 3D Delaunay tetrahedralization (Bowyer-Watson): start from one tet enclosing every
// point, then insert points one at a time: walk to the tet containing the point, grow the cavity of
// tets whose circumsphere contains it, and re-fill the cavity with tets joining the point to the
// cavity's boundary faces. Predicates are exact (predicates.h) and ties are broken by symbolic
// perturbation, so grids and other cospherical sets give a valid, deterministic mesh.
#pragma once
#include <cstddef>
#include <climits>
#include <cstdint>
#include <vector>

#include "math/predicates.h"

namespace sb {

class Delaunay {
 public:
  // Copies `count` points (xyz doubles), fixes the insertion order (spatial_order) and encloses
  // them in a tet 1000x their size. Nothing is inserted yet.
  // With kGiven the points go in as given instead (for tests that need a particular order).
  enum class Order { kSpatial, kGiven };
  Delaunay(const double* xyz, int64_t count, Order order = Order::kSpatial);

  // Inserts the next point in insertion order. Returns false when that point cannot be inserted
  // (it coincides with a vertex already in the mesh); it is then listed in rejected().
  bool insert_next();
  void insert_all() {
    while (!done()) insert_next();
  }
  bool done() const { return next_ >= count_; }
  int64_t inserted_count() const { return next_; }  // points tried so far
  const std::vector<int32_t>& rejected() const { return rejected_; }  // input ids
  // Insertions whose cavity had too many boundary vertices for the edge table (for tests).
  int64_t large_cavities() const { return large_cavities_; }

  // A good insertion order: a biased randomized order (rounds growing 8x, each sorted along a
  // Hilbert curve), so walks are short, cavities small and memory access local. Deterministic.
  static std::vector<int32_t> spatial_order(const double* xyz, int64_t count);
  static std::vector<int32_t> given_order(int64_t count);  // 0, 1, 2, ...

  // Live tets that use no enclosing vertex: 4 input point ids each, positively oriented.
  std::vector<int32_t> tets() const;
  int64_t live_tet_count() const { return int64_t(slots_) - int64_t(free_.size()); }
  int64_t point_count() const { return count_; }

  // For tests: every live tet is positive, mutually linked with its neighbours, and its prepared
  // in-sphere test is that of its current vertices.
  bool check_links() const;

 private:
  // Internally points are numbered in insertion order (so neighbours in space are neighbours in
  // memory); the enclosing vertices come last. order_ maps back to input ids.
  const double* point(int32_t v) const { return &pts_[3 * size_t(v)]; }
  int32_t locate(int32_t v);  // a live tet containing point v (walk, brute force as a fallback)

  int64_t count_;
  int64_t next_ = 0;               // internal id of the next point to insert
  std::vector<int32_t> order_;     // internal id -> input id
  std::vector<int32_t> rejected_;  // input ids of points that could not be inserted
  std::vector<double> pts_;        // (count + 4) * 3 in internal order
  // Per tet, 8 ints side by side (one fetch brings both): 4 vertex ids (the first -1 marks a free
  // slot), then per face the link 4 * neighbour + the neighbour's slot facing back (-1 = none).
  std::vector<int32_t> tet_;
  int32_t slots_ = 0;  // tet slots in use (live or free); the arrays below hold at least this many
  // Per tet, during one insertion: in the cavity, or tested and found outside it (0 otherwise).
  // Live tets are back to 0 when an insertion returns (a freed slot is reset when reused), so one
  // byte per tet suffices, without stamps, and the array stays in cache.
  std::vector<uint8_t> flag_;
  static constexpr uint8_t kInCavity = 1, kOutside = 2;
  // Per tet, its in-sphere test prepared when the tet is made (predicates.h), so each of the ~45
  // tests an insertion runs costs a dot product instead of a 4x4 determinant.
  std::vector<PreparedSphere> sphere_;
  std::vector<int32_t> free_;      // freed tet slots, reused first
  int32_t last_ = 0;               // where the next walk starts (a tet made by the last insertion)
  uint32_t rng_ = 0x9E3779B9u;     // xorshift state for the walk's face order (deterministic)
  // Scratch reused by every insertion (never shrinks, so insertion does not allocate in steady state).
  std::vector<int32_t> cavity_;
  std::vector<int32_t> candidate_;  // the cavity's boundary faces as 4 * tet + slot, while it grows
  static constexpr int32_t kUnlinked = INT32_MIN;
  struct BoundaryFace {
    int32_t tet, slot;  // the face opposite `slot` of cavity tet `tet`
    int32_t id;         // the slot of the new tet joining p to this face
    int32_t v[4];       // its vertices: the cavity tet's, with v[slot] = p
    int32_t link[4];    // its links; link[slot] = the outside tet's
    int32_t local[4];   // the cavity-local number of each vertex but p (see local_of_)
  };
  std::vector<BoundaryFace> boundary_;
  // Linking the new tets: the cavity's boundary vertices are numbered 0, 1, 2, ... (local_of_ maps
  // a point to its number, -1 when it has none; boundary_vertex_ maps back), so each boundary edge
  // {x < y} has a slot y (y - 1) / 2 + x in edge_table_. The first face to reach an edge leaves
  // its code there, the second takes it and clears it: after an insertion the table is all zero.
  std::vector<int32_t> local_of_;
  std::vector<int32_t> boundary_vertex_;
  std::vector<int32_t> edge_table_;
  static constexpr int32_t kMaxTableVertices = 256;  // larger cavities turn about edges instead
  int64_t large_cavities_ = 0;
};

}  // namespace sb
