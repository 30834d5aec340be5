// Drawing a <soft-body> whose world runs on WebGPU: three.js's WebGPURenderer on the solver's own
// device draws each body straight from the solver's storage buffers, so nothing is read back to be
// drawn (the figure reads back at a few Hz for its stats, and every frame only while a pointer may
// pick or holds a body: figure.js readbackMs). One renderer per device, drawing off screen; each
// view is copied into its element's 2D canvas in the same task, as page_stage.js does for WebGL.
//
// three has no public way to hand a geometry a GPUBuffer it did not make; its WebGPU backend keeps
// each attribute's buffer in its data map and makes one only where none is there yet
// (WebGPUAttributeUtils.createAttribute), so putting the solver's buffer there first is adopting it.
// The attribute's CPU array is never marked for upload (that would overwrite the solver's state);
// it mirrors the last read back, for raycasting (the grab's pick) and bounds.
import * as THREE from 'three';
import { WebGPURenderer } from 'three/webgpu';
import { BODY_COLOR, bodyMaterial } from '../body_mesh.js';
import { createScenery } from '../scenery.js';

const stages = new WeakMap(); // GPUDevice -> Promise<GpuStage>

// The stage for a device, made (and its renderer initialised) on first use.
export function gpuStage(device, { lowCost = false } = {}) {
  let stage = stages.get(device);
  if (!stage) {
    stage = GpuStage.create(device, { lowCost });
    stages.set(device, stage);
  }
  return stage;
}

export class GpuStage {
  static async create(device, { lowCost }) {
    const stage = new GpuStage(device, { lowCost });
    await stage.renderer.init();
    return stage;
  }

  constructor(device, { lowCost }) {
    this.device = device;
    this.zeroCopy = true; // GpuBodyMesh draws GPU bodies from their buffers
    this.lowCost = lowCost;
    this.canvas = document.createElement('canvas'); // never in the DOM: only drawn from
    this.renderer = new WebGPURenderer({ canvas: this.canvas, device, antialias: !lowCost });
    this.renderer.setPixelRatio(1); // views are sized in device pixels by their elements
    // No environment map here: the scenery builds it with WebGL's PMREM generator.
    const scenery = createScenery(this.renderer, { lowCost, environment: false });
    this.scene = scenery.scene;
    this.follow = scenery.follow;
    this.draws = 0; // views drawn (for the tests)
  }

  // The mesh a figure view draws `body` with: from its buffers when it is a GPU body.
  bodyMesh(group, body, options) {
    return body.renderBuffers ? new GpuBodyMesh(group, this, options) : null;
  }

  // Several GPU bodies of one world (a scenery's heap) drawn as one mesh, or null where they are not.
  bodiesMesh(group, bodies, options) {
    const world = bodies[0]?.world;
    if (bodies.length < 2 || !world?.drawSurface || bodies.some((b) => b.world !== world)) return null;
    return new GpuWorldMesh(group, this, world, bodies, options);
  }

  // The renderer draws `attribute` (an InterleavedBuffer or BufferAttribute not yet drawn) from
  // `buffer`, a GPUBuffer of this device with VERTEX usage, instead of uploading its array.
  adopt(attribute, buffer) {
    this.renderer.backend.get(attribute).buffer = buffer;
  }

  // Before the geometry holding an adopted attribute is disposed: three then destroys the buffer it
  // holds, which is the solver's; it gets a throwaway one to destroy instead.
  release(attribute) {
    const data = this.renderer.backend.get(attribute);
    if (data.buffer) data.buffer = this.device.createBuffer({ size: 16, usage: GPUBufferUsage.VERTEX });
  }

  // As PageStage.draw: renders `group` (visible for this one render) through `camera` into a
  // width x height image and copies it to ctx at (x, y); the key light follows `center`.
  draw(group, camera, width, height, ctx, x, y, center) {
    if (width < 1 || height < 1) return false;
    if (this.canvas.width !== width || this.canvas.height !== height) this.renderer.setSize(width, height, false);
    group.visible = true;
    this.follow(center);
    this.renderer.render(this.scene, camera);
    group.visible = false;
    ctx.drawImage(this.canvas, 0, 0, width, height, x, y, width, height);
    this.draws += 1;
    return true;
  }
}

// A GPU body's surface drawn from the solver's buffers (GpuBody.renderBuffers): the positions
// buffer as the position attribute (xyz of each 16-byte vertex; the mesh sits at the body's
// origin), normals computed on the GPU before each draw, the surface triangles uploaded once.
// The same interface as BodyMesh (body_mesh.js) for what a figure view uses.
export class GpuBodyMesh {
  constructor(scene, stage, { color = BODY_COLOR } = {}) {
    this.scene = scene;
    this.stage = stage;
    this.color = color;
    this.material = bodyMaterial(color);
    this.mesh = new THREE.Mesh(new THREE.BufferGeometry(), this.material);
    this.mesh.castShadow = true;
    this.mesh.receiveShadow = true;
    this.mesh.frustumCulled = false; // its bounds are those of the last read back, not of what is drawn
    this.body = null;
    this.adopted = [];
    scene.add(this.mesh);
  }

  bind(body) {
    this._dispose();
    const { positions, normals, origin, updateNormals } = body.renderBuffers();
    const n = body.vertexCount;
    const geometry = new THREE.BufferGeometry();
    const x = new THREE.InterleavedBuffer(new Float32Array(4 * n), 4);
    const normal = new THREE.InterleavedBuffer(new Float32Array(4 * n), 4);
    geometry.setIndex(new THREE.BufferAttribute(Uint32Array.from(body.triangles), 1));
    geometry.setAttribute('position', new THREE.InterleavedBufferAttribute(x, 3, 0));
    geometry.setAttribute('normal', new THREE.InterleavedBufferAttribute(normal, 3, 0));
    this.stage.adopt(x, positions);
    this.stage.adopt(normal, normals);
    this.adopted = [x, normal];
    this.mesh.geometry = geometry;
    this.mesh.position.set(origin[0], origin[1], origin[2]);
    this.body = body;
    this._updateNormals = updateNormals;
    this._mirrored = -1;
    this.update();
  }

  // Before each draw: the normals from the positions the GPU has now; and, when a new read back
  // arrived, its positions into the CPU mirror (raycasting, bounds).
  update() {
    const body = this.body;
    this._updateNormals();
    const reads = body.readCount ?? 0;
    if (reads === this._mirrored) return;
    this._mirrored = reads;
    const geometry = this.mesh.geometry;
    const mirror = geometry.attributes.position.data.array;
    const p = body.positions;
    const o = this.mesh.position;
    for (let i = 0; i < body.vertexCount; ++i) {
      mirror[4 * i] = p[3 * i] - o.x;
      mirror[4 * i + 1] = p[3 * i + 1] - o.y;
      mirror[4 * i + 2] = p[3 * i + 2] - o.z;
    }
    geometry.computeBoundingSphere();
    geometry.computeBoundingBox();
  }

  get object() {
    return this.mesh;
  }
  // The exploded view of the tets is drawn by the WebGL stage only.
  set showTets(_on) {}
  get showTets() {
    return false;
  }
  set wireframe(on) {
    this.material.wireframe = on;
  }
  get wireframe() {
    return this.material.wireframe;
  }

  _dispose() {
    for (const a of this.adopted) this.stage.release(a);
    this.adopted = [];
    this.mesh.geometry.dispose();
  }

  dispose() {
    this.scene.remove(this.mesh);
    this._dispose();
    this.material.dispose();
    this.body = null;
  }
}

// Many GPU bodies of one world drawn as one mesh (GpuWorld.drawSurface): one draw call and one
// submit for all of them, however many. Picking needs a mesh per body: `parts` are one per body,
// never drawn, holding each body's last read back for the raycaster (as GpuBodyMesh's mirror).
export class GpuWorldMesh {
  constructor(scene, stage, world, bodies, { color = BODY_COLOR } = {}) {
    this.scene = scene;
    this.stage = stage;
    this.surface = world.drawSurface(bodies);
    const n = this.surface.vertexCount;
    const geometry = new THREE.BufferGeometry();
    const x = new THREE.InterleavedBuffer(new Float32Array(4 * n), 4);
    const normal = new THREE.InterleavedBuffer(new Float32Array(4 * n), 4);
    geometry.setIndex(new THREE.BufferAttribute(this.surface.triangles, 1));
    geometry.setAttribute('position', new THREE.InterleavedBufferAttribute(x, 3, 0));
    geometry.setAttribute('normal', new THREE.InterleavedBufferAttribute(normal, 3, 0));
    stage.adopt(x, this.surface.positions);
    stage.adopt(normal, this.surface.normals.normals);
    this.adopted = [x, normal];
    this.material = bodyMaterial(color);
    this.mesh = new THREE.Mesh(geometry, this.material);
    this.mesh.castShadow = true;
    this.mesh.receiveShadow = true;
    this.mesh.frustumCulled = false; // nothing on the CPU knows where the GPU has the bodies
    scene.add(this.mesh);
    this.parts = bodies.map((body) => new PickMirror(body));
  }

  // Before each draw: positions and normals on the GPU; each part's mirror when a read back arrived.
  update() {
    this.surface.update();
    for (const part of this.parts) part.update();
  }

  dispose() {
    this.scene.remove(this.mesh);
    for (const a of this.adopted) this.stage.release(a);
    this.mesh.geometry.dispose();
    this.material.dispose();
    this.surface.destroy();
    for (const part of this.parts) part.dispose();
  }
}

// A body's surface at its last read back, for raycasting only (never added to a scene: the
// raycaster tests layers, not visibility, and an object outside a scene keeps an identity matrix).
class PickMirror {
  constructor(body) {
    this.body = body;
    const geometry = new THREE.BufferGeometry();
    geometry.setIndex(new THREE.BufferAttribute(Uint32Array.from(body.triangles), 1));
    geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * body.vertexCount), 3));
    this.mesh = new THREE.Mesh(geometry);
    this._mirrored = -1;
    this.update();
  }

  update() {
    const reads = this.body.readCount ?? 0;
    if (reads === this._mirrored) return;
    this._mirrored = reads;
    const geometry = this.mesh.geometry;
    geometry.attributes.position.array.set(this.body.positions);
    geometry.computeBoundingSphere();
    geometry.computeBoundingBox();
  }

  dispose() {
    this.mesh.geometry.dispose();
  }
}
