// The bridge's reads for a second solver implementation (the WebGPU backend, gpu/): a body's rest
// data, inverse masses, velocities and the parallel batches of its solve order (emscripten/api_gpu.cpp).
// Like collider.js, a bridge module: it calls the raw exports so that gpu/ never does.
import { SoftbodyError } from './softbody.js';

export const BatchKind = Object.freeze({ edges: 0, tets: 1 });

function view(body, Type, pointer, length) {
  if (length === 0) return new Type(0);
  return new Type(body.sb.buffer, body.sb.checkPointer(pointer), length);
}

// Live xyz velocities (m/s), zero-copy like Body.positions (rebuild after memory may have grown).
export function bodyVelocities(body) {
  return view(body, Float32Array, body.sb.M._sb_body_velocities(body.world.handle, body.handle), 3 * body.vertexCount);
}

// Live inverse masses (1/kg per vertex, 0 = pinned), zero-copy.
export function bodyInverseMasses(body) {
  return view(body, Float32Array, body.sb.M._sb_body_inverse_masses(body.world.handle, body.handle), body.vertexCount);
}

// Copies of everything the GPU solver uploads once: rest lengths (m), 6 V0 (m^3), the Neo-Hookean
// inverse rest shapes (9 per tet, 1/m) and the batches of each kind ({ starts, order }).
export function bodySolverData(body) {
  const M = body.sb.M;
  const w = body.world.handle;
  const h = body.handle;
  const batches = {};
  for (const [name, kind] of Object.entries(BatchKind)) {
    const count = body.sb.check(M._sb_body_batch_count(w, h, kind));
    const total = kind === BatchKind.edges ? body.edgeCount : body.tetCount;
    const starts = view(body, Uint32Array, M._sb_body_batch_starts(w, h, kind), count + 1).slice();
    const order = total > 0 ? view(body, Uint32Array, M._sb_body_batch_order(w, h, kind), total).slice() : new Uint32Array(0);
    if (starts[count] !== total) throw new SoftbodyError(-4, 'SB_ERR_BAD_COUNT', `batches of kind ${name} cover ${starts[count]} of ${total} constraints`);
    batches[name] = { starts, order };
  }
  return {
    edgeRest: body.edgeCount > 0 ? view(body, Float32Array, M._sb_body_edge_rest_lengths(w, h), body.edgeCount).slice() : new Float32Array(0),
    tetRest6: body.tetCount > 0 ? view(body, Float32Array, M._sb_body_tet_6_rest_volumes(w, h), body.tetCount).slice() : new Float32Array(0),
    inverseRestShapes: body.tetCount > 0 ? view(body, Float32Array, M._sb_body_inverse_rest_shapes(w, h), 9 * body.tetCount).slice() : new Float32Array(0),
    batches,
  };
}
