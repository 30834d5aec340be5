// Built-in tet meshes: a box lattice and a ball. Every tet is positively oriented.
#pragma once
#include "shapes/tet_mesh.h"

namespace sb {

// nx*ny*nz cubic cells, each split into 6 tets around its main diagonal (Kuhn/Freudenthal split);
// the split is the same in every cell, so neighbouring cells share faces exactly.
// size_* are the full box extents and center_* its centre, in m.
TetMesh make_box(int nx, int ny, int nz, float size_x, float size_y, float size_z, float center_x,
                 float center_y, float center_z);

// A ball: a (2k)^3 box lattice on [-1,1]^3 whose cube shells are mapped onto spheres, so the
// surface is round and the centre is a lattice vertex. `cells` across the diameter (rounded up to
// even), radius in m.
TetMesh make_ball(float radius, int cells, float center_x, float center_y, float center_z);

// Scenes without tets (seeds 002 and 003), simulated through springs only:

// A rope of `segments` springs starting at the anchor and running along +x (vertex 0 is the anchor;
// pin it). Each vertex's volume share is that of a rope of the given radius, m.
TetMesh make_rope(int segments, float length, float radius, float anchor_x, float anchor_y, float anchor_z);

// A jelly cube: a cells^3 lattice of particles joined by springs along every cell edge, both face
// diagonals and all four body diagonals (no tets), with its outer faces as the surface.
TetMesh make_jelly(int cells, float size, float center_x, float center_y, float center_z);

// A pressure ball: the surface of make_ball only (its interior vertices dropped), springs along the
// surface edges; an ideal gas inside (BodyParams::pressure) keeps it inflated.
TetMesh make_pressure_ball(float radius, int cells, float center_x, float center_y, float center_z);

}  // namespace sb
