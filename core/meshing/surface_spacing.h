// How far apart to sample a surface, locally, so thin and curved parts keep their volume:
//   - thickness: a face whose other side is close (a ray from its centroid along the inward normal
//     leaves the solid through its other side within t, thickness_rays.h: walls met at sharp edges
//     and creases between overlapping pieces do not count) is sampled about t apart, so a rod or a plate thinner than a grid
//     cell still gets points on every side and hence tets through it;
//   - curvature: an input vertex of a part under kCurvedPartReach thick where the surface bends
//     (radius R = l^2 / (2 h): l its mean edge
//     length, h its height over its neighbours' centroid) keeps a spacing of kSpacingPerRadius * R,
//     so dropping vertices loses under about kSpacingPerRadius^2 / 4 of the volume there (the
//     sagitta of the chords that replace the surface).
// Spacings are powers of two times the default (half a grid cell), so thinning can keep one hash
// grid per level; a point budget (growing with the resolution) coarsens the finest levels when the
// surface would need more.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sb {

class ThicknessRays;

constexpr double kDefaultSpacing = 0.5;     // grid units: half a cell
constexpr double kSpacingPerThickness = 0.5;  // two samples across: tets through a part, not along its faces
constexpr double kSpacingPerRadius = 0.2;   // ~1 % of the volume at most lost to chords, locally
constexpr int kMaxSpacingLevel = 12;        // 0.5 / 4096 of a cell
constexpr double kCurvedPartReach = 5.0;    // grid cells: curvature refines parts thinner than this
// The sample budget: kSamplesBase + kSamplesPerUniform x the samples of half-cell spacing, at most
// kMaxSurfaceSamples.
constexpr int64_t kMaxSurfaceSamples = 150000;
constexpr int64_t kSamplesBase = 10000;
constexpr double kSamplesPerUniform = 16.0;
// The coarsest spacing, per thickness, at which the two sides of a part thinner than it still get
// samples of their own (the thinning keeps samples on opposite sides apart only down to 1 / this of
// the spacing): beyond it a thin part's tets would be flatter than the improvement mends.
constexpr double kMaxSpacingPerThickness = 10.0;
// Parts thinner than this (grid units) hold few or no grid points (those keep half a cell from the
// surface: none below 1 cell, a sparse band up to 2), so they get points on their medial surface:
// halfway along each inward thickness ray. Grid points near a medial point are skipped.
constexpr double kMedialReach = 2.0;
// A radius of curvature under this times a part's thickness bends its section (a round tube's is
// half its thickness), not the part along its length (a 20 mm shell of 0.5 m radius: 25).
constexpr double kSectionRadiusPerThickness = 2.0;

struct SurfaceSpacing {
  std::vector<uint8_t> face_level;    // per face: spacing kDefaultSpacing / 2^level
  std::vector<uint8_t> vertex_level;  // per vertex (thickness of its faces and its own curvature)
  std::vector<double> face_thickness;  // per face, grid units, from its centroid along the inward
                                       // normal, measured up to kCurvedPartReach (else 0)
  std::vector<double> face_normal;     // per face, outward unit normal (0 for a face without area)
  int coarsened_to = -1;              // >= 0: the budget capped every level at this one
  int64_t samples_needed = 0;         // when coarsened: about how many samples the finest levels wanted
  int64_t samples_coarsest = 0;       // when coarsened: ... and at kMaxSpacingPerThickness on thin faces
  int64_t budget = 0;                 // the sample budget it was held to
  double thinnest = 0;                // grid units: the smallest thickness measured (0: none below a cell)
  double samples_estimate = 0;        // sum of max(area / s^2, longest edge / 2 s) over faces at their final levels
  double thin_area = 0;               // grid units^2: faces under kMedialReach thick
  double medial_estimate = 0;         // about how many medial points (face_wants_medial faces)
  // The finest level curvature asks for at a vertex where it bends the part's section (its radius
  // under kSectionRadiusPerThickness x the part's thickness: a round rod, not a shell's dome).
  int curved_finest = 0;
  int64_t rod_faces = 0;              // faces whose thickness is a triangular rod's section (thickness_rays.h)
  // Levels finer than 0 are spaced this much wider (1 to 2, SpacingOverrides::fine_scale): the
  // thin-parts choice's continuous step between two levels. Level 0 (a solid's) is never scaled.
  double fine_scale = 1.0;
  // ... up to this level: finer ones keep their spacing (Coarsen scales the thin faces' capped
  // level, not the finer levels curvature keeps: a round tube would lose its section).
  int scaled_to = kMaxSpacingLevel;
  bool scaled(int level) const { return level > 0 && level <= scaled_to; }
  double spacing(int level) const { return (scaled(level) ? fine_scale : 1.0) * kDefaultSpacing / double(int64_t(1) << level); }
};

// Whether face f gets medial points: its part is under kMedialReach thick and sampled by its
// thickness (where the budget coarsened it, medial points between sparse samples make flat tets).
bool face_wants_medial(const SurfaceSpacing& spacing, size_t f);

inline double spacing_of_level(int level) { return kDefaultSpacing / double(int64_t(1) << level); }
int level_of_spacing(double s);  // the coarsest level whose spacing is at most s (0 for s >= 0.5)

// What a caller choosing how to mesh thin parts (TetraOptions::thin_parts) changes.
struct SpacingOverrides {
  const std::vector<double>* face_thickness = nullptr;  // per face, measured before: no rays are cast
  double min_thickness = 0;  // grid units: faces thinner than this are spaced as if this thick
  int level_cap = -1;        // >= 0: every level capped here, as the budget caps them
  double drop_below = 0;     // grid units: faces dropped_faces() drops at this thickness count no samples
  double fine_scale = 1.0;   // SurfaceSpacing::fine_scale, in [1, 2)
  int scaled_to = kMaxSpacingLevel;  // SurfaceSpacing::scaled_to
};

// ThinParts::Drop: the faces of parts thinner than `below` (grid units; thickness per face, 0 where
// none was measured), faces whose every vertex is on such a face (a thin part's rim and ends, whose
// own rays run along the part), and every face of a piece (faces joined by vertices) most of whose
// unburied area that drops (a thin box sunk into another: its buried faces measure nothing).
std::vector<uint8_t> dropped_faces(const std::vector<double>& positions, const std::vector<uint32_t>& triangles,
                                   const ThicknessRays& rays, const std::vector<double>& thickness, double below);

// positions (grid units) and outward triangles of a cleaned surface; rays over the same surface.
SurfaceSpacing surface_spacing(const std::vector<double>& positions, const std::vector<uint32_t>& triangles,
                               const ThicknessRays& rays, const SpacingOverrides& overrides = {});

}  // namespace sb
