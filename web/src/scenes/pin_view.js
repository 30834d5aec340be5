// Pinned particles: toggled with Shift+click (or Alt+click) on a body, drawn as small dark beads
// that follow them. The C side keeps pins across reset; a body that goes away takes its pins along.
import * as THREE from 'three';

const MAX_PINS = 4096; // the vertex-group brush pins patches at once

export class PinView {
  constructor(scene) {
    this.pins = new Map(); // body -> Set of vertex indices
    this.mesh = new THREE.InstancedMesh(
      new THREE.SphereGeometry(0.025, 12, 8),
      new THREE.MeshStandardMaterial({ color: 0x263238, roughness: 0.4 }),
      MAX_PINS,
    );
    this.mesh.count = 0;
    this.mesh.frustumCulled = false; // instances move; the bounds of the template sphere do not
    scene.add(this.mesh);
    this._matrix = new THREE.Matrix4();
  }

  // Pins or unpins `vertex` of `body` (the opposite of what it was); returns the new state.
  toggle(body, vertex) {
    const set = this.pins.get(body) ?? new Set();
    const pinned = !set.has(vertex);
    if (pinned && this.count >= MAX_PINS) throw new Error(`at most ${MAX_PINS} pins; Shift+click a pin to free it`);
    body.pin(vertex, pinned);
    if (pinned) set.add(vertex);
    else set.delete(vertex);
    this.pins.set(body, set);
    return pinned;
  }

  // Pins or unpins `vertex` of `body` as asked (the vertex-group brush).
  set(body, vertex, pinned) {
    const set = this.pins.get(body) ?? new Set();
    if (pinned === set.has(vertex)) return;
    if (pinned && this.count >= MAX_PINS) throw new Error(`at most ${MAX_PINS} pins; the clear brush frees them`);
    body.pin(vertex, pinned);
    if (pinned) set.add(vertex);
    else set.delete(vertex);
    this.pins.set(body, set);
  }

  get count() {
    let n = 0;
    for (const set of this.pins.values()) n += set.size;
    return n;
  }

  // Forgets pins of bodies that are no longer in the world.
  keepOnly(bodies) {
    for (const body of [...this.pins.keys()]) if (!bodies.includes(body)) this.pins.delete(body);
  }

  update() {
    let i = 0;
    for (const [body, set] of this.pins) {
      const p = body.positions;
      for (const v of set) {
        this._matrix.makeTranslation(p[3 * v], p[3 * v + 1], p[3 * v + 2]);
        this.mesh.setMatrixAt(i++, this._matrix);
      }
    }
    this.mesh.count = i;
    this.mesh.instanceMatrix.needsUpdate = true;
  }
}
