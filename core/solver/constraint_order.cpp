#include "solver/constraint_order.h"

#include <algorithm>

namespace sb {

static int lowest_zero_bit(uint64_t mask) {
  for (int c = 0; c < kMaxColors; ++c)
    if (!((mask >> c) & 1u)) return c;
  return -1;
}

ConstraintOrder color_constraints(const uint32_t* ids, uint32_t count, int arity, uint32_t vertex_count) {
  std::vector<uint64_t> used(vertex_count, 0);  // colours already touching each vertex
  std::vector<int> color(count, -1);
  std::vector<uint32_t> per_color(kMaxColors + 1, 0);
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t mask = 0;
    for (int k = 0; k < arity; ++k) mask |= used[ids[size_t(arity) * i + k]];
    const int c = lowest_zero_bit(mask);
    if (c < 0) {
      per_color[kMaxColors]++;
      continue;
    }
    color[i] = c;
    per_color[c]++;
    for (int k = 0; k < arity; ++k) used[ids[size_t(arity) * i + k]] |= uint64_t(1) << c;
  }

  ConstraintOrder out;
  std::vector<uint32_t> next(kMaxColors + 1, 0);
  uint32_t pos = 0;
  for (int c = 0; c <= kMaxColors; ++c) {
    if (c < kMaxColors && per_color[c] == 0) continue;
    if (c < kMaxColors) out.color_starts.push_back(pos);
    next[c] = pos;
    pos += per_color[c];
  }
  out.overflow_start = next[kMaxColors];
  out.color_starts.push_back(out.overflow_start);
  out.order.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    const int c = color[i] < 0 ? kMaxColors : color[i];
    out.order[next[c]++] = i;
  }
  // Within a colour, by smallest vertex index (ties: input order), so the gathers walk the vertex
  // arrays forward whatever order the mesh listed its constraints in. The constraints of a colour
  // share no vertex, so their order changes no result, to the bit; the overflow set keeps its order
  // (its constraints may share vertices).
  std::vector<uint32_t> key(count);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t m = ids[size_t(arity) * i];
    for (int k = 1; k < arity; ++k) m = std::min(m, ids[size_t(arity) * i + k]);
    key[i] = m;
  }
  for (size_t c = 0; c + 1 < out.color_starts.size(); ++c)
    std::stable_sort(out.order.begin() + out.color_starts[c], out.order.begin() + out.color_starts[c + 1],
                     [&](uint32_t a, uint32_t b) { return key[a] < key[b]; });
  return out;
}

}  // namespace sb
