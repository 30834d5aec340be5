// Contact between soft bodies, solved inside every substep after each body's own constraints
// (World::step interleaves the bodies substep by substep for it).
//
// What is tested: every surface vertex of one body against the surface triangles of every other body
// whose bounds overlap and whose collision filter allows it. Each vertex takes its nearest triangle
// within the search radius; its signed distance to that triangle (positive on the triangle's outward
// side) below `thickness` is a contact, solved as the vertex-triangle constraint
//   C = (x_v - sum_i b_i x_i) . n - thickness >= 0
// (b: barycentric coordinates of the nearest point, n: the outward normal there), with zero
// compliance: both bodies move by their inverse masses, so momentum is exchanged and conserved.
// Then Coulomb friction on the substep's relative tangential motion, up to mu x the normal
// correction (mu: the geometric mean of the two bodies' friction), as for the ground.
//
// Why surface against surface: a vertex-only test lets a corner of one body pass between the
// vertices of another's coarse face; testing each vertex against the other's triangles catches it.
// The thickness keeps bodies a few millimetres apart so coarse faces do not interpenetrate while
// neither has a vertex inside the other. Limits: a vertex that gets deeper inside another body than
// the search radius in one substep (relative speed above radius / h, 12 m/s at the defaults) is
// not found; edges crossing edges with no vertex inside are caught only by the thickness.
//
// Broad phase: body bounds (from the positions) per substep; narrow phase: one spatial hash of all
// surface triangles (dense arrays, counting sort; capacity kept between substeps).
#pragma once
#include <cstdint>
#include <vector>

namespace sb {

class SoftBody;

struct BodyContactSettings {
  float thickness = 0.005f;      // m, the gap bodies keep
  float search_radius = 0.02f;   // m, how far past the thickness (inside) a vertex is still found
};

class BodyContact {
 public:
  // Solves contacts among `count` bodies (in this fixed order: deterministic). Bodies that are not
  // position-based, have diverged or have an empty mask take no part. Reports each body's contacts
  // through SoftBody::add_contacts. Returns the number of vertex contacts solved.
  uint32_t solve(SoftBody* const* bodies, uint32_t count, const BodyContactSettings& settings);

 private:
  struct Bounds {
    float lo[3], hi[3];
  };
  std::vector<Bounds> bounds_;
  std::vector<uint32_t> cell_start_;     // hash table: entries of cell k are entries_[cell_start_[k] .. cell_start_[k + 1])
  std::vector<uint32_t> entries_;        // hashed-triangle indices, grouped by cell
  std::vector<uint32_t> entry_cell_;     // scratch: the cell of each (triangle, cell) pair before sorting
  std::vector<uint32_t> entry_item_;
  struct TriBox {
    float lo[3], hi[3];  // m, the triangle's box widened by the reach
  };
  std::vector<uint32_t> tri_body_, tri_id_;  // per hashed triangle: its body and its index there
  std::vector<TriBox> tri_box_;
  std::vector<uint32_t> fill_;           // scratch: next free slot per cell while sorting
  std::vector<uint8_t> near_;            // per body: its bounds meet another body's
  std::vector<uint32_t> pair_start_;     // broad phase: body i's neighbours are pairs_[pair_start_[i] ..]
  std::vector<uint32_t> pairs_;
};

}  // namespace sb
