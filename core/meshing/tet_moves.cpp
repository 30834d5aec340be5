#include "meshing/tet_moves.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace sb::tet_moves {

// Where a surface sample may move (SurfaceSlide) in the positions' units: the segment a-b, kept
// kSlideMargin of its length from either end, or the plane of triangle a, b, c within the triangle.
constexpr double kSlideMargin = 0.01;
struct SlideFrame {
  uint8_t kind = SurfaceSlide::kNoSlide;
  double a[3] = {0, 0, 0}, ab[3] = {0, 0, 0}, ac[3] = {0, 0, 0}, n[3] = {0, 0, 0};
  double ab2 = 0;

  SlideFrame(const SurfaceSlide& s, const std::vector<double>& corners) : kind(s.kind) {
    const double* pa = &corners[3 * size_t(s.a)];
    const double* pb = &corners[3 * size_t(s.b)];
    const double* pc = &corners[3 * size_t(s.c)];
    for (int k = 0; k < 3; ++k) {
      a[k] = pa[k];
      ab[k] = pb[k] - pa[k];
      ac[k] = pc[k] - pa[k];
    }
    ab2 = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2];
    const double m[3] = {ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2], ab[0] * ac[1] - ab[1] * ac[0]};
    const double len = std::sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
    if (kind == SurfaceSlide::kInFace && !(len > 0)) kind = SurfaceSlide::kNoSlide;
    if (kind == SurfaceSlide::kAlongEdge && !(ab2 > 0)) kind = SurfaceSlide::kNoSlide;
    if (len > 0)
      for (int k = 0; k < 3; ++k) n[k] = m[k] / len;
  }
  // A direction of motion made tangent: along the segment, or in the plane.
  void tangent(double g[3]) const {
    if (kind == SurfaceSlide::kNoSlide) {
      g[0] = g[1] = g[2] = 0;
    } else if (kind == SurfaceSlide::kAlongEdge) {
      const double s = (g[0] * ab[0] + g[1] * ab[1] + g[2] * ab[2]) / ab2;
      for (int k = 0; k < 3; ++k) g[k] = s * ab[k];
    } else {
      const double s = g[0] * n[0] + g[1] * n[1] + g[2] * n[2];
      for (int k = 0; k < 3; ++k) g[k] -= s * n[k];
    }
  }
  // y moved onto the segment (clamped within it) or the plane; false when outside the triangle.
  bool place(double y[3]) const {
    if (kind == SurfaceSlide::kNoSlide) return false;
    const double d[3] = {y[0] - a[0], y[1] - a[1], y[2] - a[2]};
    if (kind == SurfaceSlide::kAlongEdge) {
      const double s = std::clamp((d[0] * ab[0] + d[1] * ab[1] + d[2] * ab[2]) / ab2, kSlideMargin, 1 - kSlideMargin);
      for (int k = 0; k < 3; ++k) y[k] = a[k] + s * ab[k];
      return true;
    }
    const double off = d[0] * n[0] + d[1] * n[1] + d[2] * n[2];
    double q[3];
    for (int k = 0; k < 3; ++k) q[k] = d[k] - off * n[k];
    // Barycentric coordinates of q (relative to a) in the triangle's plane.
    const double bb = ab2, bc = ab[0] * ac[0] + ab[1] * ac[1] + ab[2] * ac[2], cc = ac[0] * ac[0] + ac[1] * ac[1] + ac[2] * ac[2];
    const double qb = q[0] * ab[0] + q[1] * ab[1] + q[2] * ab[2], qc = q[0] * ac[0] + q[1] * ac[1] + q[2] * ac[2];
    const double det = bb * cc - bc * bc;
    if (!(det > 0)) return false;
    const double u = (cc * qb - bc * qc) / det, v = (bb * qc - bc * qb) / det;
    if (!(u >= 0 && v >= 0 && u + v <= 1)) return false;
    for (int k = 0; k < 3; ++k) y[k] = a[k] + q[k];
    return true;
  }
};

// Moves vertex v to raise the worst quality of the tets in its star (all of the tets using v):
// first to its neighbours' centroid if that helps (Laplacian smoothing), then by line searches
// along the gradient of the worst tet's quality, which may change from step to step. Every step
// is accepted only if the star's worst quality rises, so no tet turns flat or inverted. Returns
// the star's worst quality at the end.
// With `slide`, v is a surface sample and every position tried is moved onto its edge or face first
// (the gradient made tangent to it).
double optimize_vertex(std::vector<double>& positions, const std::vector<uint32_t>& tets, uint32_t v,
                       const uint32_t* star, size_t count, Work& work, const SlideFrame* slide) {
  double* x = &positions[3 * size_t(v)];
  auto at = [&](const double y[3], uint32_t* worst) {
    double saved[3];
    std::copy(x, x + 3, saved);
    std::copy(y, y + 3, x);
    const double m = star_quality(positions, tets, star, count, work, worst);
    std::copy(saved, saved + 3, x);
    return m;
  };
  uint32_t worst = 0;
  double best = star_quality(positions, tets, star, count, work, &worst);
  // Length scale: the mean distance to the star's other vertices.
  double scale = 0;
  int neighbours = 0;
  double centroid[3] = {0, 0, 0};
  for (size_t i = 0; i < count; ++i)
    for (int k = 0; k < 4; ++k) {
      const uint32_t u = tets[4 * size_t(star[i]) + size_t(k)];
      if (u == v) continue;
      double d2 = 0;
      for (int c = 0; c < 3; ++c) {
        d2 += (positions[3 * size_t(u) + size_t(c)] - x[c]) * (positions[3 * size_t(u) + size_t(c)] - x[c]);
        centroid[c] += positions[3 * size_t(u) + size_t(c)];
      }
      scale += std::sqrt(d2);
      ++neighbours;
    }
  if (neighbours == 0) return best;
  scale /= neighbours;
  for (double& c : centroid) c /= neighbours;
  uint32_t w = 0;
  const bool centroid_allowed = !slide || slide->place(centroid);
  const double at_centroid = centroid_allowed ? at(centroid, &w) : -HUGE_VAL;
  if (at_centroid > best) {
    std::copy(centroid, centroid + 3, x);
    best = at_centroid;
    worst = w;
  }
  for (int iteration = 0; iteration < 10 && work.left > 0; ++iteration) {
    const double h = 1e-6 * scale;
    double g[3];
    for (int c = 0; c < 3; ++c) {
      const double keep = x[c];
      x[c] = keep + h;
      const double qp = quality_of(positions, &tets[4 * size_t(worst)]);
      x[c] = keep - h;
      const double qm = quality_of(positions, &tets[4 * size_t(worst)]);
      x[c] = keep;
      g[c] = (qp - qm) / (2 * h);
    }
    if (slide) slide->tangent(g);
    const double norm = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    if (!(norm > 0)) break;
    bool stepped = false;
    for (double step = 0.5 * scale; step > 2e-3 * scale; step *= 0.5) {
      double y[3] = {x[0] + step * g[0] / norm, x[1] + step * g[1] / norm, x[2] + step * g[2] / norm};
      if (slide && !slide->place(y)) continue;
      const double m = at(y, &w);
      if (m > best) {
        std::copy(y, y + 3, x);
        best = m;
        worst = w;
        stepped = true;
        break;
      }
    }
    if (!stepped) break;
  }
  return best;
}


// Step 3's last part (see improve_tets): surface samples of tets below kMinQuality slide along the
// surface. For each such tet, its movable vertices (samples that may slide, free inner vertices),
// those of the poor tets around them and the movable vertices of the tets around those, together,
// kept only when the tet is mended and no tet around turned poor; then each sample of a tet still
// poor alone, by passes (with the free inner vertices of tets below `target`, which may then find
// room), each move kept when its own tets' worst quality rises; then together again. Either order
// alone left some of the random pulls of the study below 0.1. `unslid` gets the positions before,
// if anything moved.
void slide_surface_samples(std::vector<double>& positions, const std::vector<uint32_t>& tets,
                           const std::vector<uint8_t>& fixed, const std::vector<uint8_t>& pinned,
                           const std::vector<uint32_t>& star_start, const std::vector<uint32_t>& star, double target,
                           const SurfaceSlides& slides, std::vector<double>& unslid, Work& work, ImprovementStats& stats) {
  const size_t n = tets.size() / 4;
  bool any_poor = false;
  for (size_t t = 0; t < n && !any_poor; ++t) any_poor = quality_of(positions, &tets[4 * t]) < kMinQuality;
  if (!any_poor) return;
  unslid = positions;
  const auto vertex_count = uint32_t(star_start.size() - 1);
  auto slides_on_surface = [&](uint32_t v) {
    return v < slides.of_point.size() && slides.of_point[v].kind != SurfaceSlide::kNoSlide && fixed[v] == kFixedPoint;
  };
  auto star_of = [&](uint32_t v) { return std::make_pair(&star[star_start[v]], size_t(star_start[v + 1] - star_start[v])); };
  int64_t moves = 0;
  std::vector<std::pair<uint32_t, std::array<double, 3>>> moved;  // the vertices moved together, where they were
  std::vector<std::pair<uint32_t, uint8_t>> around;                 // the tets around them, poor before
  auto take = [&](uint32_t v) {
    for (const auto& m : moved)
      if (m.first == v) return;
    moved.push_back({v, {positions[3 * size_t(v)], positions[3 * size_t(v) + 1], positions[3 * size_t(v) + 2]}});
  };
  constexpr size_t kMaxMovedTogether = 32;
  auto together = [&] {
    for (size_t t = 0; t < n && work.left > 0; ++t) {
      if (!(quality_of(positions, &tets[4 * t]) < kMinQuality)) continue;
      moved.clear();
      for (int k = 0; k < 4; ++k)
        if (slides_on_surface(tets[4 * t + size_t(k)]) || !pinned[tets[4 * t + size_t(k)]]) take(tets[4 * t + size_t(k)]);
      if (moved.empty()) continue;
      // The poor tets around (a needle's neighbours are often poor too), then every movable vertex of
      // the tets around: room for them to move into.
      for (int ring = 0; ring < 2; ++ring)
        for (size_t i = 0, first = moved.size(); i < first; ++i) {
          const auto [star_first, count] = star_of(moved[i].first);
          for (size_t j = 0; j < count; ++j) {
            const uint32_t* u = &tets[4 * size_t(star_first[j])];
            if (ring == 0 && !(quality_of(positions, u) < kMinQuality)) continue;
            for (int k = 0; k < 4 && moved.size() < kMaxMovedTogether; ++k)
              if (slides_on_surface(u[k]) || !pinned[u[k]]) take(u[k]);
          }
        }
      around.clear();
      for (const auto& m : moved) {
        const auto [star_first, count] = star_of(m.first);
        for (size_t j = 0; j < count; ++j) around.push_back({star_first[j], 0});
      }
      std::sort(around.begin(), around.end());
      around.erase(std::unique(around.begin(), around.end()), around.end());
      for (auto& [u, poor] : around) poor = quality_of(positions, &tets[4 * size_t(u)]) < kMinQuality;
      work.left -= 2 * int64_t(around.size());
      for (int round = 0; round < 3; ++round)
        for (const auto& m : moved) {
          const uint32_t v = m.first;
          const auto [first, count] = star_of(v);
          const SlideFrame frame(pinned[v] ? slides.of_point[v] : SurfaceSlide{}, *slides.corners);
          if (pinned[v] && frame.kind == SurfaceSlide::kNoSlide) continue;
          optimize_vertex(positions, tets, v, first, count, work, pinned[v] ? &frame : nullptr);
        }
      // Kept when the tet is mended and no tet around turned poor (one poor before may stay so: the
      // last resort may peel it).
      bool kept = quality_of(positions, &tets[4 * t]) >= kMinQuality;
      for (const auto& [u, poor] : around) kept = kept && (poor || quality_of(positions, &tets[4 * size_t(u)]) >= kMinQuality);
      if (kept) {
        ++moves;
        for (const auto& m : moved) stats.slid += pinned[m.first];
        continue;
      }
      for (const auto& m : moved) std::copy(m.second.begin(), m.second.end(), &positions[3 * size_t(m.first)]);
    }
  };
  together();
  for (int pass = 0; pass < 4; ++pass) {
    int64_t shifted = 0;
    for (uint32_t v = 0; v < vertex_count && work.left > 0; ++v) {
      const auto [first, count] = star_of(v);
      if (count == 0 || (pinned[v] && !slides_on_surface(v))) continue;
      const double before = star_quality(positions, tets, first, count, work);
      if (!(before < (pinned[v] ? kMinQuality : target))) continue;
      const SlideFrame frame(pinned[v] ? slides.of_point[v] : SurfaceSlide{}, *slides.corners);
      if (pinned[v] && frame.kind == SurfaceSlide::kNoSlide) continue;
      if (optimize_vertex(positions, tets, v, first, count, work, pinned[v] ? &frame : nullptr) > before) {
        ++shifted;
        stats.slid += pinned[v];
      }
    }
    moves += shifted;
    if (shifted == 0) break;
  }
  together();
  if (moves == 0) unslid.clear();
}


}  // namespace sb::tet_moves
