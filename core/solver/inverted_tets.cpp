#include "solver/inverted_tets.h"

#include <algorithm>
#include <cstring>

#include "math/rotation.h"

namespace sb {

namespace {
constexpr uint32_t kNone = 0xffffffffu;
}

void InvertedTetRepair::resize(uint32_t vertex_count, uint32_t tet_count) {
  tet_count_ = tet_count;
  flags_.assign(tet_count, 0);
  parent_.assign(vertex_count, 0);
  region_of_.assign(vertex_count, kNone);
  members_.clear();
  members_.reserve(vertex_count);
  region_.clear();
  region_.reserve(vertex_count);
  // A region has at least one tet's four vertices, so there are at most vertex_count / 4.
  const size_t most = vertex_count / 4 + 1;
  anchored_.assign(most, 0);
  work_.assign(kPerRegion * most, 0.0);
  regions_ = 0;
}

uint32_t InvertedTetRepair::root(uint32_t v) {
  while (parent_[v] != v) v = parent_[v] = parent_[parent_[v]];  // path halving
  return v;
}

uint32_t InvertedTetRepair::repair(float* pos, const float* rest, const float* mass, const float* inv_mass,
                                   const uint32_t* tets) {
  // A byte per tet; almost always all zero, so look a word at a time.
  const uint8_t* f = flags_.data();
  uint32_t t = 0;
  for (; t + 8 <= tet_count_; t += 8) {
    uint64_t word;
    std::memcpy(&word, f + t, sizeof word);
    if (word != 0) break;
  }
  while (t < tet_count_ && f[t] == 0) ++t;
  if (t == tet_count_) return 0;

  // Regions: the flagged tets joined through their shared vertices (union-find, the smaller root wins,
  // so the result depends only on the flags and the ids, not on any thread's timing).
  uint32_t flagged = 0;
  for (uint32_t u = t; u < tet_count_; ++u) {
    if (!f[u]) continue;
    ++flagged;
    const uint32_t* id = tets + 4 * u;
    for (int k = 0; k < 4; ++k)
      if (region_of_[id[k]] == kNone) region_of_[id[k]] = 0, parent_[id[k]] = id[k];  // 0: a member, region unset
    for (int k = 1; k < 4; ++k) {
      const uint32_t a = root(id[0]), b = root(id[k]);
      if (a != b) parent_[std::max(a, b)] = std::min(a, b);
    }
  }
  // Members in vertex order; a region's number is the order its smallest vertex (its root) comes in.
  members_.clear();
  region_.clear();
  regions_ = 0;
  const uint32_t n = uint32_t(region_of_.size());
  for (uint32_t v = 0; v < n; ++v) {
    if (region_of_[v] == kNone) continue;
    members_.push_back(v);
    if (root(v) == v) region_of_[v] = regions_++;  // roots come first in their region
  }
  for (uint32_t v : members_) region_.push_back(region_of_[root(v)]);

  // Per region: the mass-weighted centres now and at rest (double: sums over up to every vertex).
  // With an immovable vertex, those alone count (infinitely heavy) and keep their places.
  std::fill(anchored_.begin(), anchored_.begin() + regions_, 0);
  for (size_t j = 0; j < members_.size(); ++j)
    if (inv_mass[members_[j]] == 0.0f) anchored_[region_[j]] = 1;
  const auto weight = [&](size_t j) {
    const uint32_t v = members_[j];
    return anchored_[region_[j]] ? (inv_mass[v] == 0.0f ? 1.0 : 0.0) : double(mass[v]);
  };
  // Per region in work_: the centres now and at rest (6), the total weight (1), A then R (9).
  std::fill(work_.begin(), work_.begin() + kPerRegion * size_t(regions_), 0.0);
  double* work = work_.data();
  for (size_t j = 0; j < members_.size(); ++j) {
    const uint32_t v = members_[j], r = region_[j];
    const double m = weight(j);
    double* c = work + kPerRegion * r;
    c[6] += m;
    for (int k = 0; k < 3; ++k) c[k] += m * pos[3 * v + k], c[3 + k] += m * rest[3 * v + k];
  }
  for (uint32_t r = 0; r < regions_; ++r)
    for (int k = 0; k < 6; ++k) work[kPerRegion * r + k] /= work[kPerRegion * r + 6];
  for (size_t j = 0; j < members_.size(); ++j) {
    const uint32_t v = members_[j], r = region_[j];
    const double m = weight(j);
    double* c = work + kPerRegion * r;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) c[7 + 3 * a + b] += m * (pos[3 * v + a] - c[a]) * (rest[3 * v + b] - c[3 + b]);
  }
  for (uint32_t r = 0; r < regions_; ++r) {
    double* c = work + kPerRegion * r;
    double a[3][3], rot[3][3];
    for (int i = 0; i < 9; ++i) a[i / 3][i % 3] = c[7 + i];
    closest_rotation(a, rot);
    for (int i = 0; i < 9; ++i) c[7 + i] = rot[i / 3][i % 3];
  }
  for (size_t j = 0; j < members_.size(); ++j) {
    const uint32_t v = members_[j], r = region_[j];
    if (inv_mass[v] == 0.0f) continue;
    const double* c = work + kPerRegion * r;
    const double q[3] = {rest[3 * v] - c[3], rest[3 * v + 1] - c[4], rest[3 * v + 2] - c[5]};
    const double* M = c + 7;
    for (int k = 0; k < 3; ++k) pos[3 * v + k] = float(c[k] + M[3 * k] * q[0] + M[3 * k + 1] * q[1] + M[3 * k + 2] * q[2]);
  }
  for (uint32_t v : members_) region_of_[v] = kNone;
  std::fill(flags_.begin() + t, flags_.end(), 0);
  return flagged;
}

uint32_t InvertedTetRepair::flagged() const {
  uint32_t n = 0;
  for (uint8_t f : flags_) n += f;
  return n;
}

void InvertedTetRepair::settle_velocities(float* vel, const float* mass, const float* inv_mass) {
  if (members_.empty()) return;
  // Per region in work_: momentum (3) and mass (1).
  std::fill(work_.begin(), work_.begin() + kPerRegion * size_t(regions_), 0.0);
  for (size_t j = 0; j < members_.size(); ++j) {
    const uint32_t v = members_[j];
    double* s = &work_[kPerRegion * size_t(region_[j])];
    const double m = mass[v];
    for (int k = 0; k < 3; ++k) s[k] += m * vel[3 * v + k];
    s[3] += m;
  }
  for (size_t j = 0; j < members_.size(); ++j) {
    const uint32_t v = members_[j], r = region_[j];
    if (inv_mass[v] == 0.0f) continue;
    const double* s = &work_[kPerRegion * size_t(r)];
    for (int k = 0; k < 3; ++k) vel[3 * v + k] = anchored_[r] ? 0.0f : float(s[k] / s[3]);
  }
  members_.clear();
  region_.clear();
  regions_ = 0;
}

}  // namespace sb
