// Pointer grabbing (mouse, pen and touch through pointer events): press on the body to hold its
// nearest particle, drag it on a camera-facing plane, release to throw it with the pointer's
// recent velocity. Orbit controls are switched off while a particle is held.
//
// By default the whole canvas shows one body (the demo). A page that draws several views into one
// canvas (the comparison page) passes pick(event): which part of the canvas is under the pointer,
// what to raycast there and which body (or body-like group, see compare/fair_grab.js) to drive.
//
// The release velocity is measured on the simulation clock (one sample per frame, 1/60 s apart),
// not on wall time: at 60 fps the two agree, and on a slow machine the body keeps the speed it
// was actually being moved at in the simulation. It also keeps a run deterministic per input.
import * as THREE from 'three';

const VELOCITY_WINDOW = 0.08; // s of simulated time (~5 frames) averaged into the release velocity
const MAX_RELEASE_SPEED = 100; // m/s per component; the C API allows 1000, this keeps throws sane
const MAX_COORDINATE = 1000; // m; a ray almost parallel to the drag plane meets it very far away

// Points the raycaster through the pointer's position in `rect` (the client rectangle the camera
// projects into); returns its ray.
export function aimRay(raycaster, camera, event, rect) {
  const ndc = new THREE.Vector2(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
  raycaster.setFromCamera(ndc, camera);
  return raycaster.ray;
}

export class Grabber {
  // getBody() returns the current body, getTime() the simulated time (s); onError(error) shows a
  // failed C call. pick(event) returns { rect, object, body } for the view under the pointer (rect:
  // the client rectangle the camera projects into; object: what to raycast), or null for none.
  constructor({ canvas, camera, controls, scene, bodyMesh, getBody, getTime, onError, pick }) {
    this.canvas = canvas;
    this.camera = camera;
    this.controls = controls;
    this.getTime = getTime;
    this.onError = onError;
    this.pick = pick ?? ((_event) => ({ rect: canvas.getBoundingClientRect(), object: bodyMesh.mesh, body: getBody() }));

    this.raycaster = new THREE.Raycaster();
    this.plane = new THREE.Plane();
    this.offset = new THREE.Vector3(); // particle minus hit point, so the particle does not jump
    this.target = new THREE.Vector3(); // where the particle is driven, m
    this.pending = false; // target changed since the last frame
    this.samples = []; // { t: simulated s, p: m } targets, one per frame, for the release velocity
    this.pointerId = null;
    this.vertex = -1;
    this.body = null; // what the held particle belongs to, from the press until the release
    this.rect = null; // the client rectangle of the view the press was in
    this.orbiting = false;

    // A small bead on the held particle shows what is being pulled.
    this.bead = new THREE.Mesh(
      new THREE.SphereGeometry(0.035, 16, 12),
      new THREE.MeshStandardMaterial({ color: 0xffffff, roughness: 0.3, emissive: 0x553322 }),
    );
    this.bead.visible = false;
    scene.add(this.bead);

    controls.addEventListener('start', () => (this.orbiting = true));
    controls.addEventListener('end', () => (this.orbiting = false));
    // Capture phase: runs before OrbitControls' own pointerdown on the canvas, so disabling the
    // controls here keeps them from starting an orbit on the same press.
    this._listeners = [
      ['pointerdown', (e) => this._down(e), { capture: true }],
      ['pointermove', (e) => this._move(e)],
      ['pointerup', (e) => this._up(e)],
      ['pointercancel', (e) => this._up(e)],
    ];
    for (const [type, fn, options] of this._listeners) canvas.addEventListener(type, fn, options);
  }

  // Stops listening to the canvas and removes the bead (a <soft-body> removed from the page).
  dispose() {
    this.cancel();
    for (const [type, fn, options] of this._listeners) this.canvas.removeEventListener(type, fn, options);
    this.bead.removeFromParent();
    this.bead.geometry.dispose();
    this.bead.material.dispose();
  }

  get dragging() {
    return this.pointerId !== null;
  }

  _ray(event, rect) {
    return aimRay(this.raycaster, this.camera, event, rect);
  }

  // { view, hit } for a pointer over a body, else null.
  _hit(event) {
    const view = this.pick(event);
    if (!view) return null;
    this._ray(event, view.rect);
    const hit = this.raycaster.intersectObject(view.object, false)[0];
    return hit ? { view, hit } : null;
  }

  _down(event) {
    if (this.dragging || this.orbiting || !event.isPrimary) return;
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    const found = this._hit(event);
    if (!found) return; // empty space: the press belongs to the orbit controls
    const { view, hit } = found;
    const body = view.body;
    try {
      const vertex = body.nearestVertex(hit.point.x, hit.point.y, hit.point.z);
      const p = body.positions;
      const particle = new THREE.Vector3(p[3 * vertex], p[3 * vertex + 1], p[3 * vertex + 2]);
      body.grabBegin(vertex, particle.x, particle.y, particle.z);
      this.vertex = vertex;
      this.offset.subVectors(particle, hit.point);
      this.target.copy(particle);
    } catch (error) {
      this.onError(error);
      return;
    }
    const normal = this.camera.getWorldDirection(new THREE.Vector3());
    this.plane.setFromNormalAndCoplanarPoint(normal, hit.point);
    this.pointerId = event.pointerId;
    this.body = body;
    this.rect = view.rect;
    this.samples = [];
    this._sample(this.target);
    this.controls.enabled = false;
    this.canvas.setPointerCapture(event.pointerId);
    this.canvas.style.cursor = 'grabbing';
    this.bead.visible = true;
  }

  // The pointer's point on the drag plane, shifted by the grab offset; null if the ray misses.
  _targetFor(event) {
    const onPlane = this._ray(event, this.rect).intersectPlane(this.plane, new THREE.Vector3());
    if (!onPlane) return null;
    onPlane.add(this.offset);
    onPlane.clampScalar(-MAX_COORDINATE, MAX_COORDINATE);
    onPlane.y = Math.max(onPlane.y, 0); // never pull the particle into the ground
    return onPlane;
  }

  _move(event) {
    if (!this.dragging) {
      if (event.pointerType === 'mouse' && !this.orbiting) this.canvas.style.cursor = this._hit(event) ? 'grab' : '';
      return;
    }
    if (event.pointerId !== this.pointerId) return;
    const target = this._targetFor(event);
    if (!target) return;
    this.target.copy(target);
    this.pending = true;
  }

  // Records where the particle is being driven at the current simulated time; while paused the
  // time stands still and the newest sample is replaced.
  _sample(p) {
    const t = this.getTime();
    const samples = this.samples;
    if (samples.length && samples[samples.length - 1].t >= t) samples.pop();
    samples.push({ t, p: p.clone() });
    // Keep one sample from before the window, for interpolating the position at its start.
    while (samples.length > 2 && samples[1].t <= t - VELOCITY_WINDOW) samples.shift();
  }

  // Average velocity over the last VELOCITY_WINDOW seconds before t: the displacement since the
  // pointer's (interpolated) position at t - window. Sparse samples (a busy page coalesces
  // pointer moves) still give the average over the window; a pointer that rested gives 0.
  _releaseVelocity(t) {
    const samples = this.samples;
    const last = samples[samples.length - 1];
    const from = t - VELOCITY_WINDOW;
    if (last.t <= from) return new THREE.Vector3(); // no sample inside the window: it rested
    let ref = samples[0];
    let refTime = ref.t;
    for (let i = 0; i + 1 < samples.length; i++) {
      const a = samples[i];
      const b = samples[i + 1];
      if (a.t <= from && from < b.t) {
        ref = { p: a.p.clone().lerp(b.p, (from - a.t) / (b.t - a.t)) };
        refTime = from;
        break;
      }
    }
    const span = t - refTime;
    if (span <= 1e-3) return new THREE.Vector3();
    return new THREE.Vector3()
      .subVectors(last.p, ref.p)
      .divideScalar(span)
      .clampScalar(-MAX_RELEASE_SPEED, MAX_RELEASE_SPEED);
  }

  _up(event) {
    if (!this.dragging || event.pointerId !== this.pointerId) return;
    let v = new THREE.Vector3(); // a cancelled pointer (e.g. a system gesture) just lets go
    if (event.type === 'pointerup') {
      const target = this._targetFor(event) ?? this.target;
      this._sample(target);
      v = this._releaseVelocity(this.getTime());
    }
    try {
      this.body.grabEnd(v.x, v.y, v.z);
    } catch (error) {
      this.onError(error);
    }
    this.lastRelease = { velocity: v.toArray(), vertex: this.vertex };
    this._finish();
  }

  _finish() {
    if (this.pointerId !== null && this.canvas.hasPointerCapture(this.pointerId)) {
      this.canvas.releasePointerCapture(this.pointerId);
    }
    this.pointerId = null;
    this.vertex = -1;
    this.body = null;
    this.rect = null;
    this.pending = false;
    this.samples = [];
    this.controls.enabled = true;
    this.canvas.style.cursor = '';
    this.bead.visible = false;
  }

  // Drops a grab without telling the body: used when the body is replaced or reset (a reset
  // already clears the grab on the C side).
  cancel() {
    if (this.dragging) this._finish();
  }

  // Once per frame, before the step: hand the latest pointer target to the solver, which moves
  // the particle there along a straight path over the substeps.
  update() {
    if (!this.dragging) return;
    this._sample(this.target);
    if (!this.pending) return;
    this.pending = false;
    try {
      this.body.grabMove(this.target.x, this.target.y, this.target.z);
    } catch (error) {
      this.onError(error);
      this._finish();
    }
  }

  // After the step: keep the bead on the held particle.
  updateBead() {
    if (!this.dragging) return;
    const p = this.body.positions;
    this.bead.position.set(p[3 * this.vertex], p[3 * this.vertex + 1], p[3 * this.vertex + 2]);
  }
}
