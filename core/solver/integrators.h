// Time integrators for the force-based (mass-spring) model of spring_forces.h. Each advances the
// state (x, v) of all particles by one step h; each is a small function that reads like its formula.
// Pinned particles (inverse mass 0) never move. Contacts and grabbing are applied by the caller.
#pragma once
#include <cstdint>
#include <vector>

#include "solver/spring_forces.h"

namespace sb {

// Working buffers, sized once (when a body switches integrator), never in the step loop.
struct IntegratorScratch {
  std::vector<float> x0, v0, xt, vt, f, sum_x, sum_v;  // 3 per particle
  std::vector<float> r, p, ap, z, dv, diag_inv;        // implicit Euler's CG, 3 per particle (diag 1)
  std::vector<float> x_prev, verlet_v;                  // Verlet's previous positions, the v it last wrote
  // Implicit Euler's contact inside the solve (implicit_euler below): per particle, whether its y
  // velocity is held, the y velocity it is held at (m/s), and the impulse that held it (kg m/s, + up).
  std::vector<uint8_t> hold_y;
  std::vector<float> hold_vy, hold_impulse;
  bool verlet_started = false;
  void resize(uint32_t particles);
};

// Implicit Euler's linear solve: conjugate gradient, Jacobi-preconditioned, matrix-free.
constexpr float kCgTolerance = 1e-5f;  // stop at |r| <= tol |b| (float32 state: ~1e-6 is the floor)
constexpr int kCgMaxIterations = 200;

struct CgReport {
  int iterations = 0;
  float relative_residual = 0.0f;  // |r| / |b| at exit
  bool converged = true;
};

// x1 = x0 + h v0,            v1 = v0 + h a(x0, v0)                       (1st order, gains energy)
void explicit_euler(const ForceModel& m, float* x, float* v, float h, IntegratorScratch& s);
// v1 = v0 + h a(x0, v0),     x1 = x0 + h v1                              (1st order, symplectic)
void semi_implicit_euler(const ForceModel& m, float* x, float* v, float h, IntegratorScratch& s);
// Stoermer-Verlet as in seed 000: x1 = x0 + (x0 - x_prev) + a h^2, v1 = (x1 - x0) / h (2nd order in x).
// The first step starts x_prev from v0 so the scheme keeps its order.
void position_verlet(const ForceModel& m, float* x, float* v, float h, IntegratorScratch& s);
// Explicit midpoint (RK2): derivatives at the half step.                      (2nd order)
void midpoint(const ForceModel& m, float* x, float* v, float h, IntegratorScratch& s);
// Heun: Euler predictor, trapezoidal corrector.                               (2nd order)
void heun(const ForceModel& m, float* x, float* v, float h, IntegratorScratch& s);
// Classic fourth-order Runge-Kutta.                                           (4th order)
void rk4(const ForceModel& m, float* x, float* v, float h, IntegratorScratch& s);
// Backward Euler, one Newton step (Baraff & Witkin 1998):
// (M - h df/dv - h^2 df/dx) dv = h (f0 + h df/dx v0),  v1 = v0 + dv,  x1 = x0 + h v1.  (1st order, dissipative)
// Contact inside the solve: particles with s.hold_y[i] set (resting on the ground or under the press
// plate: the caller decides) have their y velocity prescribed, v1_y = s.hold_vy[i], by Baraff and
// Witkin's filter (sec. 5.3: the constrained component of dv fixed, the others solved with it), so the
// elastic solve sees the plane; a velocity-level projection after the solve instead undid part of
// every step's correction and left the layers on the planes crushed. s.hold_impulse[i] gets the
// impulse the plane gave (the y residual of the unfiltered system, kg m/s, + up): its sign says
// whether the plane pushed or would have had to pull (then release it), its size bounds friction.
// s.hold_y empty: no particle is held.
CgReport implicit_euler(const ForceModel& m, float* x, float* v, float h, IntegratorScratch& s);

}  // namespace sb
