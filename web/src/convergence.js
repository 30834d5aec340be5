// Convergence by target (docs/solvers.md): what a body's last step did about its stiffness target
// (Param.stiffnessTarget, Param.maxIterations), read through sb_body_get_convergence. Body.convergence()
// in bridge_body.js calls this; the page's readout and <soft-body> show it.

// sb_convergence_status
export const ConvergenceStatus = Object.freeze({ notMeasured: 0, fixed: 1, met: 2, budgetSpent: 3 });
const STATUS_NAMES = Object.keys(ConvergenceStatus);

// { stiffnessReached (0..1, the lowest over the last frame's substeps), status (a ConvergenceStatus key),
//   passes (XPBD passes or VBD sweeps over the frame), substeps }.
export function bodyConvergence(body) {
  const sb = body.sb;
  body._call('_sb_body_get_convergence', sb._stats); // sb_convergence: float, 3 x int32 (16 bytes)
  const f = new Float32Array(sb.buffer, sb._stats, 1);
  const i = new Int32Array(sb.buffer, sb._stats + 4, 3);
  return { stiffnessReached: f[0], status: STATUS_NAMES[i[0]] ?? 'notMeasured', passes: i[1], substeps: i[2] };
}

// The readout's words for it: "stiffness reached ≈ 87 % (budget spent)", or null when not measured.
export function stiffnessText(c) {
  if (!c || c.status === 'notMeasured') return null;
  const percent = Math.round(100 * c.stiffnessReached);
  const why = c.status === 'budgetSpent' ? ' (budget spent)' : c.status === 'met' ? ' (target met)' : '';
  return `stiffness reached ≈ ${percent} %${why}`;
}

// What the number means, for tooltips.
export const STIFFNESS_TOOLTIP =
  'How stiff the solver made the body this frame, as a share of its material: passes that stop short leave a ' +
  'body softer than set, and at 60 % it sags about 1/0.6 of what the material alone would give. ' +
  'With a target the solver runs passes until it is reached or its budget of passes per substep is spent.';
