// Every public bridge call refuses bad arguments before they reach the C API (issue 26): the wasm
// exports coerce silently (pin(NaN) pinned vertex 0, setSubsteps(2**32 + 1) gave 1, step(true)
// stepped 1 s), and BigInt or null arrays escaped as bare TypeErrors. A table walks every method
// with bad values; each must throw a SoftbodyError naming the call, the argument and the value it
// got, and leave the world as it was.
import assert from 'node:assert/strict';
import test from 'node:test';

import { describe } from '../../web/src/bridge_args.js';
import { Body, Collider, ErrorCode, Param, Softbody, SoftbodyError, Tetra, World } from '../../web/src/softbody.js';
import { load } from './load.mjs';

const sb = await load();

// Bad values by the kind of argument they are given to. Each is wrong for that kind whatever the
// body or world (counts and ranges the bridge can know included).
const NOT_NUMBERS = [NaN, Infinity, -Infinity, 'abc', '4', {}, null, 5n, true, false, [1], 1e39];
const BAD = {
  number: NOT_NUMBERS,
  integer: [...NOT_NUMBERS, 1.5, 2 ** 32 + 1, -(2 ** 31) - 1],
  uint32: [...NOT_NUMBERS, 1.5, -1, 2 ** 32 + 1],
  index: [...NOT_NUMBERS, 1.5, -1, 2 ** 32 + 1, 10 ** 6],
  boolean: [0, 1, 'true', null, {}, NaN, 5n],
  vector3: [null, 'abc', 5, true, {}, [1, 2], [1, 2, 3, 4], [NaN, 0, 0], ['a', 0, 0], [1n, 0, 0], [0, 0, Infinity]],
  vector4: [null, 'abc', [0, 0, 1], [0, 0, 0, NaN], [0, 0, 0, 1n]],
  integers3: [null, 'abc', [4, 4], [4, 4, 4, 4], [4, 4, 1.5], [4, NaN, 4], [4, 4, 2 ** 32 + 1], [4n, 4, 4]],
  floats3: [null, 'abc', 5, {}, [0, 0], [0, 0, 0, 1, 0], [0, 0, NaN], [0, 0, 1n], ['0', 0, 0]],
  floats4: [null, 'abc', [1, 0, 0], [1, 0, 0, NaN], [1, 0, 0, 1n]],
  indices: [null, 'abc', 5, {}, [1.5], [-1], [2 ** 32 + 1], [1n], [NaN]],
  indices3: [null, 'abc', [0, 1], [0, 1, 1.5], [0, 1, -1], [0, 1, 1n]],
  indices4: [null, 'abc', [0, 1, 2], [0, 1, 2, -1], [0, 1, 2, 1n]],
  options: [null, 'abc', 5, true, [1]],
  param: ['stiffness', 5, null, {}, 5n, true],
  solver: ['leapfrog', 5, null, 5n],
  colliderParam: ['bounce', 0, null],
  shape: ['cone', 5, null, undefined],
};
// Kinds that have a default: passing undefined means "the default", not a bad value.
const REQUIRED = (kind) => [...BAD[kind], undefined];

// The fixture: a world with a box (visual bound, one collider of each kind) built fresh per case.
function fixture() {
  const world = sb.createWorld();
  const body = world.addBox({ cells: [2, 2, 2], size: [1, 1, 1], center: [0, 1, 0] });
  body.setVisual([0.1, 1.1, 0, -0.1, 0.9, 0.1, 0, 1, -0.2], [0, 1, 2]);
  const collider = world.addCollider({ shape: 'sphere', radius: 0.2, center: [3, 0, 0] });
  const tetra = sb.createTetra(CUBE, CUBE_TRIANGLES, { resolution: 2 });
  return { world, body, collider, tetra, binding: body.visualBinding() };
}
const CUBE = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1];
const CUBE_TRIANGLES = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7];
const TET = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];

// Everything a refused call could have changed, read through the C API.
function snapshot({ world, body, collider, tetra }) {
  const M = sb.M;
  const at = sb._stats;
  M._sb_body_get_collision_filter(world.handle, body.handle, at, at + 4);
  const filter = Array.from(new Uint32Array(sb.buffer, at, 2));
  return JSON.stringify({
    bodies: world.bodyCount,
    colliders: world.colliderCount,
    substeps: world.substeps,
    threads: world.threads,
    time: world.time,
    positions: Array.from(new Uint32Array(body.positions.buffer, body.positions.byteOffset, body.positions.length)),
    visual: [body.visualVertexCount, Array.from(body.visualPositions)],
    params: Object.keys(Param).map((k) => body.getParam(k)),
    solver: body.solver,
    filter,
    selfCollision: body.selfCollision,
    scales: Array.from({ length: body.vertexCount }, (_, i) => body.vertexScales(i)),
    stats: body.stats(),
    collider: [collider.getParam('friction'), collider.getParam('restitution')],
    tetra: tetra.progress,
  });
}

// method -> [argument name as messages say it, kind, (fixture, bad) => the call with that argument bad].
const TABLE = {
  'Softbody.createTetra': [
    ['positions', REQUIRED('floats3'), (f, v) => sb.createTetra(v, CUBE_TRIANGLES)],
    ['triangles', REQUIRED('indices3'), (f, v) => sb.createTetra(CUBE, v)],
    ['the options', BAD.options, (f, v) => sb.createTetra(CUBE, CUBE_TRIANGLES, v)],
    ['resolution', BAD.integer, (f, v) => sb.createTetra(CUBE, CUBE_TRIANGLES, { resolution: v })],
    ['minQuality', BAD.number, (f, v) => sb.createTetra(CUBE, CUBE_TRIANGLES, { minQuality: v })],
    ['thinSurface', BAD.boolean, (f, v) => sb.createTetra(CUBE, CUBE_TRIANGLES, { thinSurface: v })],
    ['maxTets', [...BAD.integer, -1], (f, v) => sb.createTetra(CUBE, CUBE_TRIANGLES, { maxTets: v })],
    ['thinParts', ['thinner', 1, null, 5n, true], (f, v) => sb.createTetra(CUBE, CUBE_TRIANGLES, { thinParts: v })],
  ],
  'World.setGravity': [['y', REQUIRED('number'), (f, v) => f.world.setGravity(0, v, 0)]],
  'World.setSubsteps': [['n', REQUIRED('integer'), (f, v) => f.world.setSubsteps(v)]],
  'World.setThreads': [['n', REQUIRED('integer'), (f, v) => f.world.setThreads(v)]],
  'World.setGround': [['enabled', [...BAD.boolean, undefined], (f, v) => f.world.setGround(v)]],
  'World.setSleep': [
    ['speed', REQUIRED('number'), (f, v) => f.world.setSleep(v, 0.5)],
    ['seconds', BAD.number, (f, v) => f.world.setSleep(0.01, v)],
  ],
  'World.step': [['dt', REQUIRED('number'), (f, v) => f.world.step(v)]],
  'World.addBox': [
    ['the options', BAD.options, (f, v) => f.world.addBox(v)],
    ['cells', BAD.integers3, (f, v) => f.world.addBox({ cells: v })],
    ['size', BAD.vector3, (f, v) => f.world.addBox({ size: v })],
    ['center', BAD.vector3, (f, v) => f.world.addBox({ center: v })],
  ],
  'World.addBall': [
    ['the options', BAD.options, (f, v) => f.world.addBall(v)],
    ['radius', BAD.number, (f, v) => f.world.addBall({ radius: v })],
    ['cells', BAD.integer, (f, v) => f.world.addBall({ cells: v })],
    ['center', BAD.vector3, (f, v) => f.world.addBall({ center: v })],
  ],
  'World.addRope': [
    ['the options', BAD.options, (f, v) => f.world.addRope(v)],
    ['segments', BAD.integer, (f, v) => f.world.addRope({ segments: v })],
    ['length', BAD.number, (f, v) => f.world.addRope({ length: v })],
    ['anchor', BAD.vector3, (f, v) => f.world.addRope({ anchor: v })],
  ],
  'World.addJelly': [
    ['the options', BAD.options, (f, v) => f.world.addJelly(v)],
    ['cells', BAD.integer, (f, v) => f.world.addJelly({ cells: v })],
    ['size', BAD.number, (f, v) => f.world.addJelly({ size: v })],
    ['center', BAD.vector3, (f, v) => f.world.addJelly({ center: v })],
  ],
  'World.addPressureBall': [
    ['the options', BAD.options, (f, v) => f.world.addPressureBall(v)],
    ['radius', BAD.number, (f, v) => f.world.addPressureBall({ radius: v })],
    ['cells', BAD.integer, (f, v) => f.world.addPressureBall({ cells: v })],
    ['center', BAD.vector3, (f, v) => f.world.addPressureBall({ center: v })],
    ['pressure', BAD.number, (f, v) => f.world.addPressureBall({ pressure: v })],
  ],
  'World.addTets': [
    ['vertices', REQUIRED('floats3'), (f, v) => f.world.addTets(v, [0, 1, 2, 3])],
    ['tets', REQUIRED('indices4'), (f, v) => f.world.addTets(TET, v)],
  ],
  'World.addCloth': [
    ['vertices', REQUIRED('floats3'), (f, v) => f.world.addCloth(v, [0, 1, 2])],
    ['triangles', REQUIRED('indices3'), (f, v) => f.world.addCloth([0, 0, 0, 1, 0, 0, 0, 1, 0], v)],
  ],
  'World.addClothRectangle': [
    ['the options', BAD.options, (f, v) => f.world.addClothRectangle(v)],
    ['cells', [null, 'abc', [4], [4, 4, 4], [4, 1.5], [NaN, 4], [2 ** 32 + 1, 4], [4n, 4]], (f, v) => f.world.addClothRectangle({ cells: v })],
    ['size', [null, 'abc', 5, [1], [1, 1, 1], [1, NaN], [1n, 1], [Infinity, 1]], (f, v) => f.world.addClothRectangle({ size: v })],
    ['center', BAD.vector3, (f, v) => f.world.addClothRectangle({ center: v })],
    ['vertical', BAD.boolean, (f, v) => f.world.addClothRectangle({ vertical: v })],
  ],
  'World.addClothDisc': [
    ['the options', BAD.options, (f, v) => f.world.addClothDisc(v)],
    ['radius', BAD.number, (f, v) => f.world.addClothDisc({ radius: v })],
    ['rings', BAD.integer, (f, v) => f.world.addClothDisc({ rings: v })],
    ['center', BAD.vector3, (f, v) => f.world.addClothDisc({ center: v })],
    ['vertical', BAD.boolean, (f, v) => f.world.addClothDisc({ vertical: v })],
  ],
  'World.addCollider': [
    ['the options', BAD.options, (f, v) => f.world.addCollider(v)],
    ['shape', BAD.shape, (f, v) => f.world.addCollider({ shape: v })],
    ['center', BAD.vector3, (f, v) => f.world.addCollider({ shape: 'sphere', center: v })],
    ['radius', BAD.number, (f, v) => f.world.addCollider({ shape: 'sphere', radius: v })],
    ['halfExtents', BAD.vector3, (f, v) => f.world.addCollider({ shape: 'box', halfExtents: v })],
    ['halfLength', BAD.number, (f, v) => f.world.addCollider({ shape: 'capsule', halfLength: v })],
    ['point', BAD.vector3, (f, v) => f.world.addCollider({ shape: 'plane', point: v })],
    ['normal', BAD.vector3, (f, v) => f.world.addCollider({ shape: 'plane', normal: v })],
    ['positions', REQUIRED('floats3'), (f, v) => f.world.addCollider({ shape: 'mesh', positions: v, triangles: CUBE_TRIANGLES })],
    ['triangles', REQUIRED('indices3'), (f, v) => f.world.addCollider({ shape: 'mesh', positions: CUBE, triangles: v })],
    ['thickness', BAD.number, (f, v) => f.world.addCollider({ shape: 'mesh', positions: CUBE, triangles: CUBE_TRIANGLES, thickness: v })],
  ],
  'Collider.setPose': [
    ['position', REQUIRED('vector3'), (f, v) => f.collider.setPose(v)],
    ['rotation', BAD.vector4, (f, v) => f.collider.setPose([0, 0, 0], v)],
    ['the options', BAD.options, (f, v) => f.collider.setPose([0, 0, 0], [0, 0, 0, 1], v)],
    ['teleport', BAD.boolean, (f, v) => f.collider.setPose([0, 0, 0], [0, 0, 0, 1], { teleport: v })],
  ],
  'Collider.setFriction': [['friction', REQUIRED('number'), (f, v) => f.collider.setFriction(v)]],
  'Collider.setParam': [
    ['name', BAD.colliderParam, (f, v) => f.collider.setParam(v, 0.5)],
    ['value', REQUIRED('number'), (f, v) => f.collider.setParam('friction', v)],
  ],
  'Collider.getParam': [['name', BAD.colliderParam, (f, v) => f.collider.getParam(v)]],
  'Tetra.run': [['work', [...BAD.integer, 0, -5], (f, v) => f.tetra.run(v)]],
  'Body.setVisual': [
    ['positions', REQUIRED('floats3'), (f, v) => f.body.setVisual(v)],
    ['triangles', BAD.indices3.filter((x) => x !== null), (f, v) => f.body.setVisual([0, 1, 0, 0.1, 1, 0, 0, 1.1, 0], v)],
  ],
  'Body.setVisualBound': [
    ['the binding', [...BAD.options, undefined], (f, v) => f.body.setVisualBound(v)],
    ['vertexCount', [...REQUIRED('integer'), 0], (f, v) => f.body.setVisualBound({ ...f.binding, vertexCount: v })],
    ['boundVertices', REQUIRED('indices4'), (f, v) => f.body.setVisualBound({ ...f.binding, boundVertices: v })],
    ['weights', REQUIRED('floats4'), (f, v) => f.body.setVisualBound({ ...f.binding, weights: v })],
    ['triangles', BAD.indices3.filter((x) => x !== null), (f, v) => f.body.setVisualBound({ ...f.binding, triangles: v })],
    ['outside', [...BAD.integer, -1], (f, v) => f.body.setVisualBound(f.binding, v)],
  ],
  'Body.setParam': [
    ['name', BAD.param, (f, v) => f.body.setParam(v, 1)],
    ['density', REQUIRED('number'), (f, v) => f.body.setParam('density', v)],
  ],
  'Body.getParam': [['name', BAD.param, (f, v) => f.body.getParam(v)]],
  'Body.setParams': [
    ['the parameters', [...BAD.options, undefined], (f, v) => f.body.setParams(v)],
    ['damping', BAD.number, (f, v) => f.body.setParams({ density: 500, damping: v })],
    ['name', ['stiffness'], (f, v) => f.body.setParams({ density: 500, [v]: 1 })],
  ],
  'Body.setSolver': [['name', BAD.solver, (f, v) => f.body.setSolver(v)]],
  'Body.pin': [
    ['vertex', REQUIRED('index'), (f, v) => f.body.pin(v)],
    ['pinned', BAD.boolean, (f, v) => f.body.pin(0, v)],
  ],
  'Body.setVertexScales': [
    ['vertices', REQUIRED('indices'), (f, v) => f.body.setVertexScales(v, 2, 2)],
    ['massScale', BAD.number, (f, v) => f.body.setVertexScales([0], v, 2)],
    ['stiffnessScale', BAD.number, (f, v) => f.body.setVertexScales([0], 2, v)],
  ],
  'Body.vertexScales': [['vertex', REQUIRED('index'), (f, v) => f.body.vertexScales(v)]],
  'Body.squash': [['factor', REQUIRED('number'), (f, v) => f.body.squash(v)]],
  'Body.solveStatic': [['tolerance', BAD.number, (f, v) => f.body.solveStatic(v)]],
  'Body.press': [
    ['factor', REQUIRED('number'), (f, v) => f.body.press(v, 0.5)],
    ['seconds', REQUIRED('number'), (f, v) => f.body.press(0.5, v)],
  ],
  'Body.nearestVertex': [['z', REQUIRED('number'), (f, v) => f.body.nearestVertex(0, 1, v)]],
  'Body.grabBegin': [
    ['vertex', REQUIRED('index'), (f, v) => f.body.grabBegin(v, 0, 1, 0)],
    ['x', REQUIRED('number'), (f, v) => f.body.grabBegin(0, v, 1, 0)],
  ],
  'Body.grabMove': [['y', REQUIRED('number'), (f, v) => f.body.grabMove(0, v, 0)]],
  'Body.grabEnd': [['vz', BAD.number, (f, v) => f.body.grabEnd(0, 0, v)]],
  'Body.setCollisionFilter': [
    ['group', BAD.uint32, (f, v) => f.body.setCollisionFilter(v, 1)],
    ['mask', BAD.uint32, (f, v) => f.body.setCollisionFilter(1, v)],
  ],
  'Body.setSelfCollision': [
    ['enabled', [...BAD.boolean, undefined], (f, v) => f.body.setSelfCollision(v)],
    ['thickness', BAD.number, (f, v) => f.body.setSelfCollision(true, v)],
  ],
};

// Methods that take no arguments, or only the bridge's own plumbing (check, checkPointer, copyIn:
// return codes and arrays the bridge made itself).
const NO_ARGUMENTS = new Set(['Softbody.createWorld', 'Softbody.probeGpu', 'Softbody.lastError', 'Softbody.check', 'Softbody.checkPointer', 'Softbody.copyIn',
  'World.contactStats', 'World.destroy', 'Collider.destroy', 'Tetra.runAll', 'Tetra.estimateTets', 'Tetra.stats', 'Tetra.result', 'Tetra.destroy',
  'Body.visualBinding', 'Body.reset', 'Body.stats', 'Body.convergence', 'Body.destroy']);

// The value the message must show: the first element that is wrong, for an array of the right length.
function offending(bad) {
  if (!Array.isArray(bad)) return bad;
  return bad.find((x) => typeof x !== 'number' || !Number.isFinite(x) || !Number.isInteger(x) || x < 0 || x > 2 ** 32 - 1) ?? bad;
}

test('the table covers every public method of the bridge', () => {
  const methods = [];
  for (const [name, Class] of Object.entries({ Softbody, World, Collider, Tetra, Body })) {
    for (const key of Object.getOwnPropertyNames(Class.prototype)) {
      const d = Object.getOwnPropertyDescriptor(Class.prototype, key);
      if (key === 'constructor' || key.startsWith('_') || typeof d.value !== 'function') continue;
      methods.push(`${name}.${key}`);
    }
  }
  const missing = methods.filter((m) => !(m in TABLE) && !NO_ARGUMENTS.has(m));
  assert.deepEqual(missing, [], 'methods with arguments the table does not walk');
});

test('every bridge method refuses bad arguments with a SoftbodyError naming the call, the argument and the value, and changes nothing', () => {
  let cases = 0;
  for (const [method, rows] of Object.entries(TABLE)) {
    for (const [name, values, call] of rows) {
      const f = fixture();
      const before = snapshot(f);
      for (const bad of values) {
        let error = null;
        try {
          call(f, bad);
        } catch (e) {
          error = e;
        }
        const what = `${method} with ${name} = ${describe(bad)}`;
        assert.ok(error instanceof SoftbodyError, `${what}: threw ${error} instead of a SoftbodyError`);
        assert.ok(error.message.includes(`${method}: ${name}`), `${what}: "${error.message}" does not name the call and the argument`);
        // Arrays of the right length but a bad element name that element's value; others the array.
        const shown = [describe(bad), describe(offending(bad))];
        assert.ok(shown.some((s) => error.message.includes(`got ${s}`)), `${what}: "${error.message}" does not say what it got`);
        assert.equal(error.message.startsWith(error.codeName), true, `${what}: "${error.message}"`);
        assert.equal(snapshot(f), before, `${what} changed the world`);
        cases += 1;
      }
      f.tetra.destroy();
      f.world.destroy();
    }
  }
  assert.ok(cases > 400, `${cases} cases`);
});

test('the coercions issue 26 found are refused, each saying what it got', () => {
  const f = fixture();
  const { world, body } = f;
  const refused = (call, pattern, code) =>
    assert.throws(call, (e) => e instanceof SoftbodyError && (code === undefined || e.code === code) && pattern.test(e.message));
  refused(() => body.pin(NaN), /Body\.pin: vertex must be an integer .*, got NaN/, ErrorCode.NOT_FINITE);
  refused(() => body.pin('abc'), /vertex must be an integer .*, got "abc" \(a string\)/, ErrorCode.OUT_OF_RANGE);
  refused(() => body.pin({}), /vertex must be an integer .*, got an object/);
  refused(() => body.grabBegin(NaN, 0, 1, 0), /Body\.grabBegin: vertex .*got NaN/);
  refused(() => body.setCollisionFilter(NaN, NaN), /group must be an integer in \[0, 4294967295\], got NaN/);
  refused(() => world.setSubsteps(2 ** 32 + 1), /n must be an integer .*, got 4294967297/, ErrorCode.OUT_OF_RANGE);
  refused(() => world.setSubsteps(NaN), /got NaN/, ErrorCode.NOT_FINITE);
  refused(() => world.step(true), /World\.step: dt must be a finite number, got true \(a boolean\)/);
  refused(() => world.addBox({ cells: [4, 4] }), /World\.addBox: cells must be 3 integers, got an array of length 2/, ErrorCode.BAD_COUNT);
  // BigInt and null arrays: a SoftbodyError, not the TypeError of Float32Array.from.
  refused(() => world.addTets([0n, 0, 0], [0, 1, 2, 3]), /vertices\[0\] \(vertex 0\) must be a finite number, got 0n \(a BigInt\)/);
  refused(() => world.addTets(null, [0, 1, 2, 3]), /vertices must be an array, got null/, ErrorCode.NULL_POINTER);
  refused(() => sb.createTetra(CUBE, [0, 1n, 2]), /triangles\[1\] \(triangle 0\) .*got 1n/);
  refused(() => sb.createTetra(null, CUBE_TRIANGLES), /positions must be an array, got null/);
  refused(() => body.setVisual([0, 1, 2n]), /positions\[2\] .*got 2n/);
  refused(() => body.setVertexScales(null), /vertices must be an array, got null/);
  refused(() => body.setVertexScales([1n]), /vertices\[0\] .*got 1n/);
  // pin(NaN) used to pin vertex 0: after the refusal it still falls.
  const y0 = body.positions[1];
  world.setGround(false);
  for (let i = 0; i < 5; i++) world.step(1 / 60);
  assert.ok(body.positions[1] < y0 - 0.01, 'vertex 0 is not pinned');
  f.tetra.destroy();
  world.destroy();
});

test('valid arguments still pass: integers as floats that are whole, typed arrays, defaults, 0 and 2**32 - 1 masks', () => {
  const world = sb.createWorld();
  world.setSubsteps(8.0);
  const body = world.addTets(new Float64Array(TET), new Int32Array([0, 1, 2, 3]));
  body.setCollisionFilter(0, 2 ** 32 - 1);
  body.pin(0, false);
  body.setVisual(new Float32Array([0.1, 0.1, 0.1]), null);
  body.setVisualBound(body.visualBinding());
  body.grabBegin(3, 0, 0, 1);
  body.grabEnd();
  world.step(1 / 60);
  assert.equal(world.substeps, 8);
  world.destroy();
});
