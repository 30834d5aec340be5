// A hash grid of points for "is anything within r of here?" queries (welding, thinning): cells of a
// fixed size; a query visits the 27 cells around a point. Stores ids only; the caller owns the
// coordinates and measures the distances.
#pragma once
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace sb {

class PointGrid {
 public:
  // origin: where cell (0, 0, 0) starts; cell: edge length, > 0 (a query radius up to it is safe).
  PointGrid(const double origin[3], double cell) : origin_{origin[0], origin[1], origin[2]}, cell_(cell) {}

  void insert(int64_t id, const double* p) {
    if (next_.size() <= size_t(id)) next_.resize(size_t(id) + 1, -1);
    auto [it, inserted] = head_.emplace(key(cell(p, 0), cell(p, 1), cell(p, 2)), id);
    if (!inserted) {  // prepend: callers do not depend on the order within a cell
      next_[size_t(id)] = it->second;
      it->second = id;
    }
  }

  // Calls visit(id) for every stored id in the 27 cells around p; stops early when it returns true.
  // Returns whether it stopped early.
  template <class Visit>
  bool any_near(const double* p, Visit visit) const {
    const int64_t c[3] = {cell(p, 0), cell(p, 1), cell(p, 2)};
    for (int64_t dz = -1; dz <= 1; ++dz)
      for (int64_t dy = -1; dy <= 1; ++dy)
        for (int64_t dx = -1; dx <= 1; ++dx) {
          auto it = head_.find(key(c[0] + dx, c[1] + dy, c[2] + dz));
          for (int64_t j = it == head_.end() ? -1 : it->second; j >= 0; j = next_[size_t(j)])
            if (visit(j)) return true;
        }
    return false;
  }

 private:
  // Clamped in double before the cast: a point 1e32 cells away (an unused vertex at 1e6 m beside a
  // 1e-20 m surface) would overflow int64, which is undefined behaviour. Clamping is monotone and
  // moves neighbours by at most one cell less than their distance, so points within one cell still
  // land in adjacent (or the same) cells and no neighbour is lost; far points merely share chains.
  // fmin/fmax also map NaN to a bound instead of casting it.
  int64_t cell(const double* p, int k) const {
    constexpr double kLimit = 4.0e18;  // < 2^63, with room for the +-1 of any_near
    return int64_t(std::fmax(-kLimit, std::fmin(kLimit, std::floor((p[k] - origin_[k]) / cell_))));
  }
  // 21 bits per axis; cells that collide share a chain, which only costs distance checks.
  static uint64_t key(int64_t x, int64_t y, int64_t z) {
    return uint64_t(x & 0x1fffff) | uint64_t(y & 0x1fffff) << 21 | uint64_t(z & 0x1fffff) << 42;
  }
  double origin_[3];
  double cell_;
  std::unordered_map<uint64_t, int64_t> head_;
  std::vector<int64_t> next_;  // per id: the next id in its cell, -1 at the end
};

}  // namespace sb
