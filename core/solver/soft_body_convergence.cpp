// SoftBody's report of convergence by target (convergence.h): what each substep's passes reached,
// gathered over a frame.
#include <algorithm>

#include "solver/soft_body.h"

namespace sb {

void SoftBody::count_passes(int passes, double stiffness, bool target, bool met) {
  ConvergenceReport& f = frame_convergence_;
  f.passes += passes;
  ++f.substeps;
  if (stiffness < 0.0) return;  // not measured in this substep
  f.stiffness_reached = f.status == ConvergenceStatus::NotMeasured ? stiffness : std::min(f.stiffness_reached, stiffness);
  if (!target) f.status = ConvergenceStatus::Fixed;
  else if (!met) f.status = ConvergenceStatus::BudgetSpent;
  else if (f.status != ConvergenceStatus::BudgetSpent) f.status = ConvergenceStatus::Met;
}

}  // namespace sb
