// Long-range attachments: the nearest pin along the sheet, and the unilateral projection (cloth_attachments.h).
#include "solver/cloth_attachments.h"

#include <cmath>
#include <functional>
#include <queue>
#include <utility>

#include "math/vec3.h"

namespace sb {

void build_long_range_attachments(LongRangeAttachments& lra, uint32_t vertex_count, const uint32_t* edges,
                                  const float* edge_rest, uint32_t edge_count, const uint8_t* pinned,
                                  const float* rest, bool flat_rest) {
  lra = LongRangeAttachments{};
  // Edges per vertex (CSR).
  std::vector<uint32_t> start(vertex_count + 1, 0), other(2 * size_t(edge_count)), edge_of(2 * size_t(edge_count));
  for (uint32_t e = 0; e < edge_count; ++e) ++start[edges[2 * e] + 1], ++start[edges[2 * e + 1] + 1];
  for (uint32_t v = 0; v < vertex_count; ++v) start[v + 1] += start[v];
  std::vector<uint32_t> fill(start.begin(), start.end() - 1);
  for (uint32_t e = 0; e < edge_count; ++e) {
    const uint32_t a = edges[2 * e], b = edges[2 * e + 1];
    other[fill[a]] = b, edge_of[fill[a]++] = e;
    other[fill[b]] = a, edge_of[fill[b]++] = e;
  }
  // Dijkstra from all pins at once: each vertex's nearest pin and its distance along the edges, m.
  // Ties go to the smaller vertex id (the queue orders by distance, then id): deterministic.
  std::vector<double> dist(vertex_count, INFINITY);
  std::vector<uint32_t> anchor(vertex_count, ~0u);
  using Item = std::pair<double, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  for (uint32_t v = 0; v < vertex_count; ++v)
    if (pinned[v]) dist[v] = 0.0, anchor[v] = v, queue.push({0.0, v});
  while (!queue.empty()) {
    const auto [d, v] = queue.top();
    queue.pop();
    if (d > dist[v]) continue;
    for (uint32_t k = start[v]; k < start[v + 1]; ++k) {
      const uint32_t u = other[k];
      const double du = d + edge_rest[edge_of[k]];
      if (du < dist[u]) dist[u] = du, anchor[u] = anchor[v], queue.push({du, u});
    }
  }
  for (uint32_t v = 0; v < vertex_count; ++v) {
    if (pinned[v] || anchor[v] == ~0u) continue;  // a pin, or on a piece with no pin
    lra.vertex.push_back(v);
    lra.anchor.push_back(anchor[v]);
    lra.length.push_back(flat_rest ? length(load3(rest, v) - load3(rest, anchor[v])) : float(dist[v]));
  }
}

void apply_long_range_attachments(const LongRangeAttachments& lra, float stretch, float* positions) {
  for (size_t k = 0; k < lra.vertex.size(); ++k) {
    const Vec3 pin = load3(positions, lra.anchor[k]);
    const Vec3 d = load3(positions, lra.vertex[k]) - pin;
    const float limit = stretch * lra.length[k];
    const float len2 = length_sq(d);
    if (len2 > limit * limit) store3(positions, lra.vertex[k], pin + d * (limit / std::sqrt(len2)));
  }
}

}  // namespace sb
