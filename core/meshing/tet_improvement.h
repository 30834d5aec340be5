// Improving the tets the Delaunay step left inside a surface, instead of only deleting bad ones:
//   0. flip: a poor tet that a 2-3 or 3-2 flip with its neighbours replaces by better ones is
//      flipped first, since that keeps its volume where peeling (next) would lose it;
//   1. peel: a poor tet on the boundary made of four surface samples and flat is a sliver lying on
//      the surface (four nearly cocircular samples, or the two diagonals of a bent quad of the
//      input); removing it exposes the tets beneath. Smallest first, within a volume budget
//      (kMaxPeelFraction of the mesh; films whose exposed faces lie on the surface cost nothing
//      else, other wedges at most kMaxWedgeFraction).
//   2. flip and refine: a poor tet still there is flipped away with its neighbours (2-3, 3-2) when
//      that raises the worst quality, else gets a new free vertex (its circumcentre, centroid, or
//      the middle of a small ball of tets around it) inserted into a cavity and placed where its
//      tets are best, when that makes the worst tet there better; at most kMaxGrowth more vertices.
//   3. smooth: each interior vertex of a poor tet moves, by line searches along the gradient of its
//      worst tet's quality, to where the worst quality of the tets around it is highest, keeping
//      every one of them positive. Surface vertices stay where they are (they sample the surface),
//      and so does any vertex on the mesh's boundary (its star is open: it could move outward).
//      Then (slide) the surface samples of a tet still below quality 0.1 move along the surface
//      (SurfaceSlide: along their edge of the model, or within their face), with the free inner
//      vertices around them, kept where that mends the tet and the last resort then leaves a better
//      mesh: a needle of four surface samples at a pulled corner, or a sliver between two close
//      parallel edges, is mended without cutting into the body.
//   4. last resort: exposed tets still below quality 0.1 are peeled within what is left of the budget.
// Every change keeps the tets a valid tiling: positive, faces matched one for one.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

namespace sb {

struct ImprovementStats {
  int64_t peeled = 0;          // boundary slivers removed
  double peeled_volume = 0;    // their volume, in the positions' units cubed
  int64_t flips = 0;           // 2-3 and 3-2 flips
  int64_t inserted = 0;        // vertices added by refinement
  int64_t vertices_moved = 0;  // smoothing moves accepted (a vertex can move in several passes)
  int64_t slid = 0;            // surface samples slid along the surface (SurfaceSlide)
  int64_t evaluations = 0;     // work spent, in tets evaluated (bounded: 40 per tet given + 100,000)
};

constexpr double kMaxGrowth = 0.3;  // refinement adds at most this fraction of the vertex count

// Values of `fixed` (below): a vertex that must not move (a surface sample), and such a vertex on
// one or the other side of a part sampled through its thickness (a plate thinner than its sample
// spacing, sampled on a lattice per side): a tet joining samples of both sides is the part itself,
// flat because the part is thin, and is never peeled as a film lying on the surface.
constexpr uint8_t kFixedPoint = 1, kSideA = 2, kSideB = 3;

// Where a surface sample may slide and stay on the input surface (step 3's last part): along the
// segment between input vertices a and b (a sample on an edge of the model, or on an edge between
// two coplanar faces), or within triangle (a, b, c) (a sample inside a face). Input vertices, lattice
// samples, crossing curves and lids have kind kNoSlide and stay put.
struct SurfaceSlide {
  static constexpr uint8_t kNoSlide = 0, kAlongEdge = 1, kInFace = 2;
  uint8_t kind = kNoSlide;
  uint32_t a = 0, b = 0, c = 0;  // input vertex ids
};
// Per surface sample (the first slides.size() positions), and the input surface's positions.
struct SurfaceSlides {
  std::vector<SurfaceSlide> of_point;
  const std::vector<double>* corners = nullptr;
};

// positions: xyz doubles, modified by smoothing and grown by refinement (fixed grows with it);
// tets: 4 ids each, positively oriented, rewritten; fixed[v] != 0 for vertices that must not move
// (surface samples; kSideA / kSideB as above). Tets below `target` quality (tet_quality) are worked on.
// near_surface(x, r): whether the input surface passes within r of x (tells films from wedges);
// winding(x): the input surface's winding number at x, when given (tells the boundary an open
// surface's opening leaves from faces that peeling exposed inside).
ImprovementStats improve_tets(std::vector<double>& positions, std::vector<uint32_t>& tets,
                              std::vector<uint8_t>& fixed, double target,
                              const std::function<bool(const double*, double)>& near_surface,
                              const std::function<double(const double*)>& winding = nullptr,
                              const SurfaceSlides* slides = nullptr);

// Whether p lies inside the sphere through a, b, c, d (a positively oriented tet), in plain floating
// point (the refinement's cavities are proposals checked afterwards; exact predicates are slow on
// degenerate inputs). Agrees with predicates.h's insphere away from ties (a test).
bool in_circumsphere(const double* a, const double* b, const double* c, const double* d, const double* p);

// Face links of a tet mesh: link[4 t + s] = 4 t' + s' for the tet t' across the face opposite slot
// s of tet t (slot s' of t' faces back), or -1 on the boundary.
std::vector<int64_t> face_links(const std::vector<uint32_t>& tets);

}  // namespace sb
