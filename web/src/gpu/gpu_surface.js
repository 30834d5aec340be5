// What a renderer on the solver's device needs to draw a GPU body with no read back: the positions
// buffer itself (x - origin, xyz with the inverse mass in w: a vertex buffer of stride 16 bytes) and
// vertex normals computed here, on the GPU, from it. Normals are the page's (surface_normals.js):
// each surface triangle's unit normal weighted by its angle at the vertex, gathered per vertex over
// the triangles it is a corner of (a list made once on the CPU), so no atomics and no order to vary.
const WORKGROUP = 64;

const NORMALS_WGSL = /* wgsl */ `
@group(0) @binding(0) var<storage, read> x: array<vec4f>;        // m, x - origin
@group(0) @binding(1) var<storage, read> triangles: array<u32>;  // 3 per surface triangle
@group(0) @binding(2) var<storage, read> start: array<u32>;      // per vertex: its corners' range
@group(0) @binding(3) var<storage, read> corners: array<u32>;    // 3 * triangle + corner
@group(0) @binding(4) var<storage, read_write> normals: array<vec4f>;

@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i + 1u >= arrayLength(&start)) { return; }
  var n = vec3f(0.0);
  for (var k = start[i]; k < start[i + 1u]; k++) {
    let t = 3u * (corners[k] / 3u);
    let c = corners[k] % 3u;
    // The corner at this vertex and the next two in the triangle's order: (b - a) x (d - a) is the
    // triangle's own normal whichever corner a is.
    let a = x[triangles[t + c]].xyz;
    let ab = x[triangles[t + (c + 1u) % 3u]].xyz - a;
    let ad = x[triangles[t + (c + 2u) % 3u]].xyz - a;
    let face = cross(ab, ad);
    let lf = length(face);
    let lb = length(ab);
    let ld = length(ad);
    if (lf == 0.0 || lb == 0.0 || ld == 0.0) { continue; } // degenerate: no direction to give
    n += acos(clamp(dot(ab, ad) / (lb * ld), -1.0, 1.0)) * face / lf;
  }
  let l = length(n);
  // A vertex of no triangle (inside the body) or of degenerate ones only: up, as the CPU version.
  normals[i] = select(vec4f(0.0, 1.0, 0.0, 0.0), vec4f(n / l, 0.0), l > 0.0);
}
`;

const pipelines = new WeakMap(); // device -> the normals pipeline

export class SurfaceNormals {
  // body: a GpuBody (its x buffer, vertex count and surface triangles), or anything with those and
  // world.device (gpu_world_surface.js passes the world-space positions of many bodies).
  constructor(body) {
    const device = body.world.device;
    this.device = device;
    const n = body.vertexCount;
    const tris = body.triangles;
    // Per vertex, the corners (3 * triangle + corner) it is: a CSR list.
    const start = new Uint32Array(n + 1);
    for (let k = 0; k < tris.length; ++k) start[tris[k] + 1] += 1;
    for (let i = 0; i < n; ++i) start[i + 1] += start[i];
    const fill = start.slice(0, n);
    const corners = new Uint32Array(Math.max(1, tris.length));
    for (let k = 0; k < tris.length; ++k) corners[fill[tris[k]]++] = k;
    const U = GPUBufferUsage;
    const init = (array, label) => {
      const b = device.createBuffer({ size: Math.max(16, array.byteLength), usage: U.STORAGE | U.COPY_DST, label });
      device.queue.writeBuffer(b, 0, array);
      return b;
    };
    this.triangles = init(Uint32Array.from(tris.length ? tris : [0]), 'surface triangles');
    this.start = init(start, 'normal corner starts');
    this.corners = init(corners, 'normal corners');
    // vec4 per vertex (stride 16), so a renderer reads xyz as a vertex attribute.
    this.normals = device.createBuffer({ size: Math.max(16, 16 * n), usage: U.STORAGE | U.VERTEX | U.COPY_SRC, label: 'normals' }); // copied by tests only
    let pipeline = pipelines.get(device);
    if (!pipeline) {
      pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code: NORMALS_WGSL, label: 'surface normals' }), entryPoint: 'main' } });
      pipelines.set(device, pipeline);
    }
    this.pipeline = pipeline;
    this.group = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [body.x, this.triangles, this.start, this.corners, this.normals].map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
    this.workgroups = Math.ceil(n / WORKGROUP);
  }

  // Recomputes the normals from the positions as the GPU has them now (after what was submitted).
  update() {
    const encoder = this.device.createCommandEncoder({ label: 'surface normals' });
    const pass = encoder.beginComputePass();
    this.encode(pass);
    pass.end();
    this.device.queue.submit([encoder.finish()]);
  }

  // The same dispatch into a compute pass the caller submits (with work of its own).
  encode(pass) {
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.group);
    pass.dispatchWorkgroups(this.workgroups);
  }

  destroy() {
    for (const b of [this.triangles, this.start, this.corners, this.normals]) b.destroy();
  }
}
