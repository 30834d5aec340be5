#include "meshing/surface_cleanup.h"

#include "math/point_grid.h"
#include "meshing/surface_query.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <numeric>
#include <tuple>

namespace sb {

namespace {

using Key3 = std::array<uint32_t, 3>;

// Cross product of (b - a) and (c - a) in double.
void face_normal(const double* p, const uint32_t* f, double n[3]) {
  const double* a = p + 3 * size_t(f[0]);
  const double* b = p + 3 * size_t(f[1]);
  const double* c = p + 3 * size_t(f[2]);
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  n[0] = u[1] * v[2] - u[2] * v[1];
  n[1] = u[2] * v[0] - u[0] * v[2];
  n[2] = u[0] * v[1] - u[1] * v[0];
}

// Signed volume of the cone from `c` over face f, times 6.
double cone_volume6(const double* p, const uint32_t* f, const double c[3]) {
  const double* a = p + 3 * size_t(f[0]);
  const double* b = p + 3 * size_t(f[1]);
  const double* d = p + 3 * size_t(f[2]);
  const double u[3] = {a[0] - c[0], a[1] - c[1], a[2] - c[2]};
  const double v[3] = {b[0] - c[0], b[1] - c[1], b[2] - c[2]};
  const double w[3] = {d[0] - c[0], d[1] - c[1], d[2] - c[2]};
  return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
         u[2] * (v[0] * w[1] - v[1] * w[0]);
}

// Merges vertices closer than `tol`, in index order (the first of a cluster represents it).
// Returns, per input vertex, its representative's input index.
std::vector<int64_t> weld(const float* xyz, int64_t n, const double lo[3], double tol) {
  std::vector<int64_t> rep(static_cast<size_t>(n));
  if (!(tol > 0.0)) {  // a point-sized input: only identical vertices merge
    std::iota(rep.begin(), rep.end(), int64_t(0));
    return rep;
  }
  PointGrid grid(lo, tol);
  const double tol2 = tol * tol;
  for (int64_t i = 0; i < n; ++i) {
    const double p[3] = {xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]};
    int64_t found = -1;
    grid.any_near(p, [&](int64_t j) {
      double d2 = 0;
      for (int k = 0; k < 3; ++k) {
        const double d = p[k] - double(xyz[3 * j + k]);
        d2 += d * d;
      }
      if (d2 <= tol2 && (found < 0 || j < found)) found = j;  // the lowest index, whatever the visit order
      return false;
    });
    rep[size_t(i)] = found >= 0 ? found : i;
    if (found < 0) grid.insert(i, p);
  }
  return rep;
}


// Flat faces: a vertex within `tol` of the line through the other two (the face's smallest height,
// over its longest edge, is |n| / longest). Judged on the face's own edge lengths, not on an
// absolute area, so a collinear "needle" whose middle vertex was rounded to float stays flat
// however long it is, and a small but well-shaped face is kept however small.
bool is_flat(const double* p, const uint32_t* f, double tol) {
  double n[3];
  face_normal(p, f, n);
  double longest2 = 0;
  for (int k = 0; k < 3; ++k) {
    const double* a = p + 3 * size_t(f[k]);
    const double* b = p + 3 * size_t(f[(k + 1) % 3]);
    longest2 = std::max(longest2, (b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]));
  }
  return n[0] * n[0] + n[1] * n[1] + n[2] * n[2] <= tol * tol * longest2;
}

// Removes flat faces without opening the surface. A flat face (x, y, m) with m on its longest edge
// x-y closes a T-junction: its short edges x-m and m-y pair with faces on one side, its long edge
// with the face (y, x, d) on the other. Deleting it would leave three open edges; instead the long
// edge is flipped: the two faces become (x, d, m) and (d, y, m), which cover exactly the old face
// (x, y, d) because m lies on x-y, and every edge keeps two faces. Passes repeat for chains of
// collinear vertices; flat faces that cannot be repaired (their long edge on no or several other
// faces) are dropped. Returns the number repaired; `dropped` counts those dropped.
int64_t repair_flat_faces(const double* p, std::vector<uint32_t>& faces, double tol, int64_t& dropped) {
  size_t nf = faces.size() / 3;
  std::vector<uint8_t> flat(nf);
  size_t flat_count = 0;
  for (size_t f = 0; f < nf; ++f) flat_count += flat[f] = is_flat(p, &faces[3 * f], tol);
  if (flat_count == 0) return 0;
  int64_t repaired = 0;
  std::vector<std::array<uint32_t, 3>> edges;  // (min, max, face)
  for (int pass = 0; pass < 16 && flat_count > 0; ++pass) {
    edges.clear();
    for (size_t f = 0; f < nf; ++f)
      for (int k = 0; k < 3; ++k) {
        const uint32_t u = faces[3 * f + size_t(k)], w = faces[3 * f + size_t((k + 1) % 3)];
        edges.push_back({std::min(u, w), std::max(u, w), uint32_t(f)});
      }
    std::sort(edges.begin(), edges.end());
    std::vector<uint8_t> touched(nf, 0);
    int64_t flips = 0;
    for (size_t f = 0; f < nf; ++f) {
      if (!flat[f] || touched[f]) continue;
      uint32_t* t = &faces[3 * f];
      // Rotate so that t[0] -> t[1] is the longest edge and t[2] the vertex on it.
      int longest = 0;
      double best = -1;
      for (int k = 0; k < 3; ++k) {
        const double* a = p + 3 * size_t(t[k]);
        const double* b = p + 3 * size_t(t[(k + 1) % 3]);
        const double l2 = (b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]);
        if (l2 > best) best = l2, longest = k;
      }
      const uint32_t x = t[longest], y = t[(longest + 1) % 3], m = t[(longest + 2) % 3];
      const std::array<uint32_t, 3> key = {std::min(x, y), std::max(x, y), 0};
      auto it = std::lower_bound(edges.begin(), edges.end(), key);
      uint32_t other = UINT32_MAX;
      int others = 0;
      for (; it != edges.end() && (*it)[0] == key[0] && (*it)[1] == key[1]; ++it)
        if ((*it)[2] != f) other = (*it)[2], ++others;
      if (others != 1 || flat[other] || touched[other]) continue;
      uint32_t* g = &faces[3 * size_t(other)];
      const uint32_t d = g[0] != x && g[0] != y ? g[0] : g[1] != x && g[1] != y ? g[1] : g[2];
      if (d == m) continue;  // the two faces are the same triangle twice: left to the duplicate pass
      const uint32_t a[3] = {x, d, m}, b[3] = {d, y, m};
      std::copy(a, a + 3, t);
      std::copy(b, b + 3, g);
      touched[f] = touched[other] = 1;
      flat[f] = is_flat(p, t, tol);
      flat[other] = is_flat(p, g, tol);
      ++flips;
    }
    flat_count = 0;
    for (size_t f = 0; f < nf; ++f) flat_count += flat[f];
    repaired += flips;
    if (flips == 0) break;
  }
  if (flat_count == 0) return repaired;
  std::vector<uint32_t> kept;
  kept.reserve(faces.size());
  for (size_t f = 0; f < nf; ++f)
    if (!flat[f]) kept.insert(kept.end(), &faces[3 * f], &faces[3 * f] + 3);
  dropped += int64_t(flat_count);
  faces.swap(kept);
  return repaired;
}

// A closed piece, for the nesting test.
struct Piece {
  std::vector<uint32_t> faces;  // face ids
  double lo[3], hi[3];
  double volume6 = 0;           // 6 x enclosed volume, outward-oriented (> 0)
  bool closed = true;
};

// Marks the closed pieces that are nested in an odd number of others. A container must hold the
// piece's bounding box and more volume, and every sample of the piece (face centroids spread over
// it) must have winding number > 1/2 with respect to the container alone (outward-oriented).
// Pieces that intersect have samples on both sides, so they are not nested: they stay separate
// outward solids, which the winding number of the whole then unites. Candidates come from a sweep
// along x (a container starts no later than the piece), so disjoint parts cost little; the winding
// evaluations have a budget, beyond which further pairs count as not nested (deterministically).
void nest_pieces(const std::vector<double>& pos, const std::vector<uint32_t>& faces, const std::vector<Piece>& pieces,
                 const std::vector<size_t>& closed, std::vector<uint8_t>& cavity) {
  std::vector<size_t> order = closed;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Piece &p = pieces[a], &q = pieces[b];
    return std::tie(p.lo[0], q.hi[0], q.volume6, a) < std::tie(q.lo[0], p.hi[0], p.volume6, b);
  });
  auto centroid = [&](uint32_t f, double c[3]) {
    for (int k = 0; k < 3; ++k)
      c[k] = (pos[3 * size_t(faces[3 * size_t(f)]) + size_t(k)] + pos[3 * size_t(faces[3 * size_t(f) + 1]) + size_t(k)] +
              pos[3 * size_t(faces[3 * size_t(f) + 2]) + size_t(k)]) / 3.0;
  };
  std::vector<std::unique_ptr<SurfaceQuery>> query(pieces.size());
  auto query_of = [&](size_t i) -> const SurfaceQuery& {
    if (!query[i]) {
      std::vector<uint32_t> local;  // the piece alone, its vertices renumbered
      std::vector<double> points;
      std::vector<std::pair<uint32_t, uint32_t>> ids;  // (global, face corner)
      const std::vector<uint32_t>& fs = pieces[i].faces;
      for (size_t c = 0; c < 3 * fs.size(); ++c) ids.push_back({faces[3 * size_t(fs[c / 3]) + c % 3], uint32_t(c)});
      std::sort(ids.begin(), ids.end());
      local.resize(ids.size());
      for (size_t j = 0; j < ids.size(); ++j) {
        if (j == 0 || ids[j].first != ids[j - 1].first)
          points.insert(points.end(), &pos[3 * size_t(ids[j].first)], &pos[3 * size_t(ids[j].first)] + 3);
        local[ids[j].second] = uint32_t(points.size() / 3 - 1);
      }
      query[i] = std::make_unique<SurfaceQuery>(points, local);
    }
    return *query[i];
  };
  int64_t budget = int64_t(1) << 21;  // winding evaluations (each O(log n) on the container)
  std::vector<int32_t> depth(pieces.size(), 0);
  std::vector<size_t> active;  // pieces begun in the sweep whose x extent may still hold later ones
  for (size_t i : order) {
    const Piece& inner = pieces[i];
    size_t kept = 0;
    for (size_t j : active)
      if (pieces[j].hi[0] >= inner.lo[0]) active[kept++] = j;
    active.resize(kept);
    for (size_t j : active) {
      const Piece& outer = pieces[j];
      bool holds = outer.volume6 > inner.volume6;
      for (int k = 0; k < 3 && holds; ++k) holds = outer.lo[k] <= inner.lo[k] && inner.hi[k] <= outer.hi[k];
      if (!holds || budget <= 0) continue;
      const SurfaceQuery& q = query_of(j);
      const size_t n = inner.faces.size(), samples = std::min<size_t>(n, 64);
      bool inside = true;
      for (size_t s = 0; s < samples && inside; ++s) {
        double c[3];
        centroid(inner.faces[s * n / samples], c);
        inside = q.winding_number(c) > 0.5;
        --budget;
      }
      depth[i] += inside;
    }
    active.push_back(i);
  }
  for (size_t i : closed) cavity[i] = depth[i] % 2;
}

}  // namespace

SurfaceProblem clean_surface(const float* xyz, int64_t vertex_count, const uint32_t* triangles,
                             int64_t triangle_count, Surface& out, CleanupReport& report,
                             int64_t& problem_index) {
  report = CleanupReport{};
  problem_index = -1;
  for (int64_t i = 0; i < 3 * vertex_count; ++i)
    if (!std::isfinite(xyz[i])) {
      problem_index = i / 3;
      return SurfaceProblem::NonFinite;
    }
  for (int64_t f = 0; f < triangle_count; ++f)
    for (int k = 0; k < 3; ++k)
      if (triangles[3 * f + k] >= uint64_t(vertex_count)) {
        problem_index = f;
        return SurfaceProblem::IndexOutOfRange;
      }

  // Bounding box of the vertices faces use.
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (int64_t i = 0; i < 3 * triangle_count; ++i)
    for (int k = 0; k < 3; ++k) {
      const double x = xyz[3 * size_t(triangles[i]) + size_t(k)];
      lo[k] = std::min(lo[k], x);
      hi[k] = std::max(hi[k], x);
    }
  if (triangle_count == 0) return SurfaceProblem::Empty;
  const double diag = std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                                (hi[2] - lo[2]) * (hi[2] - lo[2]));
  const std::vector<int64_t> rep = weld(xyz, vertex_count, lo, kWeldTolerance * diag);

  // Faces on representatives; those repeating a vertex dropped, flat ones repaired or dropped.
  std::vector<double> pos(3 * size_t(vertex_count));
  for (int64_t i = 0; i < 3 * vertex_count; ++i) pos[size_t(i)] = xyz[i];
  std::vector<uint32_t> faces;
  faces.reserve(3 * size_t(triangle_count));
  for (int64_t f = 0; f < triangle_count; ++f) {
    const uint32_t v[3] = {uint32_t(rep[triangles[3 * f]]), uint32_t(rep[triangles[3 * f + 1]]),
                           uint32_t(rep[triangles[3 * f + 2]])};
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) {
      ++report.dropped_triangles;
      continue;
    }
    faces.insert(faces.end(), v, v + 3);
  }
  // A vertex nearer the line through the other two than the weld distance, or than a few float
  // roundings of the coordinates (a midpoint stored as float is off its line by about that), is on it.
  const double extent = std::max({std::fabs(lo[0]), std::fabs(lo[1]), std::fabs(lo[2]), std::fabs(hi[0]),
                                  std::fabs(hi[1]), std::fabs(hi[2])});
  const double flat_tol = std::max(kWeldTolerance * diag, 4.0 * 0x1p-24 * extent);
  report.repaired_needles = repair_flat_faces(pos.data(), faces, flat_tol, report.dropped_triangles);
  // Duplicates (the same three vertices, either winding): keep the first.
  {
    const size_t nf = faces.size() / 3;
    std::vector<std::pair<Key3, uint32_t>> keys(nf);
    for (size_t f = 0; f < nf; ++f) {
      Key3 k = {faces[3 * f], faces[3 * f + 1], faces[3 * f + 2]};
      std::sort(k.begin(), k.end());
      keys[f] = {k, uint32_t(f)};
    }
    std::sort(keys.begin(), keys.end());
    std::vector<uint8_t> keep(nf, 1);
    for (size_t i = 1; i < nf; ++i)
      if (keys[i].first == keys[i - 1].first) keep[keys[i].second] = 0;
    std::vector<uint32_t> kept;
    kept.reserve(faces.size());
    for (size_t f = 0; f < nf; ++f)
      if (keep[f]) kept.insert(kept.end(), &faces[3 * f], &faces[3 * f] + 3);
    report.dropped_triangles += int64_t(nf - kept.size() / 3);
    faces.swap(kept);
  }
  if (faces.empty()) return SurfaceProblem::Empty;

  // Consistent orientation: across an edge shared by exactly two faces, the faces must run it in
  // opposite directions. Breadth-first over each connected piece, flipping faces that disagree.
  const size_t nf = faces.size() / 3;
  struct HalfEdge {
    uint32_t a, b;  // undirected key a < b
    uint32_t face;
    uint8_t forward;  // the face runs a -> b
    bool operator<(const HalfEdge& o) const { return std::tie(a, b, face) < std::tie(o.a, o.b, o.face); }
  };
  std::vector<HalfEdge> half(3 * nf);
  for (size_t f = 0; f < nf; ++f)
    for (int k = 0; k < 3; ++k) {
      const uint32_t u = faces[3 * f + size_t(k)], w = faces[3 * f + size_t((k + 1) % 3)];
      half[3 * f + size_t(k)] = {std::min(u, w), std::max(u, w), uint32_t(f), uint8_t(u < w)};
    }
  std::sort(half.begin(), half.end());
  // Per face, the neighbour across each manifold edge (and whether both run it the same way), and
  // whether it has an edge that is not shared by exactly two faces (its piece is then not closed).
  std::vector<std::vector<std::pair<uint32_t, uint8_t>>> adjacent(nf);
  std::vector<uint8_t> unpaired(nf, 0);
  for (size_t i = 0; i < half.size();) {
    size_t j = i;
    while (j < half.size() && half[j].a == half[i].a && half[j].b == half[i].b) ++j;
    if (j - i == 1) ++report.open_edges;
    if (j - i == 2) {
      const uint8_t same = half[i].forward == half[i + 1].forward;
      adjacent[half[i].face].push_back({half[i + 1].face, same});
      adjacent[half[i + 1].face].push_back({half[i].face, same});
    } else {
      for (size_t h = i; h < j; ++h) unpaired[half[h].face] = 1;
    }
    i = j;
  }
  std::vector<int8_t> flip(nf, -1);  // -1 unvisited, 0 keep, 1 flip
  std::vector<uint32_t> queue;
  std::vector<Piece> pieces;
  double centroid[3] = {0, 0, 0};
  for (size_t f = 0; f < nf; ++f)
    for (int k = 0; k < 3; ++k)
      for (int c = 0; c < 3; ++c) centroid[c] += pos[3 * size_t(faces[3 * f + size_t(k)]) + size_t(c)];
  for (double& c : centroid) c /= double(3 * nf);
  for (size_t seed = 0; seed < nf; ++seed) {
    if (flip[seed] >= 0) continue;
    flip[seed] = 0;
    queue.assign(1, uint32_t(seed));
    Piece piece;
    for (size_t q = 0; q < queue.size(); ++q) {
      const uint32_t f = queue[q];
      piece.faces.push_back(f);
      piece.closed = piece.closed && !unpaired[f];
      for (auto [g, same] : adjacent[f]) {
        const int8_t want = int8_t(flip[f] ^ same);  // same direction: one of the two must turn
        if (flip[g] < 0) {
          flip[g] = want;
          queue.push_back(g);
        }
      }
    }
    // First each piece encloses positive volume (outward normals) by its own faces.
    double volume6 = 0;
    for (uint32_t f : piece.faces) volume6 += (flip[f] ? -1.0 : 1.0) * cone_volume6(pos.data(), &faces[3 * f], centroid);
    if (volume6 < 0)
      for (uint32_t f : piece.faces) flip[f] ^= 1;
    piece.volume6 = std::fabs(volume6);
    pieces.push_back(std::move(piece));
  }
  for (size_t f = 0; f < nf; ++f)
    if (flip[f]) std::swap(faces[3 * f + 1], faces[3 * f + 2]);
  report.pieces = int64_t(pieces.size());

  // Then by nesting: a closed piece inside an odd number of closed pieces bounds a cavity and
  // faces inward, so the summed winding number is 0 in the cavity and 1 in the material around
  // it (a ball in a bubble in a ball is solid again). Open pieces keep their outward orientation.
  std::vector<uint8_t> cavity(pieces.size(), 0);
  {
    std::vector<size_t> closed;
    for (size_t i = 0; i < pieces.size(); ++i) {
      Piece& piece = pieces[i];
      if (!piece.closed || !(piece.volume6 > 0)) continue;
      for (int k = 0; k < 3; ++k) {
        piece.lo[k] = HUGE_VAL;
        piece.hi[k] = -HUGE_VAL;
      }
      for (uint32_t f : piece.faces)
        for (int v = 0; v < 3; ++v)
          for (int k = 0; k < 3; ++k) {
            const double x = pos[3 * size_t(faces[3 * f + size_t(v)]) + size_t(k)];
            piece.lo[k] = std::min(piece.lo[k], x);
            piece.hi[k] = std::max(piece.hi[k], x);
          }
      closed.push_back(i);
    }
    report.closed_pieces = int64_t(closed.size());
    if (closed.size() > 1) nest_pieces(pos, faces, pieces, closed, cavity);
  }
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (!cavity[i]) continue;
    ++report.cavities;
    for (uint32_t f : pieces[i].faces) {
      std::swap(faces[3 * size_t(f) + 1], faces[3 * size_t(f) + 2]);
      flip[f] ^= 1;
    }
  }
  for (size_t f = 0; f < nf; ++f) report.flipped_triangles += flip[f];

  // Compact: only used vertices, in input order.
  std::vector<int64_t> remap(size_t(vertex_count), -1);
  for (uint32_t v : faces) remap[v] = 0;
  out.positions.clear();
  int64_t used = 0;
  for (int64_t i = 0; i < vertex_count; ++i)
    if (remap[size_t(i)] == 0) {
      remap[size_t(i)] = used++;
      out.positions.insert(out.positions.end(), &pos[3 * size_t(i)], &pos[3 * size_t(i)] + 3);
    }
  out.triangles.resize(faces.size());
  for (size_t i = 0; i < faces.size(); ++i) out.triangles[i] = uint32_t(remap[faces[i]]);
  report.welded_vertices = used;

  double volume6 = 0;
  for (size_t f = 0; f < nf; ++f) volume6 += cone_volume6(out.positions.data(), &out.triangles[3 * f], centroid);
  report.volume = volume6 / 6.0;
  // Flat: a bounding box without thickness, or a volume that is rounding noise of the box's.
  const double thinnest = std::min({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
  const double box_volume = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
  if (thinnest <= 1e-6 * diag || std::fabs(report.volume) <= 1e-9 * box_volume) return SurfaceProblem::Flat;
  return SurfaceProblem::None;
}

}  // namespace sb
