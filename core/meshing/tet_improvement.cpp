#include "meshing/tet_improvement.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "math/predicates.h"
#include "meshing/tetrahedralizer.h"

namespace sb {

namespace {

double quality_of(const std::vector<double>& p, const uint32_t* t) {
  return tet_quality(&p[3 * size_t(t[0])], &p[3 * size_t(t[1])], &p[3 * size_t(t[2])], &p[3 * size_t(t[3])]);
}

double volume6_of(const std::vector<double>& p, const uint32_t* t) {
  const double* a = &p[3 * size_t(t[0])];
  double u[3], v[3], w[3];
  for (int k = 0; k < 3; ++k) {
    u[k] = p[3 * size_t(t[1]) + size_t(k)] - a[k];
    v[k] = p[3 * size_t(t[2]) + size_t(k)] - a[k];
    w[k] = p[3 * size_t(t[3]) + size_t(k)] - a[k];
  }
  return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
}

// Whether all four vertices lie nearly in one plane: the smallest height (3 V over the largest face)
// is under kFlatness of the shortest edge. True for slivers and caps, false for needles and wedges
// reaching across a body (which are poor too, but removing them would cut into it).
constexpr double kFlatness = 0.25;
bool is_flat(const std::vector<double>& p, const uint32_t* t) {
  double largest_area2 = 0, shortest2 = HUGE_VAL;
  for (int s = 0; s < 4; ++s) {
    const double* a = &p[3 * size_t(t[(s + 1) % 4])];
    const double* b = &p[3 * size_t(t[(s + 2) % 4])];
    const double* c = &p[3 * size_t(t[(s + 3) % 4])];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
    largest_area2 = std::max(largest_area2, 0.25 * (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]));
    for (int j = s + 1; j < 4; ++j) {
      double d2 = 0;
      for (int k = 0; k < 3; ++k) d2 += (p[3 * size_t(t[j]) + size_t(k)] - p[3 * size_t(t[s]) + size_t(k)]) * (p[3 * size_t(t[j]) + size_t(k)] - p[3 * size_t(t[s]) + size_t(k)]);
      shortest2 = std::min(shortest2, d2);
    }
  }
  const double h = 0.5 * std::fabs(volume6_of(p, t)) / std::sqrt(largest_area2);  // 3 V / A
  return h < kFlatness * std::sqrt(shortest2);
}

// The centre of the sphere through a tet's four vertices; false for a flat tet.
bool circumcentre(const std::vector<double>& p, const uint32_t* t, double out[3]) {
  const double* a = &p[3 * size_t(t[0])];
  double u[3][3];
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) u[i][k] = p[3 * size_t(t[i + 1]) + size_t(k)] - a[k];
  // Solve 2 u_i . x = |u_i|^2 (x relative to a) by Cramer's rule.
  const double r[3] = {0.5 * (u[0][0] * u[0][0] + u[0][1] * u[0][1] + u[0][2] * u[0][2]),
                       0.5 * (u[1][0] * u[1][0] + u[1][1] * u[1][1] + u[1][2] * u[1][2]),
                       0.5 * (u[2][0] * u[2][0] + u[2][1] * u[2][1] + u[2][2] * u[2][2])};
  const double c0[3] = {u[1][1] * u[2][2] - u[1][2] * u[2][1], u[1][2] * u[2][0] - u[1][0] * u[2][2], u[1][0] * u[2][1] - u[1][1] * u[2][0]};
  const double c1[3] = {u[2][1] * u[0][2] - u[2][2] * u[0][1], u[2][2] * u[0][0] - u[2][0] * u[0][2], u[2][0] * u[0][1] - u[2][1] * u[0][0]};
  const double c2[3] = {u[0][1] * u[1][2] - u[0][2] * u[1][1], u[0][2] * u[1][0] - u[0][0] * u[1][2], u[0][0] * u[1][1] - u[0][1] * u[1][0]};
  const double det = u[0][0] * c0[0] + u[0][1] * c0[1] + u[0][2] * c0[2];
  if (!(std::fabs(det) > 0)) return false;
  for (int k = 0; k < 3; ++k) out[k] = a[k] + (r[0] * c0[k] + r[1] * c1[k] + r[2] * c2[k]) / det;
  return std::isfinite(out[0]) && std::isfinite(out[1]) && std::isfinite(out[2]);
}

// Face links: link[4 t + s] = 4 t' + s' for the tet t' across the face opposite slot s of t, or -1
// on the boundary.
std::vector<int64_t> face_links(const std::vector<uint32_t>& tets) {
  const size_t n = tets.size() / 4;
  std::vector<std::pair<std::array<uint32_t, 3>, int64_t>> faces;
  faces.reserve(4 * n);
  for (size_t t = 0; t < n; ++t)
    for (int s = 0; s < 4; ++s) {
      std::array<uint32_t, 3> f{};
      int m = 0;
      for (int k = 0; k < 4; ++k)
        if (k != s) f[size_t(m++)] = tets[4 * t + size_t(k)];
      std::sort(f.begin(), f.end());
      faces.push_back({f, int64_t(4 * t) + s});
    }
  std::sort(faces.begin(), faces.end());
  std::vector<int64_t> link(4 * n, -1);
  for (size_t i = 1; i < faces.size(); ++i)
    if (faces[i].first == faces[i - 1].first) {
      link[size_t(faces[i].second)] = faces[i - 1].second;
      link[size_t(faces[i - 1].second)] = faces[i].second;
    }
  return link;
}

}  // namespace

ImprovementStats improve_tets(std::vector<double>& positions, std::vector<uint32_t>& tets,
                              std::vector<uint8_t>& fixed, double target) {
  ImprovementStats stats;
  size_t n = tets.size() / 4;
  std::vector<double> quality(n);
  for (size_t t = 0; t < n; ++t) quality[t] = quality_of(positions, &tets[4 * t]);
  stats.min_quality_before = n ? *std::min_element(quality.begin(), quality.end()) : 0.0;

  // 1. Peel exposed slivers of surface samples.
  {
    std::vector<int64_t> link = face_links(tets);
    std::vector<uint8_t> alive(n, 1);
    auto peelable = [&](size_t t) {
      if (!alive[t] || !(quality[t] < target)) return false;
      const uint32_t* v = &tets[4 * t];
      if (!(fixed[v[0]] && fixed[v[1]] && fixed[v[2]] && fixed[v[3]])) return false;
      if (!is_flat(positions, v)) return false;
      for (int s = 0; s < 4; ++s)
        if (link[4 * t + size_t(s)] < 0) return true;
      return false;
    };
    std::vector<size_t> work;
    for (size_t t = 0; t < n; ++t)
      if (peelable(t)) work.push_back(t);
    while (!work.empty()) {
      const size_t t = work.back();
      work.pop_back();
      if (!peelable(t)) continue;
      alive[t] = 0;
      ++stats.peeled;
      stats.peeled_volume += volume6_of(positions, &tets[4 * t]) / 6.0;
      for (int s = 0; s < 4; ++s) {
        const int64_t across = link[4 * t + size_t(s)];
        if (across < 0) continue;
        link[size_t(across)] = -1;  // the neighbour's face is now on the boundary
        if (peelable(size_t(across / 4))) work.push_back(size_t(across / 4));
      }
    }
    size_t kept = 0;
    for (size_t t = 0; t < n; ++t)
      if (alive[t]) {
        std::copy(&tets[4 * t], &tets[4 * t] + 4, &tets[4 * kept]);
        quality[kept++] = quality[t];
      }
    tets.resize(4 * kept);
    quality.resize(kept);
    n = kept;
  }

  // 2. Refine: a poor tet left after peeling (a sliver inside, or one with free vertices) gets a new
  // free vertex at its circumcentre (or, when that lies outside the mesh, its centroid), inserted
  // Bowyer-Watson style into the tets whose circumspheres hold it. An insertion is kept only when
  // every new tet is positive and the worst of them beats the worst tet it replaces.
  {
    std::vector<int64_t> link = face_links(tets);
    std::vector<uint8_t> alive(n, 1), in_cavity(n, 0);
    const size_t budget = size_t(kMaxGrowth * double(positions.size() / 3)) + 1;
    std::vector<size_t> cavity;
    std::vector<std::pair<size_t, int>> boundary;  // cavity tet, slot facing out
    std::vector<std::pair<std::array<uint32_t, 2>, int64_t>> open_faces;
    for (int round = 0; round < 2; ++round) {
      std::vector<size_t> poor;
      for (size_t t = 0; t < n; ++t)
        if (alive[t] && quality[t] < target) poor.push_back(t);
      for (size_t t0 : poor) {
        if (stats.inserted >= int64_t(budget)) break;
        if (!alive[t0] || !(quality[t0] < target)) continue;
        double centre[3], centroid[3];
        const bool has_centre = circumcentre(positions, &tets[4 * t0], centre);
        for (int k = 0; k < 3; ++k)
          centroid[k] = 0.25 * (positions[3 * size_t(tets[4 * t0]) + size_t(k)] + positions[3 * size_t(tets[4 * t0 + 1]) + size_t(k)] +
                                positions[3 * size_t(tets[4 * t0 + 2]) + size_t(k)] + positions[3 * size_t(tets[4 * t0 + 3]) + size_t(k)]);
        for (int attempt = has_centre ? 0 : 1; attempt < 2; ++attempt) {
          const double* p = attempt == 0 ? centre : centroid;
          // Grow the cavity from t0 over tets whose circumsphere holds p.
          cavity.assign(1, t0);
          in_cavity[t0] = 1;
          for (size_t i = 0; i < cavity.size() && cavity.size() < 64; ++i)
            for (int s = 0; s < 4; ++s) {
              const int64_t across = link[4 * cavity[i] + size_t(s)];
              if (across < 0) continue;
              const auto u = size_t(across / 4);
              if (in_cavity[u]) continue;
              const uint32_t* v = &tets[4 * u];
              if (insphere(&positions[3 * size_t(v[0])], &positions[3 * size_t(v[1])], &positions[3 * size_t(v[2])],
                           &positions[3 * size_t(v[3])], p) > 0) {
                in_cavity[u] = 1;
                cavity.push_back(u);
              }
            }
          // The new tets: each boundary face joined to p; all positive and better than the worst replaced.
          double worst_old = HUGE_VAL, worst_new = HUGE_VAL;
          boundary.clear();
          for (size_t c : cavity) {
            worst_old = std::min(worst_old, quality[c]);
            for (int s = 0; s < 4; ++s) {
              const int64_t across = link[4 * c + size_t(s)];
              if (across >= 0 && in_cavity[size_t(across / 4)]) continue;
              boundary.push_back({c, s});
            }
          }
          const auto pid = uint32_t(positions.size() / 3);
          positions.insert(positions.end(), p, p + 3);
          bool valid = true;
          for (const auto& [c, s] : boundary) {
            uint32_t v[4];
            std::copy(&tets[4 * c], &tets[4 * c] + 4, v);
            v[s] = pid;
            const double* x[4] = {&positions[3 * size_t(v[0])], &positions[3 * size_t(v[1])], &positions[3 * size_t(v[2])],
                                  &positions[3 * size_t(v[3])]};
            if (orient3d(x[0], x[1], x[2], x[3]) <= 0) {
              valid = false;
              break;
            }
            worst_new = std::min(worst_new, quality_of(positions, v));
          }
          if (!valid || !(worst_new > worst_old)) {
            positions.resize(positions.size() - 3);
            for (size_t c : cavity) in_cavity[c] = 0;
            continue;
          }
          // Commit: new tets appended, linked to the outside and to each other.
          fixed.push_back(0);
          open_faces.clear();
          for (const auto& [c, s] : boundary) {
            const size_t t = tets.size() / 4;
            uint32_t v[4];
            std::copy(&tets[4 * c], &tets[4 * c] + 4, v);
            v[s] = pid;
            tets.insert(tets.end(), v, v + 4);
            quality.push_back(quality_of(positions, v));
            alive.push_back(1);
            in_cavity.push_back(0);
            const int64_t outside = link[4 * c + size_t(s)];
            link.insert(link.end(), {-1, -1, -1, -1});
            link[4 * t + size_t(s)] = outside;
            if (outside >= 0) link[size_t(outside)] = int64_t(4 * t) + s;
            for (int k = 0; k < 4; ++k) {
              if (k == s) continue;
              std::array<uint32_t, 2> e{};
              int m = 0;
              for (int j = 0; j < 4; ++j)
                if (j != k && j != s) e[size_t(m++)] = v[j];
              if (e[0] > e[1]) std::swap(e[0], e[1]);
              open_faces.push_back({e, int64_t(4 * t) + k});
            }
          }
          std::sort(open_faces.begin(), open_faces.end());
          for (size_t i = 1; i < open_faces.size(); ++i)
            if (open_faces[i].first == open_faces[i - 1].first) {
              link[size_t(open_faces[i].second)] = open_faces[i - 1].second;
              link[size_t(open_faces[i - 1].second)] = open_faces[i].second;
            }
          for (size_t c : cavity) {
            alive[c] = 0;
            in_cavity[c] = 0;
          }
          n = tets.size() / 4;
          ++stats.inserted;
          break;
        }
      }
    }
    size_t kept = 0;
    for (size_t t = 0; t < n; ++t)
      if (alive[t]) {
        std::copy(&tets[4 * t], &tets[4 * t] + 4, &tets[4 * kept]);
        quality[kept++] = quality[t];
      }
    tets.resize(4 * kept);
    quality.resize(kept);
    n = kept;
  }

  // 3. Smooth the free vertices of poor tets. Star of each vertex in CSR form.
  const size_t vertex_count = positions.size() / 3;
  std::vector<uint32_t> star_start(vertex_count + 1, 0), star;
  for (uint32_t v : tets) ++star_start[v + 1];
  for (size_t v = 0; v < vertex_count; ++v) star_start[v + 1] += star_start[v];
  star.resize(tets.size());
  {
    std::vector<uint32_t> fill(star_start.begin(), star_start.end() - 1);
    for (size_t i = 0; i < tets.size(); ++i) star[fill[tets[i]]++] = uint32_t(i / 4);
  }
  // The worst quality around v with v at x (0 when a tet would turn flat or inverted); `worst`
  // receives that tet.
  auto star_min = [&](uint32_t v, const double x[3], uint32_t* worst) {
    double saved[3];
    std::copy(&positions[3 * size_t(v)], &positions[3 * size_t(v)] + 3, saved);
    std::copy(x, x + 3, &positions[3 * size_t(v)]);
    double m = HUGE_VAL;
    for (uint32_t i = star_start[v]; i < star_start[v + 1]; ++i) {
      const double q = quality_of(positions, &tets[4 * size_t(star[i])]);
      if (q < m) {
        m = q;
        if (worst) *worst = star[i];
      }
    }
    std::copy(saved, saved + 3, &positions[3 * size_t(v)]);
    return m;
  };
  for (int pass = 0; pass < 6; ++pass) {
    int64_t moved = 0;
    for (uint32_t v = 0; v < vertex_count; ++v) {
      if (fixed[v] || star_start[v] == star_start[v + 1]) continue;
      double* x = &positions[3 * size_t(v)];
      uint32_t worst = 0;
      double best = star_min(v, x, &worst);
      if (!(best < target)) continue;
      // Length scale: the mean distance to the star's other vertices.
      double scale = 0;
      int count = 0;
      double centroid[3] = {0, 0, 0};
      for (uint32_t i = star_start[v]; i < star_start[v + 1]; ++i)
        for (int k = 0; k < 4; ++k) {
          const uint32_t u = tets[4 * size_t(star[i]) + size_t(k)];
          if (u == v) continue;
          double d2 = 0;
          for (int c = 0; c < 3; ++c) {
            d2 += (positions[3 * size_t(u) + size_t(c)] - x[c]) * (positions[3 * size_t(u) + size_t(c)] - x[c]);
            centroid[c] += positions[3 * size_t(u) + size_t(c)];
          }
          scale += std::sqrt(d2);
          ++count;
        }
      scale /= count;
      for (double& c : centroid) c /= count;
      bool improved = false;
      // The centroid of the neighbours first (Laplacian smoothing), when it helps.
      uint32_t w = 0;
      const double at_centroid = star_min(v, centroid, &w);
      if (at_centroid > best) {
        std::copy(centroid, centroid + 3, x);
        best = at_centroid;
        worst = w;
        improved = true;
      }
      // Then ascend the worst tet's quality; the worst tet may change from step to step.
      for (int iteration = 0; iteration < 20; ++iteration) {
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
        const double norm = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        if (!(norm > 0)) break;
        bool stepped = false;
        for (double step = 0.5 * scale; step > 1e-4 * scale; step *= 0.5) {
          const double y[3] = {x[0] + step * g[0] / norm, x[1] + step * g[1] / norm, x[2] + step * g[2] / norm};
          const double m = star_min(v, y, &w);
          if (m > best) {
            std::copy(y, y + 3, x);
            best = m;
            worst = w;
            stepped = improved = true;
            break;
          }
        }
        if (!stepped) break;
      }
      if (improved) ++moved;
    }
    stats.vertices_moved += moved;
    if (moved == 0) break;
  }
  double m = HUGE_VAL;
  for (size_t t = 0; t < n; ++t) m = std::min(m, quality_of(positions, &tets[4 * t]));
  stats.min_quality_after = n ? m : 0.0;
  return stats;
}

}  // namespace sb
