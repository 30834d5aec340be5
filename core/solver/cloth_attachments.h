// Long-range attachments (Kim, Chentanez, Mueller 2012, "Long Range Attachments"; Jolt's cloth): a
// pinned sheet hanging from a few points stretches far past its material under a few Gauss-Seidel
// passes, because each pass carries a pin's pull only a few edges down. An LRA ties every free vertex
// to its nearest pin (nearest along the sheet: the rest geodesic distance over its edges) with a
// unilateral constraint |x_v - x_pin| <= stretch x geodesic, projected onto the vertex alone (the pin
// does not move): it never shortens the sheet, only stops it running away from its pin.
// The length: the path over the edges overestimates the distance along the sheet where it zigzags
// (down the rows of near-equilateral triangles by up to 2/sqrt(3): 15 % of slack), so on a flat rest
// shape the straight rest distance to that pin is used, which is the distance along the sheet when
// the straight line stays on it (a convex sheet: rectangle, disc; a notched one is shortened across
// its notch: use a stretch above 1 there). On a curved rest shape the path over the edges.
#pragma once
#include <cstdint>
#include <vector>

namespace sb {

struct LongRangeAttachments {
  std::vector<uint32_t> vertex, anchor;  // free vertex and its nearest pinned vertex
  std::vector<float> length;             // m, the rest geodesic distance between them
  bool empty() const { return vertex.empty(); }
};

// Rebuilds the attachments from the rest positions, the edges (2 ids each, rest lengths edge_rest)
// and the pinned flags: multi-source Dijkstra from every pinned vertex. Allocates (only when pins change).
// rest: the rest positions, for the straight distance when flat_rest.
void build_long_range_attachments(LongRangeAttachments& lra, uint32_t vertex_count, const uint32_t* edges,
                                  const float* edge_rest, uint32_t edge_count, const uint8_t* pinned,
                                  const float* rest, bool flat_rest);

// Moves each attached vertex that is farther than stretch x length from its anchor back onto that
// sphere (stretch: dimensionless, >= 1 leaves the sheet its own stretch up to it).
void apply_long_range_attachments(const LongRangeAttachments& lra, float stretch, float* positions);

}  // namespace sb
