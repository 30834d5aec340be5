// The pointer's scene tools, ahead of the body grabber on the same canvas (capture phase, registered
// first): with a vertex-group brush chosen, pressing and dragging over a body paints it
// (vertex_brush.js); Shift+click (or Alt+click) on a body pins or unpins its nearest particle; pressing an
// obstacle (nearer than any body under the pointer) drags it on the horizontal plane through the press. A dragged
// obstacle is posed once per frame without teleporting, so the step sweeps it there and it pushes
// and carries the bodies it meets.
import * as THREE from 'three';
import { aimRay } from '../grabber.js';

const MAX_COORDINATE = 100; // m: a ray almost parallel to the drag plane meets it very far away

// The nearest of `items` ([{ mesh, body }]) the raycaster's ray hits: { item, hit }, or null.
export function nearestBodyHit(raycaster, items) {
  let best = null;
  for (const item of items) {
    const hit = raycaster.intersectObject(item.mesh, false)[0];
    if (hit && (!best || hit.distance < best.hit.distance)) best = { item, hit };
  }
  return best;
}

export class ScenePointer {
  // getBodies(): [{ mesh, body }] to pick from; colliders: the ColliderView; sim: for heldCollider.
  // brush: the VertexBrush; while it is active, pressing a body paints instead of grabbing.
  constructor({ canvas, camera, controls, getBodies, colliders, pins, sim, onError, brush = null }) {
    Object.assign(this, { canvas, camera, controls, getBodies, colliders, pins, sim, onError, brush });
    this.painting = null; // the body being painted while the pointer is down, or null
    this.raycaster = new THREE.Raycaster();
    this.plane = new THREE.Plane();
    this.offset = new THREE.Vector3();
    this.target = new THREE.Vector3();
    this.pointerId = null;
    this.entry = null; // the collider being dragged
    this.lastPin = null; // { vertex, pinned } of the last Shift+click, for the tests
    this._listeners = [
      ['pointerdown', (e) => this._down(e), { capture: true }],
      ['pointermove', (e) => this._move(e)],
      ['pointerup', (e) => this._up(e)],
      ['pointercancel', (e) => this._up(e)],
    ];
    for (const [type, fn, options] of this._listeners) canvas.addEventListener(type, fn, options);
  }

  dispose() {
    this._finish();
    for (const [type, fn, options] of this._listeners) this.canvas.removeEventListener(type, fn, options);
  }

  get dragging() {
    return this.pointerId !== null;
  }

  _ray(event) {
    return aimRay(this.raycaster, this.camera, event, this.canvas.getBoundingClientRect());
  }

  // The nearest body hit { body, point, distance } and collider hit { entry, point, distance }.
  _hits(event) {
    this._ray(event);
    const nearest = nearestBodyHit(this.raycaster, this.getBodies());
    const body = nearest ? { body: nearest.item.body, point: nearest.hit.point, distance: nearest.hit.distance } : null;
    const c = this.raycaster.intersectObjects(this.colliders.meshes, false)[0];
    const collider = c ? { entry: c.object.userData.collider, point: c.point, distance: c.distance } : null;
    return { body, collider };
  }

  _down(event) {
    if (this.dragging || !event.isPrimary) return;
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    const { body, collider } = this._hits(event);
    if ((event.shiftKey || event.altKey) && body) {
      event.stopImmediatePropagation(); // not a grab, not an orbit
      try {
        const vertex = body.body.nearestVertex(body.point.x, body.point.y, body.point.z);
        this.lastPin = { vertex, pinned: this.pins.toggle(body.body, vertex) };
      } catch (error) {
        this.onError(error);
      }
      return;
    }
    if (this.brush?.active && body && (!collider || body.distance < collider.distance)) {
      event.stopImmediatePropagation(); // paint, not grab or orbit
      this.painting = body.body;
      this.pointerId = event.pointerId;
      this.controls.enabled = false;
      this.canvas.setPointerCapture(event.pointerId);
      this._paint(body.point);
      return;
    }
    if (!collider || (body && body.distance < collider.distance)) return; // the grabber's (or the orbit's)
    event.stopImmediatePropagation();
    this.entry = collider.entry;
    this.sim.heldCollider = this.entry;
    this.offset.fromArray(this.entry.position).sub(collider.point);
    this.target.fromArray(this.entry.position);
    // Obstacles slide on the horizontal plane through the press (what a person expects of a thing
    // standing on the ground); seen from nearly level, where that plane is ill-conditioned, on the
    // camera-facing plane instead.
    const look = this.camera.getWorldDirection(new THREE.Vector3());
    const normal = Math.abs(look.y) > 0.25 ? new THREE.Vector3(0, 1, 0) : look;
    this.plane.setFromNormalAndCoplanarPoint(normal, collider.point);
    this.pointerId = event.pointerId;
    this.controls.enabled = false;
    this.canvas.setPointerCapture(event.pointerId);
    this.canvas.style.cursor = 'grabbing';
  }

  _paint(point) {
    try {
      this.lastPaint = { count: this.brush.paint(this.painting, point), mode: this.brush.mode };
    } catch (error) {
      this.onError(error);
    }
  }

  _move(event) {
    if (!this.dragging || event.pointerId !== this.pointerId) return;
    if (this.painting) {
      // Paints along the drag wherever it crosses the body it started on.
      this._ray(event);
      const hit = nearestBodyHit(this.raycaster, this.getBodies().filter((item) => item.body === this.painting));
      if (hit) this._paint(hit.hit.point);
      return;
    }
    const p = this._ray(event).intersectPlane(this.plane, new THREE.Vector3());
    if (!p) return;
    this.target.copy(p.add(this.offset).clampScalar(-MAX_COORDINATE, MAX_COORDINATE));
  }

  _up(event) {
    if (this.dragging && event.pointerId === this.pointerId) this._finish();
  }

  _finish() {
    if (this.pointerId !== null && this.canvas.hasPointerCapture(this.pointerId)) this.canvas.releasePointerCapture(this.pointerId);
    this.pointerId = null;
    this.painting = null;
    if (this.sim.heldCollider === this.entry) this.sim.heldCollider = null;
    this.entry = null;
    this.controls.enabled = true;
    this.canvas.style.cursor = '';
  }

  // Drops a drag without moving anything (the scene was replaced).
  cancel() {
    if (this.dragging) this._finish();
  }

  // Once per frame, before the step: the held obstacle goes to the pointer.
  update() {
    if (!this.dragging || !this.entry) return; // painting moves nothing
    const position = this.target.toArray();
    try {
      this.entry.collider.setPose(position, this.entry.rotation);
      this.entry.position = position;
    } catch (error) {
      this.onError(error);
      this._finish();
    }
  }
}
