// Tet meshes for the elements whose scene is a sample surface (bunny, torus, sphere) or whose src
// is a file: fetched, read and tetrahedralized in the worker (import/tetra_client.js) the same way
// the demo imports a dropped file, and cached per page, so ten bunnies on one page are meshed once.
// The file readers (three.js loaders) are imported on first use: elements with a built-in lattice
// never load them.
import { tetrahedralize } from '../import/tetra_client.js';

const MIN_QUALITY = 0.02; // the demo's default (settings.js MESH_DEFAULTS)
const cache = new Map(); // key -> Promise<mesh>

// The file name a URL points at ("https://x/y/bunny.obj?v=2" -> "bunny.obj").
// A data: URL names its format by MIME type only (and may hold spaces): "mesh.obj" from model/obj.
const DATA_TYPES = { 'model/obj': 'obj', 'model/stl': 'stl', 'model/x-ply': 'ply', 'model/gltf-binary': 'glb', 'model/gltf+json': 'gltf', 'application/json': 'json' };
export const isDataUrl = (src) => /^\s*data:/i.test(src);
// src -> its URLs: one data: URL (never split), or one or two addresses separated by spaces.
export const srcUrls = (src) => (isDataUrl(src) ? [src.trim()] : src.split(/\s+/).filter(Boolean));

export function fileNameOf(url) {
  if (isDataUrl(url)) {
    const type = /^\s*data:([^;,]*)/i.exec(url)[1].toLowerCase();
    return DATA_TYPES[type] ? `mesh.${DATA_TYPES[type]}` : `data (${type || 'no type'}: use ${Object.keys(DATA_TYPES).join(', ')})`;
  }
  const path = new URL(url, 'http://x/').pathname;
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) || 'mesh';
}

async function fetchFile(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new Error(`could not fetch ${url}: ${error.message}`);
  }
  if (!response.ok) throw new Error(`could not fetch ${url}: HTTP ${response.status}`);
  const name = fileNameOf(url);
  return new File([await response.arrayBuffer()], name);
}

// Keeps the newest progress listener per key: several elements may wait on one mesh.
function meshed(key, make, onProgress) {
  let entry = cache.get(key);
  if (!entry) {
    const listeners = new Set();
    const promise = make((fraction) => {
      for (const listener of listeners) listener(fraction);
    });
    entry = { promise, listeners };
    cache.set(key, entry);
    // A failure is not cached: the next element (or a corrected src) tries again.
    promise.catch(() => cache.delete(key));
  }
  entry.listeners.add(onProgress);
  return entry.promise.finally(() => entry.listeners.delete(onProgress));
}

// bound: { maxTets (0: none), thinParts } (the max-tets and thin-parts attributes).
async function surfaceToTets(name, surface, resolution, { maxTets = 0, thinParts = 'sample' }, onProgress) {
  const options = { resolution, minQuality: MIN_QUALITY, thinSurface: true, maxTets, thinParts };
  let result;
  try {
    result = await tetrahedralize(surface, options, { onProgress }).promise;
  } catch (error) {
    throw await overBudgetError(error, name, options);
  }
  // The worker hands back the surface as drawn (normalized, perhaps refined) and its binding to
  // the tets, so the page only copies it (Body.setVisualBound) instead of searching the tets.
  // What a thin-parts choice did ("thin parts thickened to 58 mm (+0.053 m³)"), for the load event.
  const note = result.stats?.thickenedTo > 0 || result.stats?.coarsenedSpacing > 0 || result.stats?.droppedFaces > 0 ? (await import('../import/import_messages.js')).thinChoiceNote(result.stats) : null;
  return { name, positions: result.positions, tets: result.tets, surface: result.surface ?? surface, visual: result.visual ?? null, stats: result.stats, note };
}

// A refusal over max-tets in the page's words (the estimate, what drives it), plus what the element
// can do about it: the thin-parts choice when thin parts drive it. Other errors pass unchanged.
async function overBudgetError(error, name, options) {
  if (!(error?.stats?.maxTets > 0 && error.stats.estimatedTets > error.stats.maxTets)) return error;
  const { describeImportError, isThinOverBudget } = await import('../import/import_messages.js');
  const hint = isThinOverBudget(error) ? ' thin-parts="thicken", "coarsen" or "drop" meshes it within max-tets.' : '';
  return Object.assign(new Error(`${describeImportError(error, name, options).message}${hint}`), { code: error.code, codeName: error.codeName, stats: error.stats });
}

// scene: a sample name, or null with src: one URL, or two for a TetGen pair ("a.node a.ele");
// maxTets, thinParts: the bound on a surface's tets and the thin-parts choice (surfaceToTets).
// Returns { name, positions (m), tets, surface (or null), visual (a binding, or null), stats (or
// null) }; rejects with an Error
// whose message names what failed.
export function loadMesh({ scene = null, src = null, resolution = 10, maxTets = 0, thinParts = 'sample' }, onProgress = () => {}) {
  const bound = { maxTets: maxTets ?? 0, thinParts: thinParts ?? 'sample' };
  const boundKey = `${bound.maxTets}:${bound.thinParts}`;
  if (!src) {
    return meshed(`sample:${scene}:${resolution}:${boundKey}`, async (progress) => {
      const { sampleSurface } = await import('../import/samples.js');
      return surfaceToTets(scene, await sampleSurface(scene), resolution, bound, progress);
    }, onProgress);
  }
  const urls = srcUrls(src).map((u) => new URL(u, document.baseURI).href);
  return meshed(`src:${urls.join(' ')}:${resolution}:${boundKey}`, async (progress) => {
    const files = await Promise.all(urls.map(fetchFile));
    const { classifyFiles } = await import('../import/file_kinds.js');
    const request = classifyFiles(files);
    if (request.kind === 'surface') {
      const { normalizeSurface, readSurfaceFile } = await import('../import/mesh_files.js');
      const surface = normalizeSurface(await readSurfaceFile(request.file), request.file.name);
      return surfaceToTets(request.file.name, surface, resolution, bound, progress);
    }
    const { parseTetGen, parseTetJson } = await import('../import/tet_files.js');
    if (request.kind === 'tets') {
      const mesh = parseTetJson(await request.file.text(), request.file.name);
      return { name: request.file.name, positions: mesh.positions, tets: mesh.tets, surface: mesh.surface ?? null, stats: null };
    }
    const { placeOnStage } = await import('../import/placement.js');
    const mesh = parseTetGen(await request.node.text(), await request.ele.text(), { nodeName: request.node.name, eleName: request.ele.name });
    return { name: `${request.node.name} + ${request.ele.name}`, positions: placeOnStage(mesh.positions, request.node.name), tets: mesh.tets, surface: null, stats: null };
  }, onProgress);
}
