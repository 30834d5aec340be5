// Disjoint sets over 0..n-1 with path halving; a root is its set's smallest member.
#pragma once
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace sb {

struct UnionFind {
  std::vector<int64_t> parent;
  explicit UnionFind(size_t n = 0) { reset(n); }
  // n singletons again, keeping the capacity (no allocation once it has held n).
  void reset(size_t n) {
    parent.resize(n);
    std::iota(parent.begin(), parent.end(), int64_t(0));
  }
  int64_t find(int64_t x) {
    while (parent[size_t(x)] != x) x = parent[size_t(x)] = parent[size_t(parent[size_t(x)])];
    return x;
  }
  void join(int64_t a, int64_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[size_t(std::max(a, b))] = std::min(a, b);
  }
};

}  // namespace sb
