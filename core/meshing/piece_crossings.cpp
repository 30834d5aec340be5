#include "meshing/piece_crossings.h"

#include <algorithm>
#include <cmath>

#include "meshing/thickness_rays.h"

namespace sb {

void piece_crossings(const std::vector<double>& p, const std::vector<uint32_t>& t, uint32_t face, double h,
                     const ThicknessRays& rays, std::vector<double>& out,
                     std::vector<std::pair<std::array<double, 3>, double>>* beyond) {
  if (!rays.mixed(face) || !(h > 0)) return;
  const double* corner[3] = {&p[3 * size_t(t[3 * size_t(face)])], &p[3 * size_t(t[3 * size_t(face) + 1])],
                             &p[3 * size_t(t[3 * size_t(face) + 2])]};
  int k = 0;  // the longest edge runs from corner k to k + 1
  double longest = 0;
  for (int j = 0; j < 3; ++j) {
    const double* a = corner[j];
    const double* b = corner[(j + 1) % 3];
    const double len = std::sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]));
    if (len > longest) {
      longest = len;
      k = j;
    }
  }
  if (!(longest > 0)) return;
  const double* a = corner[k];
  const double* b = corner[(k + 1) % 3];
  const double* c = corner[(k + 2) % 3];
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  const double height = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) / longest;
  // A face far finer than h still gets its edges' and middle row's checks; a huge one is capped
  // (a crossing curve sampled at most this many rows and steps per row: 2^20 tests a face).
  constexpr int64_t kMaxSteps = 1024;
  const int64_t rows = std::min<int64_t>(kMaxSteps, std::max<int64_t>(2, int64_t(std::ceil(height / h))));
  const size_t begin = out.size();
  std::vector<double> buried;  // candidates inside the other piece
  for (int64_t i = 0; i < rows; ++i) {  // row `rows` is corner c alone
    const double r = double(i) / double(rows);
    const double from[3] = {a[0] + r * (c[0] - a[0]), a[1] + r * (c[1] - a[1]), a[2] + r * (c[2] - a[2])};
    const double to[3] = {b[0] + r * (c[0] - b[0]), b[1] + r * (c[1] - b[1]), b[2] + r * (c[2] - b[2])};
    const int64_t steps = std::min<int64_t>(kMaxSteps, std::max<int64_t>(1, int64_t(std::ceil((1 - r) * longest / h))));
    std::vector<uint8_t> buried_row(size_t(steps) + 1);
    for (int64_t j = 0; j <= steps; ++j) {
      const double s = double(j) / double(steps);
      const double x[3] = {from[0] + s * (to[0] - from[0]), from[1] + s * (to[1] - from[1]), from[2] + s * (to[2] - from[2])};
      buried_row[size_t(j)] = rays.buried_at(x, face);
    }
    auto at = [&](int64_t j, double x[3]) {
      const double s = double(j) / double(steps);
      for (int q = 0; q < 3; ++q) x[q] = from[q] + s * (to[q] - from[q]);
    };
    for (int64_t j = 1; j <= steps; ++j) {
      if (buried_row[size_t(j)] == buried_row[size_t(j - 1)]) continue;
      double clear[3], deep[3];  // the unburied and the buried end
      at(buried_row[size_t(j)] ? j - 1 : j, clear);
      at(buried_row[size_t(j)] ? j : j - 1, deep);
      for (int step = 0; step < kCrossingBisections; ++step) {
        const double m[3] = {0.5 * (clear[0] + deep[0]), 0.5 * (clear[1] + deep[1]), 0.5 * (clear[2] + deep[2])};
        double* side = rays.buried_at(m, face) ? deep : clear;
        for (int q = 0; q < 3; ++q) side[q] = m[q];
      }
      out.insert(out.end(), clear, clear + 3);
    }
    if (beyond)
      for (int64_t j = 0; j <= steps; ++j)
        if (buried_row[size_t(j)]) {
          double x[3];
          at(j, x);
          buried.insert(buried.end(), x, x + 3);
        }
  }
  if (!beyond || out.size() == begin) return;
  // Buried candidates within kCrossingReach of the face's crossings, kCrossingClearance h from them.
  for (size_t i = 0; i < buried.size(); i += 3) {
    double nearest2 = HUGE_VAL;
    for (size_t c = begin; c < out.size(); c += 3) {
      const double d[3] = {buried[i] - out[c], buried[i + 1] - out[c + 1], buried[i + 2] - out[c + 2]};
      nearest2 = std::min(nearest2, d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    }
    if (nearest2 >= kCrossingClearance * kCrossingClearance * h * h && nearest2 <= kCrossingReach * kCrossingReach)
      beyond->push_back({{buried[i], buried[i + 1], buried[i + 2]}, std::sqrt(nearest2)});
  }
}

}  // namespace sb
