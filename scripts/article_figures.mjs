// Runs the article's figures (web/article.html) in node, through the same Figure code the
// <soft-body> element uses, and prints the numbers its captions quote. The setups are read from the
// article's own tags, so what is measured is what the page shows.
//   node scripts/article_figures.mjs
import { readFileSync } from 'node:fs';
import { ATTRIBUTES, parseAttribute, propertyName } from '../web/src/embed/attributes.js';
import { Figure } from '../web/src/embed/figure.js';

// { id: { attributeName: text } } for every <soft-body id="..."> in the article.
export function articleFigures(html = readFileSync(new URL('../web/article.html', import.meta.url), 'utf8')) {
  const figures = {};
  for (const [, attrs] of html.matchAll(/<soft-body\s([^>]*)>/g)) {
    const map = {};
    for (const [, name, , value] of attrs.matchAll(/([a-z-]+)(="([^"]*)")?/g)) map[name] = value ?? '';
    figures[map.id] = map;
  }
  return figures;
}

// Builds a figure from attribute texts (overrides replace some), as the element would.
export function buildFigure(softbody, attributes, overrides = {}) {
  const values = {};
  for (const a of ATTRIBUTES) values[propertyName(a.name)] = parseAttribute(a.name, { ...attributes, ...overrides }[a.name] ?? null);
  const figure = new Figure(softbody);
  figure.build({ scene: values.scene, resolution: values.resolution, solvers: values.compare ?? [values.solver], values, start: values.start });
  return figure;
}

// Steps `seconds` of the figure's dt; calls sample(time) once per simulated second; returns
// { exploded: [{ solver, time }] }.
export function runFor(figure, seconds, sample = () => {}) {
  const dt = figure.config.values.dt;
  const exploded = [];
  const frames = Math.round(seconds / dt);
  for (let i = 1; i <= frames; i++) {
    for (const lane of figure.advance(dt)) exploded.push({ solver: lane.solver, time: lane.explodedAt });
    if (Math.round(i * dt * 1000) % 1000 === 0) sample(i * dt);
  }
  return { exploded };
}

export const topOf = (body) => {
  const p = body.positions;
  let top = -Infinity;
  for (let i = 1; i < p.length; i += 3) top = Math.max(top, p[i]);
  return top;
};

async function main() {
  const { load } = await import('../tests/bridge/load.mjs');
  const sb = await load();
  const figures = articleFigures();
  const line = (figure) => figure.lanes.map((l) => `${l.solver} E ${l.energy.toFixed(2)} J, V ${(100 * l.stats.volumeRatio).toFixed(1)} %, top ${topOf(l.body).toFixed(3)} m${l.exploded ? ' (exploded)' : ''}`).join(' | ');
  const report = (title, figure, seconds, every = 1) => {
    console.log(`\n${title}: start ${figure.lanes.map((l) => `${l.solver} E ${l.energy.toFixed(2)} J`).join(', ')}`);
    const { exploded } = runFor(figure, seconds, (t) => {
      if (Math.round(t) % every === 0) console.log(`  ${t.toFixed(0)} s: ${line(figure)}`);
    });
    for (const e of exploded) console.log(`  ${e.solver} exploded at ${e.time.toFixed(2)} s`);
    figure.destroy();
  };
  report('Figure 1 (spring, explicit vs semi-implicit Euler)', buildFigure(sb, figures['fig-spring']), 8, 2);
  const mass = buildFigure(sb, figures['fig-limit']);
  const m = mass.lanes[0].stats.mass / 2; // the free end carries half the spring's mass
  console.log(`\nFigure 2: free mass ${m.toFixed(3)} kg, h = 1/60 s: k_max = 4 m / h^2 = ${(4 * m * 3600).toFixed(0)} N/m`);
  mass.destroy();
  for (const k of [5000, 5300, 5600, 6000]) report(`Figure 2 at k = ${k} N/m`, buildFigure(sb, figures['fig-limit'], { stiffness: String(k) }), 2, 2);
  report('Figure 3 (box, 1 substep, k = 5000)', buildFigure(sb, figures['fig-rk4']), 4, 2);
  report('Figure 3 at k = 7000', buildFigure(sb, figures['fig-rk4'], { stiffness: '7000' }), 2, 2);
  report('Figure 4 (PBD vs XPBD) at 5 substeps', buildFigure(sb, figures['fig-pbd']), 10, 10);
  report('Figure 4 at 40 substeps', buildFigure(sb, figures['fig-pbd'], { substeps: '40' }), 10, 10);
  report('Figure 5 (XPBD ball)', buildFigure(sb, figures['fig-xpbd']), 4, 2);
  report('Figure 6a (edges only, squashed)', buildFigure(sb, figures['fig-edges']), 4, 2);
  report('Figure 6a at edge compliance 1e-4', buildFigure(sb, figures['fig-edges'], { 'edge-compliance': '0.0001' }), 4, 2);
  report('Figure 6b (edges + volume, squashed)', buildFigure(sb, figures['fig-volume']), 4, 2);
  report('Figure 7 (pressure ball)', buildFigure(sb, figures['fig-pressure']), 4, 2);
  report('Figure 7 without gas', buildFigure(sb, figures['fig-pressure'], { pressure: '0' }), 4, 2);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
