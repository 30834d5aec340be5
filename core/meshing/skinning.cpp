#include "meshing/skinning.h"

#include <algorithm>
#include <cmath>

#include "meshing/surface_query.h"
#include "meshing/surface_subdivision.h"

namespace sb {

namespace {

// Barycentric coordinates of p in tet (a, b, c, d), by Cramer's rule; they sum to 1.
void barycentric(const double* p, const double* a, const double* b, const double* c, const double* d, double w[4]) {
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const double x[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
  const double r[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
  auto det = [](const double* e, const double* f, const double* g) {
    return e[0] * (f[1] * g[2] - f[2] * g[1]) - e[1] * (f[0] * g[2] - f[2] * g[0]) + e[2] * (f[0] * g[1] - f[1] * g[0]);
  };
  const double vol = det(u, v, x);
  w[1] = det(r, v, x) / vol;
  w[2] = det(u, r, x) / vol;
  w[3] = det(u, v, r) / vol;
  w[0] = 1.0 - w[1] - w[2] - w[3];
}

// A bounding-volume hierarchy over tet boxes (6 doubles per tet: min xyz, max xyz) for nearest-tet
// queries by branch and bound. Median split of the box centres along the node's longest side, ties by
// tet id, so the tree (and the order of visits) is the same on every platform.
class TetBoxTree {
 public:
  bool empty() const { return nodes_.empty(); }

  void build(const double* boxes, uint32_t count) {
    boxes_ = boxes;
    order_.resize(count);
    for (uint32_t t = 0; t < count; ++t) order_[t] = t;
    nodes_.clear();
    if (count == 0) return;
    nodes_.resize(1);
    split(0, 0, count);
  }

  // Calls visit(t) for every tet in a leaf whose box may be within the current best distance,
  // nearer subtrees first. best_score: minus the best distance so far, updated by visit.
  template <class Visit>
  void nearest(const double* q, Visit visit, const double* best_score) {
    stack_.clear();
    stack_.push_back(0);
    while (!stack_.empty()) {
      const Node& node = nodes_[stack_.back()];
      stack_.pop_back();
      if (gap2(q, node.box) > *best_score * *best_score * (1.0 + 1e-9)) continue;
      if (node.left == 0) {
        for (uint32_t i = node.begin; i < node.end; ++i) visit(order_[i]);
        continue;
      }
      const uint32_t a = node.left, b = node.left + 1;
      const bool a_first = gap2(q, nodes_[a].box) <= gap2(q, nodes_[b].box);
      stack_.push_back(a_first ? b : a);  // the farther one waits
      stack_.push_back(a_first ? a : b);
    }
  }

 private:
  static constexpr uint32_t kLeafSize = 4;
  struct Node {
    double box[6];
    uint32_t begin, end;  // a range of order_
    uint32_t left;        // children left and left + 1; 0 for a leaf (the root is never a child)
  };

  static double gap2(const double* q, const double* box) {
    double g2 = 0.0;
    for (int k = 0; k < 3; ++k) {
      const double g = std::max({box[k] - q[k], q[k] - box[3 + k], 0.0});
      g2 += g * g;
    }
    return g2;
  }

  // Fills nodes_[at] (already allocated) with the subtree of order_[begin, end).
  void split(uint32_t at, uint32_t begin, uint32_t end) {
    double box[6] = {HUGE_VAL, HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (uint32_t i = begin; i < end; ++i) {
      const double* b = boxes_ + 6 * size_t(order_[i]);
      for (int k = 0; k < 3; ++k) {
        box[k] = std::min(box[k], b[k]);
        box[3 + k] = std::max(box[3 + k], b[3 + k]);
      }
    }
    Node node{{box[0], box[1], box[2], box[3], box[4], box[5]}, begin, end, 0};
    if (end - begin > kLeafSize) {
      int axis = 0;
      for (int k = 1; k < 3; ++k)
        if (box[3 + k] - box[k] > box[3 + axis] - box[axis]) axis = k;
      const uint32_t mid = begin + (end - begin) / 2;
      auto centre = [&](uint32_t t) {
        return boxes_[6 * size_t(t) + size_t(axis)] + boxes_[6 * size_t(t) + 3 + size_t(axis)];
      };
      std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                       [&](uint32_t x, uint32_t y) {
                         const double cx = centre(x), cy = centre(y);
                         return cx < cy || (cx == cy && x < y);
                       });
      node.left = uint32_t(nodes_.size());  // the two children sit side by side
      nodes_.resize(nodes_.size() + 2);
      nodes_[at] = node;
      split(node.left, begin, mid);
      split(node.left + 1, mid, end);
      return;
    }
    nodes_[at] = node;
  }

  const double* boxes_ = nullptr;
  std::vector<uint32_t> order_;
  std::vector<Node> nodes_;
  std::vector<uint32_t> stack_;
};

}  // namespace

VisualSkin::VisualSkin(const float* rest, uint32_t vertex_count, const uint32_t* tets, uint32_t tet_count,
                       const float* input, uint32_t input_count, const uint32_t* input_triangles,
                       uint32_t input_triangle_count, uint64_t max_tests) {
  // Faces larger than the tets would be drawn flat however the tets under them bend: split them
  // down to about the tets' mean edge first (surface_subdivision.h). A surface finer than the tets
  // comes back as it is.
  SubdividedSurface fine = subdivide_long_edges(input, input_count, input_triangles, input_triangle_count,
                                                mean_tet_edge(rest, tets, tet_count),
                                                std::max(input_count, kMaxSubdividedVertices));
  const auto visual_count = uint32_t(fine.positions.size() / 3);
  const float* visual = fine.positions.data();
  bound_.resize(4 * size_t(visual_count));
  weights_.resize(4 * size_t(visual_count));
  triangles_ = std::move(fine.triangles);
  positions_ = fine.positions;
  normals_.assign(3 * size_t(visual_count), 0.0f);
  std::vector<double> p(rest, rest + 3 * size_t(vertex_count));
  // A uniform grid of tet bounding boxes, cells about one tet across (compressed rows: cell -> tets).
  double lo[3], hi[3];
  for (int k = 0; k < 3; ++k) {
    lo[k] = HUGE_VAL;
    hi[k] = -HUGE_VAL;
  }
  for (size_t i = 0; i < p.size(); ++i) {
    lo[i % 3] = std::min(lo[i % 3], p[i]);
    hi[i % 3] = std::max(hi[i % 3], p[i]);
  }
  const double box = std::max(1e-30, (hi[0] - lo[0] + 1e-9) * (hi[1] - lo[1] + 1e-9) * (hi[2] - lo[2] + 1e-9));
  const double h = std::max(1.5 * std::cbrt(box / double(std::max(tet_count, 1u))), 1e-9);
  int64_t n[3];
  for (int k = 0; k < 3; ++k) n[k] = std::clamp<int64_t>(int64_t(std::ceil((hi[k] - lo[k]) / h)), 1, 512);
  // Clamped in double before the cast: a vertex at 1e20 m is ~1e20 cells away, beyond int64 (undefined
  // behaviour); fmin/fmax keep every value, NaN included, inside [0, n - 1].
  auto cell_of = [&](double x, int k) {
    return int64_t(std::fmax(0.0, std::fmin(double(n[k] - 1), std::floor((x - lo[k]) / h))));
  };
  auto index = [&](int64_t i, int64_t j, int64_t k) { return size_t((k * n[1] + j) * n[0] + i); };
  std::vector<uint32_t> start(size_t(n[0] * n[1] * n[2]) + 1, 0);
  // Each tet's bounding box (exact: min and max of float coordinates), for the grid and for
  // skipping tets that cannot matter to a vertex (below).
  std::vector<double> tet_box(6 * size_t(tet_count));
  for (uint32_t t = 0; t < tet_count; ++t)
    for (int k = 0; k < 3; ++k) {
      double a = HUGE_VAL, b = -HUGE_VAL;
      for (int v = 0; v < 4; ++v) {
        a = std::min(a, p[3 * size_t(tets[4 * size_t(t) + size_t(v)]) + size_t(k)]);
        b = std::max(b, p[3 * size_t(tets[4 * size_t(t) + size_t(v)]) + size_t(k)]);
      }
      tet_box[6 * size_t(t) + size_t(k)] = a;
      tet_box[6 * size_t(t) + 3 + size_t(k)] = b;
    }
  auto for_cells = [&](uint32_t t, auto&& fn) {
    const double* box = &tet_box[6 * size_t(t)];
    for (int64_t k = cell_of(box[2], 2); k <= cell_of(box[5], 2); ++k)
      for (int64_t j = cell_of(box[1], 1); j <= cell_of(box[4], 1); ++j)
        for (int64_t i = cell_of(box[0], 0); i <= cell_of(box[3], 0); ++i) fn(index(i, j, k));
  };
  for (uint32_t t = 0; t < tet_count; ++t) for_cells(t, [&](size_t c) { ++start[c + 1]; });
  for (size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
  std::vector<uint32_t> items(start.back());
  std::vector<uint32_t> fill(start.begin(), start.end() - 1);
  for (uint32_t t = 0; t < tet_count; ++t) for_cells(t, [&](size_t c) { items[fill[c]++] = t; });

  // Squared distance from q to tet t's box (0 inside it), and the box diagonal squared. The box
  // is within the tet's distance, so it bounds from below what the exact tests below can find.
  auto box_gap2 = [&](const double* q, uint32_t t, double* diag2) {
    const double* box = &tet_box[6 * size_t(t)];
    double gap2 = 0.0, d2 = 0.0;
    for (int k = 0; k < 3; ++k) {
      const double g = std::max({box[k] - q[k], q[k] - box[3 + k], 0.0});
      gap2 += g * g;
      d2 += (box[3 + k] - box[k]) * (box[3 + k] - box[k]);
    }
    *diag2 = d2;
    return gap2;
  };

  auto corner = [&](uint32_t t, int v) { return &p[3 * size_t(tets[4 * size_t(t) + size_t(v)])]; };
  // Distance score of q to tet t (minus the distance to its nearest face), for vertices outside
  // every tet; the higher score wins, ties to the lower tet id, so the result is the same whatever
  // order tets are met in.
  auto outside_score = [&](const double* q, uint32_t t) {
    double d2 = HUGE_VAL;
    for (int f = 0; f < 4; ++f)
      d2 = std::min(d2, point_triangle_distance2(q, corner(t, (f + 1) % 4), corner(t, (f + 2) % 4), corner(t, (f + 3) % 4)));
    return -std::sqrt(d2);
  };
  // Vertices far from every tet (a file in the wrong unit, a surface scaled about a far origin) would
  // make the rings below grow until they cover the whole grid, for each vertex: quadratic. Once two
  // rings have found no tet holding the vertex (a tet that holds it has its box within 1e-5 of its
  // diagonal of the vertex, so it is registered in the vertex's cell or the next: rings 0 and 1), the
  // answer is the nearest tet, and a bounding-volume hierarchy over the tet boxes finds that by
  // branch and bound. Built on first use, so bodies whose surface lies on the tets never pay for it.
  TetBoxTree tree;
  // A tet spans several cells (and the tree meets those the rings met): test each once per vertex.
  // A skipped repeat changes nothing: its score is the same, and a tet pruned once stays prunable
  // (the best distance only shrinks).
  std::vector<uint32_t> tested(tet_count, UINT32_MAX);
  auto nearest_by_tree = [&](uint32_t vi, const double* q, uint32_t* best, double* best_score) {
    if (tree.empty()) tree.build(tet_box.data(), tet_count);
    tree.nearest(q, [&](uint32_t t) {
      if (tested[t] == vi) return;
      tested[t] = vi;
      double diag2;
      const double gap2 = box_gap2(q, t, &diag2);
      if (gap2 > *best_score * *best_score * (1.0 + 1e-9)) return;  // as in the rings below
      ++tests_;
      const double score = outside_score(q, t);
      if (score > *best_score || (score == *best_score && t < *best)) {
        *best = t;
        *best_score = score;
      }
    }, best_score);
  };
  for (uint32_t vi = 0; vi < visual_count; ++vi) {
    const double q[3] = {visual[3 * size_t(vi)], visual[3 * size_t(vi) + 1], visual[3 * size_t(vi) + 2]};
    const int64_t c[3] = {cell_of(q[0], 0), cell_of(q[1], 1), cell_of(q[2], 2)};
    uint32_t best = 0;
    double best_score = -HUGE_VAL;  // inside: the smallest weight (higher = deeper); outside: -distance
    bool inside = false;
    const int64_t max_ring = std::max({n[0], n[1], n[2]});
    for (int64_t ring = 0; ring <= max_ring; ++ring) {
      for (int64_t k = c[2] - ring; k <= c[2] + ring; ++k)
        for (int64_t j = c[1] - ring; j <= c[1] + ring; ++j)
          for (int64_t i = c[0] - ring; i <= c[0] + ring; ++i) {
            if (std::max({std::abs(i - c[0]), std::abs(j - c[1]), std::abs(k - c[2])}) != ring) continue;
            if (i < 0 || j < 0 || k < 0 || i >= n[0] || j >= n[1] || k >= n[2]) continue;
            const size_t cell = index(i, j, k);
            for (uint32_t m = start[cell]; m < start[cell + 1]; ++m) {
              const uint32_t t = items[m];
              if (tested[t] == vi) continue;
              tested[t] = vi;
              // Skips that change nothing, they only save the exact tests (most of the binding's
              // time: a surface vertex meets ~27 cells of tets). "Inside" means every weight
              // >= -1e-6: the tet scaled by 1 + 4e-6 about its centroid, which lies within
              // 3e-6 x the tet's diameter (<= its box diagonal) of the tet. So a box farther than
              // 1e-5 x its diagonal cannot hold the vertex (3x margin for rounding). Such a tet
              // only matters while no tet holds the vertex, and then only if its box is not
              // farther than the nearest tet so far (a relative 1e-9 margin, so rounding of the
              // exact distance cannot let a skipped tet have been the winner).
              double diag2;
              const double gap2 = box_gap2(q, t, &diag2);
              const bool may_hold = gap2 <= 1e-10 * diag2;
              if (!may_hold && (inside || gap2 > best_score * best_score * (1.0 + 1e-9))) continue;
              ++tests_;
              double w[4];
              barycentric(q, corner(t, 0), corner(t, 1), corner(t, 2), corner(t, 3), w);
              const double depth = std::min({w[0], w[1], w[2], w[3]});
              if (depth >= -1e-6) {
                if (!inside || depth > best_score) {
                  inside = true;
                  best = t;
                  best_score = depth;
                }
              } else if (!inside) {
                const double score = outside_score(q, t);
                if (score > best_score || (score == best_score && t < best)) {
                  best = t;
                  best_score = score;
                }
              }
            }
          }
      // Cells beyond this ring are at least ring * h away: nothing there can beat what we have.
      if (inside || (tet_count > 0 && -best_score <= double(ring) * h)) break;
      if (ring >= 1 && tet_count > 0) {  // outside every tet, and the nearest is not close: the tree
        nearest_by_tree(vi, q, &best, &best_score);
        break;
      }
    }
    if (tests_ > max_tests) {  // checked per vertex: one vertex's search is at most one tree walk
      complete_ = false;
      return;
    }
    double w[4];
    barycentric(q, corner(best, 0), corner(best, 1), corner(best, 2), corner(best, 3), w);
    for (int v = 0; v < 4; ++v) {
      bound_[4 * size_t(vi) + size_t(v)] = tets[4 * size_t(best) + size_t(v)];
      weights_[4 * size_t(vi) + size_t(v)] = float(w[v]);
    }
    outside_ += inside ? 0 : 1;
  }
}

VisualSkin::VisualSkin(const uint32_t* bound, const float* weights, uint32_t visual_count, const uint32_t* triangles,
                       uint32_t triangle_count, uint32_t outside_count)
    : bound_(bound, bound + 4 * size_t(visual_count)),
      weights_(weights, weights + 4 * size_t(visual_count)),
      triangles_(triangles, triangles + 3 * size_t(triangle_count)),
      positions_(3 * size_t(visual_count), 0.0f),
      normals_(3 * size_t(visual_count), 0.0f),
      outside_(outside_count) {}

void VisualSkin::update(const float* x) {
  const size_t n = weights_.size() / 4;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t* b = &bound_[4 * i];
    const float* w = &weights_[4 * i];
    for (int k = 0; k < 3; ++k)
      positions_[3 * i + size_t(k)] = w[0] * x[3 * b[0] + size_t(k)] + w[1] * x[3 * b[1] + size_t(k)] +
                                      w[2] * x[3 * b[2] + size_t(k)] + w[3] * x[3 * b[3] + size_t(k)];
  }
  if (triangles_.empty()) return;
  std::fill(normals_.begin(), normals_.end(), 0.0f);
  for (size_t f = 0; f < triangles_.size(); f += 3) {
    const float* a = &positions_[3 * size_t(triangles_[f])];
    const float* b = &positions_[3 * size_t(triangles_[f + 1])];
    const float* c = &positions_[3 * size_t(triangles_[f + 2])];
    const float u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const float v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const float n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    for (int corner = 0; corner < 3; ++corner)  // area-weighted: the cross product's length is 2 x area
      for (int k = 0; k < 3; ++k) normals_[3 * size_t(triangles_[f + size_t(corner)]) + size_t(k)] += n[k];
  }
  for (size_t i = 0; i < n; ++i) {
    float* m = &normals_[3 * i];
    const float len = std::sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
    if (len > 0) {
      m[0] /= len;
      m[1] /= len;
      m[2] /= len;
    } else {
      m[1] = 1.0f;  // a vertex of no face, or of only degenerate ones
    }
  }
}

}  // namespace sb
