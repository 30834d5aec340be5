// Per-triangle drag and lift on cloth (cloth_aero.h).
#include "solver/cloth_aero.h"

#include <algorithm>
#include <cmath>

#include "math/vec3.h"

namespace sb {

void apply_aerodynamics(const AeroSettings& air, const float* x, float* v, const float* inv_mass, uint32_t vertex_count,
                        const uint32_t* triangles, uint32_t triangle_count, float h, float* dv) {
  std::fill(dv, dv + 3 * size_t(vertex_count), 0.0f);
  const Vec3 wind{air.wind[0], air.wind[1], air.wind[2]};
  const float half_rho = 0.5f * air.air_density;
  for (uint32_t t = 0; t < triangle_count; ++t) {
    const uint32_t* tri = triangles + 3 * t;
    const Vec3 rel = wind - (load3(v, tri[0]) + load3(v, tri[1]) + load3(v, tri[2])) * (1.0f / 3.0f);
    const float s = length(rel);
    const Vec3 area2 = cross(load3(x, tri[1]) - load3(x, tri[0]), load3(x, tri[2]) - load3(x, tri[0]));
    const float twice_area = length(area2);
    if (!(s > 0.0f) || !(twice_area > 0.0f)) continue;
    const Vec3 flow = rel * (1.0f / s);
    Vec3 n = area2 * (1.0f / twice_area);
    float c = dot(flow, n);
    if (c < 0.0f) n = n * -1.0f, c = -c;  // the normal on the downwind side
    const float q = half_rho * 0.5f * twice_area * s * s * c;  // 1/2 rho A s^2 c, N
    const Vec3 force = flow * (air.drag * q) + (n - flow * c) * (air.lift * q);
    for (int i = 0; i < 3; ++i) store3(dv, tri[i], load3(dv, tri[i]) + force * (h / 3.0f));
  }
  for (uint32_t i = 0; i < vertex_count; ++i) store3(v, i, load3(v, i) + load3(dv, i) * inv_mass[i]);
}

}  // namespace sb
