// Wind and drag on cloth: a per-triangle aerodynamic force from the air's velocity relative to the
// triangle and its normal, added to its vertices' velocities before each substep's prediction.
//
// With v_r = wind - (v0 + v1 + v2)/3 (m/s), s = |v_r|, n the unit normal turned downwind and
// c = (v_r / s) . n (the sine of the angle between the flow and the sheet), a triangle of area A gets
//   drag  F_d = 1/2 rho C_d (A c) s^2 v_r / s       (the standard drag on its frontal area A c)
//   lift  F_l = 1/2 rho C_l A c s^2 (n - c v_r / s)  (across the flow; |n - c v_r/s| = the cosine)
// shared equally by its three vertices (rho: the air's density, kg/m^3). A sheet face-on to the wind
// (c = 1) feels 1/2 rho C_d A s^2 along the flow; edge-on (c = 0) nothing. Explicit, per substep:
// stable while the drag's time scale m / (rho C_d A s) (17 ms for 0.2 kg/m^2, C_d = 1, 10 m/s) is
// well above the substep.
#pragma once
#include <cstdint>

namespace sb {

struct AeroSettings {
  float wind[3] = {0.0f, 0.0f, 0.0f};  // m/s
  float air_density = 1.2f;            // kg/m^3
  float drag = 0.0f;                   // C_d, dimensionless
  float lift = 0.0f;                   // C_l, dimensionless
};

// Adds h x (each triangle's force / 3) x the inverse mass to each vertex's velocity; dv is scratch of
// 3 floats per vertex.
void apply_aerodynamics(const AeroSettings& air, const float* x, float* v, const float* inv_mass, uint32_t vertex_count,
                        const uint32_t* triangles, uint32_t triangle_count, float h, float* dv);

}  // namespace sb
