// Built-in tet meshes: a box lattice and a ball. Every tet is positively oriented.
#pragma once
#include "tet_mesh.h"

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

}  // namespace sb
