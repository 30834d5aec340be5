// One view's chrome, laid over its part of the shared canvas: the solver menu, substep and iteration
// fields, the heads-up line (physics ms per frame, total energy, volume, max edge strain, the tip's
// sag on the cantilever, state) and the EXPLODED label. Numbers are averaged over half a second and
// written to the DOM only then; the state changes at once.
import { formatPercent } from '../readout.js';
import { POSITION_BASED_SOLVERS } from '../softbody.js';
import { RANGES, SOLVER_LABELS, SOLVERS } from './setup.js';

const WINDOW_MS = 500;

// Beyond a gigajoule (a 1 kg body at 45 km/s) the number only says "exploded": shown as "—".
function formatEnergy(joules) {
  const abs = Math.abs(joules);
  if (!Number.isFinite(joules) || abs >= 1e9) return '—';
  if (abs >= 1e6) return `${(joules / 1e6).toFixed(2)} MJ`;
  if (abs >= 1e3) return `${(joules / 1e3).toFixed(2)} kJ`;
  return `${joules.toFixed(0)} J`;
}

const percent = formatPercent;

export class ViewCell {
  // handlers: { solver(name) -> bool, substeps(n) -> bool }: apply a change, false if refused
  // (the control then snaps back to the lane's value, which it reads on the next sync()).
  constructor(parent, index, color, handlers) {
    this.index = index;
    const cell = (this.element = document.createElement('article'));
    cell.className = 'cell';
    cell.dataset.view = String(index);
    cell.style.setProperty('--view-color', color);

    const head = document.createElement('header');
    head.className = 'cell-head';
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.textContent = String(index + 1);
    const solver = (this.solverSelect = document.createElement('select'));
    solver.className = 'solver';
    solver.setAttribute('aria-label', `view ${index + 1} solver`);
    for (const name of SOLVERS) solver.add(new Option(SOLVER_LABELS[name], name));
    // A labelled whole-number field in RANGES[key]'s range.
    const numberField = (key, text, aria, className) => {
      const label = document.createElement('label');
      label.className = className;
      label.textContent = text;
      const input = document.createElement('input');
      input.type = 'number';
      input.min = String(RANGES[key].min);
      input.max = String(RANGES[key].max);
      input.step = '1';
      input.setAttribute('aria-label', `view ${index + 1} ${aria}`);
      label.append(input);
      return { label, input };
    };
    const substepsField = numberField('substeps', 'substeps ', 'substeps', 'substeps');
    const substeps = (this.substepsInput = substepsField.input);
    const substepsLabel = substepsField.label;
    // XPBD/PBD passes or VBD sweeps per substep (the integrators have none: hidden for them).
    const iterationsField = numberField('iterations', '× ', 'iterations per substep', 'substeps iterations');
    iterationsField.label.title = 'passes (XPBD, PBD) or sweeps (VBD) per substep';
    const iterations = (this.iterationsInput = iterationsField.input);
    const iterationsLabel = (this.iterationsLabel = iterationsField.label);
    head.append(swatch, solver, substepsLabel, iterationsLabel);

    const hud = document.createElement('div');
    hud.className = 'hud';
    this.fields = {};
    for (const [key, label] of [
      ['ms', 'physics'],
      ['energy', 'E'],
      ['volume', 'V'],
      ['strain', 'max strain'],
      ['sag', 'tip sag'],
      ['state', ''],
    ]) {
      const item = document.createElement('span');
      item.className = `hud-${key}`;
      if (label) item.append(`${label} `);
      const value = document.createElement('b');
      value.dataset.field = key;
      item.append(value);
      hud.append(item);
      this.fields[key] = value;
    }

    const label = (this.explodedLabel = document.createElement('div'));
    label.className = 'cell-exploded';
    label.hidden = true;
    label.setAttribute('role', 'status');

    cell.append(head, hud, label);
    parent.append(cell);

    this.view = null;
    solver.addEventListener('change', () => {
      if (!handlers.solver(solver.value)) this.sync(this.view);
    });
    substeps.addEventListener('change', () => {
      if (!handlers.substeps(Number(substeps.value))) this.sync(this.view);
    });
    iterations.addEventListener('change', () => {
      if (!handlers.iterations(Number(iterations.value))) this.sync(this.view);
    });

    this.windowStart = performance.now();
    this.steps = 0;
    this.stepMsSum = 0;
    this.exploded = null;
  }

  // Shows a view's { solver, substeps } (after a preset, the URL, or a refused change).
  sync(view) {
    this.view = { ...view };
    this.solverSelect.value = view.solver;
    this.substepsInput.value = String(view.substeps);
    this.iterationsInput.value = String(view.iterations ?? 1);
    // Only the iterative solvers have passes or sweeps to set.
    this.iterationsLabel.hidden = !POSITION_BASED_SOLVERS.has(view.solver);
  }

  // Once per frame after the step. lane: the view's Lane; stepped: whether it advanced this frame.
  frame(now, lane, stepped) {
    if (lane.exploded !== this.exploded) {
      this.exploded = lane.exploded;
      this.element.classList.toggle('is-exploded', Boolean(lane.exploded));
      this.explodedLabel.hidden = !lane.exploded;
      if (lane.exploded) {
        this.explodedLabel.replaceChildren();
        const title = document.createElement('strong');
        title.textContent = `EXPLODED at ${lane.explodedAt.toFixed(2)} s`;
        const detail = document.createElement('small');
        detail.textContent = `${lane.exploded} · frozen at its last sane shape (${lane.saneAt.toFixed(2)} s) · reset to restart`;
        this.explodedLabel.append(title, detail);
      }
      this.fields.state.textContent = lane.exploded ? 'EXPLODED' : 'stable';
    }
    if (stepped && !lane.exploded) {
      this.steps += 1;
      this.stepMsSum += lane.stepMs;
    }
    if (now - this.windowStart < WINDOW_MS && this.fields.energy.textContent) return;
    this.windowStart = now;
    const f = this.fields;
    f.ms.textContent = this.steps ? `${(this.stepMsSum / this.steps).toFixed(2)} ms` : lane.exploded ? 'stopped' : 'paused';
    // An exploded view's numbers are not measurements (E 9.67e+124 MJ, V 24871 %): say so instead.
    f.energy.textContent = lane.exploded ? 'exploded' : formatEnergy(lane.energy);
    f.volume.textContent = lane.exploded ? '—' : percent(lane.stats.volumeRatio);
    f.strain.textContent = lane.exploded ? '—' : percent(lane.stats.maxEdgeStrain);
    // The free end's sag (the cantilever), against beam theory's where the material has an E.
    const sag = lane.tipSag();
    f.sag.parentElement.hidden = sag === null;
    if (sag !== null && lane.exploded) f.sag.textContent = '—';
    else if (sag !== null) {
      const settled = lane.staticSag();
      const refs = [settled === null ? null : `static ${(1000 * settled).toFixed(1)}`, lane.beamSag ? `beam ${(1000 * lane.beamSag).toFixed(0)}` : null].filter(Boolean);
      f.sag.textContent = `${(1000 * sag).toFixed(1)} mm${refs.length ? ` (${refs.join(', ')})` : ''}`;
    }
    f.state.textContent = lane.exploded ? 'EXPLODED' : 'stable';
    this.steps = 0;
    this.stepMsSum = 0;
  }

  dispose() {
    this.element.remove();
  }
}
