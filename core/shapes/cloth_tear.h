// Tearing a cloth mesh: the topology edit that opens a crack through an overstretched edge's vertex,
// duplicating vertices so the surface stays a manifold (every edge on at most two triangles, every
// vertex's triangles one fan). Plain mesh work: the body rebuilds its constraints from the result
// (solver/cloth_tearing.cpp).
#pragma once
#include <cstdint>
#include <vector>

namespace sb {

// A cloth mesh being torn: where its vertices are now (m), its triangles, and for each vertex the
// vertex of the mesh before tearing it was copied from (the identity for the original ones).
struct TearingMesh {
  std::vector<float> positions;
  std::vector<uint32_t> triangles;
  std::vector<uint32_t> source;
  uint32_t vertex_count() const { return uint32_t(source.size()); }
};

// Opens a crack across edge (a, b): at one endpoint v (one on the border first: a crack grows from
// an edge of the sheet or from an earlier crack), the triangles around v are parted by the plane
// through v normal to the edge, those on the far side get a copy of v, and every vertex whose
// triangles then form more than one fan gets a copy per extra fan. A crack runs across the
// tension that broke the edge, as a real one does. Returns false, changing nothing, when the edge is
// on no triangle or the plane leaves all of both endpoints' triangles on one side.
bool tear_across_edge(TearingMesh& m, uint32_t a, uint32_t b);

// How many fans (triangles around v joined through shared edges) vertex v has; 0 if it is on none.
uint32_t vertex_fans(const uint32_t* triangles, uint32_t triangle_count, uint32_t v);

}  // namespace sb
