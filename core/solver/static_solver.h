// Static equilibrium: the shape where a body's elastic forces balance gravity, with its pinned (and
// kinematically held) particles in place. The converged reference the dynamic solvers' settled
// answers are measured against, and what beam theory is compared with (tests/core/test_beam_theory.cpp).
//
// Newton's method on Phi(x) = E_elastic(x) - sum m g . x (static_model.h, double precision):
//   1. r = -dPhi/dx on the free particles; stop when |r| <= tolerance |m g| (both 2-norms over the free
//      particles: the unbalanced force as a share of the load).
//   2. H d = r by conjugate gradient on H assembled as 3x3 block rows (static_matrix.h), preconditioned
//      with the inverse 3x3 diagonal blocks of H (block Jacobi), to a relative residual eta = min(0.1, |r| / |m g|) (Eisenstat & Walker's
//      forcing: loose while far, tight near the answer), stopped at negative curvature (Steihaug: the
//      iterate so far is still a descent direction; a first-iteration hit takes the preconditioned
//      gradient).
//   3. Backtracking line search on Phi (Armijo, halving from the full step), so an indefinite H far
//      from rest or a large load cannot throw the body further from equilibrium.
// When Newton at the full load does not converge (a slender beam far from rest: a 2 m x 5 cm
// cantilever at 10 kPa, test_static_convergence.cpp), the load is applied in steps from the start shape, each solved
// from the last (a quarter of it first, doubled after a success, halved after a failure).
// Not in the step loop: it allocates its own double buffers. Contacts (ground, colliders, bodies),
// gas pressure and damping play no part.
#pragma once
#include <cstdint>

#include "solver/spring_forces.h"

namespace sb {

struct StaticSettings {
  double tolerance = 1e-8;      // stop at |unbalanced force| <= tolerance |load| (2-norms)
  int max_newton = 60;          // Newton iterations
  int max_cg = 100000;          // CG iterations per Newton iteration
};

enum class StaticStatus : int32_t {
  Converged = 0,
  NotConverged = 1,  // max_newton reached, or the line search found no decrease
  NoLoad = 2,        // nothing to balance: no gravity, or no free particle with mass (x unchanged)
  Unsupported = 3,   // gas pressure (not an energy the solver minimises), or no finite stiffness
  Unheld = 4,        // a connected part with load but no held particle: it falls, no equilibrium (x unchanged)
};

struct StaticReport {
  StaticStatus status = StaticStatus::NotConverged;
  int newton_iterations = 0;
  long cg_iterations = 0;          // summed over the Newton iterations
  double relative_residual = 0.0;  // |unbalanced force| / |load| at exit
  double energy = 0.0;             // Phi at exit relative to the start, J
  double seconds = 0.0;            // wall time, s (for the docs' cost table; never asserted)
  int load_steps = 0;              // load fractions solved after the full-load Newton failed (0: it converged)
};

// Moves x (3 floats per particle, m) to the static equilibrium of m under m.gravity. Particles with
// inverse mass 0 stay where they are. On Unsupported, NoLoad or Unheld x is unchanged; otherwise x is the
// last iterate (converged or not: see status and relative_residual).
StaticReport solve_static(const ForceModel& m, float* x, const StaticSettings& settings = StaticSettings{});

}  // namespace sb
