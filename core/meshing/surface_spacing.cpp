#include "meshing/surface_spacing.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "meshing/thickness_rays.h"
#include "meshing/union_find.h"

namespace sb {

// The level whose spacing is at most s (finer levels are smaller).
int level_of_spacing(double s) {
  if (!(s < kDefaultSpacing)) return 0;
  if (!(s > 0)) return kMaxSpacingLevel;
  return std::min(kMaxSpacingLevel, int(std::ceil(std::log2(kDefaultSpacing / s) - 1e-9)));
}

bool face_wants_medial(const SurfaceSpacing& spacing, size_t f) {
  const double t = spacing.face_thickness[f];
  return t > 0 && t < kMedialReach && level_of_spacing(kSpacingPerThickness * t) <= spacing.face_level[f];
}

std::vector<uint8_t> dropped_faces(const std::vector<double>& p, const std::vector<uint32_t>& t, const ThicknessRays& rays,
                                   const std::vector<double>& thickness, double below) {
  const size_t faces = t.size() / 3, vertex_count = p.size() / 3;
  std::vector<uint8_t> drop(faces, 0), on_thin(vertex_count, 0);
  for (size_t f = 0; f < faces; ++f)
    if (thickness[f] > 0 && thickness[f] < below) {
      drop[f] = 1;
      for (int k = 0; k < 3; ++k) on_thin[t[3 * f + size_t(k)]] = 1;
    }
  for (size_t f = 0; f < faces; ++f)
    if (on_thin[t[3 * f]] && on_thin[t[3 * f + 1]] && on_thin[t[3 * f + 2]]) drop[f] = 1;
  UnionFind pieces(vertex_count);
  for (size_t f = 0; f < faces; ++f) {
    pieces.join(t[3 * f], t[3 * f + 1]);
    pieces.join(t[3 * f], t[3 * f + 2]);
  }
  std::vector<double> area(vertex_count, 0.0), dropped_area(vertex_count, 0.0);  // per piece's root
  for (size_t f = 0; f < faces; ++f) {
    if (rays.buried(uint32_t(f))) continue;
    const double* a = &p[3 * size_t(t[3 * f])];
    const double* b = &p[3 * size_t(t[3 * f + 1])];
    const double* c = &p[3 * size_t(t[3 * f + 2])];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    const double da = 0.5 * std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    const auto r = size_t(pieces.find(t[3 * f]));
    area[r] += da;
    if (drop[f]) dropped_area[r] += da;
  }
  for (size_t f = 0; f < faces; ++f) {
    const auto r = size_t(pieces.find(t[3 * f]));
    if (dropped_area[r] > 0.5 * area[r]) drop[f] = 1;
  }
  return drop;
}

namespace {

// A face crossing into another piece (ThicknessRays::mixed: a fin's wall sunk into a block) is
// part boundary, part buried. When its centroid is on the buried part, the ray from there starts
// inside the other piece and measures that piece, not the face's own part (the fin's wall triangle
// whose centroid is in the block measured nothing, was sampled half a cell apart above the block,
// 7-14 mm from the other wall's samples, and left slivers of quality 0.04-0.09 there, thickened
// under 12,000-20,000 tets). Then the thickness is the thinnest measured from the inner points of a
// barycentric lattice over the face that lie on its unburied part. A face whose centroid is not
// buried measures its own part from there, as any face does.
constexpr int kMixedFaceDivisions = 6;  // the lattice's steps per edge: 10 inner points

double mixed_face_thickness(const double* a, const double* b, const double* c, uint32_t face, const ThicknessRays& rays,
                            double reach) {
  double thinnest = HUGE_VAL;
  auto measure = [&](double wa, double wb, double wc) {
    const double x[3] = {wa * a[0] + wb * b[0] + wc * c[0], wa * a[1] + wb * b[1] + wc * c[1], wa * a[2] + wb * b[2] + wc * c[2]};
    if (rays.buried_at(x, face)) return;
    thinnest = std::min(thinnest, rays.thickness(x, face, reach));
  };
  constexpr int n = kMixedFaceDivisions;
  for (int i = 1; i < n; ++i)
    for (int j = 1; i + j < n; ++j) measure(double(i) / n, double(j) / n, double(n - i - j) / n);
  return thinnest;
}

}  // namespace

SurfaceSpacing surface_spacing(const std::vector<double>& p, const std::vector<uint32_t>& t,
                               const ThicknessRays& rays, const SpacingOverrides& overrides) {
  SurfaceSpacing out;
  out.fine_scale = std::clamp(overrides.fine_scale, 1.0, 1.999);
  out.scaled_to = overrides.scaled_to;
  const size_t faces = t.size() / 3, vertices = p.size() / 3;
  out.face_level.assign(faces, 0);
  out.vertex_level.assign(vertices, 0);
  std::vector<double>& normal = out.face_normal;
  normal.assign(3 * faces, 0.0);
  std::vector<double> area(faces), perimeter(faces, 0.0), longest(faces, 0.0);
  // Thickness: only parts under a cell matter (finer sampling, medial points), so rays stop there.
  const double reach = std::max({kMedialReach, kDefaultSpacing / kSpacingPerThickness, kCurvedPartReach});
  out.face_thickness.assign(faces, 0.0);
  double thinnest = HUGE_VAL;
  for (size_t f = 0; f < faces; ++f) {
    const double* a = &p[3 * size_t(t[3 * f])];
    const double* b = &p[3 * size_t(t[3 * f + 1])];
    const double* c = &p[3 * size_t(t[3 * f + 2])];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    area[f] = 0.5 * len;
    for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}}) {
      const double e = std::sqrt((y[0] - x[0]) * (y[0] - x[0]) + (y[1] - x[1]) * (y[1] - x[1]) + (y[2] - x[2]) * (y[2] - x[2]));
      perimeter[f] += e;
      longest[f] = std::max(longest[f], e);
    }
    if (!(len > 0)) continue;
    for (double& x : n) x /= len;
    std::copy(n, n + 3, &normal[3 * f]);
    const double o[3] = {(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3};
    if (rays.buried(uint32_t(f))) continue;  // not sampled (its area still counts in the budget's estimate)
    // A cached thickness of 0 is a ray that measured none.
    bool rod = false;
    double hit = HUGE_VAL;
    if (overrides.face_thickness) {
      hit = (*overrides.face_thickness)[f];
    } else if (rays.mixed(uint32_t(f)) && rays.buried_at(o, uint32_t(f))) {
      hit = mixed_face_thickness(a, b, c, uint32_t(f), rays, reach);
    } else {
      hit = rays.thickness(o, uint32_t(f), reach, &rod);
    }
    out.rod_faces += rod;
    if (hit == HUGE_VAL || (overrides.face_thickness && !(hit > 0))) continue;
    hit = std::max(hit, overrides.min_thickness);
    thinnest = std::min(thinnest, hit);
    out.face_thickness[f] = hit;
    out.face_level[f] = uint8_t(level_of_spacing(kSpacingPerThickness * hit));
  }
  out.thinnest = thinnest == HUGE_VAL ? 0.0 : thinnest;
  // Faces ThinParts::Drop would remove: spaced as a solid's, and no samples counted for them below.
  std::vector<uint8_t> dropped;
  if (overrides.drop_below > 0) {
    dropped = dropped_faces(p, t, rays, out.face_thickness, overrides.drop_below);
    for (size_t f = 0; f < faces; ++f)
      if (dropped[f]) {
        out.face_thickness[f] = 0;
        out.face_level[f] = 0;
      }
  }

  // Curvature at vertices: the normal (area-weighted), the mean edge length l, and the height h of
  // the vertex over its neighbours' centroid along the normal: R = l^2 / (2 h), which for a smooth
  // surface is its radius of curvature and for scan noise (tiny bumps on short edges) stays large.
  std::vector<double> vn(3 * vertices, 0.0), edge_sum(vertices, 0.0), ring(3 * vertices, 0.0);
  std::vector<int32_t> edge_count(vertices, 0);
  for (size_t f = 0; f < faces; ++f)
    for (int k = 0; k < 3; ++k) {
      const uint32_t i = t[3 * f + size_t(k)], j = t[3 * f + size_t((k + 1) % 3)];
      for (int c = 0; c < 3; ++c) vn[3 * i + size_t(c)] += area[f] * normal[3 * f + size_t(c)];
      double d2 = 0;
      for (int c = 0; c < 3; ++c) d2 += (p[3 * j + size_t(c)] - p[3 * i + size_t(c)]) * (p[3 * j + size_t(c)] - p[3 * i + size_t(c)]);
      edge_sum[i] += std::sqrt(d2);  // each edge twice around a closed surface: the mean is unaffected
      edge_sum[j] += std::sqrt(d2);
      edge_count[i] += 1;
      edge_count[j] += 1;
      for (int c = 0; c < 3; ++c) {
        ring[3 * i + size_t(c)] += p[3 * j + size_t(c)];
        ring[3 * j + size_t(c)] += p[3 * i + size_t(c)];
      }
    }
  for (size_t v = 0; v < vertices; ++v) {
    const double len = std::sqrt(vn[3 * v] * vn[3 * v] + vn[3 * v + 1] * vn[3 * v + 1] + vn[3 * v + 2] * vn[3 * v + 2]);
    if (len > 0)
      for (int c = 0; c < 3; ++c) vn[3 * v + size_t(c)] /= len;
  }
  for (size_t f = 0; f < faces; ++f)
    for (int k = 0; k < 3; ++k) {
      const uint32_t v = t[3 * f + size_t(k)];
      out.vertex_level[v] = std::max(out.vertex_level[v], out.face_level[f]);
    }
  // Curvature counts only on parts under kCurvedPartReach thick: there a chord's sagitta is a
  // share of the part's volume worth keeping; on thicker parts it is a bump (or scan noise) on a
  // large body, which the default spacing already holds to a small share.
  std::vector<uint8_t> on_small_part(vertices, 0), curved_level(vertices, 0);
  std::vector<double> vertex_thickness(vertices, HUGE_VAL);  // the thinnest of its faces
  for (size_t f = 0; f < faces; ++f)
    if (out.face_thickness[f] > 0)
      for (int k = 0; k < 3; ++k) {
        on_small_part[t[3 * f + size_t(k)]] = 1;
        vertex_thickness[t[3 * f + size_t(k)]] = std::min(vertex_thickness[t[3 * f + size_t(k)]], out.face_thickness[f]);
      }
  for (size_t v = 0; v < vertices; ++v) {
    if (edge_count[v] == 0 || !on_small_part[v]) continue;
    double h = 0;
    for (int c = 0; c < 3; ++c) h += vn[3 * v + size_t(c)] * (p[3 * v + size_t(c)] - ring[3 * v + size_t(c)] / edge_count[v]);
    h = std::fabs(h);
    if (!(h > 0)) continue;
    const double l = edge_sum[v] / edge_count[v];
    const double radius = l * l / (2 * h);
    curved_level[v] = uint8_t(level_of_spacing(kSpacingPerRadius * radius));
    if (radius < kSectionRadiusPerThickness * vertex_thickness[v]) out.curved_finest = std::max<int>(out.curved_finest, curved_level[v]);
    out.vertex_level[v] = std::max(out.vertex_level[v], curved_level[v]);
  }

  // Budget: about area / s^2 + half the perimeter / s points per face (a needle's samples are all
  // along its edges) and one per vertex; if the finest levels would exceed it, cap the levels at
  // the finest that fits.
  auto estimate_levels = [&](auto level_of_face) {
    double n = double(vertices);
    for (size_t f = 0; f < faces; ++f) {
      const double s = spacing_of_level(level_of_face(f));
      n += area[f] / (s * s) + 0.5 * perimeter[f] / s;  // inside and along edges (each shared by two faces)
    }
    return n;
  };
  auto estimate = [&](int cap) { return estimate_levels([&](size_t f) { return std::min<int>(cap, out.face_level[f]); }); };
  int finest = 0;
  for (uint8_t l : out.face_level) finest = std::max<int>(finest, l);
  for (uint8_t l : out.vertex_level) finest = std::max<int>(finest, l);
  // The budget grows with what the grid asked for: a coarse grid means a small body, thin parts
  // included (a plate at 10 cells should not become 100,000 tets), up to kMaxSurfaceSamples.
  out.budget = int64_t(std::min(double(kMaxSurfaceSamples), double(kSamplesBase) + kSamplesPerUniform * estimate(0)));
  int cap = -1;
  if (finest > 0 && estimate(finest) > double(out.budget)) {
    cap = finest;
    while (cap > 0 && estimate(cap) > double(out.budget)) --cap;
  }
  const int budget_cap = cap;
  if (overrides.level_cap >= 0 && finest > overrides.level_cap) cap = cap < 0 ? overrides.level_cap : std::min(cap, overrides.level_cap);
  if (cap >= 0) {
    out.coarsened_to = cap;
    out.samples_needed = int64_t(std::min(9e18, estimate(finest)));
    out.samples_coarsest = int64_t(std::min(9e18, estimate_levels([&](size_t f) {
      return out.face_thickness[f] > 0 ? std::min<int>(out.face_level[f], level_of_spacing(kMaxSpacingPerThickness * out.face_thickness[f]))
                                       : int(out.face_level[f]);
    })));
    for (uint8_t& l : out.face_level) l = uint8_t(std::min<int>(l, cap));
    for (uint8_t& l : out.vertex_level) l = uint8_t(std::min<int>(l, cap));
    // The thin-parts choice coarsens thickness, not curvature: a round rod sampled at its
    // thickness's spacing would lose its cross-section (a torus knot's tube coarsened to half a
    // cell: -14 % of its volume, min quality 0.06).
    if (cap != budget_cap)
      for (size_t v = 0; v < vertices; ++v)
        out.vertex_level[v] = uint8_t(std::max<int>(out.vertex_level[v], budget_cap < 0 ? curved_level[v] : std::min<int>(curved_level[v], budget_cap)));
  }
  // For the tet estimate (Tetrahedralizer::estimate_tets): samples at the final levels, and medial
  // points, which are thinned to half the thickness apart on a sheet halfway between two faces.
  // Not the budget's estimate, whose perimeter term counts every edge of a finely tessellated
  // surface: a face holds about its area / s^2 samples, a needle those along its long edge.
  out.samples_estimate = 0;
  for (size_t f = 0; f < faces; ++f) {
    if (rays.buried(uint32_t(f)) || (!dropped.empty() && dropped[f])) continue;
    const double s = out.spacing(out.face_level[f]);
    out.samples_estimate += std::max(area[f] / (s * s), longest[f] / (2 * s));
  }
  for (size_t f = 0; f < faces; ++f) {
    if (out.face_thickness[f] > 0 && out.face_thickness[f] < kMedialReach) out.thin_area += area[f];
    if (!face_wants_medial(out, f)) continue;
    const double s = out.spacing(std::min(kMaxSpacingLevel, level_of_spacing(0.5 * out.face_thickness[f])));
    out.medial_estimate += 0.5 * area[f] / (s * s);
  }
  return out;
}

}  // namespace sb
