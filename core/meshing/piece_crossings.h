// Where a face of a soup runs into another piece: the intersection curve of two overlapping
// pieces (a fin sunk into a block), which no edge of the surface follows. Samples stop short of it
// on both pieces; where one piece is sampled much finer than the other (a thin part by its
// thickness, the block at half a cell), the Delaunay tets joining the fine samples' last row to
// the coarse side beyond the curve are slivers (issue 26: a 5 mm fin sunk into a block, thickened
// under 12,000 tets, kept 55 tets below quality 0.1, min 0.021). Points on the curve, at the fine
// face's spacing, give those tets a crease to end on, as a fused fin's foot edge does.
#pragma once
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace sb {

class ThicknessRays;

// Steps of the bisection that places a crossing between two candidates h apart: h / 2^16.
constexpr int kCrossingBisections = 16;
// Buried candidates kept as free points up to this far from a crossing (grid units: the grid's
// clearance from faces, half a cell, and its own spacing beyond).
constexpr double kCrossingReach = 1.0;
// ... at least this times h from the row's crossing: nearer, it makes flat tets with the crossing
// and the other piece's face through it.
constexpr double kCrossingClearance = 0.75;

// Points of `face` (grid units) on the boundary between its buried and unburied parts
// (ThicknessRays::buried_at), about h apart along it: candidates on rows h apart parallel to the
// face's longest edge, each row sampled h apart (its ends on the face's edges); between two
// consecutive candidates that differ, the boundary found by bisection, on its unburied side.
// Appends xyz to `out`; nothing for a face that is not mixed. `beyond` (if given) gets the buried
// candidates within kCrossingReach of a crossing and kCrossingClearance h from every one, with
// that distance: inside the other piece, spaced by their distance (free points, not surface
// samples), they grade the fine side's tets into the other piece's grid, which keeps half a cell
// from every face, buried ones included (without them: needles from the crossings to it).
void piece_crossings(const std::vector<double>& positions, const std::vector<uint32_t>& triangles, uint32_t face,
                     double h, const ThicknessRays& rays, std::vector<double>& out,
                     std::vector<std::pair<std::array<double, 3>, double>>* beyond = nullptr);

}  // namespace sb
