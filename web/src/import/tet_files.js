// Ready-made tet meshes: the page's own JSON format (read and written) and TetGen's .node/.ele
// pair (read). Pure JavaScript, no DOM, so node tests run it as is.
//
// JSON ("softbody-tets", version 1; docs "Import your own mesh"):
//   { "format": "softbody-tets", "version": 1,
//     "vertices": [x, y, z, ...],            m
//     "tets": [a, b, c, d, ...],             0-based vertex indices
//     "surface": { "vertices": [...], "triangles": [...] } }   optional render surface, same frame
//
// Both readers return { positions: Float32Array, tets: Uint32Array, surface: {positions, triangles}
// or null, flipped, unusedVertices }: tets of negative volume are re-oriented (two vertices
// swapped) and counted in `flipped`; vertices no tet uses are dropped (the C API refuses them) and
// counted. A tet of zero volume or with a repeated vertex is an error naming it.
import { ImportError, ImportErrorKind } from './import_error.js';

export const TET_FORMAT = 'softbody-tets';
export const TET_VERSION = 1;

// Same rule as the C API (core/shapes/tet_mesh.h kDegenerateRelVolume): |6V| <= 1e-6 x longest edge^3 is flat.
const DEGENERATE_REL_VOLUME = 1e-6;

// ---------------------------------------------------------------- JSON

export function parseTetJson(text, fileName = 'tets.json') {
  const fail = (message, kind = ImportErrorKind.INVALID) => new ImportError(fileName, message, kind);
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw fail(`not valid JSON (${error.message})`, ImportErrorKind.UNPARSABLE);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc) || doc.format !== TET_FORMAT) {
    throw fail(`not a tet mesh: expected "format": "${TET_FORMAT}" in a JSON object`, ImportErrorKind.UNPARSABLE);
  }
  if (doc.version !== TET_VERSION) throw fail(`version ${JSON.stringify(doc.version)} is not supported; this page reads version ${TET_VERSION}`);
  const positions = floatArray(doc.vertices, '"vertices"', 3, fail);
  const tets = indexArray(doc.tets, '"tets"', 4, positions.length / 3, fail);
  let surface = null;
  if (doc.surface !== undefined && doc.surface !== null) {
    if (typeof doc.surface !== 'object') throw fail('"surface" must be an object with "vertices" and "triangles"');
    const surfacePositions = floatArray(doc.surface.vertices, '"surface.vertices"', 3, fail);
    const triangles = indexArray(doc.surface.triangles, '"surface.triangles"', 3, surfacePositions.length / 3, fail);
    surface = { positions: surfacePositions, triangles };
  }
  return { ...finishTets(positions, tets, fail), surface };
}

function floatArray(value, label, group, fail) {
  if (!Array.isArray(value)) throw fail(`missing ${label} array`);
  if (value.length === 0) throw fail(`${label} is empty`);
  if (value.length % group !== 0) throw fail(`${label} has ${value.length} numbers, not a multiple of ${group}`);
  const out = new Float32Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    if (typeof v !== 'number' || !Number.isFinite(v) || !Number.isFinite(Math.fround(v))) {
      throw fail(`${label}[${i}] is ${JSON.stringify(v)}, not a finite number`, ImportErrorKind.NOT_FINITE);
    }
    out[i] = v;
  }
  return out;
}

function indexArray(value, label, group, vertexCount, fail) {
  if (!Array.isArray(value)) throw fail(`missing ${label} array`);
  if (value.length === 0) throw fail(`${label} is empty`);
  if (value.length % group !== 0) throw fail(`${label} has ${value.length} numbers, not a multiple of ${group}`);
  const out = new Uint32Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    if (!Number.isInteger(v)) throw fail(`${label}[${i}] is ${JSON.stringify(v)}, not a whole number`);
    if (v < 0 || v >= vertexCount) {
      throw fail(`${label}[${i}] (element ${Math.floor(i / group)}) refers to vertex ${v}, but there are ${vertexCount} vertices (0 to ${vertexCount - 1})`);
    }
    out[i] = v;
  }
  return out;
}

// The current body as JSON: rest positions and tets, plus the render surface when there is one.
// Numbers are written with the fewest digits that read back as the same float32.
export function serializeTets({ positions, tets, surface = null }) {
  const doc = { format: TET_FORMAT, version: TET_VERSION, vertices: shortFloats(positions), tets: Array.from(tets) };
  if (surface) doc.surface = { vertices: shortFloats(surface.positions), triangles: Array.from(surface.triangles) };
  return JSON.stringify(doc);
}

function shortFloats(values) {
  const out = new Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const x = Math.fround(values[i]);
    let y = x;
    for (let digits = 6; digits <= 9; digits++) {
      const candidate = Number(x.toPrecision(digits));
      if (Math.fround(candidate) === x) {
        y = candidate;
        break;
      }
    }
    out[i] = y;
  }
  return out;
}

// ---------------------------------------------------------------- TetGen .node/.ele
// https://wias-berlin.de/software/tetgen/fformats.html: '#' starts a comment anywhere on a line;
// the first line is a header; points are numbered from 0 or 1 ("firstnumber", taken from the first
// point) consecutively; optional attributes and boundary markers follow the coordinates; tets have
// 4 or 10 nodes (the first 4 are the corners).

export function parseTetGen(nodeText, eleText, { nodeName = 'mesh.node', eleName = 'mesh.ele' } = {}) {
  const { positions, firstNumber } = parseNode(nodeText, nodeName);
  const tets = parseEle(eleText, eleName, positions.length / 3, firstNumber);
  const fail = (message, kind = ImportErrorKind.INVALID) => new ImportError(eleName, message, kind);
  return { ...finishTets(positions, tets, fail), surface: null };
}

// Non-empty lines with comments removed, each as { n: line number, tokens }.
function records(text) {
  const out = [];
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const content = lines[n].replace(/#.*/, '').trim();
    if (content) out.push({ n: n + 1, tokens: content.split(/\s+/) });
  }
  return out;
}

function number(token, line, fail) {
  const v = Number(token);
  if (token === '' || !Number.isFinite(v)) {
    throw fail(`line ${line}: "${token}" is not a finite number`, Number.isNaN(v) ? ImportErrorKind.UNPARSABLE : ImportErrorKind.NOT_FINITE);
  }
  // Coordinates become float32 (found by tests/fuzz/readers.mjs: "01e39" read as Infinity).
  if (!Number.isFinite(Math.fround(v))) {
    throw fail(`line ${line}: "${token}" is beyond the range of a 32-bit float (about ±3.4e38)`, ImportErrorKind.NOT_FINITE);
  }
  return v;
}

function integer(token, line, fail, what) {
  const v = number(token, line, fail);
  if (!Number.isInteger(v)) throw fail(`line ${line}: ${what} "${token}" is not a whole number`);
  return v;
}

function parseNode(text, name) {
  const fail = (message, kind = ImportErrorKind.INVALID) => new ImportError(name, message, kind);
  const rows = records(text);
  if (rows.length === 0) throw fail('the .node file has no header line', ImportErrorKind.UNPARSABLE);
  const [head, ...points] = rows;
  const [count, dimension = 3, attributes = 0, markers = 0] = head.tokens.map((t) => integer(t, head.n, fail, 'header value'));
  if (dimension !== 3) throw fail(`line ${head.n}: dimension ${dimension}; only 3D meshes are supported`);
  if (count <= 0) throw fail(`line ${head.n}: the header announces ${count} points`);
  if (points.length < count) throw fail(`the header announces ${count} points but the file lists ${points.length}`);
  const positions = new Float32Array(3 * count);
  const firstNumber = integer(points[0].tokens[0], points[0].n, fail, 'point number');
  if (firstNumber !== 0 && firstNumber !== 1) throw fail(`line ${points[0].n}: points must be numbered from 0 or 1, not ${firstNumber}`);
  const expectedTokens = 4 + attributes + (markers ? 1 : 0);
  for (let i = 0; i < count; i++) {
    const { n, tokens } = points[i];
    if (tokens.length < 4) throw fail(`line ${n}: a point needs its number and x y z, got "${tokens.join(' ')}"`);
    if (tokens.length > expectedTokens) throw fail(`line ${n}: ${tokens.length} values, the header allows ${expectedTokens}`);
    const id = integer(tokens[0], n, fail, 'point number');
    if (id !== firstNumber + i) throw fail(`line ${n}: point number ${id} where ${firstNumber + i} was expected (points are numbered consecutively)`);
    for (let k = 0; k < 3; k++) positions[3 * i + k] = number(tokens[1 + k], n, fail);
  }
  return { positions, firstNumber };
}

function parseEle(text, name, vertexCount, firstNumber) {
  const fail = (message, kind = ImportErrorKind.INVALID) => new ImportError(name, message, kind);
  const rows = records(text);
  if (rows.length === 0) throw fail('the .ele file has no header line', ImportErrorKind.UNPARSABLE);
  const [head, ...elements] = rows;
  const [count, nodesPerTet = 4] = head.tokens.map((t) => integer(t, head.n, fail, 'header value'));
  if (nodesPerTet !== 4 && nodesPerTet !== 10) throw fail(`line ${head.n}: ${nodesPerTet} nodes per tet; 4 or 10 are supported`);
  if (count <= 0) throw fail(`line ${head.n}: the header announces ${count} tets`);
  if (elements.length < count) throw fail(`the header announces ${count} tets but the file lists ${elements.length}`);
  const tets = new Uint32Array(4 * count);
  const last = firstNumber + vertexCount - 1;
  for (let t = 0; t < count; t++) {
    const { n, tokens } = elements[t];
    if (tokens.length < 1 + nodesPerTet) throw fail(`line ${n}: a tet needs its number and ${nodesPerTet} nodes, got "${tokens.join(' ')}"`);
    for (let k = 0; k < 4; k++) {
      const node = integer(tokens[1 + k], n, fail, 'node');
      if (node < firstNumber || node > last) throw fail(`line ${n}: tet ${tokens[0]} uses point ${node}, but the .node file has points ${firstNumber} to ${last}`);
      tets[4 * t + k] = node - firstNumber;
    }
  }
  return tets;
}

// ---------------------------------------------------------------- shared checks

function volume6(p, a, b, c, d) {
  const ax = p[3 * a], ay = p[3 * a + 1], az = p[3 * a + 2];
  const ux = p[3 * b] - ax, uy = p[3 * b + 1] - ay, uz = p[3 * b + 2] - az;
  const vx = p[3 * c] - ax, vy = p[3 * c + 1] - ay, vz = p[3 * c + 2] - az;
  const wx = p[3 * d] - ax, wy = p[3 * d + 1] - ay, wz = p[3 * d + 2] - az;
  return ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx);
}

function longestEdgeSq(p, ids) {
  let longest = 0;
  for (let i = 0; i < 4; i++) {
    for (let j = i + 1; j < 4; j++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += (p[3 * ids[i] + k] - p[3 * ids[j] + k]) ** 2;
      longest = Math.max(longest, s);
    }
  }
  return longest;
}

// Orients every tet positively, rejects flat ones, drops unused vertices.
function finishTets(positions, tets, fail) {
  let flipped = 0;
  for (let t = 0; t < tets.length; t += 4) {
    const ids = [tets[t], tets[t + 1], tets[t + 2], tets[t + 3]];
    for (let i = 0; i < 4; i++) {
      for (let j = 0; j < i; j++) {
        if (ids[i] === ids[j]) throw fail(`tet ${t / 4} uses vertex ${ids[i]} twice`, ImportErrorKind.DEGENERATE);
      }
    }
    const v6 = volume6(positions, ...ids);
    const l2 = longestEdgeSq(positions, ids);
    if (Math.abs(v6) <= DEGENERATE_REL_VOLUME * l2 * Math.sqrt(l2)) {
      throw fail(`tet ${t / 4} (vertices ${ids.join(', ')}) has zero volume: its corners lie in one plane`, ImportErrorKind.DEGENERATE);
    }
    if (v6 < 0) {
      tets[t + 2] = ids[3];
      tets[t + 3] = ids[2];
      flipped += 1;
    }
  }
  return { ...dropUnused(positions, tets), flipped };
}

function dropUnused(positions, tets) {
  const vertexCount = positions.length / 3;
  const remap = new Int32Array(vertexCount).fill(-1);
  for (const v of tets) remap[v] = 0;
  let used = 0;
  for (let v = 0; v < vertexCount; v++) if (remap[v] === 0) remap[v] = used++;
  if (used === vertexCount) return { positions, tets, unusedVertices: 0 };
  const kept = new Float32Array(3 * used);
  for (let v = 0; v < vertexCount; v++) {
    if (remap[v] >= 0) kept.set(positions.subarray(3 * v, 3 * v + 3), 3 * remap[v]);
  }
  return { positions: kept, tets: tets.map((v) => remap[v]), unusedVertices: vertexCount - used };
}
