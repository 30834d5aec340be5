// Orders constraints so that neighbours in the solve loop rarely share a vertex.
//
// Gauss-Seidel writes a vertex and the next constraint often reads it back at once: when two
// consecutive constraints share a vertex the CPU waits for the store to land before the load
// (a store-to-load dependency), and nothing can overlap. Greedy graph colouring groups constraints
// into runs ("colours") in which no two share a vertex; solving colour by colour keeps every
// neighbour independent. It stays Gauss-Seidel (each constraint sees all earlier corrections) and
// the order is fixed at creation, so runs are deterministic.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sb {

struct ConstraintOrder {
  std::vector<uint32_t> order;         // new position -> original constraint index
  std::vector<uint32_t> color_starts;  // first position of each colour, plus the end
  uint32_t overflow_start = 0;         // constraints from here on did not fit in kMaxColors
};

// Box2D's trick: a bounded palette with an overflow set, so a vertex shared by thousands of tets
// (a "fan" mesh) costs O(n) instead of O(n * colours); overflow constraints run last, in order.
constexpr int kMaxColors = 64;

// ids: `arity` vertex indices per constraint, all < vertex_count.
ConstraintOrder color_constraints(const uint32_t* ids, uint32_t count, int arity, uint32_t vertex_count);

}  // namespace sb
