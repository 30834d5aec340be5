#include "solver/parallel_batches.h"

#include <algorithm>

namespace sb {

ParallelBatches level_batches(const uint32_t* ids, uint32_t count, int arity, uint32_t vertex_count) {
  ParallelBatches out;
  std::vector<uint32_t> vertex_level(vertex_count, 0);  // batches that wrote the vertex so far
  std::vector<uint32_t> level(count);
  uint32_t levels = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t* id = ids + size_t(arity) * i;
    uint32_t l = 0;
    for (int k = 0; k < arity; ++k) l = std::max(l, vertex_level[id[k]]);
    for (int k = 0; k < arity; ++k) vertex_level[id[k]] = l + 1;
    level[i] = l;
    levels = std::max(levels, l + 1);
  }
  // Counting sort by level: stable, so each batch keeps the solve order.
  out.starts.assign(size_t(levels) + 1, 0);
  for (uint32_t i = 0; i < count; ++i) ++out.starts[level[i] + 1];
  for (uint32_t b = 0; b < levels; ++b) out.starts[b + 1] += out.starts[b];
  out.order.resize(count);
  std::vector<uint32_t> next(out.starts.begin(), out.starts.end() - 1);
  for (uint32_t i = 0; i < count; ++i) out.order[next[level[i]]++] = i;
  if (count == 0) out.starts.assign(1, 0);
  return out;
}

}  // namespace sb
