// Contact with cloth: a sheet is two-sided, so a vertex near a cloth triangle keeps the gap on the
// side it came from, and edges of two sheets (or of one sheet folded) keep the gap from each other.
// Used by BodyContact (body_contact.h) for every candidate pair whose triangle belongs to a cloth body.
//
// Vertex-triangle: the side is the sign of the vertex's offset from the triangle at the substep's
// start (previous positions, the same barycentric point), so a vertex that crossed the mid-surface in
// this substep is pushed back to its side, not through. Near an edge or a corner of the triangle the
// offset's own direction is used (an open border can be passed around). The constraint is
//   C = (x_v - sum_i b_i x_i) . n - gap >= 0,
// zero compliance, both sides moved by their inverse masses, then Coulomb friction as for the closed
// surfaces (body_contact.cpp).
// Edge-edge: the closest points p = a0 + s (a1 - a0), q = b0 + t (b1 - b0); C = (p - q) . n - gap,
// n the unit offset now, or the one at the substep's start when the edges have crossed since.
//
// Bounded displacement (Chen et al. 2025, "Offset Geometric Contact"): no pair can cross within a
// substep if each of its vertices moves at most gamma x the pair's distance d at the substep's start
// with gamma < 1/2 (both sides together then close at most 2 gamma d < d). Each vertex's bound is
// gamma x the smallest distance of any pair it is part of (as the vertex, a corner of the triangle
// or an end of an edge); the substep's motion x - x_prev is shortened to it after the contacts.
// Only relative motion brings a pair together: a body whose pairs are all its own is bounded on its
// motion less the substep's mean motion of its vertices (a sheet falling as a whole is not held back).
#pragma once
#include <cstdint>

#include "math/vec3.h"

namespace sb {

class SoftBody;

// Pairs of one sheet nearer than this x its self thickness in the rest shape are never in contact
// (they would touch at rest); the rest are, from the second ring of triangles out when the thickness
// is below ~0.7 x the spacing.
constexpr float kClothSelfExclusion = 1.25f;

// The share of the start distance each vertex may move in a substep (< 1/2, margin for rounding).
constexpr float kClothBoundFraction = 0.25f;

// The cloth contacts and the bound alternate this many times per contact solve. The bound shortens
// each vertex's motion on its own, so it can undo part of a contact's push (a vertex clipped harder
// than the triangle it was pushed from); solved again inside the bound, the contacts have the last
// word. With one round a rope twisted twice, its layers pressed on each other, had pairs whose
// distance shrank substep by substep until rounding crossed them (32 across: from 4.9 s, up to 8
// pairs); with 3, none for 20 s (test_cloth_twist.cpp; 3 turns still cross: docs/limitations.md).
constexpr int kClothContactRounds = 3;

// Vertex v of A against triangle t of cloth body B (two-sided). gap in m. Returns the depth through
// the mid-surface (>= 0) if solved, or -1 when the pair is apart.
float solve_vertex_sheet(SoftBody& A, uint32_t v, SoftBody& B, uint32_t t, float gap);

// Edge a0-a1 of A against edge b0-b1 of B, kept gap (m) apart. Returns the depth (>= 0) if solved, or
// -1 when apart. `axis` (unit, or zero): a direction along which the two edges' projections farther
// apart than the gap prove them apart without measuring (the frame start's offset: most of a sheet's
// pairs are neighbours in its plane whose bounding boxes meet).
float solve_edge_edge(SoftBody& A, uint32_t a0, uint32_t a1, SoftBody& B, uint32_t b0, uint32_t b1, float gap,
                      Vec3 axis = Vec3{0.0f, 0.0f, 0.0f});

// Distances at the substep's start (previous positions), m.
float start_distance_vertex_triangle(const SoftBody& A, uint32_t v, const SoftBody& B, uint32_t t);
float start_distance_edge_edge(const SoftBody& A, uint32_t a0, uint32_t a1, const SoftBody& B, uint32_t b0, uint32_t b1);

// Shortens vertex v's substep motion, less `shared` (m: a motion every vertex of its pairs shares),
// to `bound` (m). True if it moved the vertex.
bool bound_motion(SoftBody& A, uint32_t v, float bound, Vec3 shared);

}  // namespace sb
