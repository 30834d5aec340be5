// The solve order of one kind of XPBD constraint (edges or tets) cut into independent units, so the
// passes run on several threads with a few hand-overs per pass and the same bits for any thread count.
//
// The vertices are cut into a fixed number of groups of consecutive indices (a mesh whose vertices
// are numbered for locality, as a lattice or a space-filling curve gives them, then has groups that
// are compact in space). That number depends on the mesh only, never on the thread count. A
// constraint whose vertices all lie in group g is an "interior" constraint of g; one that spans
// groups g and g + 1 only belongs to "seam" g; the rest ("left over": spanning more than two groups,
// or touching a vertex that another seam touches) are coloured as a whole, as before.
//
// The plan is a sequence of phases; the units of a phase share no vertex, so they may run at the
// same time on any threads. Phases of one pass: the group interiors (one unit per group), the seams
// (one unit per seam: groups are at least twice a constraint's index span thick, so seam g and seam
// g + 1 touch different vertices), then each colour of the left-over set (one unit, which the
// schedule may cut into chunks: its constraints are independent) and its overflow (in order). A
// unit is solved by one thread, colour by colour (its own colouring, constraint_order.h), so the four
// SIMD lanes stay independent, and its overflow last in order. With one group (small bodies)
// everything is left over: the order is the plain colouring's, to the bit.
//
// Against one colouring of the whole body this changes the Gauss-Seidel order (interior constraints
// before the seams'), but not between thread counts: a unit's order is fixed and units of a phase
// share no vertex. It takes ~740 hand-overs between threads per frame (one per colour) down to a few
// per pass, and each thread keeps its groups' vertices in its own cache.
#pragma once
#include <cstdint>
#include <vector>

namespace sb {

constexpr uint32_t kMaxVertexGroups = 32;
// The smallest group (vertices): below it a unit's work would not pay for the hand-over. 256 rather
// than 512 gives the 9.5k box (2,028 vertices) 4 groups instead of 2: 2 threads 0.905x the time
// (native A/B), one thread 1.013x; the larger boxes' groups are set by their constraints' spans.
constexpr uint32_t kDefaultGroupMinVertices = 256;

// bounds: groups' first vertices, then vertex_count (a single group: {0, vertex_count}). The group
// size is the larger of min_vertices and twice the 90th percentile of the constraints' index spans
// (largest minus smallest vertex index), so most constraints touch two groups at most and seams two
// apart touch different vertices; the count is even (the two halves balance on two threads).
std::vector<uint32_t> choose_vertex_groups(const uint32_t* edge_ids, uint32_t edge_count, const uint32_t* tet_ids,
                                           uint32_t tet_count, uint32_t vertex_count, uint32_t min_vertices);

struct PassUnit {
  uint32_t begin = 0, end = 0;  // constraints [begin, end), in solve order
  // Colour c of the unit runs from colour_starts[first_colour + c] to the next entry; the entry after
  // the last colour starts the overflow, which runs to `end` in order.
  uint32_t first_colour = 0, colours = 0;
  // The vertex groups it touches, first and last: a group's interior [g, g], seam s [s, s + 1],
  // the left-over set every group. A unit waits only for earlier units that share a group with it.
  uint32_t first_group = 0, last_group = 0;
};

struct PassPlan {
  std::vector<uint32_t> order;          // solve position -> original constraint index
  std::vector<uint32_t> colour_starts;  // see PassUnit
  std::vector<PassUnit> units;
  std::vector<uint32_t> phase_starts;   // phase p: units [phase_starts[p], phase_starts[p + 1])
  uint32_t phases() const { return uint32_t(phase_starts.size()) - 1; }
  // A phase of one unit of one colour without overflow: independent constraints, may be cut in chunks.
  bool splittable(uint32_t phase) const;
  uint32_t most_colours = 0;  // of any unit (the left-over set's colours count as one colouring)
};

// ids: `arity` vertex indices per constraint, all < vertex_count; bounds from choose_vertex_groups.
PassPlan plan_constraints(const uint32_t* ids, uint32_t count, int arity, uint32_t vertex_count,
                          const std::vector<uint32_t>& bounds);

}  // namespace sb
