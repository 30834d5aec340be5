// Colliders on the WebGPU backend: the core's analytic shapes (plane, sphere, box, capsule) with
// its contact rules (contact_wgsl.js), their poses swept over each frame as the core sweeps them.
// The core's collider (in the GpuWorld's builder world, never stepped) checks every argument and
// keeps friction and restitution; this side keeps the pose, which the GPU needs per substep.
import { BackendError } from '../backend.js';
import { contactVertexWgsl, faceWgsl, particleWgsl } from './contact_wgsl.js';
import { OWN_VERTEX_PARAMS, vertexOwnerParams } from './xpbd_wgsl.js';

export const SHAPE_STRIDE = 256; // bytes between per-(substep, collider) entries: the dynamic offset alignment
const KIND = { plane: 0, sphere: 1, box: 2, capsule: 3 };
const f32 = Math.fround;

// The rotation taking +y onto the unit normal, as sb_collider_create_plane computes it (float32).
function planeRotation(normal) {
  const len = f32(Math.hypot(...normal));
  const u = normal.map((v) => f32(v / len));
  if (u[1] < -0.999999) return [1, 0, 0, 0].map((v, i) => (i === 0 ? f32(Math.sin(Math.PI / 2)) : i === 3 ? f32(Math.cos(Math.PI / 2)) : 0));
  const axis = [u[2], 0, -u[0]]; // (0, 1, 0) x u
  const w = f32(1 + u[1]);
  const norm = f32(Math.sqrt(axis[0] * axis[0] + axis[2] * axis[2] + w * w));
  return [f32(axis[0] / norm), 0, f32(axis[2] / norm), f32(w / norm)];
}

// Normalized linear interpolation of quaternions, the short way round (collider.cpp nlerp).
function nlerp(a, b, t) {
  const sign = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0 ? -1 : 1;
  const q = a.map((v, i) => v + (sign * b[i] - v) * t);
  const n = Math.hypot(...q);
  return n === 0 ? b.slice() : q.map((v) => v / n);
}

export class GpuCollider {
  constructor(world, core, options) {
    this.world = world;
    this.core = core; // the builder's Collider: checks arguments, holds friction and restitution
    this.kind = KIND[options.shape];
    const { center = [0, 0, 0], radius = 0.5, halfExtents = [0.5, 0.5, 0.5], halfLength = 0.5, point = [0, 0, 0], normal = [0, 1, 0] } = options;
    this.size = options.shape === 'sphere' ? [radius, 0, 0] : options.shape === 'box' ? halfExtents.slice() : options.shape === 'capsule' ? [radius, halfLength, 0] : [0, 0, 0];
    this.size = this.size.map(f32);
    this.pose = { position: (options.shape === 'plane' ? point : center).map(f32), rotation: options.shape === 'plane' ? planeRotation(normal) : [0, 0, 0, 1] };
    this.previous = { position: this.pose.position.slice(), rotation: this.pose.rotation.slice() };
  }

  // As Collider.setPose: the next step sweeps from the last pose to this one; teleport jumps.
  setPose(position, rotation = [0, 0, 0, 1], options) {
    this.core.setPose(position, rotation, options); // checks the arguments
    const len = f32(Math.hypot(...rotation.map(f32)));
    this.pose = { position: position.map(f32), rotation: rotation.map((v) => f32(f32(v) / len)) };
    if (options?.teleport) this.previous = { position: this.pose.position.slice(), rotation: this.pose.rotation.slice() };
  }
  setFriction(friction) {
    this.core.setFriction(friction);
  }
  setParam(name, value) {
    this.core.setParam(name, value);
  }
  getParam(name) {
    return this.core.getParam(name);
  }
  get isSolid() {
    return this.core.isSolid;
  }
  destroy() {
    this.core.destroy();
    this.world.colliders.delete(this);
  }

  get moving() {
    const a = this.previous, b = this.pose;
    return a.position.some((v, i) => v !== b.position[i]) || a.rotation.some((v, i) => v !== b.rotation[i]);
  }

  // The entry for the substep from fraction t0 to t1 of the frame, positions relative to origin.
  writeEntry(view, byte, t0, t1, origin) {
    const f = new Float32Array(view.buffer, byte, 24);
    const u = new Uint32Array(view.buffer, byte, 24);
    const at = (t) => ({
      position: this.previous.position.map((v, k) => f32(f32(v + (this.pose.position[k] - v) * t) - origin[k])),
      rotation: nlerp(this.previous.rotation, this.pose.rotation, t),
    });
    const before = at(t0), after = at(t1);
    f.set(before.position, 0);
    u[3] = this.kind;
    f.set(before.rotation, 4);
    f.set(after.position, 8);
    u[11] = this.moving ? 1 : 0;
    f.set(after.rotation, 12);
    f.set(this.size, 16);
    f[19] = this.core.getParam('friction');
    f[20] = this.core.getParam('restitution');
  }

  // The frame is done: the next one sweeps from here.
  endFrame() {
    this.previous = { position: this.pose.position.slice(), rotation: this.pose.rotation.slice() };
  }
}

// Validates through the core (which throws on bad arguments), refuses meshes.
export function addGpuCollider(world, options) {
  if (options && typeof options === 'object' && options.shape === 'mesh') throw new BackendError('a mesh collider');
  const core = world.builder.addCollider(options);
  const collider = new GpuCollider(world, core, options);
  world.colliders.add(collider);
  return collider;
}

// Pipelines of the contact kernels, one set per device: for one body's buffers, or (world) for a
// world's vertex buffers, whose group 0 adds the bodies' parameters (6) and each vertex's body (7).
export function makeContactKernels(device, world = false) {
  const S = GPUShaderStage.COMPUTE;
  const storage = (binding, readOnly = false) => ({ binding, visibility: S, buffer: { type: readOnly ? 'read-only-storage' : 'storage' } });
  const entries = [{ binding: 0, visibility: S, buffer: { type: 'uniform' } }, storage(1), storage(2), storage(3), storage(4), storage(5, true)];
  if (world) entries.push(storage(6, true), storage(7, true));
  const layout = device.createBindGroupLayout({ entries });
  const access = world ? vertexOwnerParams(6, 7) : OWN_VERTEX_PARAMS;
  const dynamic = (minBindingSize) => device.createBindGroupLayout({
    entries: [{ binding: 0, visibility: S, buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize } }],
  });
  const batchLayout = dynamic(8);
  const shapeLayout = dynamic(96);
  const pipes = device.createPipelineLayout({ bindGroupLayouts: [layout, batchLayout, shapeLayout] });
  const modules = {};
  const pipeline = (make, label, entryPoint) => {
    const module = (modules[label] ??= device.createShaderModule({ code: make(access), label }));
    return device.createComputePipeline({ layout: pipes, compute: { module, entryPoint } });
  };
  return {
    layout, batchLayout, shapeLayout,
    ground: pipeline(contactVertexWgsl, 'contact vertex', 'ground'),
    reground: pipeline(contactVertexWgsl, 'contact vertex', 'reground'),
    velocities: pipeline(contactVertexWgsl, 'contact vertex', 'velocities'),
    particles: pipeline(particleWgsl, 'collider particles', 'particles'),
    faces: pipeline(faceWgsl, 'collider faces', 'faces'),
  };
}

// Surface triangles in levels (a triangle's level is one more than that of every earlier triangle
// it shares a vertex with), so that dispatching level by level, no two of a level sharing a vertex,
// gives each triangle the inputs the core's serial pass over them in index order gives it:
// { order: Uint32Array of 3 indices per triangle, ranges: [offset, count] per level }.
export function colourTriangles(triangles, vertexCount) {
  const count = triangles.length / 3;
  const next = new Int32Array(vertexCount); // per vertex: the lowest level its next triangle may take
  const level = new Uint32Array(count);
  let levels = 0;
  for (let t = 0; t < count; ++t) {
    const [a, b, c] = triangles.subarray(3 * t, 3 * t + 3);
    const l = Math.max(next[a], next[b], next[c]);
    level[t] = l;
    next[a] = next[b] = next[c] = l + 1;
    levels = Math.max(levels, l + 1);
  }
  const order = new Uint32Array(Math.max(3 * count, 3));
  const ranges = [];
  const starts = new Uint32Array(levels + 1);
  for (let t = 0; t < count; ++t) ++starts[level[t] + 1];
  for (let l = 0; l < levels; ++l) {
    starts[l + 1] += starts[l];
    ranges.push([starts[l], starts[l + 1] - starts[l]]);
  }
  const at = starts.slice(0, levels);
  for (let t = 0; t < count; ++t) order.set(triangles.subarray(3 * t, 3 * t + 3), 3 * at[level[t]]++);
  return { order, ranges };
}

const WORKGROUP = 64;

// The collider contacts of one body's buffers (BodyContacts) or of a world's vertex buffers
// (gpu_merged.js, every body's vertices in one numbering): the contact record, the surface
// triangles by level and the frame's table of collider entries, made at the first frame with
// colliders. target: { vertexCount, buffers: [params, x, prev, vel], owners: null or the world's
// [per-body parameters, per-vertex body] (the kernels then read each vertex's body through them),
// levels: { order, ranges } as colourTriangles gives, origin: what the entries' poses are relative to }.
export class ColliderContacts {
  constructor(world, target) {
    const { device } = world;
    const perVertexBody = target.owners !== null;
    const kernels = perVertexBody ? (world.worldContactKernels ??= makeContactKernels(device, true)) : (world.contactKernels ??= makeContactKernels(device));
    this.world = world;
    this.vertexCount = target.vertexCount;
    this.origin = target.origin;
    this.kernels = kernels;
    const U = GPUBufferUsage;
    const buffer = (bytes, usage, label) => device.createBuffer({ size: Math.max(16, bytes), usage, label });
    this.record = buffer(32 * target.vertexCount, U.STORAGE, 'contact record');
    const { order, ranges } = target.levels;
    this.faceRanges = ranges;
    this.tris = buffer(order.byteLength, U.STORAGE | U.COPY_DST, 'surface triangles by colour');
    device.queue.writeBuffer(this.tris, 0, order);
    const table = new Uint32Array((Math.max(ranges.length, 1) * SHAPE_STRIDE) / 4);
    ranges.forEach(([offset, count], i) => table.set([offset, count], (i * SHAPE_STRIDE) / 4));
    this.faceTable = buffer(table.byteLength, U.UNIFORM | U.COPY_DST, 'face batches');
    device.queue.writeBuffer(this.faceTable, 0, table);
    this.group = device.createBindGroup({
      layout: kernels.layout,
      entries: [...target.buffers, this.record, this.tris, ...(target.owners ?? [])].map((b, binding) => ({ binding, resource: { buffer: b } })),
    });
    this.faceGroup = device.createBindGroup({ layout: kernels.batchLayout, entries: [{ binding: 0, resource: { buffer: this.faceTable, size: 8 } }] });
    this.shapes = null;
    this.shapeCapacity = 0;
  }

  // The frame's entries: one per substep and collider (poses swept from each collider's previous one).
  writeShapes(colliders, substeps) {
    const { device } = this.world;
    const n = substeps * Math.max(colliders.length, 1); // one blank entry per substep without colliders
    if (n > this.shapeCapacity) {
      this.shapes?.destroy();
      this.shapeCapacity = n;
      this.shapes = device.createBuffer({ size: n * SHAPE_STRIDE, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST, label: 'collider entries' });
      this.shapeGroup = device.createBindGroup({ layout: this.kernels.shapeLayout, entries: [{ binding: 0, resource: { buffer: this.shapes, size: 96 } }] });
    }
    const data = new DataView(new ArrayBuffer(n * SHAPE_STRIDE));
    for (let s = 0; s < substeps; ++s) {
      const t0 = Math.fround(s / substeps), t1 = Math.fround((s + 1) / substeps);
      colliders.forEach((c, k) => c.writeEntry(data, (s * colliders.length + k) * SHAPE_STRIDE, t0, t1, this.origin));
    }
    device.queue.writeBuffer(this.shapes, 0, data.buffer);
    this.colliders = colliders;
  }

  // Substep s's end up to the velocities: the ground, each collider's particles (and faces for
  // spheres and capsules). Returns the dispatches.
  encodeContacts(pass, s) {
    const k = this.kernels;
    const vertexGroups = Math.ceil(this.vertexCount / WORKGROUP);
    this._bind(pass, s);
    pass.setPipeline(k.ground);
    pass.dispatchWorkgroups(vertexGroups);
    let dispatches = 1;
    this.colliders.forEach((c, j) => {
      pass.setBindGroup(2, this.shapeGroup, [(s * this.colliders.length + j) * SHAPE_STRIDE]);
      pass.setPipeline(k.particles);
      pass.setBindGroup(1, this.faceGroup, [0]);
      pass.dispatchWorkgroups(vertexGroups);
      ++dispatches;
      if (c.kind !== 1 && c.kind !== 3) return; // thin obstacles between vertices: spheres and capsules only
      pass.setPipeline(k.faces);
      this.faceRanges.forEach(([, count], i) => {
        pass.setBindGroup(1, this.faceGroup, [i * SHAPE_STRIDE]);
        pass.dispatchWorkgroups(Math.ceil(count / WORKGROUP));
        ++dispatches;
      });
    });
    return dispatches;
  }

  // The velocities (with the ground's and colliders' restitution); reground first when contacts
  // between bodies moved vertices since the ground was solved.
  encodeVelocities(pass, s, reground = false) {
    const k = this.kernels;
    const vertexGroups = Math.ceil(this.vertexCount / WORKGROUP);
    this._bind(pass, s);
    if (reground) {
      pass.setPipeline(k.reground);
      pass.dispatchWorkgroups(vertexGroups);
    }
    pass.setPipeline(k.velocities);
    pass.dispatchWorkgroups(vertexGroups);
    return reground ? 2 : 1;
  }

  _bind(pass, s) {
    pass.setBindGroup(0, this.group);
    pass.setBindGroup(1, this.faceGroup, [0]);
    pass.setBindGroup(2, this.shapeGroup, [s * Math.max(this.colliders.length, 1) * SHAPE_STRIDE]);
  }

  destroy() {
    for (const b of [this.record, this.tris, this.faceTable, this.shapes]) b?.destroy();
  }
}

// A body's own: its buffers, its surface's levels, entries relative to its origin.
export class BodyContacts extends ColliderContacts {
  constructor(body) {
    super(body.world, { vertexCount: body.vertexCount, buffers: [body.params, body.x, body.prev, body.vel], owners: null, levels: faceLevels(body), origin: body.origin });
  }
}

// A body's surface triangles in levels (colourTriangles), made once.
export function faceLevels(body) {
  return (body.faceLevels ??= colourTriangles(body.triangles, body.vertexCount));
}

// Level l of every body's surface in one range (bodies share no vertex), their vertex ids offset by
// each body's base in the world's numbering: the levels of the body with the most.
export function mergeFaceLevels(bodies, base) {
  const levels = bodies.map(faceLevels);
  const count = Math.max(0, ...levels.map((l) => l.ranges.length));
  const total = levels.reduce((n, l) => n + l.ranges.reduce((m, r) => m + r[1], 0), 0);
  const order = new Uint32Array(Math.max(3 * total, 3));
  const ranges = [];
  let k = 0;
  for (let l = 0; l < count; ++l) {
    const offset = k;
    levels.forEach((lv, j) => {
      if (l >= lv.ranges.length) return;
      const [from, n] = lv.ranges[l];
      for (let t = from; t < from + n; ++t, ++k) for (let a = 0; a < 3; ++a) order[3 * k + a] = lv.order[3 * t + a] + base[j];
    });
    ranges.push([offset, k - offset]);
  }
  return { order, ranges };
}
