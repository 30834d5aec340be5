// Grabbing on the WebGPU backend, as the core's kinematic grab (grab compliance 0; soft_body.cpp
// grab_begin/move/end, soft_body_position_based.cpp pre_solve/post_solve): the picked vertex and the
// unpinned ones within grabRadius are held (inverse mass 0) at the pointer's target plus their offset,
// the target swept from last frame's to this one's over the substeps, never below the ground; their
// velocity is the pointer's; the release gives them the release velocity. The set and the offsets
// come from the body's last read back (body.positions): the pick reads back, frames do not.
import { PARAMS } from './xpbd_wgsl.js';

const STRIDE = 256; // bytes between per-substep entries: the dynamic offset alignment

const GRAB_WGSL = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read_write> x: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> prev: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> vel: array<vec4f>;
@group(0) @binding(4) var<storage, read> held: array<vec4f>;  // xyz: offset to the target (m); w: the vertex (bits)
// base: the body's first vertex in the buffers bound (0 for its own, its base in a world's).
struct Grab { goal: vec3f, count: u32, base: u32 }
@group(1) @binding(0) var<uniform> G: Grab;   // target at this substep's end, relative to the origin

// After predict: prev = x, x = target + offset (held vertices have w = 0, so predict left them).
@compute @workgroup_size(64)
fn place(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= G.count) { return; }
  let h = held[gid.x];
  let i = G.base + bitcast<u32>(h.w);
  var to = G.goal + h.xyz;
  if ((P.flags & 1u) != 0u && to.y < P.floor_y) { to.y = P.floor_y; }
  let xi = x[i];
  prev[i] = vec4f(xi.xyz, 0.0);
  x[i] = vec4f(to, xi.w);
}

// After the velocities: the held vertices move with the pointer.
@compute @workgroup_size(64)
fn follow(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= G.count) { return; }
  let i = G.base + bitcast<u32>(held[gid.x].w);
  vel[i] = vec4f((x[i].xyz - prev[i].xyz) * (1.0 / P.h), 0.0);
}
`;

function makeGrabKernels(device) {
  const S = GPUShaderStage.COMPUTE;
  const storage = (binding, readOnly = false) => ({ binding, visibility: S, buffer: { type: readOnly ? 'read-only-storage' : 'storage' } });
  const layout = device.createBindGroupLayout({ entries: [{ binding: 0, visibility: S, buffer: { type: 'uniform' } }, storage(1), storage(2), storage(3), storage(4, true)] });
  const entryLayout = device.createBindGroupLayout({ entries: [{ binding: 0, visibility: S, buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: 32 } }] });
  const pipes = device.createPipelineLayout({ bindGroupLayouts: [layout, entryLayout] });
  const module = device.createShaderModule({ code: GRAB_WGSL, label: 'grab' });
  const pipeline = (entryPoint) => device.createComputePipeline({ layout: pipes, compute: { module, entryPoint } });
  return { layout, entryLayout, place: pipeline('place'), follow: pipeline('follow') };
}

const f32 = Math.fround;

// One body's grab: held vertices, offsets and the target path.
export class BodyGrab {
  constructor(body, vertex, target) {
    const { device } = body.world;
    this.body = body;
    this.kernels = (body.world.grabKernels ??= makeGrabKernels(device));
    const p = body.positions;
    const r = body.getParam('grabRadius');
    const r2 = f32(r * r);
    const pinned = body.pinned;
    const members = [];
    const c = [p[3 * vertex], p[3 * vertex + 1], p[3 * vertex + 2]];
    for (let i = 0; i < body.vertexCount; ++i) {
      const d = [0, 1, 2].map((k) => f32(p[3 * i + k] - c[k]));
      if ((i === vertex || f32(f32(d[0] * d[0] + d[1] * d[1]) + d[2] * d[2]) <= r2) && !pinned.has(i)) members.push([i, d]);
    }
    this.vertex = vertex;
    this.members = members.map(([i]) => i);
    const held = new Float32Array(4 * Math.max(members.length, 1));
    const bits = new Uint32Array(held.buffer);
    members.forEach(([i, d], k) => {
      held.set(d, 4 * k);
      bits[4 * k + 3] = i;
    });
    this.held = device.createBuffer({ size: held.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST, label: 'held vertices' });
    device.queue.writeBuffer(this.held, 0, held);
    this.group = device.createBindGroup({
      layout: this.kernels.layout,
      entries: [body.params, body.x, body.prev, body.vel, this.held].map((b, binding) => ({ binding, resource: { buffer: b } })),
    });
    this.from = target.map(f32);
    this.to = this.from.slice();
    this.entries = null;
    this.capacity = 0;
  }

  move(target) {
    this.to = target.map(f32);
  }

  // The frame's per-substep targets (grab_target at (s + 1) / substeps), relative to the origin;
  // base: the body's first vertex in the buffers the frame binds (encode).
  write(substeps, base = 0) {
    const { device } = this.body.world;
    if (substeps > this.capacity) {
      this.entries?.destroy();
      this.capacity = substeps;
      this.entries = device.createBuffer({ size: substeps * STRIDE, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST, label: 'grab targets' });
      this.entryGroup = device.createBindGroup({ layout: this.kernels.entryLayout, entries: [{ binding: 0, resource: { buffer: this.entries, size: 32 } }] });
    }
    const data = new ArrayBuffer(substeps * STRIDE);
    const o = this.body.origin;
    for (let s = 0; s < substeps; ++s) {
      const t = f32((s + 1) / substeps);
      const f = new Float32Array(data, s * STRIDE, 4);
      for (let k = 0; k < 3; ++k) f[k] = f32(f32(this.from[k] + f32(f32(this.to[k] - this.from[k]) * t)) - o[k]);
      new Uint32Array(data, s * STRIDE, 5).set([this.members.length, base], 3);
    }
    device.queue.writeBuffer(this.entries, 0, data);
  }

  // Dispatches `place` (kernel 'place') or `follow` for substep s, on the body's own buffers or
  // (merged) on the world's (gpu_merged.js; write() was given the body's base there). Returns 1.
  encode(pass, kernel, s, merged = null) {
    pass.setPipeline(this.kernels[kernel]);
    pass.setBindGroup(0, merged ? this._worldGroup(merged) : this.group);
    pass.setBindGroup(1, this.entryGroup, [s * STRIDE]);
    pass.dispatchWorkgroups(Math.ceil(this.members.length / 64));
    return 1;
  }

  // The body's parameters with the world's x, prev and v.
  _worldGroup(merged) {
    if (this.worldGroupOf !== merged) {
      this.worldGroupOf = merged;
      this.worldGroup = this.body.world.device.createBindGroup({
        layout: this.kernels.layout,
        entries: [this.body.params, merged.x, merged.prev, merged.vel, this.held].map((b, binding) => ({ binding, resource: { buffer: b } })),
      });
    }
    return this.worldGroup;
  }

  endFrame() {
    this.from = this.to.slice();
  }

  destroy() {
    this.held.destroy();
    this.entries?.destroy();
  }
}
