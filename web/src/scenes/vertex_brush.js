// Vertex groups by brush: with a brush chosen in the panel, pressing (and dragging over) a body paints
// every particle within the brush radius of the point under the pointer instead of grabbing it: pin,
// stiffer x10, softer x0.1, heavier x5 (sb_body_set_vertex_scales), or clear. Painted particles are
// drawn as small beads coloured by their paint; pins keep PinView's dark beads.
import * as THREE from 'three';

export const BRUSHES = Object.freeze({
  off: { label: 'off (drag grabs)' },
  pin: { label: 'pin' },
  stiffer: { label: 'stiffer ×10', stiffness: 10, color: 0x1565c0 },
  softer: { label: 'softer ×0.1', stiffness: 0.1, color: 0x9ccc65 },
  heavier: { label: 'heavier ×5', mass: 5, color: 0x6d4c41 },
  clear: { label: 'clear' },
});

const MAX_BEADS = 8192;

export class VertexBrush {
  // pins: the PinView (pins painted here show there and toggle the same way).
  constructor(scene, pins) {
    this.pins = pins;
    this.mode = 'off';
    this.radius = 0.12; // m
    this.painted = new Map(); // body -> Map(vertex -> brush name) for the stiffness and mass paints
    this.mesh = new THREE.InstancedMesh(new THREE.SphereGeometry(0.014, 8, 6), new THREE.MeshStandardMaterial({ roughness: 0.5 }), MAX_BEADS);
    this.mesh.count = 0;
    this.mesh.frustumCulled = false; // instances move; the template sphere's bounds do not
    scene.add(this.mesh);
    this._matrix = new THREE.Matrix4();
    this._color = new THREE.Color();
  }

  get active() {
    return this.mode !== 'off';
  }

  // Paints the particles of `body` within the radius of `point` (world, m) with the current brush.
  // Returns how many it painted. Throws the bridge's SoftbodyError on a refusal (nothing changed).
  paint(body, point) {
    const p = body.positions;
    const r2 = this.radius * this.radius;
    const vertices = [];
    for (let i = 0; i < body.vertexCount; i++) {
      const dx = p[3 * i] - point.x, dy = p[3 * i + 1] - point.y, dz = p[3 * i + 2] - point.z;
      if (dx * dx + dy * dy + dz * dz <= r2) vertices.push(i);
    }
    if (!vertices.length) vertices.push(body.nearestVertex(point.x, point.y, point.z));
    const brush = BRUSHES[this.mode];
    if (this.mode === 'pin') {
      for (const v of vertices) this.pins.set(body, v, true);
      return vertices.length;
    }
    const marks = this.painted.get(body) ?? new Map();
    if (this.mode === 'clear') {
      body.setVertexScales(vertices, 1, 1);
      for (const v of vertices) {
        marks.delete(v);
        this.pins.set(body, v, false);
      }
    } else {
      // The C API sets both scales at once: keep the one this brush does not paint, per value.
      const keep = new Map(); // the other scale's value -> vertices
      for (const v of vertices) {
        const s = body.vertexScales(v);
        const other = brush.stiffness !== undefined ? s.mass : s.stiffness;
        if (!keep.has(other)) keep.set(other, []);
        keep.get(other).push(v);
      }
      for (const [other, list] of keep) {
        if (brush.stiffness !== undefined) body.setVertexScales(list, other, brush.stiffness);
        else body.setVertexScales(list, brush.mass, other);
      }
      if (marks.size + vertices.length > MAX_BEADS) throw new Error(`at most ${MAX_BEADS} painted particles are drawn; "clear" some`);
      for (const v of vertices) marks.set(v, this.mode);
    }
    this.painted.set(body, marks);
    return vertices.length;
  }

  get count() {
    let n = 0;
    for (const marks of this.painted.values()) n += marks.size;
    return n;
  }

  // Forgets bodies that are no longer in the world.
  keepOnly(bodies) {
    for (const body of [...this.painted.keys()]) if (!bodies.includes(body)) this.painted.delete(body);
  }

  update() {
    let i = 0;
    for (const [body, marks] of this.painted) {
      const p = body.positions;
      for (const [v, mode] of marks) {
        if (i >= MAX_BEADS) break;
        this._matrix.makeTranslation(p[3 * v], p[3 * v + 1], p[3 * v + 2]);
        this.mesh.setMatrixAt(i, this._matrix);
        this.mesh.setColorAt(i, this._color.setHex(BRUSHES[mode].color));
        i++;
      }
    }
    this.mesh.count = i;
    this.mesh.instanceMatrix.needsUpdate = true;
    if (this.mesh.instanceColor) this.mesh.instanceColor.needsUpdate = true;
  }
}
