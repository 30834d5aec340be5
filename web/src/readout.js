// The small numbers in the corner: frame rate, physics time per frame, mesh size, volume, contacts
// (particles touching the ground or obstacles, and the deepest penetration corrected), the solver
// and its residual, and a line about how the current mesh was made (after an import). Averages over
// half a second and touches the DOM only then, so it costs nothing per frame.
import { STIFFNESS_TOOLTIP, stiffnessText } from './convergence.js';
import { POSITION_BASED_SOLVERS } from './softbody.js';

const WINDOW_MS = 500;

// A ratio as a percentage, or "—" when it is no longer a shape's (non-finite, or beyond 1000 %: an
// exploded body prints 24871.1 % otherwise, which reads as a measurement).
export function formatPercent(ratio) {
  return Number.isFinite(ratio) && Math.abs(ratio) <= 10 ? `${(100 * ratio).toFixed(1)} %` : '—';
}

// sb_body_stats.residual in words: how far the last substep was from solved (XPBD: the largest
// relative constraint error; VBD: relative force imbalance). ~1e-3 and below the body is as stiff as
// its material; above, softer than set (docs/physics.md "How far from solved").
export const RESIDUAL_TOOLTIP = 'residual: how far the last substep was from solved (XPBD: the largest relative constraint error |C + α̃λ|; VBD: the relative force imbalance). '
  + 'About 1e-3 and below the body is as stiff as its material; above, it is softer than set: raise iterations or substeps.';
export function describeResidual(residual) {
  if (!(residual > 0)) return '';
  if (!Number.isFinite(residual)) return ' · residual —';
  const words = residual <= 1e-3 ? 'solved' : residual <= 1e-2 ? 'nearly solved' : 'softer than set';
  return ` · residual ${residual.toExponential(0)} (${words})`;
}

export class Readout {
  constructor(element) {
    this.element = element;
    this.fields = {};
    for (const [key, label] of [
      ['fps', 'fps'],
      ['physics', 'physics'],
      ['particles', 'particles'],
      ['tets', 'tets'],
      ['volume', 'volume'],
      ['bodies', 'bodies'],
      ['contacts', 'contacts'],
      ['solver', 'solver'],
    ]) {
      const row = document.createElement('div');
      const name = document.createElement('span');
      const value = document.createElement('b');
      name.textContent = label;
      value.dataset.field = key;
      row.append(name, value);
      element.append(row);
      this.fields[key] = value;
    }
    this.meshLine = document.createElement('div');
    this.meshLine.className = 'readout-line';
    this.meshLine.dataset.field = 'mesh';
    this.meshLine.hidden = true;
    element.append(this.meshLine);
    this.windowStart = performance.now();
    this.frames = 0;
    this.steps = 0;
    this.stepMsSum = 0;
    this.fps = 0;
    this.physicsMs = null; // ms per step, null while paused
  }

  // One line under the numbers, e.g. what the tetrahedralizer made; null hides it.
  setMeshInfo(text) {
    this.meshLine.textContent = text ?? '';
    this.meshLine.hidden = !text;
  }

  // now: rAF timestamp (ms); stepMs: world.step wall time this frame, or null when paused.
  // world: optional { bodies: count, contacts(): { contacts, deepest, ms } | null } over every body of the
  // page (asked only when the numbers refresh); without it the one body's stats are shown.
  // threads: the threads stepping the world (shown after the physics time when more than 1).
  frame(now, { stepMs, body, stats, world = null, threads = 1 }) {
    this.frames += 1;
    if (stepMs !== null) {
      this.steps += 1;
      this.stepMsSum += stepMs;
    }
    const elapsed = now - this.windowStart;
    if (elapsed < WINDOW_MS) return;
    this.fps = (1000 * this.frames) / elapsed;
    this.physicsMs = this.steps ? this.stepMsSum / this.steps : null;
    this.windowStart = now;
    this.frames = this.steps = this.stepMsSum = 0;

    const f = this.fields;
    f.fps.textContent = this.fps.toFixed(0);
    f.physics.textContent = this.physicsMs === null ? 'paused' : `${this.physicsMs.toFixed(2)} ms${threads > 1 ? ` · ${threads} threads` : ''}`;
    f.particles.textContent = body.vertexCount.toLocaleString('en-US');
    f.tets.textContent = body.tetCount.toLocaleString('en-US');
    f.volume.textContent = formatPercent(stats.volumeRatio);
    f.bodies.parentElement.hidden = !world;
    if (world) f.bodies.textContent = String(world.bodies);
    // Force-based solvers count no contacts (their contact is at velocity level): show a dash.
    const summary = world
      ? world.contacts()
      : POSITION_BASED_SOLVERS.has(stats.solver)
        ? { contacts: stats.contacts, deepest: stats.maxPenetration }
        : null;
    const contactMs = summary && summary.ms !== undefined ? ` · ${summary.ms.toFixed(1)} ms` : '';
    f.contacts.textContent = summary ? `${summary.contacts.toLocaleString('en-US')} · ${(1000 * summary.deepest).toFixed(1)} mm${contactMs}` : '–';
    // The page's body's solver and how stiff its passes made it (convergence.js); the raw residual
    // only where that is not measured (the simple material under XPBD).
    const name = stats.solver === 'vbd' ? 'VBD' : stats.solver.toUpperCase();
    const stiffness = typeof body.convergence === 'function' ? stiffnessText(body.convergence()) : null;
    const residual = stiffness ? '' : describeResidual(stats.residual);
    f.solver.textContent = stiffness ? `${name} · ${stiffness}` : `${name}${residual}`;
    f.solver.parentElement.title = stiffness ? STIFFNESS_TOOLTIP : residual ? RESIDUAL_TOOLTIP : '';
  }
}
