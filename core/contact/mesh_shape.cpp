// Mesh obstacles: BVH build, nearest point with its feature, pseudonormal sign (mesh_shape.h).
#include "contact/mesh_shape.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace sb {

namespace {

constexpr int32_t kLeafSize = 4;  // faces per leaf

// Which part of a triangle a nearest point lies on: its face, a vertex, or an edge (edge k runs
// from vertex k to vertex k + 1). The sign needs the feature's own pseudonormal.
enum Feature { kFace, kVertex0, kVertex1, kVertex2, kEdge0, kEdge1, kEdge2 };

// Closest point to p on triangle abc by Voronoi regions (the classic barycentric case analysis,
// e.g. Ericson, "Real-Time Collision Detection", sec. 5.1.5).
Vec3 closest_on_triangle(Vec3 p, Vec3 a, Vec3 b, Vec3 c, Feature* feature) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0.0f && d2 <= 0.0f) { *feature = kVertex0; return a; }
  const Vec3 bp = p - b;
  const float d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0.0f && d4 <= d3) { *feature = kVertex1; return b; }
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
    *feature = kEdge0;
    return a + ab * (d1 / (d1 - d3));
  }
  const Vec3 cp = p - c;
  const float d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0.0f && d5 <= d6) { *feature = kVertex2; return c; }
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
    *feature = kEdge2;
    return a + ac * (d2 / (d2 - d6));
  }
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
    *feature = kEdge1;
    return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  }
  const float denom = 1.0f / (va + vb + vc);
  *feature = kFace;
  return a + ab * (vb * denom) + ac * (vc * denom);
}

// Squared distance from p to the box [lo, hi]; 0 inside.
float box_distance2(Vec3 p, Vec3 lo, Vec3 hi) {
  const float dx = std::max({lo.x - p.x, 0.0f, p.x - hi.x});
  const float dy = std::max({lo.y - p.y, 0.0f, p.y - hi.y});
  const float dz = std::max({lo.z - p.z, 0.0f, p.z - hi.z});
  return dx * dx + dy * dy + dz * dz;
}

Vec3 unit(Vec3 v) {
  const float len = length(v);
  return len > 0.0f ? v * (1.0f / len) : Vec3{0.0f, 1.0f, 0.0f};
}

}  // namespace

MeshShape::MeshShape(const std::vector<double>& positions, const std::vector<uint32_t>& triangles, bool closed,
                     float thickness)
    : tri_(triangles), closed_(closed), thickness_(thickness) {
  const size_t nv = positions.size() / 3, nf = triangles.size() / 3;
  v_.resize(nv);
  for (size_t i = 0; i < nv; ++i)
    v_[i] = {float(positions[3 * i]), float(positions[3 * i + 1]), float(positions[3 * i + 2])};
  face_normal_.resize(nf);
  vertex_normal_.assign(nv, {0.0f, 0.0f, 0.0f});
  for (size_t f = 0; f < nf; ++f) {
    const uint32_t* t = &tri_[3 * f];
    face_normal_[f] = unit(cross(v_[t[1]] - v_[t[0]], v_[t[2]] - v_[t[0]]));
    // Angle-weighted: each face adds its normal times its angle at the vertex, so the sum does not
    // depend on how a flat region happens to be split into triangles.
    for (int k = 0; k < 3; ++k) {
      const Vec3 e1 = unit(v_[t[(k + 1) % 3]] - v_[t[k]]), e2 = unit(v_[t[(k + 2) % 3]] - v_[t[k]]);
      const float angle = std::acos(std::clamp(dot(e1, e2), -1.0f, 1.0f));
      vertex_normal_[t[k]] = vertex_normal_[t[k]] + face_normal_[f] * angle;
    }
  }
  // Edge pseudonormals: the sum of the normals of the faces on both sides (one side on an open edge).
  // Face edges sorted by their vertex pair, so the faces sharing an edge sit next to each other.
  std::vector<std::pair<uint64_t, uint32_t>> edges(3 * nf);  // (vertex pair, 3 * face + k)
  for (size_t f = 0; f < nf; ++f)
    for (int k = 0; k < 3; ++k) {
      const uint64_t a = tri_[3 * f + k], b = tri_[3 * f + (k + 1) % 3];
      edges[3 * f + k] = {std::min(a, b) << 32 | std::max(a, b), uint32_t(3 * f + k)};
    }
  std::sort(edges.begin(), edges.end());
  edge_normal_.resize(3 * nf);
  for (size_t i = 0; i < edges.size();) {
    size_t j = i;
    Vec3 sum{0.0f, 0.0f, 0.0f};
    for (; j < edges.size() && edges[j].first == edges[i].first; ++j) sum = sum + face_normal_[edges[j].second / 3];
    for (; i < j; ++i) edge_normal_[edges[i].second] = sum;
  }
  Vec3 lo = v_.empty() ? Vec3{0, 0, 0} : v_[0], hi = lo;
  for (const Vec3& p : v_) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  normal_eps_ = 1e-5f * length(hi - lo);
  order_.resize(nf);
  for (size_t f = 0; f < nf; ++f) order_[f] = uint32_t(f);
  nodes_.reserve(2 * nf / kLeafSize + 2);
  build(0, int32_t(nf));
}

int32_t MeshShape::build(int32_t begin, int32_t end) {
  Node node;
  node.lo = {INFINITY, INFINITY, INFINITY};
  node.hi = {-INFINITY, -INFINITY, -INFINITY};
  for (int32_t i = begin; i < end; ++i)
    for (int k = 0; k < 3; ++k) {
      const Vec3 p = v_[tri_[3 * order_[i] + k]];
      node.lo = {std::min(node.lo.x, p.x), std::min(node.lo.y, p.y), std::min(node.lo.z, p.z)};
      node.hi = {std::max(node.hi.x, p.x), std::max(node.hi.y, p.y), std::max(node.hi.z, p.z)};
    }
  node.left = node.right = -1;
  node.begin = begin;
  node.end = end;
  const int32_t id = int32_t(nodes_.size());
  nodes_.push_back(node);
  if (end - begin <= kLeafSize) return id;
  // Split at the median centroid along the box's longest side (ties broken by face id: deterministic).
  const Vec3 size = node.hi - node.lo;
  const int axis = size.x >= size.y && size.x >= size.z ? 0 : (size.y >= size.z ? 1 : 2);
  auto centroid = [&](uint32_t f) {
    const Vec3 c = v_[tri_[3 * f]] + v_[tri_[3 * f + 1]] + v_[tri_[3 * f + 2]];
    return axis == 0 ? c.x : (axis == 1 ? c.y : c.z);
  };
  const int32_t mid = (begin + end) / 2;
  std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end, [&](uint32_t a, uint32_t b) {
    const float ca = centroid(a), cb = centroid(b);
    return ca < cb || (ca == cb && a < b);
  });
  const int32_t left = build(begin, mid);
  const int32_t right = build(mid, end);
  nodes_[id].left = left;
  nodes_[id].right = right;
  return id;
}

float MeshShape::signed_distance(Vec3 p, float limit, Vec3* normal) const {
  // For a shell the sheet must be searched up to limit + half the thickness.
  const float reach = closed_ ? limit : limit + 0.5f * thickness_;
  float best2 = reach * reach;
  int32_t best_face = -1;
  Feature best_feature = kFace;
  Vec3 best_point{0.0f, 0.0f, 0.0f};
  // Depth-first, nearer child first, pruning boxes farther than the best so far. The tree's depth
  // is log2(faces / 4) + 1, so a fixed stack of 64 holds any mesh the API accepts.
  int32_t stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    if (box_distance2(p, node.lo, node.hi) > best2) continue;  // > : a face at exactly best2 may win the tie
    if (node.left < 0) {
      for (int32_t i = node.begin; i < node.end; ++i) {
        const uint32_t f = order_[i];
        Feature feature;
        const Vec3 q = closest_on_triangle(p, v_[tri_[3 * f]], v_[tri_[3 * f + 1]], v_[tri_[3 * f + 2]], &feature);
        const float d2 = length_sq(p - q);
        if (d2 < best2 || (d2 == best2 && int32_t(f) < best_face)) {  // ties: the lowest face, in any visiting order
          best2 = d2;
          best_face = int32_t(f);
          best_feature = feature;
          best_point = q;
        }
      }
      continue;
    }
    const float dl = box_distance2(p, nodes_[node.left].lo, nodes_[node.left].hi);
    const float dr = box_distance2(p, nodes_[node.right].lo, nodes_[node.right].hi);
    // Push the farther first so the nearer is searched first and tightens best2 sooner.
    if (dl <= dr) {
      stack[top++] = node.right;
      stack[top++] = node.left;
    } else {
      stack[top++] = node.left;
      stack[top++] = node.right;
    }
  }
  return finish(p, limit, best_face, best_feature, best_point, best2, normal);
}

float MeshShape::signed_distance_faces(Vec3 p, float limit, Vec3* normal, const uint32_t* faces,
                                       uint32_t face_count) const {
  const float reach = closed_ ? limit : limit + 0.5f * thickness_;
  float best2 = reach * reach;
  int32_t best_face = -1;
  Feature best_feature = kFace;
  Vec3 best_point{0.0f, 0.0f, 0.0f};
  for (uint32_t k = 0; k < face_count; ++k) {
    const uint32_t f = faces[k];
    Feature feature;
    const Vec3 q = closest_on_triangle(p, v_[tri_[3 * f]], v_[tri_[3 * f + 1]], v_[tri_[3 * f + 2]], &feature);
    const float d2 = length_sq(p - q);
    if (d2 < best2 || (d2 == best2 && int32_t(f) < best_face)) {  // the same ties as signed_distance
      best2 = d2;
      best_face = int32_t(f);
      best_feature = feature;
      best_point = q;
    }
  }
  return finish(p, limit, best_face, best_feature, best_point, best2, normal);
}

void MeshShape::faces_in_box(Vec3 lo, Vec3 hi, std::vector<uint32_t>* out) const {
  int32_t stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    if (node.hi.x < lo.x || node.lo.x > hi.x || node.hi.y < lo.y || node.lo.y > hi.y || node.hi.z < lo.z ||
        node.lo.z > hi.z)
      continue;
    if (node.left >= 0) {
      stack[top++] = node.right;
      stack[top++] = node.left;
      continue;
    }
    for (int32_t i = node.begin; i < node.end; ++i) {
      const uint32_t f = order_[i];
      const Vec3 a = v_[tri_[3 * f]], b = v_[tri_[3 * f + 1]], c = v_[tri_[3 * f + 2]];
      if (std::max({a.x, b.x, c.x}) < lo.x || std::min({a.x, b.x, c.x}) > hi.x || std::max({a.y, b.y, c.y}) < lo.y ||
          std::min({a.y, b.y, c.y}) > hi.y || std::max({a.z, b.z, c.z}) < lo.z || std::min({a.z, b.z, c.z}) > hi.z)
        continue;
      out->push_back(f);
    }
  }
}

float MeshShape::finish(Vec3 p, float limit, int32_t best_face, int feature, Vec3 best_point, float best2,
                        Vec3* normal) const {
  const Feature best_feature = Feature(feature);
  if (best_face < 0) return limit;  // nothing within reach: outside, far enough for the caller
  const float dist = std::sqrt(best2);
  const Vec3 away = p - best_point;
  Vec3 pseudo;
  switch (best_feature) {
    case kFace: pseudo = face_normal_[best_face]; break;
    case kVertex0: case kVertex1: case kVertex2:
      pseudo = vertex_normal_[tri_[3 * best_face + (best_feature - kVertex0)]];
      break;
    default: pseudo = edge_normal_[3 * best_face + (best_feature - kEdge0)]; break;
  }
  // The normal: a face's own normal when the nearest point is inside a face (exact, where p - q is
  // all rounding noise for a point within micrometres of the surface), else the direction from the
  // edge or vertex to p, or that feature's pseudonormal when p is too close for that to be reliable.
  const bool near = dist <= normal_eps_;
  if (!closed_) {
    // Two-sided: the normal points from the sheet to p, on whichever side p is.
    const float side = dot(away, best_feature == kFace ? face_normal_[best_face] : pseudo) >= 0.0f ? 1.0f : -1.0f;
    if (best_feature == kFace) *normal = face_normal_[best_face] * side;
    else *normal = near ? unit(pseudo) * side : away * (1.0f / dist);
    return dist - 0.5f * thickness_;
  }
  const bool outside = dot(away, pseudo) >= 0.0f;
  const float sign = outside ? 1.0f : -1.0f;
  if (best_feature == kFace) *normal = face_normal_[best_face];
  else *normal = near ? unit(pseudo) : away * (sign / dist);
  return outside ? dist : -dist;
}

}  // namespace sb
