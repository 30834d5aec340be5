#include "solver/xpbd_partition.h"

#include <algorithm>

#include "solver/constraint_order.h"

namespace sb {

std::vector<uint32_t> choose_vertex_groups(const uint32_t* edge_ids, uint32_t edge_count, const uint32_t* tet_ids,
                                           uint32_t tet_count, uint32_t vertex_count, uint32_t min_vertices) {
  std::vector<uint32_t> spans;
  spans.reserve(size_t(edge_count) + tet_count);
  const auto add = [&](const uint32_t* ids, uint32_t count, int arity) {
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t* id = ids + size_t(arity) * i;
      const auto [lo, hi] = std::minmax_element(id, id + arity);
      spans.push_back(*hi - *lo);
    }
  };
  add(edge_ids, edge_count, 2);
  add(tet_ids, tet_count, 4);
  uint32_t groups = 1;
  if (!spans.empty()) {
    // The 90th percentile, not the largest: a few long constraints (a fan's axis, a badly numbered
    // corner) go to the left-over set instead of making every group thick.
    auto at = spans.begin() + ptrdiff_t(spans.size() * 9 / 10);
    std::nth_element(spans.begin(), at, spans.end());
    const uint64_t size = std::max<uint64_t>({min_vertices, 2 * uint64_t(*at) + 2, 1});
    groups = uint32_t(std::min<uint64_t>(vertex_count / size, kMaxVertexGroups));
    if (groups > 2 && groups % 2 == 1) --groups;
    groups = std::max(groups, 1u);
  }
  std::vector<uint32_t> bounds(groups + 1);
  for (uint32_t g = 0; g <= groups; ++g) bounds[g] = uint32_t(uint64_t(vertex_count) * g / groups);
  return bounds;
}

bool PassPlan::splittable(uint32_t phase) const {
  if (phase_starts[phase + 1] - phase_starts[phase] != 1) return false;
  const PassUnit& u = units[phase_starts[phase]];
  return u.colours == 1 && colour_starts[u.first_colour + 1] == u.end;
}

namespace {

// Appends the constraints `subset` (original indices, in input order) to the plan as one unit,
// coloured on their own (constraint_order.h), or with one_unit_per_colour as a phase per colour
// and one for the overflow (the left-over set).
void append(PassPlan& plan, const uint32_t* ids, int arity, uint32_t vertex_count,
            const std::vector<uint32_t>& subset, bool one_unit_per_colour, uint32_t first_group, uint32_t last_group) {
  if (subset.empty()) return;
  std::vector<uint32_t> sub_ids(subset.size() * size_t(arity));
  for (size_t i = 0; i < subset.size(); ++i)
    std::copy_n(ids + size_t(arity) * subset[i], arity, sub_ids.begin() + ptrdiff_t(arity * i));
  const ConstraintOrder o = color_constraints(sub_ids.data(), uint32_t(subset.size()), arity, vertex_count);
  const uint32_t base = uint32_t(plan.order.size());
  for (uint32_t k : o.order) plan.order.push_back(subset[k]);
  const uint32_t colours = uint32_t(o.color_starts.size()) - 1;
  plan.most_colours = std::max(plan.most_colours, colours);
  const uint32_t end = base + uint32_t(subset.size());
  if (!one_unit_per_colour) {
    PassUnit u;
    u.begin = base;
    u.end = end;
    u.first_colour = uint32_t(plan.colour_starts.size());
    u.colours = colours;
    u.first_group = first_group, u.last_group = last_group;
    for (uint32_t s : o.color_starts) plan.colour_starts.push_back(base + s);
    plan.units.push_back(u);
    return;
  }
  for (uint32_t c = 0; c <= colours; ++c) {
    PassUnit u;
    u.begin = base + o.color_starts[c];
    u.end = c < colours ? base + o.color_starts[c + 1] : end;
    if (u.begin == u.end) continue;  // no overflow
    u.first_colour = uint32_t(plan.colour_starts.size());
    u.colours = c < colours ? 1 : 0;
    u.first_group = first_group, u.last_group = last_group;
    plan.colour_starts.push_back(u.begin);
    if (c < colours) plan.colour_starts.push_back(u.end);
    plan.units.push_back(u);
    plan.phase_starts.push_back(uint32_t(plan.units.size()));
  }
}

}  // namespace

PassPlan plan_constraints(const uint32_t* ids, uint32_t count, int arity, uint32_t vertex_count,
                          const std::vector<uint32_t>& bounds) {
  const uint32_t groups = uint32_t(bounds.size()) - 1;
  std::vector<uint32_t> group_of(vertex_count);
  for (uint32_t g = 0; g < groups; ++g)
    std::fill(group_of.begin() + bounds[g], group_of.begin() + bounds[g + 1], g);
  // Sorted into interiors (0 .. groups - 1), seams (groups .. 2 groups - 2) and the left-over set.
  std::vector<std::vector<uint32_t>> sets(2 * size_t(groups));
  std::vector<uint32_t>& left = sets.back();
  constexpr uint32_t kNoSeam = ~0u;
  std::vector<uint32_t> seam_of(vertex_count, kNoSeam);  // the seam that touches a vertex
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t* id = ids + size_t(arity) * i;
    uint32_t lo = group_of[id[0]], hi = lo;
    for (int k = 1; k < arity; ++k) lo = std::min(lo, group_of[id[k]]), hi = std::max(hi, group_of[id[k]]);
    if (groups == 1) {
      left.push_back(i);
    } else if (lo == hi) {
      sets[lo].push_back(i);
    } else if (hi == lo + 1 && std::all_of(id, id + arity, [&](uint32_t v) { return seam_of[v] == kNoSeam || seam_of[v] == lo; })) {
      for (int k = 0; k < arity; ++k) seam_of[id[k]] = lo;
      sets[groups + lo].push_back(i);
    } else {
      left.push_back(i);
    }
  }
  PassPlan plan;
  plan.order.reserve(count);
  plan.phase_starts.push_back(0);
  for (uint32_t g = 0; g < groups; ++g) append(plan, ids, arity, vertex_count, sets[g], false, g, g);
  if (plan.units.size() > plan.phase_starts.back()) plan.phase_starts.push_back(uint32_t(plan.units.size()));
  for (uint32_t s = 0; s + 1 < groups; ++s) append(plan, ids, arity, vertex_count, sets[groups + s], false, s, s + 1);
  if (plan.units.size() > plan.phase_starts.back()) plan.phase_starts.push_back(uint32_t(plan.units.size()));
  append(plan, ids, arity, vertex_count, left, true, 0, groups - 1);
  return plan;
}

}  // namespace sb
