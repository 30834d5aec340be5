// A body without surface triangles (the rope: springs only) drawn as a tube: one instanced cylinder
// per edge and one instanced bead per particle, placed from body.positions every frame. Same
// interface as BodyMesh (bind, update, mesh for raycasting, object to show or hide, dispose).
import * as THREE from 'three';
import { BODY_COLOR } from './body_mesh.js';

const TUBE_RADIUS = 0.025; // m: a little over the rope's physical 0.02 m, so it reads on screen
const BEAD_RADIUS = 0.04; // m: the joints, also what the pointer grabs (a thin tube is hard to hit)

const UP = new THREE.Vector3(0, 1, 0);

export class StrandMesh {
  constructor(scene, { color = BODY_COLOR } = {}) {
    this.scene = scene;
    this.material = new THREE.MeshPhysicalMaterial({ color, roughness: 0.5, metalness: 0, clearcoat: 0.4 });
    this.linkGeometry = new THREE.CylinderGeometry(TUBE_RADIUS, TUBE_RADIUS, 1, 10, 1, true); // unit height along y
    this.beadGeometry = new THREE.SphereGeometry(BEAD_RADIUS, 12, 8);
    this.object = new THREE.Group();
    this.links = null;
    this.mesh = null; // the beads: raycast target
    this.body = null;
    this.edges = null;
    // Scratch objects, reused every frame.
    this._a = new THREE.Vector3();
    this._b = new THREE.Vector3();
    this._dir = new THREE.Vector3();
    this._q = new THREE.Quaternion();
    this._s = new THREE.Vector3();
    this._m = new THREE.Matrix4();
    scene.add(this.object);
  }

  bind(body) {
    this._clear();
    this.body = body;
    this.edges = body.edges.slice(); // fixed for the body's lifetime
    this.links = new THREE.InstancedMesh(this.linkGeometry, this.material, Math.max(1, body.edgeCount));
    this.mesh = new THREE.InstancedMesh(this.beadGeometry, this.material, Math.max(1, body.vertexCount));
    for (const part of [this.links, this.mesh]) {
      part.castShadow = true;
      part.frustumCulled = false; // bounds change every frame
      part.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
      this.object.add(part);
    }
    this.update();
  }

  update() {
    const p = this.body.positions;
    const { _a: a, _b: b, _dir: dir, _q: q, _s: s, _m: m } = this;
    for (let i = 0; i < this.body.vertexCount; i++) {
      m.makeTranslation(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
      this.mesh.setMatrixAt(i, m);
    }
    const edges = this.edges;
    for (let e = 0; e < this.body.edgeCount; e++) {
      const i = edges[2 * e];
      const j = edges[2 * e + 1];
      a.set(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
      b.set(p[3 * j], p[3 * j + 1], p[3 * j + 2]);
      dir.subVectors(b, a);
      const length = dir.length();
      if (length > 0) q.setFromUnitVectors(UP, dir.divideScalar(length));
      s.set(1, length, 1);
      m.compose(a.add(b).multiplyScalar(0.5), q, s);
      this.links.setMatrixAt(e, m);
    }
    this.mesh.instanceMatrix.needsUpdate = true;
    this.links.instanceMatrix.needsUpdate = true;
    this.mesh.computeBoundingSphere(); // raycasting tests it first
  }

  _clear() {
    for (const part of [this.links, this.mesh]) {
      if (!part) continue;
      this.object.remove(part);
      part.dispose();
    }
    this.links = this.mesh = null;
  }

  dispose() {
    this._clear();
    this.scene.remove(this.object);
    this.linkGeometry.dispose();
    this.beadGeometry.dispose();
    this.material.dispose();
    this.body = null;
  }
}
