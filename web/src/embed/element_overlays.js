// The parts of a <soft-body> drawn over and under its views: one label per view (its solver when
// several are compared, EXPLODED once it has) and the live plot below. Functions of the element
// (soft_body_element.js), which owns the state they read.
import { SOLVER_LABELS } from './attributes.js';

export function setupPlot(el) {
  const kind = el._values.plot;
  const canvas = el._parts.plot;
  canvas.hidden = kind === 'none';
  if (kind === 'none' || !el._rt || !el._figure?.built) {
    el._plot = null;
    return;
  }
  const panels = kind === 'both' ? ['energy', 'volume'] : [kind];
  if (!el._plot || el._plot.canvas !== canvas || el._plot.panels.join() !== panels.join()) {
    el._plot = new el._rt.Plot(canvas, { panels });
  }
  el._plot.setSeries(el._figure.lanes.map((lane, i) => ({ label: SOLVER_LABELS[lane.solver], color: el._rt.VIEW_COLORS[i] })));
  canvas.setAttribute('aria-label', `${panels.join(' and ')} against simulated time, one line per view`);
  el._plotDrawn = false;
}

export function samplePlot(el) {
  const plot = el._plot;
  if (!plot) return;
  const figure = el._figure;
  plot.beginSample(figure.time);
  figure.lanes.forEach((lane, i) => {
    const live = !lane.exploded || (lane.explodedAt === figure.time && lane.stats.finite);
    plot.sample(i, live ? lane.energy : NaN, live ? lane.stats.volumeRatio : NaN, Boolean(lane.exploded));
  });
}

// One label per view: its solver (when several are compared) and EXPLODED once it has; the first
// also says which backend runs the views and why, when the page asked for a choice (backend="...").
export function labelViews(el) {
  const lanes = el._figure?.lanes ?? [];
  const rects = el._view?.rects ?? [];
  const container = el._parts.labels;
  while (el._labels.length > lanes.length) el._labels.pop().remove();
  while (el._labels.length < lanes.length) {
    const label = document.createElement('div');
    label.className = 'label';
    const name = document.createElement('span');
    const exploded = document.createElement('span');
    exploded.className = 'exploded';
    const backend = document.createElement('span');
    backend.className = 'backend';
    label.append(name, exploded, backend);
    container.append(label);
    el._labels.push(label);
  }
  lanes.forEach((lane, i) => {
    const label = el._labels[i];
    const [name, exploded, backend] = label.children;
    const several = lanes.length > 1;
    const chosen = i === 0 && el._values.backend !== 'wasm' ? el._backend : null;
    backend.hidden = !chosen;
    backend.textContent = chosen ? `${chosen.backend} · ${chosen.reason}` : '';
    name.textContent = several ? SOLVER_LABELS[lane.solver] : '';
    name.hidden = !several;
    exploded.hidden = !lane.exploded;
    exploded.textContent = lane.exploded ? `EXPLODED at ${lane.explodedAt.toFixed(2)} s` : '';
    label.hidden = !several && !lane.exploded && !chosen;
    label.style.setProperty('--view-color', el._rt?.VIEW_COLORS[i] ?? '#ff5a3c');
    const r = rects[i];
    if (r) Object.assign(label.style, { left: `${r.x}px`, top: `${r.y}px` });
  });
}
