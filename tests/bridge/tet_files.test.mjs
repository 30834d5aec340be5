// Tet mesh files (web/src/import/tet_files.js): the JSON format round trip, every error it names,
// TetGen .node/.ele pairs, and pairing dropped files (file_kinds.js). Pure JavaScript, no wasm.
import assert from 'node:assert/strict';
import test from 'node:test';

import { classifyFiles } from '../../web/src/import/file_kinds.js';
import { ImportError, ImportErrorKind } from '../../web/src/import/import_error.js';
import { parseTetGen, parseTetJson, serializeTets } from '../../web/src/import/tet_files.js';

// Two positively oriented tets sharing the face (1, 2, 3): a unit tet and its mirror above x+y+z=1.
const POSITIONS = Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.7, 0.7, 0.7);
const TETS = Uint32Array.of(0, 1, 2, 3, 1, 4, 2, 3);

function volume6(p, [a, b, c, d]) {
  const v = (i, j) => p[3 * j + i] - p[3 * a + i];
  const [ux, uy, uz] = [0, 1, 2].map((i) => v(i, b));
  const [vx, vy, vz] = [0, 1, 2].map((i) => v(i, c));
  const [wx, wy, wz] = [0, 1, 2].map((i) => v(i, d));
  return ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx);
}

// Asserts fn throws an ImportError of `kind` whose message matches `pattern`.
function throwsImport(fn, kind, pattern) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof ImportError, `an ImportError, got ${error}`);
    assert.equal(error.kind, kind, error.message);
    assert.match(error.message, pattern);
    return true;
  });
}

const json = (doc) => JSON.stringify({ format: 'softbody-tets', version: 1, ...doc });

test('the test mesh is positively oriented', () => {
  assert.ok(volume6(POSITIONS, [0, 1, 2, 3]) > 0);
  assert.ok(volume6(POSITIONS, [1, 4, 2, 3]) > 0);
});

test('JSON round trip keeps every float32 bit and index, with and without a surface', () => {
  const positions = Float32Array.from(POSITIONS, (v, i) => v + Math.fround(0.1 * i) / 3); // awkward digits
  const surface = { positions: Float32Array.of(0.1, 0.2, 0.3, 1 / 3, 0, 0, 0, 2 / 3, 0), triangles: Uint32Array.of(0, 1, 2) };
  for (const withSurface of [false, true]) {
    const text = serializeTets({ positions, tets: TETS, surface: withSurface ? surface : null });
    const doc = JSON.parse(text);
    assert.equal(doc.format, 'softbody-tets');
    assert.equal(doc.version, 1);
    const back = parseTetJson(text);
    assert.deepEqual(Array.from(back.positions), Array.from(positions));
    assert.deepEqual(Array.from(back.tets), Array.from(TETS));
    assert.equal(back.flipped, 0);
    assert.equal(back.unusedVertices, 0);
    if (withSurface) {
      assert.deepEqual(Array.from(back.surface.positions), Array.from(surface.positions));
      assert.deepEqual(Array.from(back.surface.triangles), [0, 1, 2]);
    } else {
      assert.equal(back.surface, null);
      assert.equal('surface' in doc, false);
    }
  }
  // Shortest float32 digits: 0.1f is written as 0.1, not 0.10000000149011612.
  assert.match(serializeTets({ positions: Float32Array.of(0.1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1), tets: TETS.slice(0, 4) }), /"vertices":\[0\.1,0,0,1,/);
});

test('JSON tets of negative volume are re-oriented and counted', () => {
  const flippedTets = [0, 2, 1, 3, 1, 4, 2, 3]; // the first one inverted
  const back = parseTetJson(json({ vertices: Array.from(POSITIONS), tets: flippedTets }));
  assert.equal(back.flipped, 1);
  for (let t = 0; t < 2; t++) assert.ok(volume6(back.positions, back.tets.slice(4 * t, 4 * t + 4)) > 0, `tet ${t} positive`);
  assert.deepEqual(Array.from(back.tets.slice(0, 4)).sort(), [0, 1, 2, 3], 'same vertices');
});

test('JSON vertices no tet uses are dropped and the tets renumbered', () => {
  const vertices = [9, 9, 9, ...POSITIONS]; // an unused vertex 0 in front
  const back = parseTetJson(json({ vertices, tets: Array.from(TETS, (v) => v + 1) }));
  assert.equal(back.unusedVertices, 1);
  assert.deepEqual(Array.from(back.positions), Array.from(POSITIONS));
  assert.deepEqual(Array.from(back.tets), Array.from(TETS));
});

test('JSON errors each say what is wrong', () => {
  const vertices = Array.from(POSITIONS);
  const tets = Array.from(TETS);
  const cases = [
    ['{ not json', ImportErrorKind.UNPARSABLE, /not valid JSON/],
    ['[1, 2, 3]', ImportErrorKind.UNPARSABLE, /expected "format": "softbody-tets"/],
    [JSON.stringify({ format: 'obj', version: 1, vertices, tets }), ImportErrorKind.UNPARSABLE, /expected "format": "softbody-tets"/],
    [JSON.stringify({ format: 'softbody-tets', version: 2, vertices, tets }), ImportErrorKind.INVALID, /version 2 is not supported; this page reads version 1/],
    [json({ tets }), ImportErrorKind.INVALID, /missing "vertices" array/],
    [json({ vertices }), ImportErrorKind.INVALID, /missing "tets" array/],
    [json({ vertices: [], tets }), ImportErrorKind.INVALID, /"vertices" is empty/],
    [json({ vertices: vertices.slice(0, 14), tets }), ImportErrorKind.INVALID, /"vertices" has 14 numbers, not a multiple of 3/],
    [json({ vertices, tets: tets.slice(0, 7) }), ImportErrorKind.INVALID, /"tets" has 7 numbers, not a multiple of 4/],
    [json({ vertices: [...vertices.slice(0, 4), 'x', ...vertices.slice(5)], tets }), ImportErrorKind.NOT_FINITE, /"vertices"\[4\] is "x", not a finite number/],
    [json({ vertices: [...vertices.slice(0, 4), null, ...vertices.slice(5)], tets }), ImportErrorKind.NOT_FINITE, /"vertices"\[4\] is null/],
    [json({ vertices: [1e39, ...vertices.slice(1)], tets }), ImportErrorKind.NOT_FINITE, /"vertices"\[0\] is 1e\+39, not a finite number/],
    [json({ vertices, tets: [0, 1, 2, 5, 1, 4, 2, 3] }), ImportErrorKind.INVALID, /"tets"\[3\] \(element 0\) refers to vertex 5, but there are 5 vertices \(0 to 4\)/],
    [json({ vertices, tets: [0, 1, 2, -1, 1, 4, 2, 3] }), ImportErrorKind.INVALID, /refers to vertex -1/],
    [json({ vertices, tets: [0, 1, 2.5, 3, 1, 4, 2, 3] }), ImportErrorKind.INVALID, /"tets"\[2\] is 2\.5, not a whole number/],
    [json({ vertices, tets: [0, 1, 1, 3, 1, 4, 2, 3] }), ImportErrorKind.DEGENERATE, /tet 0 uses vertex 1 twice/],
    [json({ vertices: [...vertices, 0.5, 0.5, 0], tets: [...tets, 0, 1, 2, 5] }), ImportErrorKind.DEGENERATE, /tet 2 \(vertices 0, 1, 2, 5\) has zero volume/],
    [json({ vertices, tets, surface: 3 }), ImportErrorKind.INVALID, /"surface" must be an object/],
    [json({ vertices, tets, surface: { vertices: [0, 0, 0], triangles: [0, 0, 1] } }), ImportErrorKind.INVALID, /"surface.triangles"\[2\] \(element 0\) refers to vertex 1, but there are 1 vertices/],
    [json({ vertices, tets, surface: { triangles: [0, 1, 2] } }), ImportErrorKind.INVALID, /missing "surface.vertices" array/],
  ];
  for (const [text, kind, pattern] of cases) throwsImport(() => parseTetJson(text, 'mesh.json'), kind, pattern);
  // The file name leads the message, for the toast.
  throwsImport(() => parseTetJson('nope', 'my body.json'), ImportErrorKind.UNPARSABLE, /^my body\.json: not valid JSON/);
});

const NODE_1 = `# cube corner and its mirror, numbered from 1
5  3  1  1   # points, dimension, attributes, boundary markers
1  0 0 0   0.5  1
2  1 0 0   0.5  1
3  0 1 0   0.5  1   # a comment after a point
4  0 0 1   0.5  1

5  0.7 0.7 0.7   0.5  0
`;
const ELE_1 = `2 4 1
# tet number, four nodes, region attribute
1   1 2 3 4   7
2   2 5 4 3   7
`;

test('TetGen pair numbered from 1 with comments, attributes and markers', () => {
  const mesh = parseTetGen(NODE_1, ELE_1, { nodeName: 'cube.1.node', eleName: 'cube.1.ele' });
  assert.deepEqual(Array.from(mesh.positions), Array.from(POSITIONS));
  // Tet 2 was given as (1, 4, 3, 2) 0-based: negative, so two of its vertices were swapped.
  assert.equal(mesh.flipped, 1);
  assert.deepEqual(Array.from(mesh.tets.slice(0, 4)), [0, 1, 2, 3]);
  assert.deepEqual(Array.from(mesh.tets.slice(4)).sort(), [1, 2, 3, 4]);
  assert.ok(volume6(mesh.positions, mesh.tets.slice(4)) > 0);
  assert.equal(mesh.surface, null);
});

test('TetGen numbered from 0 with 10-node tets uses the corners', () => {
  const node = '5 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n4 0.7 0.7 0.7\n';
  const ele = '2 10 0\n0 0 1 2 3 4 4 4 4 4 4\n1 1 4 2 3 0 0 0 0 0 0\n';
  const mesh = parseTetGen(node, ele);
  assert.deepEqual(Array.from(mesh.tets), Array.from(TETS));
  assert.equal(mesh.flipped, 0);
});

test('TetGen errors name the file and the line', () => {
  const ok = '4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n';
  const okEle = '1 4 0\n0 0 1 2 3\n';
  const node = (text) => () => parseTetGen(text, okEle, { nodeName: 'a.node', eleName: 'a.ele' });
  const ele = (text) => () => parseTetGen(ok, text, { nodeName: 'a.node', eleName: 'a.ele' });
  throwsImport(node('# nothing\n'), ImportErrorKind.UNPARSABLE, /^a\.node: the \.node file has no header line/);
  throwsImport(node('4 2 0 0\n0 0 0\n'), ImportErrorKind.INVALID, /line 1: dimension 2; only 3D meshes are supported/);
  throwsImport(node('5 3 0 0\n0 0 0 0\n1 1 0 0\n'), ImportErrorKind.INVALID, /announces 5 points but the file lists 2/);
  throwsImport(node('4 3 0 0\n0 0 0 0\n1 1 0 0\n3 0 1 0\n4 0 0 1\n'), ImportErrorKind.INVALID, /line 4: point number 3 where 2 was expected/);
  throwsImport(node('4 3 0 0\n2 0 0 0\n3 1 0 0\n4 0 1 0\n5 0 0 1\n'), ImportErrorKind.INVALID, /numbered from 0 or 1, not 2/);
  throwsImport(node('4 3 0 0\n0 0 0 0\n1 1 zero 0\n2 0 1 0\n3 0 0 1\n'), ImportErrorKind.UNPARSABLE, /line 3: "zero" is not a finite number/);
  throwsImport(node('4 3 0 0\n0 0 0 0\n1 1 Infinity 0\n2 0 1 0\n3 0 0 1\n'), ImportErrorKind.NOT_FINITE, /line 3: "Infinity" is not a finite number/);
  throwsImport(node('4 3 0 0\n0 0 0 0\n1 1 0\n2 0 1 0\n3 0 0 1\n'), ImportErrorKind.INVALID, /line 3: a point needs its number and x y z/);
  throwsImport(ele('1 4 0\n0 0 1 2 4\n'), ImportErrorKind.INVALID, /^a\.ele: line 2: tet 0 uses point 4, but the \.node file has points 0 to 3/);
  throwsImport(ele('1 6 0\n0 0 1 2 3 0 0\n'), ImportErrorKind.INVALID, /6 nodes per tet; 4 or 10 are supported/);
  throwsImport(ele('2 4 0\n0 0 1 2 3\n'), ImportErrorKind.INVALID, /announces 2 tets but the file lists 1/);
  throwsImport(ele('1 4 0\n0 0 1 2\n'), ImportErrorKind.INVALID, /line 2: a tet needs its number and 4 nodes/);
  throwsImport(ele('1 4 0\n0 0 1 2 1.5\n'), ImportErrorKind.INVALID, /line 2: node "1\.5" is not a whole number/);
  throwsImport(() => parseTetGen('4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 1 1 0\n', okEle), ImportErrorKind.DEGENERATE, /tet 0 \(vertices 0, 1, 2, 3\) has zero volume/);
});

test('dropped files: one mesh, one JSON, or a .node + .ele pair', () => {
  const f = (name) => ({ name, size: 10 });
  assert.deepEqual(classifyFiles([f('a.OBJ')]), { kind: 'surface', file: f('a.OBJ') });
  assert.deepEqual(classifyFiles([f('a.obj'), f('a.mtl'), f('a.png')]), { kind: 'surface', file: f('a.obj') }, 'companions are ignored');
  assert.deepEqual(classifyFiles([f('body.json')]), { kind: 'tets', file: f('body.json') });
  assert.deepEqual(classifyFiles([f('m.ele'), f('m.node')]), { kind: 'tetgen', node: f('m.node'), ele: f('m.ele') });
  assert.deepEqual(classifyFiles([f('a.node'), f('b.node'), f('b.ele')]), { kind: 'tetgen', node: f('b.node'), ele: f('b.ele') });
  throwsImport(() => classifyFiles([f('m.node')]), ImportErrorKind.MISSING_PAIR, /^m\.node: a TetGen mesh needs its \.ele file too/);
  throwsImport(() => classifyFiles([f('m.ele'), f('x.obj')]), ImportErrorKind.MISSING_PAIR, /^m\.ele: a TetGen mesh needs its \.node file too/);
  throwsImport(() => classifyFiles([f('a.obj'), f('b.stl')]), ImportErrorKind.TOO_MANY, /2 meshes were given \(a\.obj, b\.stl\); import one at a time/);
  throwsImport(() => classifyFiles([f('a.fbx')]), ImportErrorKind.UNSUPPORTED, /^a\.fbx: \.fbx files are not supported; choose one of \.obj, \.stl, \.ply, \.gltf, \.glb, \.json, \.node, \.ele/);
});

test('fuzz reproducer: a TetGen coordinate beyond float32 is refused by line, not read as Infinity', () => {
  // tests/fuzz/readers.mjs: "01e39" is finite as a double but Infinity once stored as float32.
  const node = '4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 01e39 1\n';
  assert.throws(() => parseTetGen(node, '1 4 0\n1 1 2 3 4\n'), (e) => e instanceof ImportError &&
    e.kind === ImportErrorKind.NOT_FINITE && /line 5: "01e39" is beyond the range of a 32-bit float/.test(e.message));
});
