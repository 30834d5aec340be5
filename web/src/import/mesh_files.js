// Mesh files (OBJ, STL ascii and binary, PLY, glTF/GLB) -> a triangle surface
// { positions: Float32Array (xyz), triangles: Uint32Array }, read with Three.js's own loaders. All
// meshes of a scene are merged with their world matrices applied; points and lines are ignored.
// Every failure is an ImportError whose message is written for the user.
//
// Non-indexed geometry (what OBJ and STL loaders return: three vertices per triangle) is welded
// here only where vertices are exactly equal in every attribute that matters for drawing, so the
// render surface shares vertices where the file did and keeps its seams and hard edges; the C++
// tetrahedralizer welds near-duplicates itself.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OBJLoader } from 'three/addons/loaders/OBJLoader.js';
import { PLYLoader } from 'three/addons/loaders/PLYLoader.js';
import { STLLoader } from 'three/addons/loaders/STLLoader.js';
import { TetraLimits } from '../softbody.js';
import { SURFACE_EXTENSIONS, checkFileSize, extensionOf, unsupportedError } from './file_kinds.js';
import { ImportError, ImportErrorKind } from './import_error.js';
import { placeOnStage } from './placement.js';

const FORMAT_NAMES = { obj: 'OBJ', stl: 'STL', ply: 'PLY', gltf: 'glTF', glb: 'glTF binary (GLB)' };

// Reads a File (or anything with name, size and arrayBuffer()) into a surface, not yet normalized.
export async function readSurfaceFile(file) {
  if (!SURFACE_EXTENSIONS.includes(extensionOf(file.name))) throw unsupportedError(file.name);
  checkFileSize(file);
  return parseSurface(await file.arrayBuffer(), file.name);
}

// buffer: the file's bytes; name: its file name (the extension picks the loader).
export async function parseSurface(buffer, name) {
  const ext = extensionOf(name);
  if (!SURFACE_EXTENSIONS.includes(ext)) throw unsupportedError(name);
  checkFileSize({ name, size: buffer.byteLength });
  const fail = (reason, kind = ImportErrorKind.UNPARSABLE) => new ImportError(name, reason, kind);
  let root;
  try {
    root = await LOADERS[ext](buffer, fail);
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw fail(`not a readable ${FORMAT_NAMES[ext]} file (${brief(error)})`);
  }
  return surfaceFromObject(root, { name });
}

// The loader's own words, one line, not too long for a toast. Some quote the file's bytes (V8's
// JSON errors do: "Unexpected token ..., "A\u0000\ufffd..." is not valid JSON"): binary gibberish
// says nothing to a reader, so a message with unprintable characters is replaced by a plain one.
function brief(error) {
  const text = String(error?.message ?? error).replace(/^THREE\.\w+:\s*/, '').split('\n')[0];
  if (/[\u0000-\u0008\u000e-\u001f\u007f-\u009f\ufffd]/.test(text)) return 'its content could not be parsed';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

const text = (buffer) => new TextDecoder().decode(buffer);

const LOADERS = {
  obj(buffer, fail) {
    const source = text(buffer);
    if (source.includes('\0')) throw fail('this is binary data, not an OBJ text file');
    checkObjFaces(source, fail);
    const root = new OBJLoader().parse(source);
    // Without "vn" lines the loader invents per-face normals: not part of the file's vertices.
    if (!/^\s*vn\s/m.test(source)) dropNormals(root);
    return root;
  },
  stl(buffer, fail) {
    const view = new DataView(buffer);
    const binary = buffer.byteLength >= 84 && 84 + 50 * view.getUint32(80, true) === buffer.byteLength;
    if (!binary && !/^\s*solid/.test(text(buffer.slice(0, 512)))) {
      throw fail('not an STL file: neither binary (its size does not match the triangle count in its header) nor ASCII (it does not start with "solid")');
    }
    // An ASCII STL shorter than a binary header has no room for a facet (and STLLoader would read
    // past its end looking for the binary triangle count).
    if (!binary && buffer.byteLength < 84) return new THREE.Group();
    return dropNormals(new THREE.Mesh(new STLLoader().parse(buffer))); // per-facet normals
  },
  ply(buffer, fail) {
    if (!/^ply\s/.test(text(buffer.slice(0, 4)))) throw fail('not a PLY file (it does not start with "ply")');
    checkPlyHeader(buffer, fail);
    return new THREE.Mesh(new PLYLoader().parse(buffer));
  },
  gltf: (buffer, fail) => loadGltf(buffer, fail, 'gltf'),
  glb: (buffer, fail) => loadGltf(buffer, fail, 'glb'),
};

// OBJLoader turns a face that names a missing vertex into NaN coordinates; say what is wrong instead.
function checkObjFaces(source, fail) {
  const lines = source.replace(/\\\r?\n/g, '').split('\n');
  let vertices = 0;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].trimStart();
    if (line.startsWith('v ') || line.startsWith('v\t')) {
      vertices += 1;
    } else if (line.startsWith('f ') || line.startsWith('f\t')) {
      for (const token of line.slice(2).trim().split(/\s+/)) {
        const i = parseInt(token, 10); // "7/2/5" -> 7; negative counts back from the newest vertex
        const index = i < 0 ? vertices + i + 1 : i;
        if (!(index >= 1 && index <= vertices)) {
          throw fail(`line ${n + 1}: a face uses vertex ${token.split('/')[0]}, but only ${vertices} vertices are defined before it`);
        }
      }
    }
  }
  if (vertices === 0) throw fail('no OBJ vertex lines ("v x y z") in it');
}

// PLYLoader reads as many elements as the header announces, so "element vertex 44294967296" in a
// small file kept it busy for minutes (found by tests/fuzz/readers.mjs). Every element takes at least
// one byte, ASCII or binary: a count beyond the file's size, or beyond the import limits, is refused.
function checkPlyHeader(buffer, fail) {
  const head = text(buffer.slice(0, 65536));
  const end = head.indexOf('end_header');
  for (const m of (end >= 0 ? head.slice(0, end) : head).matchAll(/^element\s+(\S+)\s+(\S+)/gm)) {
    const count = Number(m[2]);
    const limit = m[1] === 'vertex' ? TetraLimits.maxVertices : m[1] === 'face' ? TetraLimits.maxTriangles : Infinity;
    if (!Number.isInteger(count) || count < 0) throw fail(`its header gives "${m[2]}" as the number of ${m[1]} elements`);
    if (count > buffer.byteLength) {
      throw fail(`its header announces ${count.toLocaleString('en-US')} ${m[1]} elements, more than the file's ${buffer.byteLength.toLocaleString('en-US')} bytes could hold`);
    }
    if (count > limit) {
      throw fail(`its header announces ${count.toLocaleString('en-US')} ${m[1]} elements; at most ${limit.toLocaleString('en-US')} are accepted`, ImportErrorKind.TOO_LARGE);
    }
  }
}

// Normals the loader derived per face would keep every triangle apart when welding (below).
function dropNormals(root) {
  root.traverse((object) => object.geometry?.deleteAttribute('normal'));
  return root;
}

const GLB_MAGIC = 0x46546c67; // "glTF" read as a little-endian uint32: the first 4 bytes of a .glb

// glTF and GLB: geometry only. Materials are replaced by a plain one, so textures are never
// fetched; external buffers cannot be fetched (a dropped file has no folder), so they are refused
// up front with a hint instead of a failed request. What is wrong with a file that is neither is
// said in words here, before the loader would quote its bytes.
async function loadGltf(buffer, fail, ext) {
  const view = new DataView(buffer);
  const binary = buffer.byteLength >= 4 && view.getUint32(0, true) === GLB_MAGIC;
  if (ext === 'glb' && !binary) throw fail('not a glTF binary: it does not start with the glTF magic number ("glTF")');
  if (binary) {
    const version = buffer.byteLength >= 8 ? view.getUint32(4, true) : 0;
    if (version !== 2) throw fail(`a glTF binary of version ${version}; only version 2 can be read`);
  }
  const json = gltfJson(buffer);
  if (!json) {
    throw fail(binary ? 'a glTF binary whose JSON chunk is damaged or cut short' : 'not a glTF file: it is neither JSON text nor a glTF binary');
  }
  const external = (json.buffers ?? []).find((b) => b.uri && !b.uri.startsWith('data:'));
  if (external) throw fail(`its geometry is in a separate file ("${external.uri}"); export it as .glb or with embedded buffers`);
  const compressed = (json.extensionsRequired ?? []).filter((e) => /draco|meshopt/i.test(e));
  if (compressed.length) throw fail(`it is compressed (${compressed.join(', ')}), which this page does not decode; export it uncompressed`);
  const loader = new GLTFLoader();
  loader.register(() => ({ name: 'softbody_geometry_only', loadMaterial: () => Promise.resolve(new THREE.MeshBasicMaterial()) }));
  const gltf = await loader.parseAsync(buffer, '');
  if (!gltf.scene) throw fail('the file has no scene');
  return gltf.scene;
}

// The JSON part of a .gltf or .glb, or null if it cannot be read.
function gltfJson(buffer) {
  try {
    const view = new DataView(buffer);
    if (buffer.byteLength >= 20 && view.getUint32(0, true) === GLB_MAGIC) {
      const length = view.getUint32(12, true); // first chunk: JSON
      return JSON.parse(text(buffer.slice(20, 20 + length)));
    }
    return JSON.parse(text(buffer));
  } catch {
    return null;
  }
}

// Merges every mesh under root (world matrices applied, instances expanded) into one surface.
export function surfaceFromObject(root, { name = null } = {}) {
  root.updateMatrixWorld(true);
  const parts = [];
  let vertexTotal = 0;
  let triangleTotal = 0;
  let skipped = 0; // points and lines
  const tooLarge = () =>
    new ImportError(name, `the mesh has ${vertexTotal.toLocaleString('en-US')} vertices and ${triangleTotal.toLocaleString('en-US')} triangles; at most ${TetraLimits.maxVertices.toLocaleString('en-US')} vertices and ${TetraLimits.maxTriangles.toLocaleString('en-US')} triangles are accepted`, ImportErrorKind.TOO_LARGE);
  root.traverse((object) => {
    if (object.isPoints || object.isLine) skipped += 1;
    if (!object.isMesh || !object.geometry?.attributes?.position) return;
    const geometry = object.geometry;
    const triangles = geometry.index ? geometry.index.count - (geometry.index.count % 3) : geometry.attributes.position.count - (geometry.attributes.position.count % 3);
    if (triangles === 0) return;
    const instances = object.isInstancedMesh ? object.count : 1;
    triangleTotal += (instances * triangles) / 3;
    if (triangleTotal > TetraLimits.maxTriangles) throw tooLarge();
    const { positions, indices } = geometry.index ? indexedPart(geometry) : weldedPart(geometry);
    // A loader can return faces whose vertices it never read (found by tests/fuzz/readers.mjs: a PLY
    // whose "element vertex" line is misspelt gives 4 faces over 0 vertices).
    const bad = indices.findIndex((i) => i >= positions.length / 3);
    if (bad >= 0) {
      throw new ImportError(name, `triangle ${Math.floor(bad / 3) + 1} refers to vertex ${indices[bad] + 1}, but the mesh has only ${positions.length / 3} vertices`, ImportErrorKind.UNPARSABLE);
    }
    for (let i = 0; i < instances; i++) {
      const matrix = object.matrixWorld.clone();
      if (object.isInstancedMesh) {
        const instance = new THREE.Matrix4();
        object.getMatrixAt(i, instance);
        matrix.multiply(instance);
      }
      vertexTotal += positions.length / 3;
      if (vertexTotal > TetraLimits.maxVertices) throw tooLarge();
      parts.push({ positions: transformed(positions, matrix), indices });
    }
  });
  if (triangleTotal === 0) {
    const only = skipped ? 'only points or lines, no triangles' : 'no triangles';
    throw new ImportError(name, `the file contains ${only}; a surface made of triangles is needed`, ImportErrorKind.NO_TRIANGLES);
  }
  return concatenate(parts, name);
}

function indexedPart(geometry) {
  const position = geometry.attributes.position;
  const positions = new Float32Array(3 * position.count);
  for (let i = 0; i < position.count; i++) {
    positions[3 * i] = position.getX(i);
    positions[3 * i + 1] = position.getY(i);
    positions[3 * i + 2] = position.getZ(i);
  }
  const index = geometry.index;
  const indices = new Uint32Array(index.count - (index.count % 3));
  for (let i = 0; i < indices.length; i++) indices[i] = index.getX(i);
  return { positions, indices };
}

// Non-indexed geometry: vertices with bit-identical position, normal and uv (those present) become
// one, so a surface exported without indices is drawn smooth again where it was smooth.
function weldedPart(geometry) {
  const attributes = [geometry.attributes.position];
  if (geometry.attributes.normal) attributes.push(geometry.attributes.normal);
  if (geometry.attributes.uv) attributes.push(geometry.attributes.uv);
  const count = geometry.attributes.position.count - (geometry.attributes.position.count % 3);
  const seen = new Map();
  const indices = new Uint32Array(count);
  const xyz = [];
  const scratch = new Float32Array(1);
  const bits = new Uint32Array(scratch.buffer);
  for (let i = 0; i < count; i++) {
    let key = '';
    for (const a of attributes) {
      for (let k = 0; k < a.itemSize; k++) {
        scratch[0] = a.getComponent(i, k);
        key += `${bits[0] === 0x80000000 ? 0 : bits[0]},`; // -0 and 0 are the same place
      }
    }
    let id = seen.get(key);
    if (id === undefined) {
      id = seen.size;
      seen.set(key, id);
      const p = geometry.attributes.position;
      xyz.push(p.getX(i), p.getY(i), p.getZ(i));
    }
    indices[i] = id;
  }
  return { positions: Float32Array.from(xyz), indices };
}

function transformed(positions, matrix) {
  if (matrix.equals(IDENTITY)) return positions;
  const out = new Float32Array(positions.length);
  const v = new THREE.Vector3();
  for (let i = 0; i < positions.length; i += 3) {
    v.fromArray(positions, i).applyMatrix4(matrix).toArray(out, i);
  }
  return out;
}
const IDENTITY = new THREE.Matrix4();

function concatenate(parts, name) {
  const vertexCount = parts.reduce((n, p) => n + p.positions.length / 3, 0);
  const positions = new Float32Array(3 * vertexCount);
  const triangles = new Uint32Array(parts.reduce((n, p) => n + p.indices.length, 0));
  let v = 0;
  let t = 0;
  for (const part of parts) {
    positions.set(part.positions, 3 * v);
    for (let i = 0; i < part.indices.length; i++) triangles[t + i] = part.indices[i] + v;
    v += part.positions.length / 3;
    t += part.indices.length;
  }
  for (let i = 0; i < positions.length; i++) {
    if (!Number.isFinite(positions[i])) {
      throw new ImportError(name, `vertex ${Math.floor(i / 3) + 1} has a coordinate that is not a finite number (NaN or infinity)`, ImportErrorKind.NOT_FINITE);
    }
  }
  return { positions, triangles };
}

// Scales and places a surface like the default box (placement.js); the triangles are shared.
export function normalizeSurface(surface, name = null) {
  return { positions: placeOnStage(surface.positions, name), triangles: surface.triangles };
}
