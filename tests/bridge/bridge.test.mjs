// The JS bridge (web/src/softbody.js) against the built wasm module, in node.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';

import { ErrorCode, Param, Solver, SoftbodyError } from '../../web/src/softbody.js';
import { load } from './load.mjs';

const sb = await load();

test('a box is created, falls under gravity and lands on the ground', () => {
  const world = sb.createWorld();
  const body = world.addBox({ cells: [3, 3, 3], size: [1, 1, 1], center: [0, 2, 0] });
  assert.equal(body.vertexCount, 64);
  assert.equal(body.tetCount, 6 * 27);
  assert.equal(body.positions.length, 3 * 64);
  assert.equal(body.triangles.length, 3 * body.triangleCount);
  assert.ok(body.triangles.every((i) => i < body.vertexCount));
  const y0 = body.stats().center[1];
  for (let i = 0; i < 12; i++) world.step(1 / 60);
  // Free fall for 0.2 s: y drops by g t^2 / 2 = 0.196 m (XPBD's implicit Euler: g h^2 n(n+1)/2 per substep, within 1 %)
  const dropped = y0 - body.stats().center[1];
  assert.ok(Math.abs(dropped - 0.5 * 9.81 * 0.2 ** 2) < 0.01 * 0.196 + 0.002, `dropped ${dropped}`);
  for (let i = 0; i < 120; i++) world.step(1 / 60);
  const s = body.stats();
  assert.ok(s.minY >= 0, 'never below the ground');
  assert.ok(s.minY < 1e-3, 'resting on it');
  assert.ok(s.finite);
  assert.equal(s.invertedTets, 0, 'no tet turned inside out');
  world.destroy();
});

test('stats count inverted tets: a body mirrored through the shared buffer has every tet inverted', () => {
  // sb_body_stats.inverted_tets sits past the padding the struct had (offset 96): read at the right place,
  // a mirrored box reports all its tets, an upright one none.
  const world = sb.createWorld();
  const body = world.addBox({ cells: [2, 2, 2], size: [1, 1, 1], center: [0, 2, 0] });
  assert.equal(body.stats().invertedTets, 0);
  const x = body.positions;
  for (let i = 0; i < body.vertexCount; i++) x[3 * i] = -x[3 * i];
  assert.equal(body.stats().invertedTets, body.tetCount);
  world.destroy();
});

test('positions are a live zero-copy view: a step changes the same array', () => {
  const world = sb.createWorld();
  const body = world.addBall({ radius: 0.5, cells: 6, center: [0, 3, 0] });
  const view = body.positions;
  const before = view[1];
  world.step(1 / 60);
  assert.equal(body.positions, view, 'same view while memory did not grow');
  assert.ok(view[1] < before, 'the step wrote into the view');
  world.destroy();
});

test('views follow memory growth: adding bodies until wasm memory grows keeps positions correct', () => {
  const world = sb.createWorld();
  const first = world.addBox({ cells: [4, 4, 4], size: [1, 1, 1], center: [0, 5, 0] });
  for (let i = 0; i < 10; i++) world.step(1 / 60);
  const oldView = first.positions;
  const oldBuffer = sb.buffer;
  const expected = Float32Array.from(oldView);
  let added = 0;
  while (sb.buffer === oldBuffer) {
    world.addBox({ cells: [24, 24, 24], size: [1, 1, 1], center: [10, 5, 0] }); // ~83k tets each
    added++;
    assert.ok(added < 100, 'memory never grew');
  }
  assert.equal(oldView.length, 0, 'the old view was detached by the growth');
  const fresh = first.positions;
  assert.notEqual(fresh, oldView);
  assert.equal(fresh.buffer, sb.buffer);
  assert.deepEqual(Array.from(fresh), Array.from(expected), 'same positions through the new view');
  world.step(1 / 60);
  assert.ok(first.positions[1] < expected[1], 'and it keeps simulating');
  world.destroy();
});

test('C API errors arrive in JS as SoftbodyError with the C message and leave the body untouched', () => {
  const world = sb.createWorld();
  const body = world.addBox();
  const before = Float32Array.from(body.positions);
  const cases = [
    [() => world.step(0), ErrorCode.OUT_OF_RANGE, /dt must be in/],
    [() => world.step(NaN), ErrorCode.NOT_FINITE, /dt/],
    [() => world.setSubsteps(0), ErrorCode.OUT_OF_RANGE, /substeps must be in \[1, 200\]/],
    [() => body.setParam('edgeCompliance', -1), ErrorCode.OUT_OF_RANGE, /edge compliance/],
    [() => body.setParam('density', Infinity), ErrorCode.NOT_FINITE, /density/],
    [() => body.setParam('stiffness', 1), ErrorCode.UNKNOWN_PARAM, /unknown parameter/],
    [() => body.grabMove(0, 1, 0), ErrorCode.NOT_GRABBING, /not grabbed/],
    [() => body.grabBegin(body.vertexCount, 0, 1, 0), ErrorCode.INDEX_OUT_OF_RANGE, /vertex must be an integer in \[0, 124\], got 125/],
    [() => world.addBox({ cells: [0, 1, 1] }), ErrorCode.BAD_COUNT, /cells/],
    [() => world.addTets([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 2, 1, 3]), ErrorCode.INVERTED_TET, /negative volume/],
    [() => world.addTets([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, NaN], [0, 1, 2, 3]), ErrorCode.NOT_FINITE, /vertex 3/],
    [() => world.addTets([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 1, 2, 9]), ErrorCode.INDEX_OUT_OF_RANGE, /tet 0/],
  ];
  for (const [call, code, message] of cases) {
    assert.throws(call, (e) => e instanceof SoftbodyError && e.code === code && message.test(e.message));
  }
  assert.deepEqual(Array.from(body.positions), Array.from(before));
  assert.equal(world.bodyCount, 1, 'no half-made bodies');
  assert.equal(body.getParam('edgeCompliance'), 0, 'parameter unchanged');
  world.destroy();
});

test('destroyed bodies and worlds are refused, not reached', () => {
  const world = sb.createWorld();
  const body = world.addBox();
  body.destroy();
  assert.throws(() => body.stats(), (e) => e.code === ErrorCode.INVALID_BODY);
  world.destroy();
  assert.throws(() => world.step(1 / 60), (e) => e.code === ErrorCode.INVALID_WORLD && /not a live world/.test(e.message));
});

test('parameters round-trip with their documented names', () => {
  const world = sb.createWorld();
  const body = world.addBox();
  const values = { edgeCompliance: 1e-4, volumeCompliance: 2e-6, density: 500, damping: 1.5, restitution: 0.7, friction: 0.9, grabCompliance: 1e-3, grabRadius: 0.2, springDamping: 3, pbdStiffness: 0.25, pressure: 100, iterations: 3, material: 0, youngsModulus: 2e6, poissonRatio: 0.4, plasticYield: 0.05, plasticCreep: 20, arealDensity: 0.3, bendingStiffness: 1e-3, thickness: 0.01, stiffnessTarget: 0.9, maxIterations: 5, longRangeStretch: 1.1, dragCoefficient: 1.2, liftCoefficient: 0.5, tearStrain: 0.3, strainSmoothing: 0 }; // strainSmoothing > 0 needs Neo-Hookean under a force-based solver: strain_smoothing.test.mjs
  body.setParams(values);
  for (const [name, v] of Object.entries(values)) assert.ok(Math.abs(body.getParam(name) - v) <= Math.abs(v) * 1e-7, name);
  assert.deepEqual(Object.keys(Param).sort(), Object.keys(values).sort());
  assert.ok(Math.abs(body.stats().mass - 500) < 1e-3, 'density sets the mass: 500 kg/m^3 x 1 m^3');
  world.destroy();
});

test('grab and throw from JS: the body follows the pointer and flies on after release', () => {
  const world = sb.createWorld();
  const body = world.addBox({ cells: [3, 3, 3], size: [0.6, 0.6, 0.6], center: [0, 0.3, 0] });
  body.setParams({ edgeCompliance: 1e-4, damping: 0.5 });
  const v = body.nearestVertex(0, 0.6, 0);
  const p = body.positions;
  const target = [p[3 * v], p[3 * v + 1], p[3 * v + 2]];
  body.grabBegin(v, ...target);
  assert.equal(body.stats().grabbedVertex, v);
  for (let f = 0; f < 40; f++) {
    target[1] += 0.03;
    target[0] += 0.05; // 3 m/s sideways
    body.grabMove(...target);
    world.step(1 / 60);
  }
  assert.ok(Math.abs(body.positions[3 * v + 1] - target[1]) < 1e-4, 'kinematic grab is on target');
  body.grabEnd(3, 1.8, 0);
  const x0 = body.stats().center[0];
  for (let f = 0; f < 10; f++) world.step(1 / 60);
  assert.ok(body.stats().center[0] > x0 + 0.2, 'thrown sideways');
  world.destroy();
});

// Declared names found without the build's pattern: any identifier sb_... followed by "(" on a line
// that is not a comment (digits and capitals included), so a pattern that skips some is caught.
function declaredNames(header) {
  const names = new Set();
  for (const line of header.split('\n')) {
    if (/^\s*(\/\*|\*|\/\/|#)/.test(line)) continue;
    for (const m of line.replace(/\/\*.*?(\*\/|$)/g, '').matchAll(/\b(sb_\w+)\s*\(/g)) names.add(m[1]);
  }
  return names;
}

test('every function declared in softbody.h is exported by the module', () => {
  const header = readFileSync(new URL('../../emscripten/softbody.h', import.meta.url), 'utf8');
  const cmake = readFileSync(new URL('../../emscripten/wasm.cmake', import.meta.url), 'utf8');
  // The export pattern exactly as wasm.cmake writes it (CMake's "\\(" is the regex \().
  const pattern = cmake.match(/string\(REGEX MATCHALL "([^"]+)" SOFTBODY_DECLS/)[1].replaceAll('\\\\', '\\');
  const exported = new Set([...header.matchAll(new RegExp(pattern, 'g'))].map((m) => m[1]));
  const declared = declaredNames(header);
  assert.ok(declared.size > 30);
  assert.ok(declared.has('sb_body_tet_6_rest_volumes'), 'a name with a digit is declared');
  assert.deepEqual([...declared].filter((n) => !exported.has(n)), [], `wasm.cmake's pattern ${pattern} misses these`);
  for (const n of declared) assert.equal(typeof sb.M[`_${n}`], 'function', n);
});

test('solvers switch by name, refuse infinite stiffness with the C message, and report energies', () => {
  const world = sb.createWorld();
  const body = world.addBox({ cells: [3, 3, 3], size: [0.6, 0.6, 0.6], center: [0, 1, 0] });
  assert.throws(() => body.setSolver('rk4'), (e) => e.code === ErrorCode.NEEDS_COMPLIANCE && /compliance > 0/.test(e.message));
  assert.throws(() => body.setSolver('leapfrog'), (e) => e.code === ErrorCode.UNKNOWN_SOLVER);
  body.setParams({ edgeCompliance: 1e-3, volumeCompliance: 1e-5 });
  for (const name of Object.keys(Solver)) {
    body.reset();
    body.setSolver(name);
    assert.equal(body.solver, name);
    world.step(1 / 60);
    const s = body.stats();
    assert.equal(s.solver, name);
    assert.ok(s.finite, name);
    // Gravity relative to y = 0: 216 kg at ~1 m, within float32 of m g y.
    assert.ok(Math.abs(s.potentialEnergy - s.mass * 9.81 * s.center[1]) < 1e-3 * s.potentialEnergy, name);
    assert.ok(s.elasticEnergy >= 0, name);
    assert.equal(s.cgIterations > 0, name === 'implicitEuler', name);
  }
  world.destroy();
});

test('rope, jelly and pressure ball from JS: counts, views and a step', () => {
  const world = sb.createWorld();
  const rope = world.addRope({ segments: 12, length: 1.2, anchor: [0, 2, 0] });
  assert.equal(rope.vertexCount, 13);
  assert.equal(rope.edges.length, 24);
  assert.equal(rope.triangleCount, 0);
  const jelly = world.addJelly({ cells: 3, size: 0.6, center: [2, 1, 0] });
  assert.equal(jelly.tetCount, 0);
  assert.equal(jelly.triangleCount, 6 * 9 * 2);
  const ball = world.addPressureBall({ radius: 0.4, cells: 6, center: [-2, 1, 0], pressure: 500 });
  assert.equal(ball.getParam('pressure'), 500);
  assert.throws(() => world.addPressureBall({ pressure: -1 }), (e) => e.code === ErrorCode.OUT_OF_RANGE);
  assert.equal(world.bodyCount, 3, 'the refused ball was not left behind');
  for (let i = 0; i < 30; i++) world.step(1 / 60);
  assert.equal(rope.positions[1], 2, 'anchor pinned');
  assert.ok(rope.positions[3 * 12 + 1] < 1.9, 'the free end swung down');
  world.destroy();
});

test('bodies without tets or triangles give empty arrays (the C API returns NULL with no error)', () => {
  const world = sb.createWorld();
  const rope = world.addRope({ segments: 6, length: 0.6, anchor: [0, 2, 0] });
  const jelly = world.addJelly({ cells: 2, size: 0.4, center: [2, 1, 0] });
  assert.equal(rope.triangles.length, 0);
  assert.equal(rope.tets.length, 0);
  assert.equal(jelly.tets.length, 0);
  assert.ok(jelly.triangles.length > 0);
  world.destroy();
});

test('stats: energies are read as doubles, beyond float range while the state is finite; dt has a minimum', () => {
  const world = sb.createWorld();
  const body = world.addBox({ cells: [2, 2, 2], size: [1, 1, 1], center: [0, 1, 0] });
  body.setParam('edgeCompliance', 1e-6);
  const rest = body.stats();
  assert.equal(rest.volumeRatio, 1);
  assert.equal(rest.kineticEnergy, 0);
  assert.ok(Math.abs(rest.potentialEnergy - rest.mass * 9.81 * rest.center[1]) < 1e-3 * rest.potentialEnergy);
  assert.equal(rest.solver, 'xpbd');
  assert.equal(rest.grabbedVertex, -1);
  body.positions[1] = 1e30; // finite: an edge of 1e30 m stores ~1e66 J at compliance 1e-6
  const s = body.stats();
  assert.ok(s.finite);
  assert.ok(Number.isFinite(s.elasticEnergy) && s.elasticEnergy > 1e60, `elastic ${s.elasticEnergy}`);
  assert.throws(() => world.step(1e-30), (e) => e.code === ErrorCode.OUT_OF_RANGE && /dt must be in \[1e-06, 1\] s/.test(e.message));
  world.destroy();
});

test('ErrorCode mirrors the C names of every code', () => {
  for (const [key, code] of Object.entries(ErrorCode)) {
    if (code === 0) continue;
    assert.equal(sb.M.UTF8ToString(sb.M._sb_error_name(code)), `SB_ERR_${key}`);
  }
});

test('vertex groups from JS: a painted half weighs more and the stiffened body sags less; bad groups are refused unchanged', () => {
  const world = sb.createWorld();
  const body = world.addBox({ cells: [4, 4, 4], size: [1, 1, 1], center: [0, 1, 0] });
  const mass = body.stats().mass;
  const p = body.positions;
  const right = [];
  for (let i = 0; i < body.vertexCount; i++) if (p[3 * i] > 0.1) right.push(i);
  body.setVertexScales(right, 2, 1);
  assert.ok(body.stats().mass > mass * 1.2, 'the right part weighs twice');
  assert.ok(body.stats().center[0] > 0.05, 'the centre of mass moves toward it');
  assert.deepEqual(body.vertexScales(right[0]), { mass: 2, stiffness: 1 });
  assert.throws(() => body.setVertexScales([0, body.vertexCount], 3, 3), (e) => e.code === ErrorCode.INDEX_OUT_OF_RANGE);
  assert.throws(() => body.setVertexScales([0], 3, Number.NaN), (e) => e.code === ErrorCode.NOT_FINITE);
  assert.throws(() => body.setVertexScales([], 3, 3), (e) => e.code === ErrorCode.BAD_COUNT);
  assert.deepEqual(body.vertexScales(0), { mass: 1, stiffness: 1 }, 'nothing changed on refusal');
  world.destroy();
});

test('solveStatic puts a clamped beam at rest where implicit Euler settles, and a refused tolerance changes nothing', () => {
  // A 1 m x 0.1 m x 0.1 m beam of 20 x 2 x 2 cells clamped at x = -0.5, E = 10 MPa, nu = 0.3, no ground.
  const world = sb.createWorld();
  world.setGround(false);
  const body = world.addBox({ cells: [20, 2, 2], size: [1, 0.1, 0.1], center: [0, 1, 0] });
  body.setParam('edgeCompliance', 1e-6);
  body.setParam('volumeCompliance', 1e-6);
  body.setSolver('implicitEuler');
  body.setParam('material', 1);
  body.setParam('youngsModulus', 1e7);
  body.setParam('poissonRatio', 0.3);
  body.setParam('damping', 10);
  const rest = Float32Array.from(body.positions);
  for (let i = 0; i < body.vertexCount; i++) if (rest[3 * i] < -0.5 + 1e-5) body.pin(i);
  const tipSag = () => {
    let sum = 0;
    let n = 0;
    for (let i = 0; i < body.vertexCount; i++) if (rest[3 * i] > 0.5 - 1e-5) (sum += rest[3 * i + 1] - body.positions[3 * i + 1]), (n += 1);
    return sum / n;
  };
  assert.throws(() => body.solveStatic(0), (e) => e instanceof SoftbodyError && e.code === ErrorCode.OUT_OF_RANGE);
  assert.deepEqual(Array.from(body.positions), Array.from(rest), 'refused: nothing moved');
  const iterations = body.solveStatic();
  assert.ok(iterations >= 1 && iterations < 50, `${iterations} Newton iterations`);
  const settled = tipSag();
  // The core measures 89.19 mm for this beam (docs "Converged statics").
  assert.ok(Math.abs(settled - 0.08919) < 5e-4, `static tip sag ${settled} m`);
  // At rest there already: a second of implicit Euler moves the tip by under 0.5 % of its sag.
  for (let i = 0; i < 60; i++) world.step(1 / 60);
  assert.ok(Math.abs(tipSag() - settled) < 0.005 * settled, `after 1 s ${tipSag()} m`);
  world.destroy();
});

test('sleep: a box at rest stops being stepped until a call changes it; bad settings are refused', () => {
  const world = sb.createWorld();
  const body = world.addBox({ cells: [3, 3, 3], size: [0.3, 0.3, 0.3], center: [0, 0.2, 0] });
  for (let i = 0; i < 120; i++) world.step(1 / 60);
  assert.equal(body.stats().asleep, false, 'off by default');
  world.setSleep(0.01, 0.25);
  for (let i = 0; i < 30; i++) world.step(1 / 60);
  const s = body.stats();
  assert.equal(s.asleep, true, 'quiet for 0.25 s: asleep');
  assert.equal(s.kineticEnergy, 0);
  assert.equal(s.invertedTets, 0, 'read beside it, unchanged');
  const before = body.positions.slice();
  for (let i = 0; i < 30; i++) world.step(1 / 60);
  assert.deepEqual(body.positions, before, 'not stepped');
  body.setParam('friction', 0.3);
  assert.equal(body.stats().asleep, false, 'a parameter wakes it');
  assert.throws(() => world.setSleep(-1, 0.5), (e) => e instanceof SoftbodyError && e.code === ErrorCode.OUT_OF_RANGE && /sleep speed/.test(e.message));
  assert.throws(() => world.setSleep(0.01, 0), (e) => e instanceof SoftbodyError && /sleep time/.test(e.message));
  world.destroy();
});
