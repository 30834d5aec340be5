// Which files a drop or a file chooser handed us, and what to do with them: one surface mesh, one
// JSON tet mesh, or a TetGen .node + .ele pair. Pure JavaScript (the node tests use it too).
import { ImportError, ImportErrorKind } from './import_error.js';

export const SURFACE_EXTENSIONS = Object.freeze(['obj', 'stl', 'ply', 'gltf', 'glb']);
export const TET_EXTENSIONS = Object.freeze(['json', 'node', 'ele']);
export const SUPPORTED_EXTENSIONS = Object.freeze([...SURFACE_EXTENSIONS, ...TET_EXTENSIONS]);
// The file input's accept attribute.
export const ACCEPT = SUPPORTED_EXTENSIONS.map((e) => `.${e}`).join(',');

// 200 MB: a binary STL at the tetrahedralizer's 2 million triangle limit is 100 MB, an ASCII one
// about 3 times that; anything bigger would not fit the limits once parsed, and reading it would
// hold the page for seconds.
export const MAX_FILE_BYTES = 200 * 1024 * 1024;

export function extensionOf(name) {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function baseName(name) {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? name : name.slice(0, dot);
}

export function unsupportedError(name) {
  const ext = extensionOf(name);
  const what = ext ? `.${ext} files are not supported` : 'a file without an extension is not supported';
  return new ImportError(name, `${what}; choose one of ${SUPPORTED_EXTENSIONS.map((e) => `.${e}`).join(', ')}`, ImportErrorKind.UNSUPPORTED);
}

// Rejects empty and oversized files before reading them. file: { name, size }.
export function checkFileSize(file) {
  if (file.size === 0) throw new ImportError(file.name, 'the file is empty (0 bytes)', ImportErrorKind.EMPTY);
  if (file.size > MAX_FILE_BYTES) {
    const mb = (file.size / 1048576).toFixed(0);
    throw new ImportError(file.name, `the file is ${mb} MB; files up to ${MAX_FILE_BYTES / 1048576} MB are accepted`, ImportErrorKind.TOO_LARGE);
  }
}

// files: [{ name, ... }] (File objects in the page). Returns one of
//   { kind: 'surface', file }, { kind: 'tets', file }, { kind: 'tetgen', node, ele }.
// Files with other extensions next to a supported one (an OBJ's .mtl, textures) are ignored.
export function classifyFiles(files) {
  if (files.length === 0) throw new ImportError(null, 'no file was given', ImportErrorKind.EMPTY);
  const byExt = (list) => files.filter((f) => list.includes(extensionOf(f.name)));
  const nodes = byExt(['node']);
  const eles = byExt(['ele']);
  if (nodes.length || eles.length) return tetgenPair(nodes, eles);
  const meshes = byExt([...SURFACE_EXTENSIONS, 'json']);
  if (meshes.length === 0) throw unsupportedError(files[0].name);
  if (meshes.length > 1) {
    throw new ImportError(null, `${meshes.length} meshes were given (${meshes.map((f) => f.name).join(', ')}); import one at a time`, ImportErrorKind.TOO_MANY);
  }
  const file = meshes[0];
  return { kind: extensionOf(file.name) === 'json' ? 'tets' : 'surface', file };
}

function tetgenPair(nodes, eles) {
  if (nodes.length === 1 && eles.length === 1) return { kind: 'tetgen', node: nodes[0], ele: eles[0] };
  if (nodes.length === 0 || eles.length === 0) {
    const [present] = nodes.length ? nodes : eles;
    const missing = nodes.length ? '.ele' : '.node';
    throw new ImportError(present.name, `a TetGen mesh needs its ${missing} file too: drop or choose the .node and the .ele together`, ImportErrorKind.MISSING_PAIR);
  }
  // Several of each: pair them by base name ("bunny.1.node" with "bunny.1.ele") and take the only match.
  const pairs = nodes.map((n) => ({ node: n, ele: eles.find((e) => baseName(e.name) === baseName(n.name)) })).filter((p) => p.ele);
  if (pairs.length !== 1) {
    throw new ImportError(null, `give one .node and one .ele file with the same name (got ${[...nodes, ...eles].map((f) => f.name).join(', ')})`, ImportErrorKind.TOO_MANY);
  }
  return { kind: 'tetgen', ...pairs[0] };
}
