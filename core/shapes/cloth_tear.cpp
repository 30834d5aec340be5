// Tearing a cloth mesh (cloth_tear.h).
#include "shapes/cloth_tear.h"

#include <algorithm>
#include <cstddef>

#include "math/vec3.h"

namespace sb {

namespace {

// The triangles of vertex v, in increasing order.
std::vector<uint32_t> triangles_of(const std::vector<uint32_t>& tris, uint32_t v) {
  std::vector<uint32_t> out;
  for (uint32_t t = 0; 3 * size_t(t) < tris.size(); ++t)
    if (tris[3 * t] == v || tris[3 * t + 1] == v || tris[3 * t + 2] == v) out.push_back(t);
  return out;
}

bool shares_other_vertex(const uint32_t* s, const uint32_t* t, uint32_t v) {
  for (int i = 0; i < 3; ++i)
    if (s[i] != v && (s[i] == t[0] || s[i] == t[1] || s[i] == t[2])) return true;
  return false;
}

// Components of v's triangles `around`: two are joined when they have the same side and share an
// edge through v. component[k] for around[k], numbered from 0 in order of first appearance.
uint32_t fan_components(const uint32_t* tris, const std::vector<uint32_t>& around, const std::vector<uint8_t>& side,
                        uint32_t v, std::vector<uint32_t>& component) {
  const uint32_t n = uint32_t(around.size());
  std::vector<uint32_t> parent(n);
  for (uint32_t k = 0; k < n; ++k) parent[k] = k;
  auto root = [&](uint32_t k) {
    while (parent[k] != k) k = parent[k] = parent[parent[k]];
    return k;
  };
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t j = i + 1; j < n; ++j)
      if (side[i] == side[j] && shares_other_vertex(&tris[3 * around[i]], &tris[3 * around[j]], v)) {
        const uint32_t ri = root(i), rj = root(j);
        parent[std::max(ri, rj)] = std::min(ri, rj);
      }
  component.assign(n, 0);
  std::vector<uint32_t> label(n, UINT32_MAX);
  uint32_t count = 0;
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t r = root(k);
    if (label[r] == UINT32_MAX) label[r] = count++;
    component[k] = label[r];
  }
  return count;
}

// Gives each component of v's triangles but the first its own copy of v. Returns the copies made.
uint32_t split_vertex(TearingMesh& m, uint32_t v, const std::vector<uint32_t>& around, const std::vector<uint8_t>& side) {
  std::vector<uint32_t> component;
  const uint32_t count = fan_components(m.triangles.data(), around, side, v, component);
  for (uint32_t c = 1; c < count; ++c) {
    const uint32_t copy = m.vertex_count();
    m.source.push_back(m.source[v]);
    for (int k = 0; k < 3; ++k) m.positions.push_back(m.positions[3 * size_t(v) + k]);
    for (size_t k = 0; k < around.size(); ++k)
      if (component[k] == c)
        for (int i = 0; i < 3; ++i)
          if (m.triangles[3 * size_t(around[k]) + i] == v) m.triangles[3 * size_t(around[k]) + i] = copy;
  }
  return count - 1;
}

// Splits every vertex in `todo` (and those its splits affect) into one vertex per fan.
void split_fans(TearingMesh& m, std::vector<uint32_t> todo) {
  while (!todo.empty()) {
    const uint32_t v = todo.back();
    todo.pop_back();
    const std::vector<uint32_t> around = triangles_of(m.triangles, v);
    if (split_vertex(m, v, around, std::vector<uint8_t>(around.size(), 0)) == 0) continue;
    // The copies' triangles may have joined their other vertices' fans only through v.
    for (uint32_t t : around)
      for (int i = 0; i < 3; ++i) {
        const uint32_t w = m.triangles[3 * size_t(t) + i];
        if (w != v && m.source[w] != m.source[v]) todo.push_back(w);
      }
  }
}

}  // namespace

uint32_t vertex_fans(const uint32_t* triangles, uint32_t triangle_count, uint32_t v) {
  const std::vector<uint32_t> tris(triangles, triangles + 3 * size_t(triangle_count));
  const std::vector<uint32_t> around = triangles_of(tris, v);
  std::vector<uint32_t> component;
  return around.empty() ? 0 : fan_components(tris.data(), around, std::vector<uint8_t>(around.size(), 0), v, component);
}

bool tear_across_edge(TearingMesh& m, uint32_t a, uint32_t b) {
  const std::vector<uint32_t> around_a = triangles_of(m.triangles, a);
  uint32_t on_edge = 0;  // triangles with both a and b
  for (uint32_t t : around_a)
    for (int i = 0; i < 3; ++i) on_edge += m.triangles[3 * size_t(t) + i] == b ? 1 : 0;
  if (on_edge == 0) return false;
  // On the border (or a crack) first: there one cut through v parts its fan; inside, the crack
  // needs two and opens a hole in one step.
  uint32_t order[2] = {a, b};
  if (on_edge == 2) {
    const std::vector<uint32_t> around_b = triangles_of(m.triangles, b);
    auto open = [&](uint32_t v, const std::vector<uint32_t>& around) {
      // A vertex inside the sheet has as many triangles as edges around it; on the border, one fewer.
      std::vector<uint32_t> others;
      for (uint32_t t : around)
        for (int i = 0; i < 3; ++i)
          if (m.triangles[3 * size_t(t) + i] != v) others.push_back(m.triangles[3 * size_t(t) + i]);
      std::sort(others.begin(), others.end());
      return std::unique(others.begin(), others.end()) - others.begin() > std::ptrdiff_t(around.size());
    };
    if (!open(a, around_a) && open(b, around_b)) std::swap(order[0], order[1]);
  }
  for (const uint32_t v : order) {
    const uint32_t w = v == a ? b : a;
    const Vec3 x = load3(m.positions.data(), v);
    const Vec3 normal = load3(m.positions.data(), w) - x;
    const std::vector<uint32_t> around = triangles_of(m.triangles, v);
    std::vector<uint8_t> side(around.size());
    bool near = false, far = false;
    for (size_t k = 0; k < around.size(); ++k) {
      const uint32_t* t = &m.triangles[3 * size_t(around[k])];
      const Vec3 centroid = (load3(m.positions.data(), t[0]) + load3(m.positions.data(), t[1]) + load3(m.positions.data(), t[2])) * (1.0f / 3.0f);
      side[k] = dot(centroid - x, normal) > 0.0f ? 1 : 0;
      far |= side[k] == 1;
      near |= side[k] == 0;
    }
    if (!near || !far) continue;
    const uint32_t first_copy = m.vertex_count();
    split_vertex(m, v, around, side);
    // The crack's other end: the vertices of v's triangles may now hold two fans joined only at
    // themselves (a bowtie); part them too.
    std::vector<uint32_t> todo;
    for (uint32_t t : around)
      for (int i = 0; i < 3; ++i) {
        const uint32_t u = m.triangles[3 * size_t(t) + i];
        if (u != v && u < first_copy) todo.push_back(u);
      }
    std::sort(todo.begin(), todo.end());
    todo.erase(std::unique(todo.begin(), todo.end()), todo.end());
    std::reverse(todo.begin(), todo.end());  // split_fans takes from the back: lowest index first
    split_fans(m, todo);
    return true;
  }
  return false;
}

}  // namespace sb
