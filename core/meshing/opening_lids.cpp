#include "meshing/opening_lids.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <utility>

namespace sb {

LidCandidates opening_lid_candidates(const std::vector<double>& p, const std::vector<uint32_t>& t, double spacing) {
  LidCandidates out;
  if (!(spacing > 0)) return out;
  // Directed edges whose reverse no face has, and whose pair no other face repeats: open edges, in
  // the winding of their face (a lid closing the hole runs the other way).
  std::unordered_map<uint64_t, int32_t> count;  // undirected edge -> faces
  auto key = [](uint32_t a, uint32_t b) { return (uint64_t(std::min(a, b)) << 32) | std::max(a, b); };
  for (size_t f = 0; f < t.size(); f += 3)
    for (int k = 0; k < 3; ++k) ++count[key(t[f + size_t(k)], t[f + size_t((k + 1) % 3)])];
  std::unordered_map<uint32_t, uint32_t> next;  // open edge a -> b, by its first vertex
  std::vector<std::pair<uint32_t, uint32_t>> open;
  for (size_t f = 0; f < t.size(); f += 3)
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = t[f + size_t(k)], b = t[f + size_t((k + 1) % 3)];
      if (count[key(a, b)] != 1) continue;
      open.push_back({a, b});
      next.emplace(a, b);  // a vertex where two holes touch keeps its first: the loops still close
    }
  std::sort(open.begin(), open.end());  // a fixed order, whatever the hash map's
  std::unordered_map<uint32_t, uint8_t> used;
  for (const auto& [start, second] : open) {
    if (used[start]) continue;
    std::vector<uint32_t> loop;
    uint32_t v = start;
    while (!used[v]) {
      used[v] = 1;
      loop.push_back(v);
      const auto it = next.find(v);
      if (it == next.end()) break;
      v = it->second;
    }
    if (v != start || loop.size() < 3) continue;  // not closed: no lid
    double c[3] = {0, 0, 0}, area[3] = {0, 0, 0};
    for (uint32_t u : loop)
      for (int k = 0; k < 3; ++k) c[k] += p[3 * size_t(u) + size_t(k)] / double(loop.size());
    // The lid runs against the loop (b, a about c), so its vector area points out of the solid.
    for (size_t i = 0; i < loop.size(); ++i) {
      const double* a = &p[3 * size_t(loop[i])];
      const double* b = &p[3 * size_t(loop[(i + 1) % loop.size()])];
      const double u[3] = {b[0] - c[0], b[1] - c[1], b[2] - c[2]}, w[3] = {a[0] - c[0], a[1] - c[1], a[2] - c[2]};
      area[0] += 0.5 * (u[1] * w[2] - u[2] * w[1]);
      area[1] += 0.5 * (u[2] * w[0] - u[0] * w[2]);
      area[2] += 0.5 * (u[0] * w[1] - u[1] * w[0]);
    }
    const double len = std::sqrt(area[0] * area[0] + area[1] * area[1] + area[2] * area[2]);
    if (!(len > 0)) continue;
    const double n[3] = {area[0] / len, area[1] / len, area[2] / len};
    auto add = [&](const double* x) {
      out.points.insert(out.points.end(), x, x + 3);
      out.normals.insert(out.normals.end(), n, n + 3);
    };
    add(c);
    // Each fan triangle (c, a, b) in rows parallel to its rim edge ab, `spacing` apart, each sampled
    // `spacing` apart; the spoke c-a with it (the rim itself is sampled as the surface's edges).
    for (size_t i = 0; i < loop.size(); ++i) {
      const double* a = &p[3 * size_t(loop[i])];
      const double* b = &p[3 * size_t(loop[(i + 1) % loop.size()])];
      const double ca = std::sqrt((a[0] - c[0]) * (a[0] - c[0]) + (a[1] - c[1]) * (a[1] - c[1]) + (a[2] - c[2]) * (a[2] - c[2]));
      const double ab = std::sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]));
      const auto rows = int64_t(std::ceil(ca / spacing));
      for (int64_t r = 1; r < rows; ++r) {
        const double s = double(r) / double(rows);  // 0 at c, 1 on the rim
        const double from[3] = {c[0] + s * (a[0] - c[0]), c[1] + s * (a[1] - c[1]), c[2] + s * (a[2] - c[2])};
        const double to[3] = {c[0] + s * (b[0] - c[0]), c[1] + s * (b[1] - c[1]), c[2] + s * (b[2] - c[2])};
        const auto m = std::max<int64_t>(1, int64_t(std::ceil(s * ab / spacing)));
        for (int64_t j = 0; j < m; ++j) {  // j = m is the next spoke's
          const double q = double(j) / double(m);
          const double x[3] = {from[0] + q * (to[0] - from[0]), from[1] + q * (to[1] - from[1]), from[2] + q * (to[2] - from[2])};
          add(x);
        }
      }
    }
  }
  return out;
}

}  // namespace sb
