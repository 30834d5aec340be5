// The body's surface as a Three.js mesh drawn straight from wasm memory: the position attribute
// wraps body.positions (no copy) and is re-uploaded each frame; only the triangle indices are
// copied, once per body, because they never change.
import * as THREE from 'three';

export const BODY_COLOR = 0xff5a3c; // coral: reads well against the cool grey ground

export class BodyMesh {
  // options.color: the body's colour (the comparison page gives each view its own).
  constructor(scene, { color = BODY_COLOR } = {}) {
    this.scene = scene;
    this.material = new THREE.MeshPhysicalMaterial({
      color,
      roughness: 0.42,
      metalness: 0,
      clearcoat: 0.7, // a wet, jelly-like gloss over the diffuse colour
      clearcoatRoughness: 0.25,
      sheen: 0.4,
      sheenColor: new THREE.Color(0xffc2a8),
    });
    this.mesh = new THREE.Mesh(new THREE.BufferGeometry(), this.material);
    this.mesh.castShadow = true;
    this.mesh.receiveShadow = true;
    this.body = null;
    scene.add(this.mesh);
  }

  // Points the mesh at a (new) body. Vertices inside the body are in the buffer too; the
  // surface triangles simply never reference them.
  bind(body) {
    const old = this.mesh.geometry;
    const geometry = new THREE.BufferGeometry();
    geometry.setIndex(new THREE.BufferAttribute(body.triangles.slice(), 1));
    geometry.setAttribute('position', this._positionAttribute(body.positions));
    this.mesh.geometry = geometry;
    old.dispose();
    this.body = body;
    this.update();
  }

  _positionAttribute(positions) {
    const attribute = new THREE.BufferAttribute(positions, 3);
    attribute.setUsage(THREE.DynamicDrawUsage); // rewritten every frame
    return attribute;
  }

  // After each step: rebind if wasm memory grew (the bridge then hands out a new view), flag the
  // upload, and recompute smooth normals and bounds (raycasting and culling read the bounds).
  update() {
    const geometry = this.mesh.geometry;
    const positions = this.body.positions;
    if (geometry.attributes.position.array !== positions) {
      geometry.setAttribute('position', this._positionAttribute(positions));
    }
    geometry.attributes.position.needsUpdate = true;
    geometry.computeVertexNormals();
    geometry.computeBoundingSphere();
    geometry.computeBoundingBox();
  }

  // What to show or hide as a whole (the strand mesh has the same property).
  get object() {
    return this.mesh;
  }

  // Removes the mesh from the scene and frees its GPU buffers.
  dispose() {
    this.scene.remove(this.mesh);
    this.mesh.geometry.dispose();
    this.material.dispose();
    this.body = null;
  }

  set wireframe(on) {
    this.material.wireframe = on;
  }
  get wireframe() {
    return this.material.wireframe;
  }
}
