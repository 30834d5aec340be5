// Many GPU bodies drawn as one mesh: their surfaces in one index buffer over one world-space
// positions buffer, with normals, all made on the GPU each frame in two dispatches (gather, normals)
// and one submit, so a heap of hundreds of bodies is one draw call, not one per body (and one normals
// dispatch and submit per body). Nothing is read back.
//
// The positions come from the world's vertex buffer (gpu_merged.js) when its last frame ran there
// and no body was written since (GpuWorld.mergedFresh); otherwise each body's own x is copied into a
// buffer of ours first (one copy command per body, still one submit).
import { SurfaceNormals } from './gpu_surface.js';
import { vertexBases } from './gpu_numbering.js';

const WORKGROUP = 64;

// out[i] = src[source[i]] + its body's origin: world-space positions (xyz, w = 1) to draw from.
const GATHER_WGSL = /* wgsl */ `
@group(0) @binding(0) var<storage, read> src: array<vec4f>;       // x - origin, 1/m in w
@group(0) @binding(1) var<storage, read> source: array<u32>;      // per drawn vertex: its index in src
@group(0) @binding(2) var<storage, read> owner: array<u32>;       // per drawn vertex: its body
@group(0) @binding(3) var<storage, read> origins: array<vec4f>;   // per body, m
@group(0) @binding(4) var<storage, read_write> out: array<vec4f>;

@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= arrayLength(&source)) { return; }
  out[i] = vec4f(src[source[i]].xyz + origins[owner[i]].xyz, 1.0);
}
`;

const pipelines = new WeakMap(); // device -> the gather pipeline

export class WorldSurface {
  // world: a GpuWorld; bodies: its GpuBodies to draw together.
  constructor(world, bodies) {
    const device = world.device;
    this.device = device;
    this.world = world;
    this.bodies = bodies;
    const { base, vertices } = vertexBases(bodies);
    this.base = base;
    this.vertexCount = vertices;
    let triangleCount = 0;
    for (const b of bodies) triangleCount += b.triangles.length;
    // The surfaces in the drawn numbering (body j's vertex i is base[j] + i).
    this.triangles = new Uint32Array(triangleCount);
    const owner = new Uint32Array(Math.max(1, vertices));
    const origins = new Float32Array(4 * Math.max(1, bodies.length));
    let t = 0;
    bodies.forEach((b, j) => {
      for (let k = 0; k < b.triangles.length; ++k) this.triangles[t++] = base[j] + b.triangles[k];
      owner.fill(j, base[j], base[j] + b.vertexCount);
      origins.set([b.origin[0], b.origin[1], b.origin[2], 0], 4 * j);
    });
    const U = GPUBufferUsage;
    const init = (array, label) => {
      const buffer = device.createBuffer({ size: Math.max(16, array.byteLength), usage: U.STORAGE | U.COPY_DST, label });
      device.queue.writeBuffer(buffer, 0, array);
      return buffer;
    };
    this.owner = init(owner, 'drawn vertex owner');
    this.origins = init(origins, 'drawn body origins');
    this.identity = init(Uint32Array.from({ length: Math.max(1, vertices) }, (_, i) => i), 'drawn vertex identity');
    this.copy = device.createBuffer({ size: Math.max(16, 16 * vertices), usage: U.STORAGE | U.COPY_DST, label: 'drawn bodies x' });
    // vec4 per vertex (stride 16): a renderer reads xyz as a vertex attribute (copied only by tests).
    this.positions = device.createBuffer({ size: Math.max(16, 16 * vertices), usage: U.STORAGE | U.VERTEX | U.COPY_SRC, label: 'drawn positions' });
    this.normals = new SurfaceNormals({ world, vertexCount: vertices, triangles: this.triangles, x: this.positions });
    let pipeline = pipelines.get(device);
    if (!pipeline) {
      pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code: GATHER_WGSL, label: 'drawn positions' }), entryPoint: 'main' } });
      pipelines.set(device, pipeline);
    }
    this.pipeline = pipeline;
    this.copyGroup = this._group(this.copy, this.identity);
    this.merged = null; // the world's vertex buffers the merged group reads, when it was made
    this.mergedGroup = null;
    this.mergedSource = null;
    this.workgroups = Math.ceil(vertices / WORKGROUP);
    this.lastSource = null; // 'world' or 'copies': where the last update read (for the tests)
  }

  _group(src, source) {
    return this.device.createBindGroup({
      layout: this.pipeline.getBindGroupLayout(0),
      entries: [src, source, this.owner, this.origins, this.positions].map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
  }

  // The world's vertex buffers when they hold every drawn body as the GPU has it now, else null.
  _worldSource() {
    const merged = this.world.merged;
    if (!merged || !this.world.mergedFresh) return null;
    if (merged !== this.merged) {
      this.merged = merged;
      this.mergedSource?.destroy();
      this.mergedSource = null;
      this.mergedGroup = null;
      const index = merged.bodies;
      const source = new Uint32Array(Math.max(1, this.vertexCount));
      for (let j = 0; j < this.bodies.length; ++j) {
        const k = index.indexOf(this.bodies[j]);
        if (k < 0) return null; // a drawn body outside the world's buffers: copies
        for (let i = 0; i < this.bodies[j].vertexCount; ++i) source[this.base[j] + i] = merged.base[k] + i;
      }
      this.mergedSource = this.device.createBuffer({ size: source.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST, label: 'drawn vertex source' });
      this.device.queue.writeBuffer(this.mergedSource, 0, source);
      this.mergedGroup = this._group(merged.x, this.mergedSource);
    }
    return this.mergedGroup;
  }

  // Positions and normals from what the GPU holds now (after what was submitted): one submit.
  update() {
    const encoder = this.device.createCommandEncoder({ label: 'drawn bodies' });
    let group = this._worldSource();
    this.lastSource = group ? 'world' : 'copies';
    if (!group) {
      this.bodies.forEach((b, j) => encoder.copyBufferToBuffer(b.x, 0, this.copy, 16 * this.base[j], 16 * b.vertexCount));
      group = this.copyGroup;
    }
    const pass = encoder.beginComputePass();
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(this.workgroups);
    this.normals.encode(pass);
    pass.end();
    this.device.queue.submit([encoder.finish()]);
  }

  destroy() {
    this.normals.destroy();
    for (const b of [this.owner, this.origins, this.identity, this.copy, this.positions, this.mergedSource]) b?.destroy();
  }
}
