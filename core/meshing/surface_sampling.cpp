// Surface points of the tetrahedralizer (step 2 of tetrahedralizer.h): samples about half a cell
// apart, closer where the surface is thin or curved (surface_spacing.h); lattices per side on plates
// thinner than their spacing; medial points inside parts under kMedialReach thick.
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "math/point_grid.h"
#include "meshing/opening_lids.h"
#include "meshing/piece_crossings.h"
#include "meshing/surface_query.h"
#include "meshing/surface_spacing.h"
#include "meshing/tet_improvement.h"
#include "meshing/tetrahedralizer.h"
#include "meshing/thickness_rays.h"
#include "meshing/union_find.h"

namespace sb {

namespace {


// Two faces whose unit normals' dot product exceeds 1 - this are coplanar (about 1e-4 rad apart:
// float rounding of a flat face's vertices, not a modelled crease).
constexpr double kFlatEdgeCosine = 1e-8;
// A lid point (opening_lids.h) bounds the solid where the winding number is this close to 1/2.
constexpr double kLidWinding = 0.1;
// A medial point halfway along a thickness ray h long is kept only if the surface is at least this
// times h away (a true one is h / 2 from the faces the ray joins).
constexpr double kMedialClearance = 0.25;
// Surface samples whose normals' dot product is below this lie on different sides of a thin part
// (thinning, below): 60 degrees, so the two corners at either end of a plate's rim edge, whose
// normals are 70.5 degrees apart, both stay.
constexpr double kOppositeSidesCosine = 0.5;
// ... unless they are closer than this fraction of their spacing: tets joining two such sides would
// be flatter than the improvement can mend (quality about 1-2.6 times thickness over spacing).
constexpr double kMinAcross = 1.0 / kMaxSpacingPerThickness;
// Flat faces of a part thinner than their (budget-coarsened) spacing are sampled on one lattice per
// side (LatticePlanes, sample_on_lattice): its points are this times the spacing apart, so the two
// sides' lattices together, staggered, hold about as many samples as one side at the spacing.
const double kLatticeStepPerSpacing = std::sqrt(2.0);
// A lattice sample keeps this fraction of the lattice step from samples on its own side: under
// 1/sqrt(2), so the second side's first row, half a step in from an edge and half a step along
// (1/sqrt(2) of a step from the edge's samples), stays; the lattice's own neighbours are a step apart.
constexpr double kLatticeSameSide = 0.65;
// ... and this fraction of the spacing from samples on the other side: where lattices do not line
// up (planes meeting at a slight angle, a curved shell), samples of the two sides do not stack
// (stacked pairs make slivers), while the other side's staggered lattice, 1/sqrt(2) of a step = one
// spacing away, is untouched.
constexpr double kLatticeAcross = 0.5;
// Lattice points move by up to half this fraction of a step within their face (a fixed hash of their
// place): two staggered perfect lattices put five and more samples on one sphere all over the plate,
// ties that the in-sphere test's floating-point filter cannot decide, and the exact fallback took
// Delaunay from 58 to 254 ms on the 1000:500:1 plate at 20 cells; moved so, 46 ms, same tets' quality.
constexpr double kLatticeJitter = 0.02;
// Lattices are for planes wide enough to hold rows of them: a plane narrower than this many lattice
// steps (a square rod's faces) keeps rows and edge samples at the spacing.
constexpr double kLatticeMinRows = 4.0;

// Greedy thinning with a spacing per point: accepts a point only if no accepted point is closer
// than the smaller of their two spacings. Spacings are levels (surface_spacing.h), one hash grid per
// level with cells of that level's spacing, so each query visits 27 cells per level in use.
// Candidates come in priority order (input vertices first, so corners and sharp features survive).
// Surface samples carry their outward normal: two samples whose normals are more than
// kOppositeSidesCosine apart lie on different sides of a part thinner than their spacing (the two
// faces of a plate, or the two edges of its rim), and do not crowd each other out unless they are
// closer than kMinAcross of the spacing (a part that thin is beyond the sample budget anyway).
class Thinner {
 public:
  // The spacings of the levels offered (SurfaceSpacing::spacing; default: spacing_of_level).
  explicit Thinner(const SurfaceSpacing* spacing = nullptr) : spacing_(spacing) {}
  bool offer(const double* p, int level, const double* normal, std::vector<double>& accepted, double across = kMinAcross,
             double same = 1.0, bool crossing = false) {
    if (!fits(p, level, normal, accepted, across, same, crossing)) return false;
    add(p, level, normal, accepted, crossing);
    return true;
  }
  // Whether no accepted point is too close (offer without accepting). normal: unit, or null or zero
  // (then every point within the spacing is too close). A point on the other side (normals apart)
  // is too close within `across` of the spacing, one on the same side within `same` of it.
  // crossing: a point on a crossing curve (piece_crossings.h). Such points keep their sides only
  // among themselves (a thin fin's two walls each get their curve); to every other point they are
  // too close within the spacing, as points without a normal (the crossed face's samples keep off).
  bool fits(const double* p, int level, const double* normal, const std::vector<double>& accepted,
            double across = kMinAcross, double same = 1.0, bool crossing = false) const {
    const double own = spacing_of(level);
    for (size_t l = 0; l < grids_.size(); ++l) {
      if (!grids_[l]) continue;
      const double r = std::min(own, spacing_of(int(l)));
      const bool crowded = grids_[l]->any_near(p, [&](int64_t j) {
        const double* q = &accepted[3 * size_t(j)];
        const double d2 = (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]);
        if (!(d2 < same * same * r * r)) return false;
        if (!normal || d2 < across * across * r * r || (crossings_[size_t(j)] && !crossing)) return true;
        const float* m = &normals_[3 * size_t(j)];
        const double dot = normal[0] * m[0] + normal[1] * m[1] + normal[2] * m[2];
        const bool both_known = m[0] * m[0] + m[1] * m[1] + m[2] * m[2] > 0.5 &&
                                normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2] > 0.5;
        return !(dot < kOppositeSidesCosine && both_known);
      });
      if (crowded) return false;
    }
    return true;
  }
  void add(const double* p, int level, const double* normal, std::vector<double>& accepted, bool crossing = false) {
    const double own = spacing_of(level);
    if (grids_.size() <= size_t(level)) grids_.resize(size_t(level) + 1);
    if (!grids_[size_t(level)]) grids_[size_t(level)] = std::make_unique<PointGrid>(kOrigin, own);
    grids_[size_t(level)]->insert(int64_t(accepted.size() / 3), p);
    accepted.insert(accepted.end(), p, p + 3);
    for (int k = 0; k < 3; ++k) normals_.push_back(normal ? float(normal[k]) : 0.0f);
    crossings_.push_back(uint8_t(crossing));
  }

 private:
  static constexpr double kOrigin[3] = {0, 0, 0};
  const SurfaceSpacing* spacing_;
  double spacing_of(int level) const { return spacing_ ? spacing_->spacing(level) : spacing_of_level(level); }
  std::vector<std::unique_ptr<PointGrid>> grids_;
  std::vector<float> normals_;  // per accepted point (0 without one)
  std::vector<uint8_t> crossings_;  // per accepted point: on a crossing curve (fits)
};

// Twice the area of triangle a, b, c.
double triangle_area2(const double* a, const double* b, const double* c) {
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  return std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

// Length of segment a-b.
double distance(const double* a, const double* b) {
  return std::sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]));
}

// Two numbers in [-0.5, 0.5] from lattice point (i, j) of face f: a fixed, platform-independent hash
// (32-bit integer arithmetic), so native and wasm builds place the same points.
void lattice_jitter(uint32_t i, uint32_t j, uint32_t f, double& du, double& dv) {
  uint32_t h = i * 2654435761u ^ j * 2246822519u ^ f * 3266489917u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  du = double(h & 0xffffu) / 65535.0 - 0.5;
  dv = double(h >> 16) / 65535.0 - 0.5;
}

// Which way a lattice face faces, for choosing its side's lattice: any direction that no face normal
// of a plate is likely to be perpendicular to (not an axis, nor a diagonal of the axes).
constexpr double kSideAxis[3] = {1.0, 0.3183098861837907, 0.1353352832366127};

// Whether face f may be sampled on a lattice per side (see LatticePlanes): its part is thinner than
// its spacing, which the budget coarsened (thinner parts are sampled by their thickness), but not
// beyond kMaxSpacingPerThickness (there the sides thin each other out and the job fails, naming the
// thickness).
bool thin_beyond_spacing(size_t f, const SurfaceSpacing& spacing) {
  const double thickness = spacing.face_thickness[f], h = spacing.spacing(spacing.face_level[f]);
  return thickness > 0 && h > thickness && h <= kMaxSpacingPerThickness * thickness;
}

// Scales v to unit length (leaves a zero vector alone).
void normalize(double* v) {
  const double len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (len > 0)
    for (int k = 0; k < 3; ++k) v[k] /= len;
}


// The flat parts of thin faces, each sampled on one lattice (a plane: faces of thin_beyond_spacing
// joined across flat edges). A plane's frame runs along its longest feature edge (its longest edge
// if it has none) and across it in the plane, both directions fixed by kSideAxis-like rules so the
// two sides of a plate get the same frame; its steps divide the plane's extent along them evenly,
// so a rectangle's lattice continues the samples of all four of its edges.
struct LatticeFrame {
  double e1[3] = {0, 0, 0}, e2[3] = {0, 0, 0};  // unit, in the plane
  double lo1 = HUGE_VAL, hi1 = -HUGE_VAL, lo2 = HUGE_VAL, hi2 = -HUGE_VAL;  // the plane's extent along them
  double step1 = 0, step2 = 0;
  int64_t n1 = 0, n2 = 0;  // steps across the extent
  double longest = -1;     // the edge e1 was taken from
  bool feature = false;    // ... a feature edge
};

struct LatticePlanes {
  std::vector<int64_t> plane;        // per face: its plane (a face id), or -1 when not on a lattice
  std::vector<LatticeFrame> frames;  // indexed by plane
};

// Second direction for fixing a frame's first axis: like kSideAxis, no axis nor diagonal.
constexpr double kFrameAxis[3] = {0.1353352832366127, 1.0, 0.3183098861837907};

double dot3(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// is_flat(a, b): whether edge a-b lies between two coplanar faces.
template <class IsFlat>
LatticePlanes lattice_planes(const std::vector<double>& p, const std::vector<uint32_t>& t, const SurfaceSpacing& spacing,
                             const IsFlat& is_flat) {
  const size_t faces = t.size() / 3;
  LatticePlanes out;
  out.plane.assign(faces, -1);
  std::vector<uint8_t> thin(faces, 0);
  std::vector<std::pair<std::array<uint32_t, 2>, uint32_t>> sides;  // edges of thin faces, for joining
  for (size_t f = 0; f < faces; ++f) {
    thin[f] = thin_beyond_spacing(f, spacing);
    if (!thin[f]) continue;
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = t[3 * f + size_t(k)], b = t[3 * f + size_t((k + 1) % 3)];
      sides.push_back({{std::min(a, b), std::max(a, b)}, uint32_t(f)});
    }
  }
  if (sides.empty()) return out;
  std::sort(sides.begin(), sides.end());
  UnionFind planes(faces);
  for (size_t i = 0; i + 1 < sides.size(); ++i)
    if (sides[i].first == sides[i + 1].first && is_flat(sides[i].first[0], sides[i].first[1]))
      planes.join(sides[i].second, sides[i + 1].second);
  out.frames.resize(faces);
  // First axis: along the plane's longest feature edge (else its longest edge), pointing along kFrameAxis;
  // second: the plane's normal (turned along kSideAxis) cross the first.
  for (size_t f = 0; f < faces; ++f) {
    if (!thin[f]) continue;
    LatticeFrame& fr = out.frames[size_t(planes.find(int64_t(f)))];
    for (int k = 0; k < 3; ++k) {
      const uint32_t ia = t[3 * f + size_t(k)], ib = t[3 * f + size_t((k + 1) % 3)];
      const bool feature = !is_flat(ia, ib);
      const double len = distance(&p[3 * size_t(ia)], &p[3 * size_t(ib)]);
      if (!(feature > fr.feature || (feature == fr.feature && len > fr.longest))) continue;
      fr.feature = feature;
      fr.longest = len;
      double d[3] = {p[3 * size_t(ib)] - p[3 * size_t(ia)], p[3 * size_t(ib) + 1] - p[3 * size_t(ia) + 1],
                     p[3 * size_t(ib) + 2] - p[3 * size_t(ia) + 2]};
      normalize(d);
      if (dot3(d, kFrameAxis) < 0)
        for (double& x : d) x = -x;
      double n[3] = {spacing.face_normal[3 * f], spacing.face_normal[3 * f + 1], spacing.face_normal[3 * f + 2]};
      if (dot3(n, kSideAxis) < 0)
        for (double& x : n) x = -x;
      std::copy(d, d + 3, fr.e1);
      fr.e2[0] = n[1] * d[2] - n[2] * d[1];
      fr.e2[1] = n[2] * d[0] - n[0] * d[2];
      fr.e2[2] = n[0] * d[1] - n[1] * d[0];
      normalize(fr.e2);
    }
  }
  for (size_t f = 0; f < faces; ++f) {
    if (!thin[f]) continue;
    LatticeFrame& fr = out.frames[size_t(planes.find(int64_t(f)))];
    for (int k = 0; k < 3; ++k) {
      const double* x = &p[3 * size_t(t[3 * f + size_t(k)])];
      fr.lo1 = std::min(fr.lo1, dot3(x, fr.e1));
      fr.hi1 = std::max(fr.hi1, dot3(x, fr.e1));
      fr.lo2 = std::min(fr.lo2, dot3(x, fr.e2));
      fr.hi2 = std::max(fr.hi2, dot3(x, fr.e2));
    }
  }
  // Steps, and whether the plane is wide enough for rows of the lattice (kLatticeMinRows along both
  // axes; a square rod's faces are not).
  for (size_t f = 0; f < faces; ++f) {
    if (!thin[f]) continue;
    const auto id = planes.find(int64_t(f));
    LatticeFrame& fr = out.frames[size_t(id)];
    const double step = kLatticeStepPerSpacing * spacing.spacing(spacing.face_level[f]);
    fr.n1 = std::max<int64_t>(1, int64_t(std::ceil((fr.hi1 - fr.lo1) / step)));
    fr.n2 = std::max<int64_t>(1, int64_t(std::ceil((fr.hi2 - fr.lo2) / step)));
    fr.step1 = (fr.hi1 - fr.lo1) / double(fr.n1);
    fr.step2 = (fr.hi2 - fr.lo2) / double(fr.n2);
    if (fr.hi1 - fr.lo1 >= kLatticeMinRows * step && fr.hi2 - fr.lo2 >= kLatticeMinRows * step) out.plane[f] = id;
  }
  return out;
}

// When edge a-b runs along one of the frame's axes: the points of the frame's lattice on it, as
// parameters strictly between 0 (a) and 1 (b), in `at`; else false.
bool lattice_positions(const LatticeFrame& fr, const double* a, const double* b, std::vector<double>& at) {
  const double len = distance(a, b);
  for (int axis = 0; axis < 2; ++axis) {
    const double* along = axis == 0 ? fr.e1 : fr.e2;
    const double* across = axis == 0 ? fr.e2 : fr.e1;
    if (!(std::fabs(dot3(b, across) - dot3(a, across)) < 1e-9 * len)) continue;
    const double lo = axis == 0 ? fr.lo1 : fr.lo2, step = axis == 0 ? fr.step1 : fr.step2;
    const double sa = dot3(a, along) - lo, sb = dot3(b, along) - lo;
    if (!(std::fabs(sb - sa) > 0) || !(step > 0)) return false;
    for (auto k = int64_t(std::floor(std::min(sa, sb) / step)); double(k) * step <= std::max(sa, sb); ++k) {
      const double s = (double(k) * step - sa) / (sb - sa);
      if (s > 1e-9 && s < 1 - 1e-9) at.push_back(s);
    }
    return true;
  }
  return false;
}

}  // namespace

void Tetrahedralizer::place_surface_points() {
  prepare();
  const std::vector<double>& p = surface_.positions;
  const std::vector<uint32_t>& t = surface_.triangles;
  if (!options_.thin_surface) {
    points_ = p;
    stats_.surface_points = int64_t(p.size() / 3);
    return;
  }
  // Samples about half a cell apart, closer where the surface is thin or curved (surface_spacing.h):
  // vertices, then points along the model's edges, along edges between coplanar faces, and inside
  // faces, each accepted only if no accepted point is nearer than the spacing.
  const SurfaceSpacing& spacing = *spacing_;
  stats_.thin_samples_needed = spacing.samples_needed;
  stats_.sample_budget = spacing.budget;
  stats_.thin_samples_coarsest = spacing.samples_coarsest;
  // Outward normals for the thinner: a vertex's weighted by its faces' angles there (a box corner's
  // points along the diagonal however its faces are split), an edge's the mean of its faces'.
  std::vector<double> vertex_normal(p.size(), 0.0);
  for (size_t f = 0; f < t.size(); f += 3)
    for (int k = 0; k < 3; ++k) {
      const double* a = &p[3 * size_t(t[f + size_t(k)])];
      const double* b = &p[3 * size_t(t[f + size_t((k + 1) % 3)])];
      const double* c = &p[3 * size_t(t[f + size_t((k + 2) % 3)])];
      const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
      const double uw = u[0] * w[0] + u[1] * w[1] + u[2] * w[2];
      const double angle = std::atan2(triangle_area2(a, b, c), uw);
      for (int d = 0; d < 3; ++d) vertex_normal[3 * size_t(t[f + size_t(k)]) + size_t(d)] += angle * spacing.face_normal[f + size_t(d)];
    }
  for (size_t v = 0; v < p.size(); v += 3) normalize(&vertex_normal[v]);
  // Edges with the finer level of their two faces.
  struct Edge {
    std::array<uint32_t, 2> v;
    uint8_t level;  // the finer of its faces'
    uint32_t face;  // that face
    uint8_t flat;   // between two coplanar faces (a diagonal of a triangulated flat face), not a feature
    double normal[3];  // the mean of its faces' outward normals
    uint8_t buried;    // every face of it is buried (ThicknessRays::buried): not on the boundary
  };
  std::vector<Edge> edges;
  edges.reserve(t.size());
  for (size_t f = 0; f < t.size(); f += 3)
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = t[f + size_t(k)], b = t[f + size_t((k + 1) % 3)];
      const double* n = &spacing.face_normal[f];
      edges.push_back({{std::min(a, b), std::max(a, b)}, spacing.face_level[f / 3], uint32_t(f / 3), 0, {n[0], n[1], n[2]},
                       uint8_t(rays_->buried(uint32_t(f / 3)))});
    }
  std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) {
    return x.v != y.v ? x.v < y.v : x.level != y.level ? x.level > y.level : x.face < y.face;
  });
  // An edge with exactly two faces whose normals agree lies inside a flat face of the model.
  for (size_t i = 0; i + 1 < edges.size(); ++i) {
    if (edges[i].v != edges[i + 1].v || (i + 2 < edges.size() && edges[i + 2].v == edges[i].v)) continue;
    const double* m = &spacing.face_normal[3 * size_t(edges[i].face)];
    const double* n = &spacing.face_normal[3 * size_t(edges[i + 1].face)];
    edges[i].flat = m[0] * n[0] + m[1] * n[1] + m[2] * n[2] > 1 - kFlatEdgeCosine;
  }
  for (size_t i = 0, j = 0; i < edges.size(); i = j) {  // the first of each run gets the run's normal
    for (j = i + 1; j < edges.size() && edges[j].v == edges[i].v; ++j) {
      for (int k = 0; k < 3; ++k) edges[i].normal[k] += edges[j].normal[k];
      edges[i].buried &= edges[j].buried;
    }
    normalize(edges[i].normal);
  }
  edges.erase(std::unique(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return x.v == y.v; }), edges.end());
  // Whether edge a-b lies inside a flat face: a copy of the edges in vertex order, made only when
  // some face may be sampled on a lattice (the edges are reordered below).
  bool any_thin = false;
  for (size_t f = 0; f < t.size() / 3 && !any_thin; ++f) any_thin = thin_beyond_spacing(f, spacing);
  const std::vector<Edge> by_vertices = any_thin ? edges : std::vector<Edge>();
  auto is_flat_edge = [&](uint32_t a, uint32_t b) {
    const std::array<uint32_t, 2> key = {std::min(a, b), std::max(a, b)};
    const auto it = std::lower_bound(by_vertices.begin(), by_vertices.end(), key,
                                     [](const Edge& e, const std::array<uint32_t, 2>& k) { return e.v < k; });
    return it != by_vertices.end() && it->v == key && it->flat;
  };
  // Flat parts of plates thinner than their spacing, each to be sampled on a lattice per side
  // (sample_on_lattice below), and the input vertices that are no corners there: inside such a
  // plane, or along a straight edge of it (two collinear feature edges). Offered before the
  // lattice, they would sit off it (a grid of quads triangulating a plate); they are offered after.
  const LatticePlanes planes = lattice_planes(p, t, spacing, is_flat_edge);
  auto on_lattice = [&](size_t face) { return planes.plane[face] >= 0; };
  std::vector<uint8_t> not_corner(p.size() / 3, 0);
  if (!planes.frames.empty()) {
    for (size_t f = 0; f < t.size(); f += 3)
      if (on_lattice(f / 3))
        for (int k = 0; k < 3; ++k) not_corner[t[f + size_t(k)]] = 1;
    // Feature edges at each vertex: their count and the first one's direction away from it.
    std::vector<int32_t> features(p.size() / 3, 0);
    std::vector<double> first(p.size(), 0.0);
    for (const Edge& e : edges) {
      if (e.flat) continue;
      double d[3] = {p[3 * size_t(e.v[1])] - p[3 * size_t(e.v[0])], p[3 * size_t(e.v[1]) + 1] - p[3 * size_t(e.v[0]) + 1],
                     p[3 * size_t(e.v[1]) + 2] - p[3 * size_t(e.v[0]) + 2]};
      normalize(d);
      for (int end = 0; end < 2; ++end) {
        const uint32_t v = e.v[size_t(end)];
        const double away = end == 0 ? 1.0 : -1.0;
        if (features[v] == 0) {
          for (int k = 0; k < 3; ++k) first[3 * size_t(v) + size_t(k)] = away * d[k];
        } else if (features[v] == 1 && !(away * dot3(d, &first[3 * size_t(v)]) < -1 + 1e-9)) {
          not_corner[v] = 0;  // a bend
        }
        ++features[v];
      }
    }
    for (size_t v = 0; v < p.size() / 3; ++v)
      if (features[v] != 0 && features[v] != 2) not_corner[v] = 0;
    // A vertex inside a flat region must be inside a lattice plane: one also on a face that is not
    // on a lattice (a narrow one) stays.
    for (size_t f = 0; f < t.size(); f += 3)
      if (!on_lattice(f / 3))
        for (int k = 0; k < 3; ++k)
          if (features[t[f + size_t(k)]] == 0) not_corner[t[f + size_t(k)]] = 0;
  }
  // A vertex all of whose faces are buried is inside the solid, not on its boundary.
  // One on a face along a crease is tested where it is (ThicknessRays::buried_at).
  std::vector<uint8_t> buried_vertex(p.size() / 3, 1);
  for (size_t f = 0; f < t.size(); f += 3)
    if (!rays_->buried(uint32_t(f / 3)))
      for (int k = 0; k < 3; ++k) {
        const uint32_t v = t[f + size_t(k)];
        if (buried_vertex[v] == 1) buried_vertex[v] = uint8_t(rays_->buried_at(&p[3 * size_t(v)], uint32_t(f / 3)));
      }
  Thinner thinner(&spacing);
  for (size_t v = 0; v < p.size(); v += 3)
    if (!not_corner[v / 3] && !buried_vertex[v / 3]) thinner.offer(&p[v], spacing.vertex_level[v / 3], &vertex_normal[v], points_);
  // Feature edges first: a flat face's long diagonal runs close to the model's edges at its ends,
  // and its samples offered first would crowd out the samples on those edges (a thin rod lost
  // stretches of its corners, hence volume and slivers across them). A flat edge of a face sampled
  // on a lattice is left to the lattice.
  const auto flat = std::stable_partition(edges.begin(), edges.end(), [](const Edge& e) { return !e.flat; });
  const auto flat_off_lattice = std::stable_partition(flat, edges.end(), [&](const Edge& e) { return !on_lattice(e.face); });
  // Samples on faces thinner than kMedialReach, with their face, for the medial points below.
  std::vector<std::pair<int64_t, uint32_t>> thin_samples;
  // Where each accepted sample may slide in the improvement (tet_improvement.h): along its edge,
  // within its face, or not at all (the default).
  slides_.of_point.clear();
  slides_.corners = &surface_.positions;
  auto offer_on_face = [&](const double* x, int level, uint32_t face, const double* normal, double across = kMinAcross,
                           double same = 1.0, SurfaceSlide slide = {}, bool crossing = false) {
    if (rays_->buried_at(x, face) || !thinner.offer(x, level, normal, points_, across, same, crossing)) return false;
    if (slide.kind != SurfaceSlide::kNoSlide) {
      slides_.of_point.resize(points_.size() / 3);
      slides_.of_point.back() = slide;
    }
    if (spacing.face_thickness[face] > 0 && spacing.face_thickness[face] < kMedialReach)
      thin_samples.push_back({int64_t(points_.size() / 3) - 1, face});
    return true;
  };
  // An edge of a lattice face along one of its frame's axes is sampled at the lattice's points (the
  // lattice's rows then start on its samples), other edges of lattice faces at the lattice's step.
  auto sample_edges = [&](std::vector<Edge>::const_iterator from, std::vector<Edge>::const_iterator to) {
    for (auto it = from; it != to; ++it) {
      if (it->buried) continue;
      const double* a = &p[3 * size_t(it->v[0])];
      const double* b = &p[3 * size_t(it->v[1])];
      std::vector<double> at;  // where along the edge, 0..1
      if (!on_lattice(it->face) || !lattice_positions(planes.frames[size_t(planes.plane[it->face])], a, b, at)) {
        const double step = (on_lattice(it->face) ? kLatticeStepPerSpacing : 1.0) * spacing.spacing(it->level);
        const auto n = int64_t(std::ceil(distance(a, b) / step));
        for (int64_t j = 1; j < n; ++j) at.push_back(double(j) / double(n));
      }
      SurfaceSlide along;  // a lattice plane's rim keeps its lattice's places
      if (!on_lattice(it->face)) along = {SurfaceSlide::kAlongEdge, it->v[0], it->v[1], 0};
      for (double s : at) {
        const double x[3] = {a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1]), a[2] + s * (b[2] - a[2])};
        offer_on_face(x, it->level, it->face, it->normal, kMinAcross, 1.0, along);
      }
    }
  };
  sample_edges(edges.begin(), flat);
  // Where a face sampled finer than half a cell runs into another piece, points on the crossing
  // curve, offered like feature edges' (piece_crossings.h).
  // Free points past them, their distance to them (grid units) and the level of their face.
  std::vector<std::pair<std::pair<std::array<double, 3>, double>, int>> beyond_crossings;
  if (rays_->soup()) {
    std::vector<double> crossings;
    std::vector<std::pair<std::array<double, 3>, double>> beyond;
    for (size_t f = 0; f < t.size() / 3; ++f) {
      if (spacing.face_level[f] == 0 || !rays_->mixed(uint32_t(f))) continue;
      crossings.clear();
      beyond.clear();
      piece_crossings(p, t, uint32_t(f), spacing.spacing(spacing.face_level[f]), *rays_, crossings, &beyond);
      // With the face's normal: a part coarsened beyond its thickness has its two walls' curves
      // closer than the spacing, and without it the first wall's crowded out the second's (a 3 mm
      // fin sunk into a block, coarsened to 15.4 mm: the fin met the block along one wall only and
      // came out a part of its own).
      for (size_t i = 0; i < crossings.size(); i += 3)
        offer_on_face(&crossings[i], spacing.face_level[f], uint32_t(f), &spacing.face_normal[3 * f], kMinAcross, 1.0, {}, true);
      for (const auto& b : beyond) beyond_crossings.push_back({b, spacing.face_level[f]});
    }
  }
  // A part thinner than the spacing its budget allows (a plate at a few mm spacing, 1 mm thick) is
  // meshed by tets running from one side to the other, whose quality is about its thickness over
  // the distance between samples of one side. Thinned as one set, its two sides' samples interleave
  // at random: where one side is left with a wide gap (the first rows beside a rim's edge samples),
  // the tets spanning the gap are slivers (the 1000:500:1 plate kept 257 below quality 0.1, min
  // 0.024). So each side gets a lattice of its own: its plane's frame's points (LatticePlanes, which
  // continue the samples of its edges along the axes), on faces facing one way (along kSideAxis),
  // and the centres of the lattice's cells on faces facing the other way, so the sides are
  // staggered: every sample of one side sits amid four of the other (tets of quality about 1.6
  // times the thickness over the lattice step; 0.177 for the 1000:500:1 plate at 20 cells).
  std::vector<std::pair<int64_t, uint8_t>> sides;  // lattice samples and their side, for the improvement
  auto sample_on_lattice = [&](size_t f) {
    const auto plane = size_t(planes.plane[f]);
    const LatticeFrame& fr = planes.frames[plane];
    const uint32_t iv[3] = {t[3 * f], t[3 * f + 1], t[3 * f + 2]};
    double q[3][2];  // the corners in the frame, from its low corner
    for (int k = 0; k < 3; ++k) {
      q[k][0] = dot3(&p[3 * size_t(iv[k])], fr.e1) - fr.lo1;
      q[k][1] = dot3(&p[3 * size_t(iv[k])], fr.e2) - fr.lo2;
    }
    const double det = (q[1][0] - q[0][0]) * (q[2][1] - q[0][1]) - (q[2][0] - q[0][0]) * (q[1][1] - q[0][1]);
    if (!(std::fabs(det) > 0)) return;
    auto barycentric = [&](double x, double y, double l[3]) {
      l[1] = ((x - q[0][0]) * (q[2][1] - q[0][1]) - (q[2][0] - q[0][0]) * (y - q[0][1])) / det;
      l[2] = ((q[1][0] - q[0][0]) * (y - q[0][1]) - (x - q[0][0]) * (q[1][1] - q[0][1])) / det;
      l[0] = 1 - l[1] - l[2];
    };
    // Points on an edge belong to that edge's samples, unless it is flat (left to the lattice).
    const bool flat_side[3] = {is_flat_edge(iv[1], iv[2]), is_flat_edge(iv[2], iv[0]), is_flat_edge(iv[0], iv[1])};
    auto inside = [&](const double l[3]) {
      for (int k = 0; k < 3; ++k)
        if (l[k] < -1e-9 || (l[k] < 1e-9 && !flat_side[k])) return false;
      return true;
    };
    const double* n = &spacing.face_normal[3 * f];
    const bool centres = dot3(n, kSideAxis) < 0;
    const double shift = centres ? 0.5 : 0.0;
    const auto i0 = int64_t(std::floor(std::min({q[0][0], q[1][0], q[2][0]}) / fr.step1 - shift));
    const auto i1 = int64_t(std::ceil(std::max({q[0][0], q[1][0], q[2][0]}) / fr.step1 - shift));
    const auto j0 = int64_t(std::floor(std::min({q[0][1], q[1][1], q[2][1]}) / fr.step2 - shift));
    const auto j1 = int64_t(std::ceil(std::max({q[0][1], q[1][1], q[2][1]}) / fr.step2 - shift));
    const double* A = &p[3 * size_t(iv[0])];
    const double* B = &p[3 * size_t(iv[1])];
    const double* C = &p[3 * size_t(iv[2])];
    for (int64_t j = j0; j <= j1; ++j)
      for (int64_t i = i0; i <= i1; ++i) {
        const double u = double(i) + shift, v = double(j) + shift;  // in steps
        double l[3];
        barycentric(u * fr.step1, v * fr.step2, l);
        if (!inside(l)) continue;
        // Moved within the face, except within a step of the plane's extent: on its edges, or half
        // a step from them in line with their samples, where the tets are tightest (moved too, the
        // 1000:500:1 plate kept a rim tet of 0.151 instead of 0.177).
        if (u >= 1 && v >= 1 && u <= double(fr.n1 - 1) && v <= double(fr.n2 - 1)) {
          double du, dv, m[3];
          lattice_jitter(uint32_t(i), uint32_t(j), uint32_t(plane), du, dv);
          barycentric((u + kLatticeJitter * du) * fr.step1, (v + kLatticeJitter * dv) * fr.step2, m);
          if (m[0] > 1e-9 && m[1] > 1e-9 && m[2] > 1e-9) std::copy(m, m + 3, l);
        }
        const double x[3] = {l[0] * A[0] + l[1] * B[0] + l[2] * C[0], l[0] * A[1] + l[1] * B[1] + l[2] * C[1],
                             l[0] * A[2] + l[1] * B[2] + l[2] * C[2]};
        if (offer_on_face(x, spacing.face_level[f], uint32_t(f), n, kLatticeAcross, kLatticeSameSide * kLatticeStepPerSpacing))
          sides.push_back({int64_t(points_.size() / 3) - 1, centres ? kSideB : kSideA});
      }
  };
  for (size_t f = 0; f < t.size() / 3; ++f)
    if (on_lattice(f) && !rays_->buried(uint32_t(f))) sample_on_lattice(f);
  for (size_t v = 0; v < p.size(); v += 3)
    if (not_corner[v / 3] && !buried_vertex[v / 3]) thinner.offer(&p[v], spacing.vertex_level[v / 3], &vertex_normal[v], points_);
  sample_edges(flat, flat_off_lattice);
  // Inside other faces: rows parallel to the longest edge, h apart, each sampled h apart, so a long
  // sliver-thin face costs about its area / h^2 candidates (a barycentric lattice fine enough along
  // its length would cost the square of that).
  for (size_t f = 0; f < t.size(); f += 3) {
    if (on_lattice(f / 3) || rays_->buried(uint32_t(f / 3))) continue;
    int k = 0;  // the longest edge runs from corner k to k + 1
    double longest = 0;
    for (int j = 0; j < 3; ++j) {
      const double len = distance(&p[3 * size_t(t[f + size_t(j)])], &p[3 * size_t(t[f + size_t((j + 1) % 3)])]);
      if (len > longest) {
        longest = len;
        k = j;
      }
    }
    if (!(longest > 0)) continue;
    const double* a = &p[3 * size_t(t[f + size_t(k)])];
    const double* b = &p[3 * size_t(t[f + size_t((k + 1) % 3)])];
    const double* c = &p[3 * size_t(t[f + size_t((k + 2) % 3)])];
    const int level = spacing.face_level[f / 3];
    const double h = spacing.spacing(level);
    const double height = triangle_area2(a, b, c) / longest;
    const auto rows = int64_t(std::ceil(height / h));
    for (int64_t i = 1; i < rows; ++i) {
      const double r = double(i) / double(rows);  // 0 on edge ab, 1 at c
      const double from[3] = {a[0] + r * (c[0] - a[0]), a[1] + r * (c[1] - a[1]), a[2] + r * (c[2] - a[2])};
      const double to[3] = {b[0] + r * (c[0] - b[0]), b[1] + r * (c[1] - b[1]), b[2] + r * (c[2] - b[2])};
      const auto n = int64_t(std::ceil((1 - r) * longest / h));
      for (int64_t j = 1; j < n; ++j) {
        const double s = double(j) / double(n);
        const double x[3] = {from[0] + s * (to[0] - from[0]), from[1] + s * (to[1] - from[1]), from[2] + s * (to[2] - from[2])};
        offer_on_face(x, level, uint32_t(f / 3), nullptr, kMinAcross, 1.0, {SurfaceSlide::kInFace, t[f], t[f + 1], t[f + 2]});
      }
    }
  }
  // Lids across an open surface's openings (opening_lids.h), at the default spacing, last: the
  // surface's own samples come first. Kept where the winding number is within kLidWinding of 1/2.
  if (stats_.cleanup.open_edges > 0) {
    const LidCandidates lids = opening_lid_candidates(p, t, kDefaultSpacing);
    for (size_t i = 0; i < lids.points.size(); i += 3)
      if (std::fabs(query_->winding_number(&lids.points[i]) - 0.5) < kLidWinding)
        thinner.offer(&lids.points[i], 0, &lids.normals[i], points_);
  }
  lattice_sides_ = std::move(sides);
  stats_.surface_points = int64_t(points_.size() / 3);
  if (!slides_.of_point.empty()) slides_.of_point.resize(size_t(stats_.surface_points));

  // Medial points: parts thinner than kMedialReach hold no grid point, so without these their tets
  // would join surface points only (flat, poor, and across a curved tube too few to hold its
  // volume). Halfway along the inward ray from each thin face's centroid and each sample on it,
  // thinned to half the local thickness apart. They are free (not surface) points.
  Thinner medial(&spacing);
  // A medial point halfway along the inward ray of length `hit` from o on `face`.
  auto add_medial = [&](const double* o, uint32_t face, double hit) {
    const double* n = &spacing.face_normal[3 * size_t(face)];
    const double m[3] = {o[0] - 0.5 * hit * n[0], o[1] - 0.5 * hit * n[1], o[2] - 0.5 * hit * n[2]};
    // A ray from a sample on a feature edge runs along the face beyond it: its "medial" point would
    // lie on that face, a hair from its samples (slivers a surface point cannot be moved out of).
    // (Thinning first: it rejects most candidates and costs less than the surface query.)
    const int level = std::min(kMaxSpacingLevel, level_of_spacing(0.5 * hit));
    if (!medial.fits(m, level, nullptr, medial_points_) || query_->any_within(m, kMedialClearance * hit)) return;
    medial.add(m, level, nullptr, medial_points_);
    ++stats_.medial_points;
  };
  // Where the point budget coarsened a face's samples below its thickness, medial points between
  // its sparse samples would only make flat tets: such faces get none.
  auto wants_medial = [&](size_t f) { return face_wants_medial(spacing, f); };
  // Past the crossings first (piece_crossings.h), nearest first, spaced half their distance
  // (never finer than their face): kept a spacing from the surface samples too.
  std::sort(beyond_crossings.begin(), beyond_crossings.end(),
            [](const auto& x, const auto& y) { return x.first.second < y.first.second; });
  for (const auto& [point, face_level] : beyond_crossings) {
    const double* x = point.first.data();
    const int level = std::min(face_level, level_of_spacing(0.5 * point.second / (spacing.scaled(face_level) ? spacing.fine_scale : 1.0)));
    if (thinner.fits(x, level, nullptr, points_) && medial.fits(x, level, nullptr, medial_points_)) {
      medial.add(x, level, nullptr, medial_points_);
      ++stats_.medial_points;
    }
  }
  // From each thin face's centroid the ray was cast already (surface_spacing: its thickness).
  for (size_t f = 0; f < t.size() / 3; ++f) {
    if (!wants_medial(f)) continue;
    const double* a = &p[3 * size_t(t[3 * f])];
    const double* b = &p[3 * size_t(t[3 * f + 1])];
    const double* c = &p[3 * size_t(t[3 * f + 2])];
    const double o[3] = {(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3};
    // A face crossing into another piece measured its thickness on its unburied part: from a buried
    // centroid the point would lie inside the other piece (its samples' rays give the medial points).
    if (rays_->mixed(uint32_t(f)) && rays_->buried_at(o, uint32_t(f))) continue;
    add_medial(o, uint32_t(f), spacing.face_thickness[f]);
  }
  for (const auto& [id, face] : thin_samples) {
    if (!wants_medial(face)) continue;
    const double o[3] = {points_[3 * size_t(id)], points_[3 * size_t(id) + 1], points_[3 * size_t(id) + 2]};
    const double hit = rays_->thickness(o, face, kMedialReach);
    if (hit != HUGE_VAL) add_medial(o, face, hit);
  }
  if (!medial_points_.empty()) {
    constexpr double kOrigin[3] = {0, 0, 0};
    medial_grid_ = std::make_unique<PointGrid>(kOrigin, 0.5);
    for (size_t m = 0; m < medial_points_.size(); m += 3) medial_grid_->insert(int64_t(m / 3), &medial_points_[m]);
  }
}

}  // namespace sb
