// C API: a body's skinned render surface (core/meshing/skinning.h).
#include <algorithm>
#include <cmath>

#include "api_state.h"

using namespace sbapi;

namespace {

// The body, if it has a visual; otherwise records why not.
sb::SoftBody* find_visual(sb_world world, sb_body body) {
  sb::SoftBody* b = find_body(world, body);
  if (b && b->visual().empty()) {
    fail(SB_ERR_BAD_COUNT, "body %d has no visual surface: call sb_body_set_visual first", body);
    return nullptr;
  }
  return b;
}

// Skinning weights must lie in [-SB_MAX_VISUAL_WEIGHT, 1 + SB_MAX_VISUAL_WEIGHT]. Inside its tet a
// vertex has weights in [0, 1]; a vertex outside extrapolates, about 1 per tet height it lies out
// (a surface 5 % larger than a 16-cell ball needs < 3, 4x larger < 50). A weight w multiplies the
// particles' float rounding (2^-24 |x|) by w, so past 1e3 the skinned vertex jitters by 1e-4 of its
// distance from the origin and no longer draws anything; and (3e38, -3e38, 1, 0) "sums to 1" only in
// rounding, then overflows to -inf. Returns the first weight outside, or NaN if all are inside.
float weight_out_of_range(const float* w) {
  for (int i = 0; i < 4; ++i)
    if (!(w[i] >= -SB_MAX_VISUAL_WEIGHT && w[i] <= 1.0 + SB_MAX_VISUAL_WEIGHT)) return w[i];
  return NAN;
}

// Installs a skin whose weights were checked, if its positions at the body's current shape are finite
// (a binding can still overflow on a body that moved far); otherwise records why and keeps the old one.
int32_t install(sb::SoftBody* b, sb::VisualSkin&& skin) {
  skin.update(b->positions());
  const float* p = skin.positions();
  for (size_t i = 0; i < 3 * size_t(skin.vertex_count()); ++i)
    if (!std::isfinite(p[i]))
      return fail(SB_ERR_NOT_FINITE, "visual vertex %lld would be at a NaN or infinite position: the body's "
                  "positions times its weights overflow", (long long)(i / 3));
  b->visual() = std::move(skin);
  return SB_OK;
}

}  // namespace

extern "C" {

int32_t sb_body_set_visual(sb_world world, sb_body body, const float* xyz, int32_t vertex_count,
                           const uint32_t* triangles, int32_t triangle_count) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  if (!b) return sb_last_error_code();
  if (!xyz) return fail(SB_ERR_NULL_POINTER, "xyz is NULL");
  if (vertex_count < 1 || vertex_count > SB_MAX_VISUAL_VERTICES)
    return fail(SB_ERR_BAD_COUNT, "visual vertex_count must be in [1, %d], got %d", SB_MAX_VISUAL_VERTICES, vertex_count);
  if (triangle_count < 0 || triangle_count > 2 * SB_MAX_VISUAL_VERTICES)
    return fail(SB_ERR_BAD_COUNT, "visual triangle_count must be in [0, %d], got %d", 2 * SB_MAX_VISUAL_VERTICES,
                triangle_count);
  if (triangle_count > 0 && !triangles) return fail(SB_ERR_NULL_POINTER, "triangles is NULL but triangle_count is %d", triangle_count);
  if (b->tet_count() == 0) return fail(SB_ERR_BAD_COUNT, "body %d has no tets to bind a visual surface to", body);
  for (int64_t i = 0; i < 3 * int64_t(vertex_count); ++i)
    if (!std::isfinite(xyz[i])) return fail(SB_ERR_NOT_FINITE, "visual vertex %lld has a NaN or infinite coordinate", (long long)(i / 3));
  for (int64_t i = 0; i < 3 * int64_t(triangle_count); ++i)
    if (triangles[i] >= uint32_t(vertex_count))
      return fail(SB_ERR_INDEX_OUT_OF_RANGE, "visual triangle %lld refers to vertex %u >= vertex_count (%d)",
                  (long long)(i / 3), triangles[i], vertex_count);
  // A vertex more than SB_MAX_VISUAL_DISTANCE x the tets' size from them is a unit mistake, and its
  // nearest tet is lost in rounding: every tet's distance agrees to 1e-9 beyond ~1e8 sizes, so the
  // search can prune nothing (a 3-vertex surface reaching 1e21 m took 11 s to bind).
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  const float* rest = b->rest_positions();
  for (uint32_t i = 0; i < b->vertex_count(); ++i)
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], double(rest[3 * size_t(i) + size_t(k)]));
      hi[k] = std::max(hi[k], double(rest[3 * size_t(i) + size_t(k)]));
    }
  const double size = std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                                (hi[2] - lo[2]) * (hi[2] - lo[2]));
  for (int64_t i = 0; i < int64_t(vertex_count); ++i) {
    double gap2 = 0.0;
    for (int k = 0; k < 3; ++k) {
      const double x = xyz[3 * i + k], g = std::max({lo[k] - x, x - hi[k], 0.0});
      gap2 += g * g;
    }
    if (gap2 > (SB_MAX_VISUAL_DISTANCE * size) * (SB_MAX_VISUAL_DISTANCE * size))
      return fail(SB_ERR_OUT_OF_RANGE,
                  "visual vertex %lld is %g m from the tets, more than %g x their size (%g m): is the surface in "
                  "another unit or frame?",
                  (long long)i, std::sqrt(gap2), double(SB_MAX_VISUAL_DISTANCE), size);
  }
  // A surface in another unit (10x the body: cm for mm) is subdivided to ~2^18 vertices, all far
  // outside the tets, and took 13 s to bind: refuse it at once, saying the scale it looks like.
  double vlo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, vhi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (int64_t i = 0; i < int64_t(vertex_count); ++i)
    for (int k = 0; k < 3; ++k) {
      vlo[k] = std::min(vlo[k], double(xyz[3 * i + k]));
      vhi[k] = std::max(vhi[k], double(xyz[3 * i + k]));
    }
  const double visual_size = std::sqrt((vhi[0] - vlo[0]) * (vhi[0] - vlo[0]) + (vhi[1] - vlo[1]) * (vhi[1] - vlo[1]) +
                                       (vhi[2] - vlo[2]) * (vhi[2] - vlo[2]));
  if (visual_size > SB_MAX_VISUAL_SCALE * size)
    return fail(SB_ERR_OUT_OF_RANGE,
                "the surface is about %.2gx the body's size (bounding-box diagonal %g m against the tets' %g m, at "
                "most %gx): wrong unit? Scale it by %.2g",
                visual_size / size, visual_size, size, double(SB_MAX_VISUAL_SCALE), size / visual_size);
  sb::VisualSkin skin(rest, b->vertex_count(), b->tets(), b->tet_count(), xyz, uint32_t(vertex_count), triangles,
                      uint32_t(triangle_count), SB_MAX_VISUAL_TESTS);
  if (!skin.complete())
    return fail(SB_ERR_LIMIT,
                "binding the %d-vertex surface (%u after subdivision) took more than %d vertex-tet tests, stopped: "
                "most of it lies outside the tets; give a surface that lies on them", vertex_count,
                skin.vertex_count(), SB_MAX_VISUAL_TESTS);
  for (uint32_t v = 0; v < skin.vertex_count(); ++v) {
    const float w = weight_out_of_range(skin.weights() + 4 * size_t(v));
    if (!std::isnan(w))
      return fail(SB_ERR_OUT_OF_RANGE,
                  "visual vertex %u lies too far outside its nearest tet to follow it (weight %g, beyond [-%g, %g]): "
                  "is the surface in another unit or frame?", v, double(w), SB_MAX_VISUAL_WEIGHT, 1.0 + SB_MAX_VISUAL_WEIGHT);
  }
  const int32_t outside = int32_t(skin.outside_count());
  const int32_t r = install(b, std::move(skin));
  return r < 0 ? r : outside;
}

float* sb_body_visual_positions(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_visual(world, body);
  return b ? b->visual().positions() : nullptr;
}

float* sb_body_visual_normals(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_visual(world, body);
  return b ? b->visual().normals() : nullptr;
}

int32_t sb_body_visual_vertex_count(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  return b ? int32_t(b->visual().vertex_count()) : sb_last_error_code();
}

const uint32_t* sb_body_visual_triangles(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_visual(world, body);
  return b ? b->visual().triangles() : nullptr;
}

int32_t sb_body_visual_triangle_count(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  return b ? int32_t(b->visual().triangle_count()) : sb_last_error_code();
}

const uint32_t* sb_body_visual_bound_vertices(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_visual(world, body);
  return b ? b->visual().bound_vertices() : nullptr;
}

const float* sb_body_visual_weights(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_visual(world, body);
  return b ? b->visual().weights() : nullptr;
}

int32_t sb_body_set_visual_bound(sb_world world, sb_body body, int32_t vertex_count, const uint32_t* triangles,
                                 int32_t triangle_count, const uint32_t* bound_vertices, const float* weights,
                                 int32_t outside_count) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  if (!b) return sb_last_error_code();
  if (!bound_vertices || !weights) return fail(SB_ERR_NULL_POINTER, "%s is NULL", !bound_vertices ? "bound_vertices" : "weights");
  if (vertex_count < 1 || vertex_count > SB_MAX_VISUAL_VERTICES)
    return fail(SB_ERR_BAD_COUNT, "visual vertex_count must be in [1, %d], got %d", SB_MAX_VISUAL_VERTICES, vertex_count);
  if (triangle_count < 0 || triangle_count > 2 * SB_MAX_VISUAL_VERTICES)
    return fail(SB_ERR_BAD_COUNT, "visual triangle_count must be in [0, %d], got %d", 2 * SB_MAX_VISUAL_VERTICES,
                triangle_count);
  if (triangle_count > 0 && !triangles) return fail(SB_ERR_NULL_POINTER, "triangles is NULL but triangle_count is %d", triangle_count);
  if (outside_count < 0 || outside_count > vertex_count)
    return fail(SB_ERR_OUT_OF_RANGE, "outside_count must be in [0, %d], got %d", vertex_count, outside_count);
  if (b->tet_count() == 0) return fail(SB_ERR_BAD_COUNT, "body %d has no tets to bind a visual surface to", body);
  const uint32_t particles = b->vertex_count();
  for (int64_t v = 0; v < int64_t(vertex_count); ++v) {
    double sum = 0.0, magnitude = 0.0;
    for (int i = 0; i < 4; ++i) {
      const uint32_t id = bound_vertices[4 * v + i];
      const float w = weights[4 * v + i];
      if (id >= particles)
        return fail(SB_ERR_INDEX_OUT_OF_RANGE, "visual vertex %lld is bound to particle %u >= vertex count (%u)", (long long)v,
                    id, particles);
      if (!std::isfinite(w)) return fail(SB_ERR_NOT_FINITE, "visual vertex %lld has a NaN or infinite weight", (long long)v);
      sum += double(w);
      magnitude += std::fabs(double(w));
    }
    const float out = weight_out_of_range(weights + 4 * v);
    if (!std::isnan(out))
      return fail(SB_ERR_OUT_OF_RANGE, "visual vertex %lld has weight %g, outside [-%g, %g] (sb_body_set_visual never "
                  "binds one so far outside its tet)", (long long)v, double(out), SB_MAX_VISUAL_WEIGHT,
                  1.0 + SB_MAX_VISUAL_WEIGHT);
    // Weights that do not sum to 1 would not even follow a translation of the body. Barycentric
    // weights rounded to float sum to 1 within 4 x 2^-24 of their magnitudes (<= 4004 by the range
    // above, so the tolerance is at most 4e-3); 1e-6 leaves a 4x margin.
    if (!(std::fabs(sum - 1.0) <= 1e-6 * (1.0 + magnitude)))
      return fail(SB_ERR_OUT_OF_RANGE, "the weights of visual vertex %lld sum to %.9g, not 1", (long long)v, sum);
  }
  for (int64_t i = 0; i < 3 * int64_t(triangle_count); ++i)
    if (triangles[i] >= uint32_t(vertex_count))
      return fail(SB_ERR_INDEX_OUT_OF_RANGE, "visual triangle %lld refers to vertex %u >= vertex_count (%d)",
                  (long long)(i / 3), triangles[i], vertex_count);
  return install(b, sb::VisualSkin(bound_vertices, weights, uint32_t(vertex_count), triangles,
                                   uint32_t(triangle_count), uint32_t(outside_count)));
}

}  // extern "C"
