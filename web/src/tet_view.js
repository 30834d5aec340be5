// "show tets": every tet of the body drawn on its own, shrunk about its centroid (an exploded
// view), so the inside of the mesh can be seen. Rebuilt from body.positions each frame: 4 faces
// x 3 corners per tet, flat-shaded, no index (corners are not shared between faces).
import * as THREE from 'three';
import { TET_SHRINK } from './settings.js';

// Outward faces of a positively oriented tet (a, b, c, d): the face opposite each corner.
const FACES = [
  [0, 2, 1],
  [0, 1, 3],
  [0, 3, 2],
  [1, 2, 3],
];

export class TetView {
  constructor(scene, { color }) {
    this.scene = scene;
    this.material = new THREE.MeshStandardMaterial({ color, roughness: 0.55, metalness: 0, flatShading: true });
    this.mesh = new THREE.Mesh(new THREE.BufferGeometry(), this.material);
    this.mesh.castShadow = true;
    this.mesh.receiveShadow = true;
    this.mesh.frustumCulled = false; // the body moves every frame; bounds would be stale
    this.mesh.visible = false;
    this.body = null;
    scene.add(this.mesh);
  }

  bind(body) {
    const old = this.mesh.geometry;
    const geometry = new THREE.BufferGeometry();
    const position = new THREE.BufferAttribute(new Float32Array(36 * body.tetCount), 3);
    position.setUsage(THREE.DynamicDrawUsage);
    geometry.setAttribute('position', position);
    this.mesh.geometry = geometry;
    old.dispose();
    this.body = body;
    if (this.mesh.visible) this.update();
  }

  get visible() {
    return this.mesh.visible;
  }
  set visible(on) {
    this.mesh.visible = on;
    if (on && this.body) this.update();
  }

  // Writes the shrunk tets; costs a pass over all tets, so only while shown.
  update() {
    if (!this.mesh.visible || !this.body) return;
    const p = this.body.positions;
    const tets = this.body.tets;
    const out = this.mesh.geometry.attributes.position;
    const o = out.array;
    const corner = new Float32Array(12);
    let w = 0;
    for (let t = 0; t < tets.length; t += 4) {
      let cx = 0, cy = 0, cz = 0;
      for (let k = 0; k < 4; k++) {
        const i = 3 * tets[t + k];
        cx += p[i], cy += p[i + 1], cz += p[i + 2];
      }
      cx *= 0.25, cy *= 0.25, cz *= 0.25;
      for (let k = 0; k < 4; k++) {
        const i = 3 * tets[t + k];
        corner[3 * k] = cx + TET_SHRINK * (p[i] - cx);
        corner[3 * k + 1] = cy + TET_SHRINK * (p[i + 1] - cy);
        corner[3 * k + 2] = cz + TET_SHRINK * (p[i + 2] - cz);
      }
      for (const face of FACES) {
        for (const k of face) {
          o[w++] = corner[3 * k], o[w++] = corner[3 * k + 1], o[w++] = corner[3 * k + 2];
        }
      }
    }
    out.needsUpdate = true;
  }

  set wireframe(on) {
    this.material.wireframe = on;
  }

  dispose() {
    this.scene.remove(this.mesh);
    this.mesh.geometry.dispose();
    this.material.dispose();
    this.body = null;
  }
}
