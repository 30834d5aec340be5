// Mesh files -> surfaces (web/src/import/mesh_files.js) with Three.js's own loaders, run in node
// from in-memory files; the built-in samples (samples.js); placement on the stage. No wasm.
import assert from 'node:assert/strict';
import test from 'node:test';

// Three's FileLoader (used by GLTFLoader for embedded data: buffers) makes ProgressEvents, which
// browsers have and node 20 does not.
globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) {
    super(type);
    Object.assign(this, init);
  }
};

const { ImportError, ImportErrorKind } = await import('../../web/src/import/import_error.js');
const { MAX_FILE_BYTES } = await import('../../web/src/import/file_kinds.js');
const { normalizeSurface, parseSurface, readSurfaceFile, surfaceFromObject } = await import('../../web/src/import/mesh_files.js');
const { SAMPLE_NAMES, sampleSurface } = await import('../../web/src/import/samples.js');
const THREE = await import('three');

const bytes = (text) => new TextEncoder().encode(text).buffer;

async function rejectsImport(promise, kind, pattern) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof ImportError, `an ImportError, got ${error?.stack ?? error}`);
    assert.equal(error.kind, kind, error.message);
    assert.match(error.message, pattern);
    return true;
  });
}

function bounds(positions) {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3], positions[i]);
    max[i % 3] = Math.max(max[i % 3], positions[i]);
  }
  return { min, max };
}

// A unit tetrahedron: 4 corners, 4 outward faces.
const TET_CORNERS = [
  [0, 0, 0],
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
const TET_FACES = [
  [0, 2, 1],
  [0, 1, 3],
  [0, 3, 2],
  [1, 2, 3],
];

function asciiStl() {
  let s = 'solid tet\n';
  for (const f of TET_FACES) {
    s += ' facet normal 0 0 0\n  outer loop\n';
    for (const v of f) s += `   vertex ${TET_CORNERS[v].join(' ')}\n`;
    s += '  endloop\n endfacet\n';
  }
  return `${s}endsolid tet\n`;
}

function binaryStl() {
  const buffer = new ArrayBuffer(84 + 50 * TET_FACES.length);
  const view = new DataView(buffer);
  view.setUint32(80, TET_FACES.length, true);
  TET_FACES.forEach((f, t) => {
    const at = 84 + 50 * t;
    f.forEach((v, k) => TET_CORNERS[v].forEach((c, i) => view.setFloat32(at + 12 + 12 * k + 4 * i, c, true)));
  });
  return buffer;
}

// A cube as an OBJ with 8 shared corners and 6 quads.
const CUBE_OBJ = `# cube
o cube
v -1 -1 -1
v 1 -1 -1
v 1 1 -1
v -1 1 -1
v -1 -1 1
v 1 -1 1
v 1 1 1
v -1 1 1
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 2 3 7 6
f 3 4 8 7
f 4 1 5 8
`;

test('OBJ: quads become triangles, shared corners stay shared', async () => {
  const s = await parseSurface(bytes(CUBE_OBJ), 'cube.obj');
  assert.equal(s.positions.length, 3 * 8, 'the 8 corners, welded back from the loader’s 36 vertices');
  assert.equal(s.triangles.length, 3 * 12);
  assert.ok(s.triangles.every((i) => i < 8));
  assert.ok(s.positions instanceof Float32Array && s.triangles instanceof Uint32Array);
});

test('OBJ: authored normals and UVs keep seams apart', async () => {
  // The same square twice, with different texture coordinates on its shared edge: a UV seam.
  const obj = 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvt 0.5 0.5\nf 1/1 2/2 3/3\nf 1/1 3/5 4/4\n';
  const s = await parseSurface(bytes(obj), 'seam.obj');
  assert.equal(s.positions.length / 3, 5, 'vertex 3 appears with two UVs: two vertices');
  assert.equal(s.triangles.length, 6);
});

test('OBJ: negative (relative) indices and several objects are merged', async () => {
  const obj = 'o a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\no b\nv 0 0 1\nv 1 0 1\nv 0 1 1\nf 4 5 6\no c\nl 1 4\n';
  const s = await parseSurface(bytes(obj), 'two.obj');
  assert.equal(s.triangles.length, 6);
  assert.equal(s.positions.length, 18);
});

test('STL: ascii and binary give the same welded tetrahedron', async () => {
  for (const [buffer, name] of [
    [bytes(asciiStl()), 'tet_ascii.stl'],
    [binaryStl(), 'tet_binary.STL'],
  ]) {
    const s = await parseSurface(buffer, name);
    assert.equal(s.triangles.length, 12, name);
    assert.equal(s.positions.length, 12, `${name}: 4 corners (facet normals do not split vertices)`);
    const corners = [];
    for (let i = 0; i < 4; i++) corners.push(Array.from(s.positions.slice(3 * i, 3 * i + 3)).join(','));
    assert.deepEqual(corners.sort(), TET_CORNERS.map((c) => c.join(',')).sort());
  }
});

test('PLY: ascii and binary little-endian', async () => {
  const header = (format) => `ply\nformat ${format} 1.0\ncomment tet\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\nelement face 4\nproperty list uchar int vertex_indices\nend_header\n`;
  const ascii = `${header('ascii')}${TET_CORNERS.map((c) => c.join(' ')).join('\n')}\n${TET_FACES.map((f) => `3 ${f.join(' ')}`).join('\n')}\n`;
  const head = new TextEncoder().encode(header('binary_little_endian'));
  const body = new DataView(new ArrayBuffer(4 * 12 + 4 * 13));
  TET_CORNERS.flat().forEach((v, i) => body.setFloat32(4 * i, v, true));
  TET_FACES.forEach((f, t) => {
    body.setUint8(48 + 13 * t, 3);
    f.forEach((v, k) => body.setInt32(48 + 13 * t + 1 + 4 * k, v, true));
  });
  const binary = new Uint8Array(head.length + body.byteLength);
  binary.set(head);
  binary.set(new Uint8Array(body.buffer), head.length);
  for (const [buffer, name] of [
    [bytes(ascii), 'tet.ply'],
    [binary.buffer, 'tet_bin.ply'],
  ]) {
    const s = await parseSurface(buffer, name);
    assert.deepEqual(Array.from(s.positions), TET_CORNERS.flat(), name);
    assert.deepEqual(Array.from(s.triangles), TET_FACES.flat(), name);
  }
});

// A glTF with one triangle mesh used by two nodes (one moved up by 2 m, one scaled by 2), a
// points primitive (ignored) and a texture that must never be fetched.
function gltfDocument() {
  const positions = new Float32Array(TET_CORNERS.flat());
  const indices = new Uint16Array(TET_FACES.flat());
  const bin = new Uint8Array(48 + 24);
  bin.set(new Uint8Array(positions.buffer), 0);
  bin.set(new Uint8Array(indices.buffer), 48);
  const json = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0, 1, 2] }],
    nodes: [{ mesh: 0, translation: [0, 2, 0] }, { mesh: 0, scale: [2, 2, 2] }, { mesh: 1 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1, material: 0 }] }, { primitives: [{ attributes: { POSITION: 0 }, mode: 0 }] }],
    materials: [{ pbrMetallicRoughness: { baseColorTexture: { index: 0 } } }],
    textures: [{ source: 0 }],
    images: [{ uri: 'never_fetched.png' }],
    buffers: [{ byteLength: bin.byteLength }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: 48 },
      { buffer: 0, byteOffset: 48, byteLength: 24 },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 4, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 1] },
      { bufferView: 1, componentType: 5123, count: 12, type: 'SCALAR' },
    ],
  };
  return { json, bin };
}

function glb({ json, bin }) {
  const jsonBytes = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = Math.ceil(jsonBytes.length / 4) * 4;
  const out = new Uint8Array(12 + 8 + jsonLength + 8 + bin.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true); // "glTF"
  view.setUint32(4, 2, true);
  view.setUint32(8, out.length, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true); // "JSON"
  out.fill(0x20, 20, 20 + jsonLength);
  out.set(jsonBytes, 20);
  view.setUint32(20 + jsonLength, bin.length, true);
  view.setUint32(24 + jsonLength, 0x004e4942, true); // "BIN\0"
  out.set(bin, 28 + jsonLength);
  return out.buffer;
}

test('glTF (embedded buffer) and GLB: meshes merged with their world matrices, points ignored', async () => {
  const { json, bin } = gltfDocument();
  const embedded = structuredClone(json);
  embedded.buffers[0].uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`;
  for (const [buffer, name] of [
    [bytes(JSON.stringify(embedded)), 'scene.gltf'],
    [glb({ json, bin }), 'scene.glb'],
  ]) {
    const s = await parseSurface(buffer, name);
    assert.equal(s.positions.length, 3 * 8, `${name}: two instances of 4 corners`);
    assert.equal(s.triangles.length, 3 * 8);
    const { min, max } = bounds(s.positions);
    assert.deepEqual(min, [0, 0, 0], name);
    assert.deepEqual(max, [2, 3, 2], `${name}: the moved copy reaches y = 3, the scaled one x = z = 2`);
  }
});

test('glTF that cannot be read here says why', async () => {
  const { json } = gltfDocument();
  const external = structuredClone(json);
  external.buffers[0].uri = 'scene.bin';
  await rejectsImport(parseSurface(bytes(JSON.stringify(external)), 'ext.gltf'), ImportErrorKind.UNPARSABLE, /^ext\.gltf: its geometry is in a separate file \("scene\.bin"\); export it as \.glb/);
  const draco = { ...structuredClone(json), extensionsRequired: ['KHR_draco_mesh_compression'] };
  await rejectsImport(parseSurface(bytes(JSON.stringify(draco)), 'd.gltf'), ImportErrorKind.UNPARSABLE, /compressed \(KHR_draco_mesh_compression\)/);
  await rejectsImport(parseSurface(bytes('{ this is not json'), 'bad.gltf'), ImportErrorKind.UNPARSABLE, /^bad\.gltf: not a glTF file: it is neither JSON text nor a glTF binary$/);
  // The magic number but then " but": a version number of 0x74756220 = 1953849888.
  await rejectsImport(parseSurface(bytes('glTF but not really a binary file at all'), 'bad.glb'), ImportErrorKind.UNPARSABLE, /^bad\.glb: a glTF binary of version 1953849888; only version 2 can be read$/);
  const { json: j, bin } = gltfDocument();
  const cut = glb({ json: j, bin }).slice(0, 40); // header intact, JSON chunk cut short
  await rejectsImport(parseSurface(cut, 'cut.glb'), ImportErrorKind.UNPARSABLE, /^cut\.glb: a glTF binary whose JSON chunk is damaged or cut short$/);
});

// The walkthrough's garbage GLB: random bytes named x.glb were reported with the bytes themselves
// quoted from V8's JSON error. Each message now says in words what is wrong, and none carries a
// character outside printable text, whatever the bytes.
test('random bytes as .glb or .gltf are described in words, without quoting bytes', async () => {
  const { describeImportError } = await import('../../web/src/import/import_messages.js');
  let seed = 12345;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24; // deterministic LCG byte
  const unprintable = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\ufffd]/;
  for (let trial = 0; trial < 20; trial++) {
    const garbage = new Uint8Array(64 + 97 * trial).map(random);
    for (const [name, pattern] of [
      ['x.glb', /^x\.glb: not a glTF binary: it does not start with the glTF magic number \("glTF"\)$/],
      ['x.gltf', /^x\.gltf: not a glTF file: it is neither JSON text nor a glTF binary$/],
    ]) {
      await rejectsImport(parseSurface(garbage.buffer, name), ImportErrorKind.UNPARSABLE, pattern);
      const error = await parseSurface(garbage.buffer, name).catch((e) => e);
      const shown = describeImportError(error, name).message; // what the toast says
      assert.equal(shown, `Could not import ${error.message}`);
      assert.doesNotMatch(shown, unprintable);
    }
  }
  // Random bytes behind a valid magic number and version still get words, not bytes.
  const header = new Uint8Array(200).map(random);
  new DataView(header.buffer).setUint32(0, 0x46546c67, true);
  new DataView(header.buffer).setUint32(4, 2, true);
  const error = await parseSurface(header.buffer, 'y.glb').catch((e) => e);
  assert.equal(error.kind, ImportErrorKind.UNPARSABLE);
  assert.doesNotMatch(error.message, unprintable);
});

test('each unreadable file gets its own message', async () => {
  const garbage = new Uint8Array(1000).map((_, i) => (i * 7919) % 256).buffer;
  const cases = [
    [new ArrayBuffer(0), 'empty.obj', ImportErrorKind.EMPTY, /^empty\.obj: the file is empty \(0 bytes\)/],
    [bytes('x'), 'model.fbx', ImportErrorKind.UNSUPPORTED, /^model\.fbx: \.fbx files are not supported; choose one of \.obj, \.stl, \.ply, \.gltf, \.glb, \.json, \.node, \.ele/],
    [bytes('x'), 'README', ImportErrorKind.UNSUPPORTED, /a file without an extension is not supported/],
    [garbage, 'noise.stl', ImportErrorKind.UNPARSABLE, /^noise\.stl: not an STL file: neither binary .* nor ASCII/],
    [bytes('hello'), 'short.stl', ImportErrorKind.UNPARSABLE, /not an STL file/],
    [garbage, 'noise.ply', ImportErrorKind.UNPARSABLE, /^noise\.ply: not a PLY file/],
    [garbage, 'noise.obj', ImportErrorKind.UNPARSABLE, /^noise\.obj: this is binary data, not an OBJ text file/],
    [bytes('v 0 0 0\nv 1 0 0\nv 0 1 0\n'), 'points.obj', ImportErrorKind.NO_TRIANGLES, /^points\.obj: the file contains only points or lines, no triangles/],
    [bytes('just some words\nand more\n'), 'words.obj', ImportErrorKind.UNPARSABLE, /^words\.obj: no OBJ vertex lines \("v x y z"\) in it/],
    [bytes('solid empty\nendsolid empty\n'), 'empty_solid.stl', ImportErrorKind.NO_TRIANGLES, /no triangles/],
    [bytes('ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n'), 'cloud.ply', ImportErrorKind.NO_TRIANGLES, /no triangles/],
    [bytes('v 0 0 0\nv 1 0 0\nf 1 2 3\n'), 'missing.obj', ImportErrorKind.UNPARSABLE, /^missing\.obj: line 3: a face uses vertex 3, but only 2 vertices are defined before it/],
    [bytes('v 0 0 0\nv 1 0 nan\nv 0 1 0\nf 1 2 3\n'), 'nan.obj', ImportErrorKind.NOT_FINITE, /^nan\.obj: vertex 2 has a coordinate that is not a finite number/],
  ];
  for (const [buffer, name, kind, pattern] of cases) await rejectsImport(parseSurface(buffer, name), kind, pattern);
});

test('size limits: bytes before reading, vertices and triangles before converting', async () => {
  const huge = { name: 'huge.stl', size: MAX_FILE_BYTES + 1, arrayBuffer: () => assert.fail('must not read a file over the limit') };
  await rejectsImport(readSurfaceFile(huge), ImportErrorKind.TOO_LARGE, /^huge\.stl: the file is 200 MB; files up to 200 MB are accepted/);
  await rejectsImport(readSurfaceFile({ name: 'x.stl', size: 0, arrayBuffer: async () => new ArrayBuffer(0) }), ImportErrorKind.EMPTY, /empty/);

  const manyTriangles = new THREE.BufferGeometry();
  manyTriangles.setAttribute('position', new THREE.BufferAttribute(new Float32Array(9), 3));
  manyTriangles.setIndex(new THREE.BufferAttribute(new Uint32Array(3 * 2_000_001), 1));
  assert.throws(() => surfaceFromObject(new THREE.Mesh(manyTriangles), { name: 'big.glb' }), (e) => e.kind === ImportErrorKind.TOO_LARGE && /2,000,001 triangles; at most 1,000,000 vertices and 2,000,000 triangles/.test(e.message));

  const manyVertices = new THREE.BufferGeometry();
  manyVertices.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * 1_000_001), 3));
  manyVertices.setIndex([0, 1, 2]);
  assert.throws(() => surfaceFromObject(new THREE.Mesh(manyVertices), { name: 'big.glb' }), (e) => e.kind === ImportErrorKind.TOO_LARGE && /1,000,001 vertices/.test(e.message));
});

test('normalizeSurface: longest side 1 m, centred in x and z, bottom 0.5 m up', async () => {
  const s = normalizeSurface(await parseSurface(bytes(CUBE_OBJ.replace(/v (\S+) (\S+) (\S+)/g, (_, x, y, z) => `v ${3 * x + 10} ${y * 1.5} ${z - 4}`)), 'cube.obj'));
  const { min, max } = bounds(s.positions);
  const sizes = [0, 1, 2].map((k) => max[k] - min[k]);
  assert.ok(Math.abs(Math.max(...sizes) - 1) < 1e-6, `longest side ${Math.max(...sizes)}`);
  assert.ok(Math.abs(sizes[1] - 0.5) < 1e-6 && Math.abs(sizes[2] - 1 / 3) < 1e-6, 'uniform scale');
  assert.ok(Math.abs(min[0] + max[0]) < 1e-6 && Math.abs(min[2] + max[2]) < 1e-6, 'centred in x and z');
  assert.ok(Math.abs(min[1] - 0.5) < 1e-6, `bottom at ${min[1]} m`);

  const point = { positions: Float32Array.of(2, 2, 2, 2, 2, 2, 2, 2, 2), triangles: Uint32Array.of(0, 1, 2) };
  assert.throws(() => normalizeSurface(point, 'dot.obj'), (e) => e.kind === ImportErrorKind.FLAT && /^dot\.obj: the mesh has no size/.test(e.message));
});

test('samples: normalized like imports, with their seams kept', async () => {
  const expected = { bunny: [1839, 3674], torus: [25 * 49, 2 * 24 * 48], sphere: [33 * 17, 2 * 32 * 15], box: [24, 12] };
  for (const name of SAMPLE_NAMES) {
    const s = await sampleSurface(name);
    assert.deepEqual([s.positions.length / 3, s.triangles.length / 3], expected[name], name);
    const { min, max } = bounds(s.positions);
    const longest = Math.max(...[0, 1, 2].map((k) => max[k] - min[k]));
    assert.ok(Math.abs(longest - 1) < 1e-6 && Math.abs(min[1] - 0.5) < 1e-6, `${name}: 1 m, bottom at 0.5 m`);
    assert.ok(s.triangles.every((i) => i < s.positions.length / 3));
  }
  const torus = await sampleSurface('torus');
  const { min, max } = bounds(torus.positions);
  assert.ok(max[1] - min[1] < 0.5, 'the torus lies flat');
  await assert.rejects(sampleSurface('teapot'), /unknown sample "teapot"/);
});

test('fuzz reproducer: faces over vertices the loader never read are refused with a sentence', async () => {
  // tests/fuzz/readers.mjs: "element veztex 4" leaves Three's PLYLoader with 4 faces and 0 vertices;
  // the surface used to come back with triangle indices beyond its vertices.
  const ply = 'ply\nformat ascii 1.0\nelement veztex 4\nproperty float x\nproperty float y\nproperty float z\nelement face 4\n' +
    'property list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n';
  await rejectsImport(parseSurface(bytes(ply), 'tet.ply'), ImportErrorKind.UNPARSABLE, /triangle 1 refers to vertex 1, but the mesh has only 0 vertices/);
});

test('fuzz reproducer: a PLY header announcing more elements than the file holds is refused at once', async () => {
  // PLYLoader reads as many elements as announced: this 200-byte file kept it busy for minutes.
  const ply = 'ply\nformat ascii 1.0\nelement vertex 44294967296\nproperty float x\nproperty float y\nproperty float z\n' +
    'element face 4\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n';
  // The message is the header check's: the loader never ran (it would still be reading).
  await rejectsImport(parseSurface(bytes(ply), 'big.ply'), ImportErrorKind.UNPARSABLE, /announces 44,294,967,296 vertex elements, more than the file's \d+ bytes/);
});
