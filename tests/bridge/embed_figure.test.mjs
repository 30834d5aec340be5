// The <soft-body> element's DOM-free parts in node: the attribute table and its parsing
// (web/src/embed/attributes.js), and the figure (web/src/embed/figure.js) driving real wasm
// worlds: one physics for every compared view, all-or-nothing changes, the explosion rule.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';

import { ATTRIBUTES, ATTRIBUTE_NAMES, formatAttribute, parseAttribute, propertyName } from '../../web/src/embed/attributes.js';
import { embedSnippets } from '../../web/src/embed/embed_code.js';
import { Figure, bodyParams } from '../../web/src/embed/figure.js';
import { Param } from '../../web/src/softbody.js';
import { attributeTable } from '../../scripts/attribute_table.mjs';
import { load } from './load.mjs';

const sb = await load();

function defaults() {
  const values = {};
  for (const a of ATTRIBUTES) values[propertyName(a.name)] = a.default;
  return values;
}

test('every body attribute names a C API parameter, and every C API parameter has an attribute', () => {
  const params = ATTRIBUTES.filter((a) => a.param).map((a) => a.param).sort();
  assert.deepEqual(params, Object.keys(Param).sort());
  assert.equal(new Set(ATTRIBUTE_NAMES).size, ATTRIBUTE_NAMES.length, 'names are unique');
  for (const a of ATTRIBUTES) assert.match(a.name, /^[a-z]+(-[a-z]+)*$/, `${a.name} is kebab-case`);
});

test('attribute text is read strictly, with a sentence for each mistake', () => {
  assert.equal(parseAttribute('edge-compliance', ' 1e-3 '), 1e-3);
  assert.equal(parseAttribute('edge-compliance', null), 1e-4, 'removed: the default');
  assert.throws(() => parseAttribute('edge-compliance', 'soft'), /edge-compliance="soft" is not a number/);
  assert.throws(() => parseAttribute('edge-compliance', ''), /is not a number/);
  assert.throws(() => parseAttribute('substeps', '2.5'), /not a whole number/);
  assert.throws(() => parseAttribute('dt', '2'), /dt must be in \[0.0001, 0.1\], got 2/);
  assert.equal(parseAttribute('solver', 'semi-implicit-euler'), 'semiImplicitEuler');
  assert.equal(parseAttribute('solver', 'rk4'), 'rk4');
  assert.throws(() => parseAttribute('solver', 'leapfrog'), /unknown solver "leapfrog"/);
  assert.deepEqual(parseAttribute('compare', 'explicit-euler, xpbd'), ['explicitEuler', 'xpbd']);
  assert.throws(() => parseAttribute('compare', 'xpbd'), /2 to 4 solvers, got 1/);
  assert.throws(() => parseAttribute('compare', 'xpbd pbd rk4 heun verlet'), /got 5/);
  assert.equal(parseAttribute('autoplay', ''), true, 'a present boolean attribute is true');
  assert.equal(parseAttribute('autoplay', 'false'), false);
  assert.equal(parseAttribute('controls', 'none'), 'none');
  assert.equal(parseAttribute('controls', ''), 'minimal');
  assert.deepEqual(parseAttribute('controls', 'edge-compliance substeps'), ['edge-compliance', 'substeps']);
  assert.throws(() => parseAttribute('controls', 'edge-compliance scene'), /"scene" has no slider/);
  assert.deepEqual(parseAttribute('camera', '3 2 4'), { position: [3, 2, 4], target: null });
  assert.deepEqual(parseAttribute('camera', '3 2 4 0 0.5 0'), { position: [3, 2, 4], target: [0, 0.5, 0] });
  assert.throws(() => parseAttribute('camera', '3 2'), /needs 3 numbers/);
  assert.throws(() => parseAttribute('scene', 'teapot'), /scene="teapot" is not one of box, ball, bar, bunny/);
  assert.throws(() => parseAttribute('colour', 'red'), /unknown attribute "colour"/);
  // What is formatted reads back as the same value.
  for (const [name, value] of [['edge-compliance', 1e-4], ['compare', ['explicitEuler', 'xpbd']], ['camera', { position: [1, 2, 3], target: [0, 0.5, 0] }], ['solver', 'implicitEuler'], ['autoplay', true]]) {
    assert.deepEqual(parseAttribute(name, formatAttribute(name, value)), value, name);
  }
});

test('docs/embedding.md lists every attribute exactly as the table in attributes.js', () => {
  const readme = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
  assert.ok(readme.includes(attributeTable()), 'docs/embedding.md holds the output of scripts/attribute_table.mjs');
});

test('compared views simulate one physics: the same parameters on every body', () => {
  const figure = new Figure(sb);
  const values = { ...defaults(), stiffness: 5000 };
  figure.build({ scene: 'box', resolution: 3, solvers: ['explicitEuler', 'xpbd'], values, start: 'drop' });
  const [a, b] = figure.lanes.map((lane) => lane.body);
  for (const name of Object.keys(Param)) assert.equal(a.getParam(name), b.getParam(name), name);
  const L = figure.lanes[0].meanEdge;
  assert.ok(Math.abs(a.getParam('edgeCompliance') - 1 / 5000) < 1e-9);
  assert.ok(Math.abs(a.getParam('volumeCompliance') / (L ** 4 / 5000) - 1) < 1e-6, 'stiffness k: volume compliance L^4/k');
  assert.equal(a.solver, 'explicitEuler');
  assert.equal(b.solver, 'xpbd');
  // Unset volume compliance: incompressible for position-based views only.
  assert.equal(bodyParams(defaults(), { meanEdge: 0.2, solvers: ['xpbd', 'pbd'], scene: 'box' }).volumeCompliance, 0);
  assert.ok(Math.abs(bodyParams(defaults(), { meanEdge: 0.2, solvers: ['xpbd', 'rk4'], scene: 'box' }).volumeCompliance - 0.2 ** 4 * 1e-4) < 1e-15);
  assert.equal(bodyParams(defaults(), { meanEdge: 0.2, solvers: ['xpbd'], scene: 'pressure-ball' }).pressure, 4000);
  figure.destroy();
});

test('a refused value changes nothing in any view', () => {
  const figure = new Figure(sb);
  figure.build({ scene: 'box', resolution: 3, solvers: ['semiImplicitEuler', 'xpbd'], values: defaults(), start: 'drop' });
  const before = figure.lanes.map((lane) => Object.keys(Param).map((name) => lane.body.getParam(name)));
  // Edge compliance 0 is refused by the force-based view (it needs a finite stiffness).
  assert.throws(() => figure.setBodyValue('edgeCompliance', 0), /SB_ERR_NEEDS_COMPLIANCE/);
  assert.throws(() => figure.setBodyValue('density', -5), /SB_ERR_OUT_OF_RANGE: density/);
  assert.throws(() => figure.setWorldValue('substeps', 0), /SB_ERR_OUT_OF_RANGE/);
  const after = figure.lanes.map((lane) => Object.keys(Param).map((name) => lane.body.getParam(name)));
  assert.deepEqual(after, before);
  assert.equal(figure.config.values.density, 1000);
  assert.deepEqual(figure.lanes.map((lane) => lane.world.substeps), [10, 10]);
  assert.throws(() => figure.setSolver('rk4'), /single view/);
  figure.destroy();
});

test('material="neo-hookean" runs under XPBD, VBD and implicit Euler side by side; refused under PBD, and under XPBD beyond its stiffness number', () => {
  const figure = new Figure(sb);
  const values = { ...defaults(), material: 'neo-hookean', youngsModulus: 2e5, poissonRatio: 0.45, iterations: 8 };
  figure.build({ scene: 'box', resolution: 3, solvers: ['xpbd', 'vbd', 'implicitEuler'], values, start: 'drop' });
  for (const lane of figure.lanes) {
    assert.equal(lane.body.getParam('material'), 1);
    assert.equal(lane.body.getParam('iterations'), 8);
  }
  for (let f = 0; f < 90; f++) assert.equal(figure.advance(1 / 60).length, 0, "nothing explodes");
  for (const lane of figure.lanes) {
    const s = lane.body.stats();
    assert.ok(s.finite, lane.solver);
    assert.ok(Math.abs(s.volumeRatio - 1) < 0.02, `${lane.solver}: nu = 0.45 keeps the volume within 2 % (${s.volumeRatio})`);
    assert.ok(s.minY > -1e-3 && s.minY < 0.05, `${lane.solver} landed`);
  }
  figure.destroy();
  // PBD has no compliance, so no material; XPBD refuses a stiffness it cannot run, naming the substeps.
  const refused = new Figure(sb);
  assert.throws(() => refused.build({ scene: 'box', resolution: 3, solvers: ['pbd'], values, start: 'drop' }), /SB_ERR_MATERIAL_SOLVER.*PBD/);
  refused.destroy();
  const tooStiff = new Figure(sb);
  assert.throws(() => tooStiff.build({ scene: 'box', resolution: 3, solvers: ['xpbd'], values: { ...values, youngsModulus: 1e11 }, start: 'drop' }), /SB_ERR_MATERIAL_SOLVER.*use \d+ or more substeps/);
  tooStiff.destroy();
});

test('scene="bar" with plastic-creep: a soft-metal bar bent by its end stays bent; without creep it springs back', () => {
  // The demo's soft-metal preset on the bar, no gravity, its left end held (pinned, as a hand or a
  // vice would): the right end pulled 0.3 m sideways over 0.5 s and let go; 4 s later the plastic
  // bar still holds 0.26 m of it, the elastic one is straight within 1 mm (at 2 s it was still 17 mm
  // back: four passes at 1e-5 m/N converge its slow bending mode slowly).
  const bend = (creep) => {
    const figure = new Figure(sb);
    const values = { ...defaults(), edgeCompliance: 1e-5, iterations: 4, plasticYield: 0.02, plasticCreep: creep, gravity: 0, damping: 3 };
    figure.build({ scene: 'bar', resolution: 8, solvers: ['xpbd'], values, start: 'drop' });
    const body = figure.lanes[0].body;
    assert.equal(body.getParam('plasticCreep'), creep);
    const rest = body.positions.slice();
    for (let i = 0; i < body.vertexCount; i++) if (rest[3 * i] < -0.75) body.pin(i);
    const end = body.nearestVertex(0.8, 0.7, 0.1);
    const start = [rest[3 * end], rest[3 * end + 1], rest[3 * end + 2]];
    body.grabBegin(end, ...start);
    for (let f = 1; f <= 30; f++) {
      body.grabMove(start[0], start[1], start[2] + (0.3 * f) / 30);
      figure.advance(1 / 60);
    }
    body.grabEnd(0, 0, 0);
    for (let f = 0; f < 240; f++) assert.equal(figure.advance(1 / 60).length, 0);
    const offset = body.positions[3 * end + 2] - start[2]; // m, sideways
    figure.destroy();
    return offset;
  };
  const plastic = bend(100);
  const elastic = bend(0);
  assert.ok(plastic > 0.15, `the plastic bar stays bent: its end ${plastic.toFixed(3)} m of the 0.3 m pull`);
  assert.ok(Math.abs(elastic) < 0.01, `the elastic bar is straight again (${elastic.toFixed(4)} m)`);
});

test('explicit Euler explodes on a stiff box while XPBD lands and keeps its volume', () => {
  const figure = new Figure(sb);
  figure.build({ scene: 'box', resolution: 4, solvers: ['explicitEuler', 'xpbd'], values: { ...defaults(), stiffness: 2e4, damping: 0 }, start: 'drop' });
  let exploded = null;
  for (let frame = 0; frame < 120 && !exploded; frame++) {
    const lanes = figure.advance(1 / 60);
    if (lanes.length) exploded = { solver: lanes[0].solver, time: figure.time };
  }
  assert.ok(exploded, 'explicit Euler exploded within 2 s');
  assert.equal(exploded.solver, 'explicitEuler');
  const frozen = figure.lanes[0].body.positions.slice();
  for (let frame = 0; frame < 60; frame++) figure.advance(1 / 60);
  assert.deepEqual(figure.lanes[0].body.positions, frozen, 'an exploded view is frozen');
  const xpbd = figure.lanes[1];
  assert.equal(xpbd.exploded, null);
  assert.ok(Math.abs(xpbd.stats.volumeRatio - 1) < 0.03, `XPBD keeps its volume within 3 % (${xpbd.stats.volumeRatio})`);
  figure.restart();
  assert.equal(figure.lanes[0].exploded, null, 'restart clears the explosion');
  assert.equal(figure.time, 0);
  figure.destroy();
});

test('embed snippets leave defaults out, escape values, and their iframe address reads back as the same attributes', () => {
  const attributes = { scene: 'box', 'edge-compliance': 1e-4, density: 2000, compare: ['explicitEuler', 'xpbd'], autoplay: true, poster: 'a"b<c.png', dt: 1 / 60 };
  const { element, iframe, url } = embedSnippets(attributes, { embedUrl: 'https://example.org/figures/embed.html', title: 'x & y' });
  assert.doesNotMatch(element, /edge-compliance|scene=|dt=/, 'defaults are left out');
  assert.match(element, /density="2000"/);
  assert.match(element, /compare="explicit-euler xpbd"/);
  assert.match(element, /poster="a&quot;b&lt;c.png"/);
  assert.match(element, / autoplay[ >]/);
  assert.match(iframe, /title="x &amp; y"/);
  const params = new URL(url).searchParams;
  assert.deepEqual([...params.keys()].sort(), ['autoplay', 'compare', 'density', 'poster']);
  for (const [name, text] of params) assert.deepEqual(parseAttribute(name, text), attributes[name], name);
});

test('the embed dialog\'s figure options: left out at their defaults; alt names the iframe too, loading is the iframe\'s own', () => {
  const embedUrl = 'https://example.org/figures/embed.html';
  const base = { scene: 'ball', autoplay: true };
  const defaults = { alt: null, loading: 'lazy', reveal: 'auto', interactive: true, 'disable-zoom': false, 'camera-follow': true };
  const plain = embedSnippets({ ...base, ...defaults }, { embedUrl, title: 'a ball' });
  assert.doesNotMatch(plain.element, /alt=|loading=|reveal=|interactive|disable-zoom|camera-follow/);
  assert.match(plain.iframe, /" width="640" height="400" style="border:0" loading="lazy" title="a ball"><\/iframe>$/);
  const chosen = { alt: 'a "soft" ball', loading: 'eager', reveal: 'interaction', interactive: false, 'disable-zoom': true, 'camera-follow': false };
  const { element, iframe, url } = embedSnippets({ ...base, ...chosen }, { embedUrl, title: 'a ball' });
  assert.match(element, /<soft-body scene="ball" autoplay alt="a &quot;soft&quot; ball" loading="eager" reveal="interaction" interactive="false" disable-zoom camera-follow="false"><\/soft-body>/);
  // In the frame the figure loads with the frame: no loading parameter, and the iframe is not lazy.
  assert.match(iframe, /style="border:0" title="a &quot;soft&quot; ball"><\/iframe>$/);
  const params = new URL(url).searchParams;
  assert.deepEqual([...params.keys()], ['scene', 'autoplay', 'alt', 'reveal', 'interactive', 'disable-zoom', 'camera-follow']);
  for (const [name, text] of params) assert.deepEqual(parseAttribute(name, text), { ...base, ...chosen }[name], name);
});

test('scenery: every view gets the demo scene\'s obstacles and bodies, the same physics, reset with the body', async () => {
  const { SCENES, scenePreset } = await import('../../web/src/scenes/scene_presets.js');
  const { SCENERIES } = await import('../../web/src/embed/attributes.js');
  // Every demo scene but those with cloth (cloth, flag, drape): under the force-based integrators cloth meets neither other bodies nor itself (contact between bodies is position-based), and a figure's views may run any solver.
  const withCloth = (s) => scenePreset(s).drops.some((d) => d.kind === 'cloth');
  // And the element's own heap (heap-count bodies, for backend="webgpu").
  assert.deepEqual(SCENERIES, ['none', ...SCENES.filter((s) => s !== 'single' && !withCloth(s)), 'heap'], 'the attribute offers every demo scene');
  const figure = new Figure(sb);
  const values = { ...defaults(), scenery: 'paddle', edgeCompliance: 1e-3 };
  figure.build({ scene: 'box', resolution: 4, solvers: ['xpbd', 'vbd'], values, start: 'drop' });
  for (const lane of figure.lanes) {
    assert.equal(lane.colliders.length, 1);
    assert.equal(lane.extras.length, 3);
    assert.equal(lane.extras[0].getParam('edgeCompliance'), lane.body.getParam('edgeCompliance'), 'the scenery\'s bodies get the figure\'s values');
    assert.equal(lane.extras[0].solver, lane.solver);
  }
  const start = Array.from(figure.lanes[0].extras[0].positions);
  for (let i = 0; i < 30; i++) figure.advance(1 / 60);
  const moved = figure.lanes[0].extras[0].positions;
  assert.ok(moved[1] < start[1] - 0.05, 'the dropped box fell');
  assert.notDeepEqual(figure.lanes[0].colliders[0].rotation, [0, 0, 0, 1], 'the paddle turned');
  figure.setBodyValue('damping', 3);
  assert.ok(figure.lanes.every((lane) => lane.extras.every((b) => b.getParam('damping') === 3)));
  figure.restart();
  assert.deepEqual(Array.from(figure.lanes[0].extras[0].positions), start, 'restart puts the scenery back too');
  assert.ok(figure.bounds.halfExtents[0] > 1, 'the camera frames the whole scene');
  figure.destroy();
});

test('scenery="heap": heap-count small bodies fall into the pen and stay inside its walls', async () => {
  const figure = new Figure(sb);
  const values = { ...defaults(), scenery: 'heap', heapCount: 9 };
  figure.build({ scene: 'box', resolution: 3, solvers: ['xpbd'], values, start: 'drop' });
  const [lane] = figure.lanes;
  assert.equal(lane.extras.length, 9);
  assert.equal(lane.colliders.length, 4, 'four walls');
  // The pen's inside along x and z (m), between the walls' inner faces.
  const walls = lane.colliders.map((c) => c.spec);
  const inner = [walls[0].center[0] + walls[0].halfExtents[0], walls[1].center[0] - walls[1].halfExtents[0]];
  const innerZ = [walls[2].center[2] + walls[2].halfExtents[2], walls[3].center[2] - walls[3].halfExtents[2]];
  for (let i = 0; i < 90; i++) figure.advance(1 / 60);
  for (const b of lane.extras) {
    const p = b.positions;
    for (let v = 0; v < p.length / 3; v++) {
      // Inside the walls to within 1 cm (a vertex may press into a collider by a fraction of a substep's travel).
      assert.ok(p[3 * v] > inner[0] - 0.01 && p[3 * v] < inner[1] + 0.01, `x ${p[3 * v]} in [${inner}]`);
      assert.ok(p[3 * v + 2] > innerZ[0] - 0.01 && p[3 * v + 2] < innerZ[1] + 0.01, `z ${p[3 * v + 2]} in [${innerZ}]`);
      assert.ok(p[3 * v + 1] > -0.01 && p[3 * v + 1] < 1.2, 'landed in the pen');
    }
  }
  assert.ok(figure.bounds.center[0] > 1, 'the camera frames the pen beside the body');
  figure.destroy();
});
