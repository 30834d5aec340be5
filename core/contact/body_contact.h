// Contact between soft bodies, and of a body with itself, solved inside every substep: after each
// round of the bodies' passes (World::step interleaves the bodies pass by pass for it), so with two
// or more passes the passes carry each contact into the body behind its surface.
//
// What is tested: every surface vertex of one body against the surface triangles of every other body
// whose bounds overlap and whose collision filter allows it, and (self-collision, opt-in per body)
// against the body's own surface triangles that were not near it in the rest shape. Each vertex takes
// its nearest candidate triangle within the reach; its signed distance to that triangle (positive on
// the triangle's outward side) below the thickness is a contact, solved as the vertex-triangle constraint
//   C = (x_v - sum_i b_i x_i) . n - thickness >= 0
// (b: barycentric coordinates of the nearest point, n: the outward normal there), with zero
// compliance: both sides move by their inverse masses, so momentum is exchanged and conserved.
// Then Coulomb friction on the substep's relative tangential motion, up to mu x the normal
// correction (mu: the geometric mean of the two bodies' friction), as for the ground.
//
// Why surface against surface: a vertex-only test lets a corner of one body pass between the
// vertices of another's coarse face; testing each vertex against the other's triangles catches it.
// The thickness keeps bodies a few millimetres apart so coarse faces do not interpenetrate while
// neither has a vertex inside the other.
//
// When: the candidates (vertex, triangle) are gathered once per frame (begin_frame), from each
// vertex's and triangle's path over the frame predicted from its velocity, widened by the reach
// (thickness + search radius); the substeps then only measure distances to their candidates. So the
// spatial hash is built once per frame, not once per substep (Ten Minute Physics, lesson 15), and a
// fast body's candidates are found because its predicted path is.
//
// Which triangle: the nearest candidate now. Within one body, a vertex that went through the plane of
// one of its own candidates in this substep takes the one it went through furthest instead (near a
// corner, the face it just crossed is no longer the nearest). Between bodies the nearest is kept
// (see body_contact.cpp for what else was tried and why it was dropped).
//
// Self-collision rules (why they are safe on a volumetric body): a triangle within twice the
// thickness of the vertex in the rest shape is never its candidate (its own neighbourhood on the
// surface); a vertex becomes a candidate of its own triangle only while it is on the triangle's outer
// side at the frame start, so the far face of a thin part is never mistaken for a penetration and
// pushed through; and a vertex behind one of its own triangles' planes but beside the triangle is
// where the surface bends, not a contact. The thickness should be at least ~0.4 x the surface's
// vertex spacing: vertex-triangle contacts keep vertices off faces, and only that margin keeps two
// edges from passing between each other's vertices (a folded bar's aligned corners did at 0.3x).
//
// Cloth (cloth_contact.h): a cloth triangle is two-sided, so every candidate cloth triangle within the
// gap is solved from the side the vertex came from (not only the nearest); two cloth bodies, or a cloth
// body with itself, also get edge-edge contacts between the edges at each candidate vertex and the
// candidate triangle's edges; and every vertex of such a pair moves at most a fraction of the pair's
// distance per substep (bounded displacement), so no pair crosses within a substep. The gap to a cloth
// body is the settings' thickness plus half the sheet's thickness (on each cloth side); within one
// cloth body it is its self thickness, and a self candidate need not start on the outer side.
//
// Limits: a vertex that moves farther than its predicted path plus the search radius within one frame
// (a hard hit sending it back the way it came) can miss a triangle; edges crossing edges with no vertex
// near a face are stopped only by the thickness.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "math/vec3.h"

namespace sb {

class SoftBody;

struct BodyContactSettings {
  float thickness = 0.005f;      // m, the gap bodies keep (a body's self thickness is its own)
  float search_radius = 0.02f;   // m, how far past the thickness (inside) a vertex is still found
};

// The gap a vertex of body a keeps from a triangle (or an edge) of body b, m: a's self thickness within
// one body, else the settings' thickness plus half of each cloth side's sheet thickness.
float contact_gap(const SoftBody& a, const SoftBody& b, const BodyContactSettings& settings);

class BodyContact {
 public:
  // Gathers this frame's candidate pairs among `count` bodies (in this fixed order: deterministic)
  // from their positions and velocities at the frame start, for a frame of dt seconds. Bodies that
  // are not position-based, or have neither a collision mask nor self-collision, take no part.
  void begin_frame(SoftBody* const* bodies, uint32_t count, float dt, const BodyContactSettings& settings);
  // Its broad phase alone, before it (begin_frame then uses it): each body's swept bounds and the
  // pairs of bodies that may touch this frame. The world's sleep islands are made from them.
  void broad_phase(SoftBody* const* bodies, uint32_t count, float dt, const BodyContactSettings& settings);
  // The last broad phase's pairs as (i << 32 | j), sorted: each pair of bodies in both orders, a
  // self-colliding body once as (i, i).
  const std::vector<uint64_t>& broad_pairs() const { return pair_keys_; }
  struct Box {  // axis-aligned, m
    float lo[3], hi[3];
  };
  // Solves the candidates' contacts at the current positions (one substep, or between its passes).
  // With `report`, reports each body's contacts through SoftBody::add_contacts (the substep's last
  // solve). Returns the number of vertex contacts solved.
  uint32_t solve(SoftBody* const* bodies, uint32_t count, const BodyContactSettings& settings, bool report = true);
  // A substep begins: its first solve first sweeps the vertices' paths since its start
  // (body_contact_sweep.cpp), once the bodies' passes have moved them.
  void begin_substep() { sweep_pending_ = lower_pending_ = true; }
  // Candidate pairs of the current frame (for the benchmark's per-contact costs).
  uint32_t candidate_count() const { return uint32_t(cand_tri_.size()); }
  // Neighbour entries of this frame's broad phase: each pair of bodies whose bounds meet counts twice
  // (once per side), a self-colliding body once.
  uint32_t neighbour_count() const { return uint32_t(pairs_.size()); }
  // Wall time of this frame's broad phase (body bounds and pairs), ms.
  double broad_ms() const { return broad_ms_; }
  // Cloth: this frame's edge-edge pairs, the wall time of gathering them (ms, part of begin_frame's)
  // and of the bounded displacement over the frame's solves so far (ms).
  uint32_t edge_pair_count() const { return uint32_t(edge_pairs_.size()); }
  double edge_ms() const { return edge_ms_; }
  double bound_ms() const { return bound_ms_; }

 private:
  // Drops vertex v's (of body a) candidates cand_tri_[first ..] of other bodies that cannot be the
  // nearest within the reach this frame (body_contact.cpp).
  void prune_far(SoftBody* const* bodies, uint32_t a, uint32_t v, size_t first, float dt, const BodyContactSettings& settings);

  // Cloth (body_contact_cloth.cpp): the edge pairs of this frame's cloth candidates, and the
  // bounded displacement of the vertices in cloth pairs.
  void gather_edge_pairs(SoftBody* const* bodies, uint32_t count, float dt, const BodyContactSettings& settings);
  uint32_t solve_edge_pairs(SoftBody* const* bodies, uint32_t count);  // each pair keeps its own gap
  void apply_bounds(SoftBody* const* bodies, uint32_t count);
  // Once per substep, for apply_bounds: per cloth pair a lower bound on its distance at the
  // substep's start, and per vertex the least over its pairs (lower_, squared), m^2.
  void lower_bounds(SoftBody* const* bodies, uint32_t count);
  void since_frame(SoftBody* const* bodies, uint32_t count, bool now);
  // The cloth contacts (vertex-sheet and edge-edge) once more, unreported, after a bound; a pair found
  // apart in the round before whose vertices nothing has moved since is apart still: not measured.
  void resolve_cloth(SoftBody* const* bodies, uint32_t count);
  // A write to vertex v of body b in the cloth rounds (stamp_).
  void touch(uint32_t b, uint32_t v) { stamp_[body_vertex_begin_[b] + v] = ++clock_; }
  // No tunnelling (body_contact_sweep.cpp): per candidate vertex, the other body's face its path
  // went through first in this substep, if any.
  void sweep(SoftBody* const* bodies, uint32_t count, const BodyContactSettings& settings);
  uint32_t body_of_edge(uint32_t global_edge) const;

  std::vector<Box> bounds_;              // per body: its surface's swept bounds, widened by the reach
  std::vector<uint32_t> cell_start_;     // hash table: entries of cell k are entries_[cell_start_[k] .. cell_start_[k + 1])
  std::vector<uint32_t> entries_;        // hashed-triangle indices, grouped by cell
  std::vector<uint32_t> entry_cell_;     // scratch: the cell of each (triangle, cell) pair before sorting
  std::vector<uint32_t> entry_item_;
  std::vector<uint32_t> tri_body_, tri_id_;  // per hashed triangle: its body and its index there
  std::vector<uint32_t> body_tri_begin_;     // body i's hashed triangles: [body_tri_begin_[i], body_tri_begin_[i + 1])
  std::vector<Box> tri_box_;             // per hashed triangle: its swept box widened by the reach, m
  std::vector<float> widen_;             // per body: how far its hashed triangles' boxes are widened, m
  std::vector<uint32_t> seen_;           // per hashed triangle: the last vertex query that took it
  std::vector<uint32_t> fill_;           // scratch: next free slot per cell while sorting
  std::vector<uint8_t> near_;            // per body: its bounds meet another body's (or its own)
  std::vector<uint32_t> pair_start_;     // broad phase: body i's neighbours are pairs_[pair_start_[i] ..]
  std::vector<uint32_t> pairs_;
  std::vector<uint32_t> sweep_;          // broad phase: the bodies taking part, sorted by their bounds' low x
  std::vector<uint64_t> pair_keys_;      // broad phase: (body << 32 | neighbour), sorted into pairs_
  double broad_ms_ = 0.0;
  float reach_ = 0.0f;         // m, the broad phase's widest reach of any pair
  bool cloth_seen_ = false;    // a cloth body takes part
  bool broad_done_ = false;    // broad_phase ran for the coming begin_frame
  uint32_t broad_count_ = 0;   // of that many bodies
  double edge_ms_ = 0.0, bound_ms_ = 0.0;
  // This frame's candidates: vertex k (cand_body_[k], cand_vertex_[k]) against the hashed triangles
  // cand_tri_[cand_start_[k] .. cand_start_[k + 1]), nearest first at the frame start (cand_d0_).
  std::vector<uint32_t> cand_body_, cand_vertex_, cand_start_, cand_tri_;
  // Cloth: per body the first entry of its vertices' edge lists (ve_start_, vertex_count + 1 each) and
  // of its edges in the global numbering; the edge pairs as (global edge << 32 | global edge), sorted;
  // per vertex (body_vertex_begin_) its motion bound this substep, m, and the vertices that have one.
  std::vector<uint32_t> body_ve_begin_, ve_start_, ve_edge_, body_edge_begin_, body_vertex_begin_;
  std::vector<uint64_t> edge_pairs_;
  struct EdgePairEnds {
    uint32_t a, b;            // the bodies
    uint32_t a0, a1, b0, b1;  // the edges' ends, vertex ids in their bodies
    float gap;                // m: contact_gap, or less for a sheet's pair near at rest
    float d0;                 // m: their distance at the frame start (-inf if not a number)
    Vec3 axis;                // unit: from b's closest point to a's at the frame start (zero if they met)
  };
  std::vector<EdgePairEnds> edge_pair_ends_;  // edge_pairs_ decoded, in the same order
  std::vector<uint64_t> sort_scratch_;
  std::vector<float> bound_;             // per vertex (body_vertex_begin_), INFINITY: its size says this frame's cloth pairs are gathered
  std::vector<uint8_t> own_pairs_only_;  // per body: its cloth pairs this frame are all with itself
  std::vector<float> shared_motion_;     // per body: xyz, its free vertices' mean motion this substep if own_pairs_only_, else 0, m
  // Per vertex (body_vertex_begin_): the least squared lower bound on its cloth pairs' distances at
  // the substep's start (m^2, INFINITY if none) and whether this round's motion may bring it to its bound.
  std::vector<float> lower_;
  std::vector<uint8_t> flagged_;
  std::vector<float> motion_;            // per vertex: its motion this substep less its body's shared motion, m (this round)
  std::vector<float> cand_low_, edge_low_;  // per cloth candidate, per edge pair: a lower bound on its start distance, m (-inf: none)
  std::vector<uint32_t> vp_start_, vp_entry_, cand_row_;  // per vertex its cloth pairs (gather_edge_pairs); per candidate its row k
  static constexpr uint32_t kEdgeEntry = 0x80000000u;
  std::vector<uint8_t> cand_exact_, edge_exact_;  // ... and whether it is the start distance itself (measured this substep)
  // Per vertex (body_vertex_begin_): its position at the last lower_bounds' substep start (xyz, m;
  // empty in a frame's first substep) and how far it moved from there to this one's, m.
  std::vector<float> step_pos_, step_moved_;
  std::vector<float> moved_;             // per vertex of a pair: how far from its frame-start position, m (since_frame)
  bool lower_pending_ = false;
  // Which pairs the later rounds must measure again: each write to a vertex in the cloth solve takes
  // the next clock value (stamp_, per vertex as body_vertex_begin_); a cloth candidate or edge pair
  // found apart records the clock then (cand_seen_, edge_seen_; kMeasureAgain if it moved something).
  // Restarted each frame (a frame writes far fewer than 2^32 times).
  static constexpr uint32_t kMeasureAgain = 0xffffffffu;
  std::vector<uint32_t> stamp_, cand_seen_, edge_seen_;
  uint32_t clock_ = 0;
  bool any_cloth_ = false;               // a cloth body takes part this frame
  struct Ordered {
    float d;         // m, the frame start's distance (-1: NaN)
    float gap;       // m, the pair's gap (cand_gap_)
    uint32_t index;  // hashed triangle
  };
  std::vector<Ordered> order_;           // scratch: one vertex's candidates sorted nearest first
  std::vector<float> prune_low_;         // scratch: per candidate of one vertex, its nearest possible distance, m
  std::vector<float> cand_d0_;           // per candidate: the vertex's distance to the triangle at the frame start, m
  std::vector<float> cand_gap_;          // per candidate: the gap it keeps, m (contact_gap, or less for a sheet's pair near at rest)
  // The frame-start positions of the bodies near another (body i's vertices from body_pos_begin_[i]),
  // and in the solve how far each of those vertices has moved since, m.
  std::vector<float> frame_pos_;
  std::vector<uint32_t> body_pos_begin_;
  std::vector<float> vertex_motion_;
  std::vector<float> body_motion_;       // per body: the most any of its surface vertices has moved since the frame start, m
  // This substep's swept crossings: per candidate vertex the hashed triangle its path went through
  // (~0u if none) and where (barycentric, 3 per vertex); per vertex near another body its motion from
  // the frame start to the substep start and since, m (2 per vertex).
  std::vector<uint32_t> sweep_tri_;
  std::vector<float> sweep_w_, sweep_len_;
  std::vector<float> body_motion_max_, near_motion_max_;  // per body: the largest of sweep_len_'s two motions of its vertices, of its neighbours', m
  bool sweep_pending_ = false;
};

}  // namespace sb
