// Batch k of every body in one dispatch: a world's bodies share no vertex, so the constraints of
// colour k of all bodies can run together. The bodies' positions are copied into one buffer (one
// vertex numbering for the world) around the passes, the constraints are concatenated colour by
// colour with their global vertex ids, and each carries its body's index for its compliance and
// flags. The constraint dispatches per substep are then those of the body with the most colours,
// whatever the body count. x, prev, v and the inverse masses of all bodies live in world buffers for
// the whole frame (copied in and out once a frame), and every per-vertex kernel is one dispatch for
// all bodies, each vertex reading its body's damping, friction, restitution, floor and origin through
// a per-vertex body index: predict and finish, or the ground, each collider's particles (and its face
// levels, level l of every body's surface in one), contact between bodies (on these buffers, no
// copies) and the velocities. Grabs place and follow their held vertices in the same buffers. Each
// body's vertices and constraints see the same arithmetic in the same order as alone: the same bits
// (colliders: their poses made relative to the body's origin on the GPU, the same float32 rounding).
import { EDGE_SOLVE, OWNER_PARAMS, PARAMS, TET_SOLVE, VERTEX_OWNER_PARAMS, VERTEX_SOLVE } from './xpbd_wgsl.js';
import { ColliderContacts, mergeFaceLevels } from './gpu_colliders.js';
import { vertexBases } from './gpu_numbering.js';

const WORKGROUP = 64; // invocations per workgroup, as the kernels declare
const BATCH_STRIDE = 256; // bytes between batch entries: the minimum uniform dynamic offset alignment
const OWNER_BYTES = 16; // struct Owner in xpbd_wgsl.js
const VERTEX_OWNER_BYTES = 32; // struct VertexOwner in xpbd_wgsl.js
const PARAMS_BYTES = 64; // struct Params in xpbd_wgsl.js

const kernelsByDevice = new WeakMap();
function makeKernels(device, batchLayout) {
  const S = GPUShaderStage.COMPUTE;
  const storage = (binding, readOnly) => ({ binding, visibility: S, buffer: { type: readOnly ? 'read-only-storage' : 'storage' } });
  const layout = device.createBindGroupLayout({ entries: [storage(0, true), storage(1, false), storage(2, true), storage(3, true), storage(4, false), storage(5, true)] });
  const pipes = device.createPipelineLayout({ bindGroupLayouts: [layout, batchLayout] });
  const pipeline = (code, label) => device.createComputePipeline({ layout: pipes, compute: { module: device.createShaderModule({ code, label }), entryPoint: 'solve' } });
  const vertexLayout = device.createBindGroupLayout({
    entries: [{ binding: 0, visibility: S, buffer: { type: 'uniform' } }, storage(1, false), storage(2, false), storage(3, false), storage(4, true), storage(5, true), storage(6, true)],
  });
  const vertexModule = device.createShaderModule({ code: `${PARAMS}${VERTEX_OWNER_PARAMS}${VERTEX_SOLVE}`, label: 'merged vertex' });
  const vertexPipes = device.createPipelineLayout({ bindGroupLayouts: [vertexLayout] });
  const vertexPipeline = (entryPoint) => device.createComputePipeline({ layout: vertexPipes, compute: { module: vertexModule, entryPoint } });
  return {
    layout, vertexLayout,
    edges: pipeline(`${OWNER_PARAMS}${EDGE_SOLVE}`, 'merged edges'),
    tets: pipeline(`${OWNER_PARAMS}${TET_SOLVE}`, 'merged tets'),
    predict: vertexPipeline('predict'),
    finish: vertexPipeline('finish'),
  };
}

export class MergedBatches {
  // bodies: GpuBody (gpu_world.js), each with its constraints in batch order (body.sorted).
  constructor(world, bodies) {
    const { device } = world;
    this.device = device;
    this.world = world;
    this.bodies = bodies;
    if (!kernelsByDevice.has(device)) kernelsByDevice.set(device, makeKernels(device, world.kernels.batchLayout));
    this.kernels = kernelsByDevice.get(device);
    this.batchGroupLayout = world.kernels.batchLayout;
    const { base, vertices } = vertexBases(bodies);
    this.base = base;
    this.vertices = vertices;
    const U = GPUBufferUsage;
    const buffer = (bytes, usage, label) => device.createBuffer({ size: Math.max(16, bytes), usage, label });
    const init = (array, usage, label) => {
      const b = buffer(array.byteLength, usage, label);
      device.queue.writeBuffer(b, 0, array);
      return b;
    };
    this.x = buffer(16 * vertices, U.STORAGE | U.COPY_DST | U.COPY_SRC, 'merged x');
    this.owners = buffer(OWNER_BYTES * bodies.length, U.STORAGE | U.COPY_DST, 'merged owners');
    // The world's vertex state for a frame without colliders, grabs or contact (encodeSubstep).
    this.prev = buffer(16 * vertices, U.STORAGE, 'merged prev');
    this.vel = buffer(16 * vertices, U.STORAGE | U.COPY_DST | U.COPY_SRC, 'merged v');
    this.invMass = buffer(4 * vertices, U.STORAGE | U.COPY_DST, 'merged inverse masses');
    this.params = buffer(PARAMS_BYTES, U.UNIFORM | U.COPY_DST, 'merged params');
    this.vertexOwners = buffer(VERTEX_OWNER_BYTES * bodies.length, U.STORAGE | U.COPY_DST, 'merged vertex owners');
    const vertexOwner = new Uint32Array(Math.max(1, vertices));
    bodies.forEach((b, j) => vertexOwner.fill(j, this.base[j], this.base[j] + b.vertexCount));
    this.vertexOwner = init(vertexOwner, U.STORAGE | U.COPY_DST, 'merged vertex owner');
    this.vertexGroup = device.createBindGroup({
      layout: this.kernels.vertexLayout,
      entries: [this.params, this.x, this.prev, this.vel, this.invMass, this.vertexOwners, this.vertexOwner].map((b, binding) => ({ binding, resource: { buffer: b } })),
    });
    // Colour c of every body, body after body; the ranges in the core's order (edges, then tets).
    this.ranges = [];
    this.groups = {};
    this.buffers = [this.x, this.owners, this.prev, this.vel, this.invMass, this.params, this.vertexOwners, this.vertexOwner];
    for (const [kind, arity] of [['edges', 2], ['tets', 4]]) {
      const colours = Math.max(0, ...bodies.map((b) => b.batches[kind].starts.length - 1));
      const total = bodies.reduce((n, b) => n + b.sorted[kind].rest.length, 0);
      const ids = new Uint32Array(Math.max(1, arity * total));
      const rest = new Float32Array(Math.max(1, total));
      const owner = new Uint32Array(Math.max(1, total));
      let k = 0;
      for (let c = 0; c < colours; ++c) {
        const offset = k;
        bodies.forEach((b, j) => {
          const s = b.batches[kind].starts;
          if (c + 1 >= s.length) return;
          const src = b.sorted[kind];
          for (let i = s[c]; i < s[c + 1]; ++i, ++k) {
            for (let a = 0; a < arity; ++a) ids[arity * k + a] = src.ids[arity * i + a] + this.base[j];
            rest[k] = src.rest[i];
            owner[k] = j;
          }
        });
        if (k > offset) this.ranges.push({ kind, offset, count: k - offset });
      }
      const lambda = buffer(4 * total, U.STORAGE | U.COPY_DST, `merged ${kind} lambda`);
      const parts = [this.owners, this.x, init(ids, U.STORAGE | U.COPY_DST, `merged ${kind} ids`), init(rest, U.STORAGE | U.COPY_DST, `merged ${kind} rest`), lambda, init(owner, U.STORAGE | U.COPY_DST, `merged ${kind} owner`)];
      this.buffers.push(...parts.slice(2));
      this.groups[kind] = device.createBindGroup({ layout: this.kernels.layout, entries: parts.map((b, binding) => ({ binding, resource: { buffer: b } })) });
      this[`${kind}Lambda`] = lambda;
    }
    const table = new Uint32Array((Math.max(this.ranges.length, 1) * BATCH_STRIDE) / 4);
    this.ranges.forEach((r, i) => table.set([r.offset, r.count], (i * BATCH_STRIDE) / 4));
    this.batchTable = init(table, U.UNIFORM | U.COPY_DST, 'merged batches');
    this.buffers.push(this.batchTable);
    this.batchGroup = device.createBindGroup({ layout: this.batchGroupLayout, entries: [{ binding: 0, resource: { buffer: this.batchTable, size: 8 } }] });
  }

  // True when these are the world's bodies, in order.
  matches(bodies) {
    return this.bodies.length === bodies.length && this.bodies.every((b, k) => b === bodies[k]);
  }

  // The frame's compliances (alpha~ = compliance / h^2, rounded to float32 as the body's own Params)
  // and flags (2: multipliers kept).
  writeParams(h) {
    const data = new ArrayBuffer(OWNER_BYTES * this.bodies.length);
    const f = new Float32Array(data);
    const u = new Uint32Array(data);
    this.bodies.forEach((b, j) => {
      f[4 * j] = b.p.edgeCompliance / (h * h);
      f[4 * j + 1] = b.p.volumeCompliance / (h * h);
      u[4 * j + 2] = b.p.iterations > 1 ? 2 : 0;
    });
    this.device.queue.writeBuffer(this.owners, 0, data);
    // The vertex kernels' parameters: the world's in Params (as each body's own, but vertex_count
    // the world's and flags only the ground), the rest per body, float32 as each body's Params.
    const { gravity, ground } = this.world;
    const params = new ArrayBuffer(PARAMS_BYTES);
    const pf = new Float32Array(params);
    const pu = new Uint32Array(params);
    pf.set([...gravity, h]);
    pf[9] = 2 * Math.hypot(...gravity) * h;
    pu[10] = this.vertices;
    pu[11] = ground ? 1 : 0;
    this.device.queue.writeBuffer(this.params, 0, params);
    const owners = new Float32Array(8 * this.bodies.length);
    this.bodies.forEach((b, j) => owners.set([Math.exp(-b.p.damping * h), b.p.friction, b.p.restitution, -b.origin[1], ...b.origin], 8 * j));
    this.device.queue.writeBuffer(this.vertexOwners, 0, owners);
  }

  // Each body's x, v and inverse masses into the world's buffers (before a frame of encodeSubstep).
  encodeIn(encoder) {
    this.bodies.forEach((b, j) => {
      encoder.copyBufferToBuffer(b.x, 0, this.x, 16 * this.base[j], 16 * b.vertexCount);
      encoder.copyBufferToBuffer(b.vel, 0, this.vel, 16 * this.base[j], 16 * b.vertexCount);
      encoder.copyBufferToBuffer(b.invMass, 0, this.invMass, 4 * this.base[j], 4 * b.vertexCount);
    });
  }

  // And back: x and v to each body's buffers, where drawing, read backs and the next frame's
  // per-body work find them.
  encodeOut(encoder) {
    this.bodies.forEach((b, j) => {
      encoder.copyBufferToBuffer(this.x, 16 * this.base[j], b.x, 0, 16 * b.vertexCount);
      encoder.copyBufferToBuffer(this.vel, 16 * this.base[j], b.vel, 0, 16 * b.vertexCount);
    });
  }

  // A frame on the world's buffers: x, v and 1/m in; per substep predict, the grabs' place, the
  // passes, then finish, or (colliders or contact between bodies) the ground and each collider, the
  // contacts (contact: a WorldContact on these buffers) and the velocities (after the contacts, the
  // ground again first), and the grabs' follow; x and v out. Returns the dispatches.
  encodeFrame(encoder, { substeps, iterations, colliders, contact, grabbed }) {
    this.encodeIn(encoder);
    const contacts = colliders.length > 0 || contact ? (this.contacts ??= this._colliderContacts()) : null;
    contacts?.writeShapes(colliders, substeps);
    const groups = Math.ceil(this.vertices / WORKGROUP);
    let dispatches = 0;
    for (let s = 0; s < substeps; ++s) {
      if (iterations > 1) {
        encoder.clearBuffer(this.edgesLambda);
        encoder.clearBuffer(this.tetsLambda);
      }
      let pass = encoder.beginComputePass();
      pass.setPipeline(this.kernels.predict);
      pass.setBindGroup(0, this.vertexGroup);
      pass.dispatchWorkgroups(groups);
      ++dispatches;
      for (const b of grabbed) dispatches += b.grab.encode(pass, 'place', s, this);
      dispatches += this._encodePasses(pass, iterations);
      if (!contacts) {
        pass.setPipeline(this.kernels.finish);
        pass.setBindGroup(0, this.vertexGroup);
        pass.dispatchWorkgroups(groups);
        ++dispatches;
      } else {
        dispatches += contacts.encodeContacts(pass, s);
        if (contact) {
          pass.end();
          dispatches += contact.encode(encoder);
          pass = encoder.beginComputePass();
        }
        dispatches += contacts.encodeVelocities(pass, s, !!contact);
      }
      for (const b of grabbed) dispatches += b.grab.encode(pass, 'follow', s, this);
      pass.end();
    }
    this.encodeOut(encoder);
    return dispatches;
  }

  // The colliders' contacts on the world's buffers: every body's surface levels merged, poses in
  // world coordinates (origin 0), each vertex's body origin subtracted in the kernels.
  _colliderContacts() {
    return new ColliderContacts(this.world, {
      vertexCount: this.vertices,
      buffers: [this.params, this.x, this.prev, this.vel],
      owners: [this.vertexOwners, this.vertexOwner],
      levels: mergeFaceLevels(this.bodies, this.base),
      origin: [0, 0, 0],
    });
  }

  _encodePasses(pass, iterations) {
    for (let it = 0; it < iterations; ++it) {
      let current = null;
      this.ranges.forEach((r, i) => {
        if (r.kind !== current) {
          current = r.kind;
          pass.setPipeline(this.kernels[r.kind]);
          pass.setBindGroup(0, this.groups[r.kind]);
        }
        pass.setBindGroup(1, this.batchGroup, [i * BATCH_STRIDE]);
        pass.dispatchWorkgroups(Math.ceil(r.count / WORKGROUP));
      });
    }
    return iterations * this.ranges.length;
  }

  destroy() {
    for (const b of this.buffers) b.destroy();
    this.contacts?.destroy();
  }
}
