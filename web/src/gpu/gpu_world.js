// The WebGPU backend's world: the same model as the wasm World for tet bodies under XPBD with the
// simple material (edge and volume compliance), gravity, substeps, passes, damping, pins, the
// ground with friction and restitution, analytic colliders (gpu_colliders.js), kinematic grabbing
// (gpu_grab.js) and contact between bodies (gpu_body_contact.js). Bodies are built by the C++ core
// (a wasm World that is never stepped: meshing, masses, rest shapes, the solve order and its
// batches), then live on the GPU: positions, velocities and multipliers stay in storage buffers, and
// every substep is one dispatch to predict, one per batch per pass, and one for the ground and the
// velocities (more with colliders, a grab or contact between bodies). With several bodies (the same
// passes each), batch k of every body is one dispatch and every per-vertex pass one for the whole
// world, on the world's vertex buffers (gpu_merged.js).
// What the backend does not do yet throws BackendError instead of silently differing (docs/gpu.md).
import { ErrorCode, Param, SoftbodyError } from '../softbody.js';
import * as arg from '../bridge_args.js';
import { BodyGrab } from './gpu_grab.js';
import { bodyInverseMasses, bodySolverData, bodyVelocities } from '../body_data.js';
import { EDGE_WGSL, TET_WGSL, VERTEX_WGSL } from './xpbd_wgsl.js';
import { BackendError } from '../backend.js';
import { addGpuCollider, BodyContacts } from './gpu_colliders.js';
import { MAX_BODIES, WorldContact } from './gpu_body_contact.js';
import { SurfaceNormals } from './gpu_surface.js';
import { WorldSurface } from './gpu_world_surface.js';
import { MergedBatches } from './gpu_merged.js';

const WORKGROUP = 64;        // invocations per workgroup, as the kernels declare
const PARAMS_BYTES = 64;     // struct Params in xpbd_wgsl.js (52, padded to its 16-byte alignment)
const BATCH_STRIDE = 256;    // bytes between batch entries: the minimum uniform dynamic offset alignment
// The parameters the GPU solver runs; any other one may be read but not changed from its default.
const GPU_PARAMS = new Set(['edgeCompliance', 'volumeCompliance', 'density', 'damping', 'restitution', 'friction', 'iterations', 'grabRadius']);
// Parameters of features the backend refuses on their own (a spring grab, Neo-Hookean, PBD, plastic
// creep, the stiffness target of Neo-Hookean and VBD bodies, cloth's attachments, air and tearing): stored,
// with no effect until that feature is asked for, which throws then (grabCompliance > 0: grabBegin).
const INERT_PARAMS = new Set(['grabCompliance', 'youngsModulus', 'poissonRatio', 'plasticYield', 'pbdStiffness',
  'stiffnessTarget', 'maxIterations', 'longRangeStretch', 'dragCoefficient', 'liftCoefficient', 'tearStrain']);

// Pipelines and layouts, one set per device.
function makeKernels(device) {
  const S = GPUShaderStage.COMPUTE;
  const storage = (binding, readOnly = false) => ({ binding, visibility: S, buffer: { type: readOnly ? 'read-only-storage' : 'storage' } });
  const params = { binding: 0, visibility: S, buffer: { type: 'uniform' } };
  const vertexLayout = device.createBindGroupLayout({ entries: [params, storage(1), storage(2), storage(3), storage(4, true)] });
  const constraintLayout = device.createBindGroupLayout({ entries: [params, storage(1), storage(2, true), storage(3, true), storage(4)] });
  const batchLayout = device.createBindGroupLayout({
    entries: [{ binding: 0, visibility: S, buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: 8 } }],
  });
  const vertexModule = device.createShaderModule({ code: VERTEX_WGSL, label: 'xpbd vertex' });
  const vertexPipes = device.createPipelineLayout({ bindGroupLayouts: [vertexLayout] });
  const constraintPipes = device.createPipelineLayout({ bindGroupLayouts: [constraintLayout, batchLayout] });
  const pipeline = (layout, module, entryPoint) => device.createComputePipeline({ layout, compute: { module, entryPoint } });
  return {
    vertexLayout, constraintLayout, batchLayout,
    predict: pipeline(vertexPipes, vertexModule, 'predict'),
    finish: pipeline(vertexPipes, vertexModule, 'finish'),
    edges: pipeline(constraintPipes, device.createShaderModule({ code: EDGE_WGSL, label: 'xpbd edges' }), 'solve'),
    tets: pipeline(constraintPipes, device.createShaderModule({ code: TET_WGSL, label: 'xpbd tets' }), 'solve'),
  };
}

// Requests a device; null (with the reason) when there is no WebGPU or no adapter.
export async function requestGpu() {
  if (typeof navigator === 'undefined' || !navigator.gpu) return { device: null, reason: 'navigator.gpu is missing (no WebGPU in this browser, or not a secure context)' };
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) return { device: null, reason: 'navigator.gpu.requestAdapter() found no adapter' };
  // The adapter's largest storage buffers (the defaults, 128 MB a binding, hold the contact hash of
  // only ~30,000 surface triangles: a heap of ~200 small bodies).
  const { maxStorageBufferBindingSize, maxBufferSize } = adapter.limits;
  const device = await adapter.requestDevice({ requiredLimits: { maxStorageBufferBindingSize, maxBufferSize } });
  // A validation error otherwise only warns once in the console, and the frame silently does nothing.
  device.addEventListener('uncapturederror', (event) => console.error(`WebGPU: ${event.error.message}`));
  const info = adapter.info ?? {};
  return { device, adapter: { vendor: info.vendor ?? '', architecture: info.architecture ?? '' }, reason: `WebGPU adapter ${info.vendor ?? ''} ${info.architecture ?? ''}`.trim() };
}

export class GpuWorld {
  // sb: a Softbody (the wasm module, which builds the bodies); gpu: from requestGpu().
  constructor(sb, gpu) {
    this.sb = sb;
    this.backend = 'webgpu';
    this.adapter = gpu.adapter;
    this.device = gpu.device;
    this.kernels = makeKernels(this.device);
    this.builder = sb.createWorld(); // the core builds bodies here; it is never stepped
    this.bodies = new Set();
    this.colliders = new Set(); // GpuCollider (gpu_colliders.js), in creation order as the core's slots
    this.gravity = [0, -9.81, 0];
    this.ground = true;
    this.time = 0;
    this.counters = { dispatches: 0, submits: 0 }; // of the last step
    this.mergedFresh = false; // whether this.merged's buffers hold every body's present state
  }

  setGravity(x, y, z) {
    this.builder.setGravity(x, y, z); // checks the arguments
    this.gravity = [x, y, z];
  }
  setSubsteps(n) {
    this.builder.setSubsteps(n);
  }
  get substeps() {
    return this.builder.substeps;
  }
  setGround(enabled) {
    this.builder.setGround(enabled);
    this.ground = enabled;
  }
  get bodyCount() {
    return this.bodies.size;
  }
  setThreads(n) {
    if (n !== 1) throw new BackendError('setThreads (threads of the wasm solver)');
  }

  addBox(options) {
    return this._adopt(this.builder.addBox(options));
  }
  addBall(options) {
    return this._adopt(this.builder.addBall(options));
  }
  addTets(vertices, tets) {
    return this._adopt(this.builder.addTets(vertices, tets));
  }
  addRope() {
    throw new BackendError('a rope (a body without tets)');
  }
  addJelly() {
    throw new BackendError('a jelly (a body without tets)');
  }
  addPressureBall() {
    throw new BackendError('a pressure ball');
  }
  addCloth() {
    throw new BackendError('cloth');
  }
  addClothRectangle() {
    throw new BackendError('cloth');
  }
  addClothDisc() {
    throw new BackendError('cloth');
  }
  // Plane, sphere, box or capsule, as World.addCollider; a mesh throws BackendError.
  addCollider(options) {
    return addGpuCollider(this, options);
  }
  get colliderCount() {
    return this.colliders.size;
  }

  _adopt(body) {
    const gpuBody = new GpuBody(this, body);
    this.bodies.add(gpuBody);
    return gpuBody;
  }

  // Encodes and submits dt seconds (the work runs on the GPU after this returns; read back with
  // body.read(), or await world.done()).
  step(dt) {
    if (!(typeof dt === 'number' && dt >= 1e-6 && dt <= 1)) throw new RangeError(`World.step: dt must be a number in [1e-6, 1] s, got ${dt}`);
    const bodies = [...this.bodies];
    let touching = false;
    for (let i = 0; i < bodies.length; ++i)
      for (let j = i + 1; j < bodies.length; ++j) touching ||= bodies[i].touches(bodies[j]);
    const substeps = this.substeps;
    const h = dt / substeps;
    const encoder = this.device.createCommandEncoder({ label: 'xpbd frame' });
    let dispatches = 0;
    const colliders = [...this.colliders];
    // Two or more bodies with the same passes: batch k of all of them in one dispatch (gpu_merged.js).
    const merged = bodies.length > 1 && bodies.every((b) => b.p.iterations === bodies[0].p.iterations);
    if (!merged || !this.merged?.matches(bodies)) {
      this.merged?.destroy();
      this.merged = merged ? new MergedBatches(this, bodies) : null;
    }
    if (merged) {
      // The whole frame on the world's vertex buffers: every per-vertex pass (predict, the ground,
      // colliders, contacts between bodies, velocities) one dispatch for all bodies.
      this.merged.writeParams(h);
      if (touching) this._prepareContact(bodies, this.merged);
      bodies.forEach((body, j) => body._prepare(h, substeps, [], false, this.merged.base[j]));
      const grabbed = bodies.filter((b) => b.grab);
      dispatches += this.merged.encodeFrame(encoder, { substeps, iterations: bodies[0].p.iterations, colliders, contact: touching ? this.contact : null, grabbed });
    } else if (!touching) {
      for (const body of bodies) dispatches += body._encode(encoder, h, substeps, colliders);
    } else {
      // Bodies that may touch run substep by substep together, their contacts between the ground
      // and colliders and the velocities (gpu_body_contact.js), as the core's World::step.
      this._prepareContact(bodies);
      for (const body of bodies) body._prepare(h, substeps, colliders, true);
      for (let s = 0; s < substeps; ++s) {
        for (const body of bodies) dispatches += body._encodeSubstep(encoder, s, false);
        dispatches += this.contact.encode(encoder);
        for (const body of bodies) dispatches += body._encodeFinish(encoder, s);
      }
    }
    this.device.queue.submit([encoder.finish()]);
    // The world's vertex buffers hold every body as the GPU will have it (gpu_world_surface.js
    // draws from them) until a body's state is written from the CPU.
    this.mergedFresh = merged;
    for (const c of colliders) c.endFrame();
    for (const body of bodies) body.grab?.endFrame();
    this.counters = { dispatches, submits: 1 };
    this.time += dt;
    this.inFlight = (this.inFlight ?? 0) + 1;
    this.device.queue.onSubmittedWorkDone().then(() => { this.inFlight -= 1; });
  }

  // The contact between bodies for this body list (rebuilt when it changed), its body table written;
  // shared: the world's vertex buffers (gpu_merged.js) it runs on, or null for copies of the bodies'.
  _prepareContact(bodies, shared = null) {
    const same = this.contact && this.contact.shared === shared && this.contact.bodies.length === bodies.length && this.contact.bodies.every((b, k) => b === bodies[k]);
    if (!same) {
      if (bodies.length > MAX_BODIES) throw new BackendError(`contact among more than ${MAX_BODIES.toLocaleString('en')} bodies`);
      this.contact?.destroy();
      this.contact = new WorldContact(this, bodies, shared);
    }
    this.contact.writeBodies();
  }

  // True while the GPU is two or more frames behind what was submitted: a frame loop that steps
  // anyway queues work faster than the GPU runs it, and what it reads back falls ever further behind.
  get busy() {
    return (this.inFlight ?? 0) >= 2;
  }

  // For a frame loop that cannot wait: starts one read back of these bodies' positions and velocities
  // (one staging copy and one map for all, not one per body) unless one is in flight; each body's
  // positions and velocities then hold it, as after body.read().
  frameRead(bodies) {
    if (this._reading) return;
    this._reading = readBuffers(this.device, bodies.flatMap((b) => [b.x, b.vel]))
      .then((arrays) => bodies.forEach((b, k) => b._takeRead(arrays[2 * k], arrays[2 * k + 1])))
      .catch(() => {}) // a destroyed body's read fails: nothing to show
      .finally(() => { this._reading = null; });
  }

  // For a renderer on this world's device: these bodies' surfaces as one mesh in world coordinates
  // (positions, normals, triangles; update() makes them from the GPU's state): one draw for all.
  drawSurface(bodies) {
    return new WorldSurface(this, bodies);
  }

  // Resolves when the GPU has finished everything submitted so far.
  done() {
    return this.device.queue.onSubmittedWorkDone();
  }

  destroy() {
    for (const b of [...this.bodies]) b.destroy();
    this.contact?.destroy();
    this.merged?.destroy();
    this.builder.destroy();
  }
}

// Float32 copies of gpu buffers, read back together through one staging buffer.
async function readBuffers(device, buffers) {
  const encoder = device.createCommandEncoder();
  const offsets = [];
  let size = 0;
  for (const b of buffers) {
    offsets.push(size);
    size += b.size;
  }
  const staging = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  buffers.forEach((b, k) => encoder.copyBufferToBuffer(b, 0, staging, offsets[k], b.size));
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const all = staging.getMappedRange();
  const out = buffers.map((b, k) => new Float32Array(all.slice(offsets[k], offsets[k] + b.size)));
  staging.destroy();
  return out;
}

export class GpuBody {
  constructor(world, body) {
    this.world = world;
    this.body = body; // the core's body: parameters, pins and rest data are read from it
    if (body.isCloth || body.tetCount === 0) {
      body.destroy();
      throw new BackendError('a body without tets');
    }
    this.vertexCount = body.vertexCount;
    this.tetCount = body.tetCount;
    this.edgeCount = body.edgeCount;
    this.triangleCount = body.triangleCount;
    this.triangles = body.triangles.slice();
    this.group = 1;
    this.mask = 0xffffffff;
    // The GPU holds x - origin (xpbd_wgsl.js), origin the creation shape's middle, m (float32).
    const p0 = body.positions;
    this.origin = [0, 1, 2].map((k) => {
      let sum = 0;
      for (let i = k; i < p0.length; i += 3) sum += p0[i];
      return Math.fround(sum / this.vertexCount);
    });
    const data = bodySolverData(body);
    this.batches = data.batches;
    this.mass = Float32Array.from(bodyInverseMasses(body), (w) => 1 / w); // kg; a new body has no pins
    this._upload(data);
    this._readParams();
    this.positions = body.positions.slice(); // the last read()'s snapshot
    this.velocities = new Float32Array(3 * this.vertexCount);
  }

  _upload(data) {
    const { device, kernels } = this.world;
    const n = this.vertexCount;
    const U = GPUBufferUsage;
    const buffer = (bytes, usage, label) => device.createBuffer({ size: Math.max(16, bytes), usage, label });
    const rw = U.STORAGE | U.COPY_DST | U.COPY_SRC;
    this.x = buffer(16 * n, rw | U.VERTEX, 'x'); // also drawn from (renderBuffers)
    this.prev = buffer(16 * n, rw, 'prev');
    this.vel = buffer(16 * n, rw, 'vel');
    this.invMass = buffer(4 * n, U.STORAGE | U.COPY_DST | U.COPY_SRC, 'inverse masses'); // copied into a world's merged buffers
    this.params = buffer(PARAMS_BYTES, U.UNIFORM | U.COPY_DST, 'params');
    // Constraints in batch order, so that each batch is a contiguous range.
    const sortBy = (src, arity, order, Type) => {
      const out = new Type(Math.max(arity * order.length, 1));
      for (let k = 0; k < order.length; ++k) for (let j = 0; j < arity; ++j) out[arity * k + j] = src[arity * order[k] + j];
      return out;
    };
    const edgeOrder = data.batches.edges.order;
    const tetOrder = data.batches.tets.order;
    const init = (array, usage, label) => {
      const b = buffer(array.byteLength, usage, label);
      device.queue.writeBuffer(b, 0, array);
      return b;
    };
    // Kept for a world's merged batches (gpu_merged.js).
    this.sorted = {
      edges: { ids: sortBy(this.body.edges, 2, edgeOrder, Uint32Array), rest: sortBy(data.edgeRest, 1, edgeOrder, Float32Array).subarray(0, this.edgeCount) },
      tets: { ids: sortBy(this.body.tets, 4, tetOrder, Uint32Array), rest: sortBy(data.tetRest6, 1, tetOrder, Float32Array).subarray(0, this.tetCount) },
    };
    this.edgeIds = init(this.sorted.edges.ids, U.STORAGE | U.COPY_DST, 'edge ids');
    this.edgeRest = init(this.sorted.edges.rest, U.STORAGE | U.COPY_DST, 'edge rest');
    this.tetIds = init(this.sorted.tets.ids, U.STORAGE | U.COPY_DST, 'tet ids');
    this.tetRest = init(this.sorted.tets.rest, U.STORAGE | U.COPY_DST, 'tet rest');
    this.edgeLambda = buffer(4 * this.edgeCount, U.STORAGE | U.COPY_DST, 'edge lambda');
    this.tetLambda = buffer(4 * this.tetCount, U.STORAGE | U.COPY_DST, 'tet lambda');
    // One (offset, count) entry per batch, edges first, BATCH_STRIDE apart.
    const ranges = [];
    for (const kind of ['edges', 'tets']) {
      const s = data.batches[kind].starts;
      for (let b = 0; b + 1 < s.length; ++b) if (s[b + 1] > s[b]) ranges.push({ kind, offset: s[b], count: s[b + 1] - s[b] });
    }
    this.ranges = ranges;
    const table = new Uint32Array((Math.max(ranges.length, 1) * BATCH_STRIDE) / 4);
    ranges.forEach((r, i) => table.set([r.offset, r.count], (i * BATCH_STRIDE) / 4));
    this.batchTable = init(table, U.UNIFORM | U.COPY_DST, 'batches');
    const group = (layout, buffers) => device.createBindGroup({ layout, entries: buffers.map((b, binding) => ({ binding, resource: { buffer: b } })) });
    this.vertexGroup = group(kernels.vertexLayout, [this.params, this.x, this.prev, this.vel, this.invMass]);
    this.edgeGroup = group(kernels.constraintLayout, [this.params, this.x, this.edgeIds, this.edgeRest, this.edgeLambda]);
    this.tetGroup = group(kernels.constraintLayout, [this.params, this.x, this.tetIds, this.tetRest, this.tetLambda]);
    this.batchGroup = device.createBindGroup({ layout: kernels.batchLayout, entries: [{ binding: 0, resource: { buffer: this.batchTable, size: 8 } }] });
    this._writeState(this.body.positions, bodyVelocities(this.body));
  }

  // Positions with the core's inverse masses in w, and velocities.
  _writeState(positions, velocities) {
    const n = this.vertexCount;
    const inv = bodyInverseMasses(this.body);
    const x = new Float32Array(4 * n);
    const v = new Float32Array(4 * n);
    for (let i = 0; i < n; ++i) {
      const o = this.origin;
      x.set([positions[3 * i] - o[0], positions[3 * i + 1] - o[1], positions[3 * i + 2] - o[2], inv[i]], 4 * i);
      v.set([velocities[3 * i], velocities[3 * i + 1], velocities[3 * i + 2], 0], 4 * i);
    }
    this.world.device.queue.writeBuffer(this.x, 0, x);
    this.world.device.queue.writeBuffer(this.vel, 0, v);
    this.world.mergedFresh = false; // the world's vertex buffers no longer hold this body's state
    this._writeInverseMasses();
  }

  _readParams() {
    const p = {};
    for (const name of Object.keys(Param)) p[name] = this.body.getParam(name);
    this.p = p;
  }

  // Encodes `substeps` substeps of h seconds; returns the dispatches.
  _encode(encoder, h, substeps, colliders) {
    this._prepare(h, substeps, colliders, false);
    let dispatches = 0;
    for (let s = 0; s < substeps; ++s) dispatches += this._encodeSubstep(encoder, s, true);
    return dispatches;
  }

  // The frame's uniforms: parameters, collider entries, grab targets. With colliders, or when
  // contacts between bodies come between (bodyContact), the substep ends as the core's unfused one:
  // ground, colliders, [bodies], velocities.
  // base: the body's first vertex in the buffers its grab runs on (a world's, gpu_merged.js).
  _prepare(h, substeps, colliders, bodyContact, base = 0) {
    const { gravity, ground, device } = this.world;
    const p = this.p;
    const keep = p.iterations > 1; // one pass needs no multipliers (lambda = 0 each substep)
    const g = Math.hypot(...gravity);
    const params = new ArrayBuffer(PARAMS_BYTES);
    const f = new Float32Array(params);
    const u = new Uint32Array(params);
    f.set([...gravity, h, Math.exp(-p.damping * h), p.edgeCompliance / (h * h), p.volumeCompliance / (h * h), p.friction, p.restitution, 2 * g * h]);
    u[10] = this.vertexCount;
    u[11] = (ground ? 1 : 0) | (keep ? 2 : 0);
    f[12] = -this.origin[1];
    device.queue.writeBuffer(this.params, 0, params);
    this.frameContacts = colliders.length > 0 || bodyContact ? (this.contacts ??= new BodyContacts(this)) : null;
    this.frameContacts?.writeShapes(colliders, substeps);
    this.grab?.write(substeps, base);
  }

  // Substep s: predict, the grab, the passes, the ground and colliders, and (velocities) the
  // velocities; without them, _encodeFinish does the rest after the contacts between bodies.
  _encodeSubstep(encoder, s, velocities) {
    if (this.p.iterations > 1) {
      encoder.clearBuffer(this.edgeLambda);
      encoder.clearBuffer(this.tetLambda);
    }
    const pass = encoder.beginComputePass();
    const dispatches = this._encodePredict(pass, s) + this._encodeBatches(pass) + this._encodeEnd(pass, s, velocities);
    pass.end();
    return dispatches;
  }

  // Predict, and the grab's held vertices placed.
  _encodePredict(pass, s) {
    const { kernels } = this.world;
    pass.setPipeline(kernels.predict);
    pass.setBindGroup(0, this.vertexGroup);
    pass.dispatchWorkgroups(Math.ceil(this.vertexCount / WORKGROUP));
    if (this.grab) this.grab.encode(pass, 'place', s);
    return 1 + (this.grab ? 1 : 0);
  }

  // The passes over this body's batches alone.
  _encodeBatches(pass) {
    const { kernels } = this.world;
    const p = this.p;
    for (let it = 0; it < p.iterations; ++it) {
      // The core's pass order: every edge batch, then every tet batch.
      let current = null;
      this.ranges.forEach((r, i) => {
        if (r.kind !== current) {
          current = r.kind;
          pass.setPipeline(r.kind === 'edges' ? kernels.edges : kernels.tets);
          pass.setBindGroup(0, r.kind === 'edges' ? this.edgeGroup : this.tetGroup);
        }
        pass.setBindGroup(1, this.batchGroup, [i * BATCH_STRIDE]);
        pass.dispatchWorkgroups(Math.ceil(r.count / WORKGROUP));
      });
    }
    return p.iterations * this.ranges.length;
  }

  // After the passes: the ground and colliders, and (velocities) the velocities and the grab's.
  _encodeEnd(pass, s, velocities) {
    const { kernels } = this.world;
    const contacts = this.frameContacts;
    let dispatches = 0;
    if (contacts) {
      dispatches += contacts.encodeContacts(pass, s);
      if (velocities) dispatches += contacts.encodeVelocities(pass, s);
    } else {
      pass.setPipeline(kernels.finish);
      pass.setBindGroup(0, this.vertexGroup);
      pass.dispatchWorkgroups(Math.ceil(this.vertexCount / WORKGROUP));
      ++dispatches;
    }
    if (velocities && this.grab) {
      this.grab.encode(pass, 'follow', s);
      ++dispatches;
    }
    return dispatches;
  }

  // After the contacts between bodies: the ground again, the velocities, the grab's.
  _encodeFinish(encoder, s) {
    const pass = encoder.beginComputePass();
    let dispatches = this.frameContacts.encodeVelocities(pass, s, true);
    if (this.grab) {
      this.grab.encode(pass, 'follow', s);
      ++dispatches;
    }
    pass.end();
    return dispatches;
  }

  // Topology, as the wasm Body has it (the core's arrays; they never change).
  get edges() {
    return this.body.edges;
  }
  get tets() {
    return this.body.tets;
  }

  touches(other) {
    return (this.group & other.mask) !== 0 && (other.group & this.mask) !== 0;
  }
  setCollisionFilter(group = 1, mask = 0xffffffff) {
    this.body.setCollisionFilter(group, mask); // checks the arguments
    this.group = group >>> 0;
    this.mask = mask >>> 0;
  }

  setParam(name, value) {
    // The core keeps float32: a default read back (0.15 -> 0.15000000596) is the same value.
    const runs = GPU_PARAMS.has(name) || INERT_PARAMS.has(name);
    if (!runs && Param[name] !== undefined && Math.fround(value) !== Math.fround(this.p[name])) throw new BackendError(`the parameter ${name}`);
    const density = this.p.density;
    this.body.setParam(name, value); // checks name and range
    this._readParams();
    if (name === 'density' && this.p.density !== density) {
      // The core's masses are density x volume shares: scale ours, and put its new 1/m into w.
      const ratio = this.p.density / density;
      for (let i = 0; i < this.vertexCount; ++i) this.mass[i] *= ratio;
      this._writeInverseMasses();
    }
  }
  setParams(params) {
    for (const [name, value] of Object.entries(params)) this.setParam(name, value);
  }
  getParam(name) {
    return this.body.getParam(name);
  }
  get solver() {
    return 'xpbd';
  }
  setSolver(name) {
    if (name !== 'xpbd') throw new BackendError(`the solver ${name}`);
  }

  // The core's inverse masses (0 where pinned, and where held by a grab) to the GPU: the next
  // substep's predict reads them.
  _writeInverseMasses() {
    const inv = bodyInverseMasses(this.body).slice();
    for (const i of this.grab?.members ?? []) inv[i] = 0;
    this.world.device.queue.writeBuffer(this.invMass, 0, inv);
  }

  // Pinned vertices (the core's body is never grabbed: its zero inverse masses are the pins).
  get pinned() {
    const inv = bodyInverseMasses(this.body);
    const out = new Set();
    for (let i = 0; i < inv.length; ++i) if (inv[i] === 0) out.add(i);
    return out;
  }

  // The vertex nearest to (x, y, z) in the last read back (the grabber's pick: read() first for the
  // GPU's present state; a <soft-body> reads back every frame anyway).
  nearestVertex(x, y, z) {
    arg.numbers('Body.nearestVertex', { x, y, z });
    const p = this.positions;
    let best = 0, bestD = Infinity;
    for (let i = 0; i < this.vertexCount; ++i) {
      const d = (p[3 * i] - x) ** 2 + (p[3 * i + 1] - y) ** 2 + (p[3 * i + 2] - z) ** 2;
      if (d < bestD) (bestD = d), (best = i);
    }
    return best;
  }

  // The wasm Body's grab (kinematic: grabCompliance 0), its set and offsets from the last read back
  // (gpu_grab.js). A spring grab (grabCompliance > 0) throws BackendError.
  grabBegin(vertex, x, y, z) {
    arg.index('Body.grabBegin', 'vertex', vertex, this.vertexCount);
    arg.numbers('Body.grabBegin', { x, y, z });
    if (this.p.grabCompliance !== 0) throw new BackendError('a spring grab (grabCompliance > 0)');
    if (this.grab) {
      const v = this.velocities;
      this.grabEnd(v[3 * this.grab.vertex], v[3 * this.grab.vertex + 1], v[3 * this.grab.vertex + 2]);
    }
    this.grab = new BodyGrab(this, vertex, this._clampTarget([x, y, z]));
    this._writeInverseMasses();
  }
  grabMove(x, y, z) {
    arg.numbers('Body.grabMove', { x, y, z });
    if (!this.grab) throw new SoftbodyError(ErrorCode.NOT_GRABBING, 'SB_ERR_NOT_GRABBING', 'SB_ERR_NOT_GRABBING: the body is not grabbed; call grabBegin');
    this.grab.move(this._clampTarget([x, y, z]));
  }
  // Releases the held vertices with velocity (vx, vy, vz) m/s.
  grabEnd(vx = 0, vy = 0, vz = 0) {
    arg.numbers('Body.grabEnd', { vx, vy, vz });
    if (!this.grab) throw new SoftbodyError(ErrorCode.NOT_GRABBING, 'SB_ERR_NOT_GRABBING', 'SB_ERR_NOT_GRABBING: the body is not grabbed');
    const release = new Float32Array([vx, vy, vz, 0]);
    for (const i of this.grab.members) this.world.device.queue.writeBuffer(this.vel, 16 * i, release);
    this._dropGrab();
  }
  _dropGrab() {
    this.grab?.destroy();
    this.grab = null;
    this._writeInverseMasses();
  }
  get grabbedVertex() {
    return this.grab ? this.grab.vertex : -1;
  }
  _clampTarget(t) {
    if (this.world.ground && t[1] < 0) t[1] = 0;
    return t;
  }
  pin(vertex, pinned = true) {
    this.body.pin(vertex, pinned); // checks the arguments; the core zeroes or restores 1/m
    this.world.device.queue.writeBuffer(this.invMass, 4 * vertex, bodyInverseMasses(this.body).slice(vertex, vertex + 1));
  }

  // Overwrites positions (m) and velocities (m/s), xyz per vertex (as writing into the wasm Body's
  // zero-copy views does): a state to start from.
  writeState(positions, velocities) {
    if (positions.length !== 3 * this.vertexCount || velocities.length !== 3 * this.vertexCount) throw new RangeError(`GpuBody.writeState: ${3 * this.vertexCount} floats each`);
    this._writeState(positions, velocities);
  }

  // Back to the creation state (the core's body was never stepped), pins kept.
  reset() {
    if (this.grab) this._dropGrab();
    this._writeState(this.body.positions, new Float32Array(3 * this.vertexCount));
    this.positions.set(this.body.positions);
    this.velocities.fill(0);
  }

  // For a renderer on this world's device (embed/gpu_body_mesh.js): the positions buffer (x - origin
  // in xyz, stride 16 bytes) and a normals buffer (xyz, stride 16), and updateNormals() to recompute
  // the normals from the positions submitted so far. Nothing is read back.
  renderBuffers() {
    this.surface ??= new SurfaceNormals(this);
    return { positions: this.x, normals: this.surface.normals, origin: this.origin, updateNormals: () => this.surface.update() };
  }

  // Reads positions and velocities back (xyz, m and m/s) into this.positions / this.velocities;
  // readCount counts the read backs that completed.
  async read() {
    const [x, v] = await readBuffers(this.world.device, [this.x, this.vel]);
    return this._takeRead(x, v);
  }

  // A read back's x (x - origin, w) and v (xyzw) into this.positions / this.velocities.
  _takeRead(x, v) {
    this.readCount = (this.readCount ?? 0) + 1;
    for (let i = 0; i < this.vertexCount; ++i)
      for (let k = 0; k < 3; ++k) {
        this.positions[3 * i + k] = x[4 * i + k] + this.origin[k];
        this.velocities[3 * i + k] = v[4 * i + k];
      }
    return { positions: this.positions, velocities: this.velocities };
  }

  // The wasm Body's stats that follow from positions and velocities (after a read back).
  async stats() {
    await this.read();
    const s = stateStats(this.positions, this.velocities, this.mass, this.world.gravity);
    s.solver = 'xpbd';
    return s;
  }

  // For a frame loop that cannot wait (the <soft-body> figure): starts a read back (when `read`)
  // unless one is in flight, and returns the stats of the last one, so positions and stats trail the
  // GPU by a frame or two. The elastic energy is not computed on the GPU (0 here), nor the volume (NaN).
  frameStats(read = true) {
    if (read && !this._reading) {
      this._reading = this.read().catch(() => {}).finally(() => { this._reading = null; }); // a destroyed body's read fails: nothing to show
    }
    const s = stateStats(this.positions, this.velocities, this.mass, this.world.gravity);
    return { ...s, solver: 'xpbd', finite: this.positions.every(Number.isFinite), elasticEnergy: 0, volumeRatio: NaN };
  }

  squash() {
    throw new BackendError('squash');
  }
  press() {
    throw new BackendError('press');
  }
  setVisual() {
    throw new BackendError('a visual surface (skinning)');
  }
  setVisualBound() {
    throw new BackendError('a visual surface (skinning)');
  }
  setVertexScales() {
    throw new BackendError('vertex groups');
  }
  setSelfCollision(enabled) {
    if (enabled) throw new BackendError('self-collision');
  }
  solveStatic() {
    throw new BackendError('solveStatic');
  }

  destroy() {
    for (const b of [this.x, this.prev, this.vel, this.params, this.invMass, this.edgeIds, this.edgeRest, this.tetIds, this.tetRest, this.edgeLambda, this.tetLambda, this.batchTable]) b.destroy();
    this.contacts?.destroy();
    this.surface?.destroy();
    this.grab?.destroy();
    this.body.destroy();
    this.world.bodies.delete(this);
  }
}

// Centre of mass (m), momentum (kg m/s), kinetic and gravitational energy (J, relative to y = 0),
// lowest y (m) and mass (kg) of xyz positions and velocities with masses in kg.
export function stateStats(positions, velocities, mass, gravity) {
  let m = 0, ke = 0, pe = 0, minY = Infinity;
  const c = [0, 0, 0], p = [0, 0, 0];
  for (let i = 0; i < mass.length; ++i) {
    const mi = mass[i];
    m += mi;
    let v2 = 0;
    for (let k = 0; k < 3; ++k) {
      const x = positions[3 * i + k], v = velocities[3 * i + k];
      c[k] += mi * x;
      p[k] += mi * v;
      v2 += v * v;
      pe -= mi * gravity[k] * x;
    }
    ke += 0.5 * mi * v2;
    minY = Math.min(minY, positions[3 * i + 1]);
  }
  return { mass: m, center: c.map((x) => x / m), momentum: p, kineticEnergy: ke, potentialEnergy: pe, minY };
}
