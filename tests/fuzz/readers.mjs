// A mutation fuzzer for the page's file readers (web/src/import/): mesh files through parseSurface
// (Three.js's loaders, then our checks) and tet files through parseTetJson and parseTetGen. Every input
// must either give a surface or tet mesh of finite numbers and in-range indices, or be refused with an
// ImportError carrying a sentence; anything else (a TypeError, a RangeError, NaN in the output) is a
// finding, printed with the input (base64) and written to tests/fuzz/found/readers/.
//   node tests/fuzz/readers.mjs --iterations N [--seed S]   deterministic (npm test runs 600 with seed 1)
//   node tests/fuzz/readers.mjs --minutes N                 random seeds for N minutes
import { mkdirSync, writeFileSync } from 'node:fs';

globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) {
    super(type);
    Object.assign(this, init);
  }
};
const { ImportError } = await import('../../web/src/import/import_error.js');
const { parseSurface } = await import('../../web/src/import/mesh_files.js');
const { parseTetJson, parseTetGen } = await import('../../web/src/import/tet_files.js');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};

const enc = (s) => new TextEncoder().encode(s);
function binaryStl() {
  const b = new ArrayBuffer(84 + 2 * 50);
  const v = new DataView(b);
  v.setUint32(80, 2, true);
  const tri = [[0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 0, 0, 0, 1, 0, 0, 0, 1]];
  tri.forEach((t, i) => t.forEach((x, k) => v.setFloat32(84 + 50 * i + 12 + 4 * k, x, true)));
  return new Uint8Array(b);
}
const SEEDS = [
  ['cube.obj', enc('v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nvt 0 0\nvn 0 0 1\nf 1//1 3//1 2//1\nf 1 2 4\nf 1 4 3\nf 2/1 3/1 4/1\n')],
  ['tri.stl', enc('solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid s\n')],
  ['bin.stl', binaryStl()],
  ['tet.ply', enc('ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\nelement face 4\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n')],
  ['tets.json', enc(JSON.stringify({ format: 'softbody-tets', version: 1, vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], tets: [0, 1, 2, 3], surface: { vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], triangles: [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3] } }))],
  ['mesh.node+ele', enc('# nodes\n4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n\x00# tets\n1 4 0\n1 1 2 3 4\n')],
];
const TOKENS = ['nan', 'NaN', 'inf', '-1', '0', '1e39', '-1e999', '4294967296', '999999999', '\n', ' ', 'f ', 'v ', '/', '//',
  '"', ',', '[', ']', '{', '}', 'null', 'true', '-0', '1.5', 'facet', 'vertex', 'element face 99999999\n', 'end_header\n', '#', '\x00'];

// xorshift32: the same seed gives the same inputs everywhere.
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

function mutate(bytes, r) {
  let b = Array.from(bytes);
  const n = 1 + Math.floor(r() * 6);
  for (let m = 0; m < n; m++) {
    const at = Math.floor(r() * (b.length + 1));
    const kind = Math.floor(r() * 6);
    if (kind === 0 && b.length) b[Math.min(at, b.length - 1)] = Math.floor(r() * 256);
    else if (kind === 1) b.splice(at, 0, ...enc(TOKENS[Math.floor(r() * TOKENS.length)]));
    else if (kind === 2) b.splice(at, 1 + Math.floor(r() * 8));
    else if (kind === 3) b = b.slice(0, at);
    else if (kind === 4) b.splice(at, 0, ...b.slice(Math.floor(r() * b.length), Math.floor(r() * b.length)));
    else if (b.length) b[Math.min(at, b.length - 1)] ^= 1 << Math.floor(r() * 8);
  }
  return new Uint8Array(b);
}

function checkMesh(positions, indices, per, what) {
  if (!positions || !indices) throw new Error(`${what}: missing arrays`);
  for (const x of positions) if (!Number.isFinite(x)) throw new Error(`${what}: a non-finite coordinate`);
  const n = positions.length / 3;
  if (!Number.isInteger(n) || indices.length % per) throw new Error(`${what}: ragged arrays`);
  for (const i of indices) if (!(Number.isInteger(i) && i >= 0 && i < n)) throw new Error(`${what}: index ${i} out of range (${n} vertices)`);
}

async function run(name, bytes) {
  if (name.endsWith('.json')) {
    const t = parseTetJson(new TextDecoder().decode(bytes), name);
    checkMesh(t.positions ?? t.vertices, t.tets, 4, 'tets');
  } else if (name.endsWith('+ele')) {
    const text = new TextDecoder().decode(bytes);
    const cut = text.indexOf('\x00');
    const t = parseTetGen(cut >= 0 ? text.slice(0, cut) : text, cut >= 0 ? text.slice(cut + 1) : '', { nodeName: 'mesh.node', eleName: 'mesh.ele' });
    checkMesh(t.positions ?? t.vertices, t.tets, 4, 'tets');
  } else {
    const s = await parseSurface(bytes.slice().buffer, name);
    checkMesh(s.positions, s.triangles ?? s.indices, 3, 'surface');
  }
}

const minutes = option('--minutes', 0);
const iterations = minutes > 0 ? Infinity : option('--iterations', 600);
const deadline = Date.now() + minutes * 60000;
let seed = option('--seed', minutes > 0 ? Date.now() % 1e9 : 1);
const findings = [];
const current = new URL('./found/readers/current-input', import.meta.url);
if (minutes > 0) mkdirSync(new URL('./found/readers/', import.meta.url), { recursive: true });
let done = 0;
const originalWarn = console.warn;
const originalLog = console.log;
const originalError = console.error;
// Three.js's loaders log about odd input; the verdict is what they return.
console.warn = console.log = console.error = () => {};
while (done < iterations && (minutes === 0 || Date.now() < deadline)) {
  const r = rng(seed++);
  for (let k = 0; k < 50 && done < iterations; k++, done++) {
    const [name, base] = SEEDS[Math.floor(r() * SEEDS.length)];
    const input = mutate(base, r);
    // A reader that never returns (a hang is a finding too) leaves its input here.
    if (minutes > 0) writeFileSync(current, `${name}\n${Buffer.from(input).toString('base64')}\n`);
    try {
      await run(name, input);
    } catch (error) {
      if (error instanceof ImportError && error.message.length > 10) continue;
      findings.push({ name, input, error });
      if (findings.length <= 5) {
        originalWarn(`finding in ${name}: ${error?.stack?.split('\n').slice(0, 3).join(' | ') ?? error}`);
        originalWarn(`  input (base64): ${Buffer.from(input).toString('base64')}`);
      }
    }
  }
}
console.warn = originalWarn;
console.log = originalLog;
console.error = originalError;
if (findings.length) {
  const dir = new URL('./found/readers/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  findings.slice(0, 50).forEach((f, i) => writeFileSync(new URL(`${i}-${f.name}`, dir), f.input));
}
console.log(`${done} inputs, ${findings.length} findings`);
console.log(`# pass ${findings.length ? 0 : 1}\n# fail ${findings.length ? 1 : 0}`);
process.exitCode = findings.length ? 1 : 0;
