// Keeps a figure's body in view (camera-follow, on by default): a body thrown out of the middle of
// the view pulls the camera after it, and the camera glides back as the body returns. Only a
// translation of camera and orbit target together, so the reader's angle and zoom are kept; the
// part of it the follow added is remembered, and what the reader pans or orbits is the new home.
//
// Two zones around the view's centre, measured at the body centre's own depth: within SOFT of the
// half view nothing moves; beyond it the camera eases toward keeping the centre at the zone's edge
// (time constant TAU), and however fast the body goes the camera moves at once as far as needed to
// keep the centre within HARD of the half view, so the centre never leaves the frame.
import * as THREE from 'three';

const SOFT = 0.45; // fraction of the half view the centre may wander in untouched
const HARD = 0.85; // fraction of the half view the centre is always kept within
const TAU = 0.25; // s: how quickly the camera eases after the body (and back)
const MAX_OFFSET = 30; // m: a body falling with no ground is followed this far, then let go
const NEAR = 0.3; // m: a centre closer to the camera's plane than this is left alone

const right = new THREE.Vector3();
const up = new THREE.Vector3();
const back = new THREE.Vector3();
const home = new THREE.Vector3();
const rel = new THREE.Vector3();
const next = new THREE.Vector3();

// Where one coordinate of the offset must lie so that x (the centre's coordinate relative to the
// camera at home) is within `half` of it: the nearest point of [x - half, x + half] to `value`.
const clampInto = (value, x, half) => Math.min(x + half, Math.max(x - half, value));

export class CameraFollow {
  constructor(camera, controls) {
    this.camera = camera;
    this.controls = controls;
    this.offset = new THREE.Vector3(); // m: what the follow has moved the camera and target by
  }

  // The camera was placed anew (a build, camera="..."): that placement is home.
  reset() {
    this.offset.set(0, 0, 0);
  }

  // center: the body's centre (m), or null (nothing to follow: the offset eases back to 0); dt: s
  // since the last call (0: only the hard zone applies). The camera's aspect and fov must be those
  // of the narrowest view. Returns whether the camera moved.
  update(center, dt) {
    const camera = this.camera;
    camera.updateMatrixWorld();
    right.setFromMatrixColumn(camera.matrixWorld, 0);
    up.setFromMatrixColumn(camera.matrixWorld, 1);
    back.setFromMatrixColumn(camera.matrixWorld, 2);
    const ease = 1 - Math.exp(-Math.min(dt, 0.1) / TAU);
    next.copy(this.offset);
    if (center) {
      home.copy(camera.position).sub(this.offset); // the camera as the reader left it
      rel.set(center[0], center[1], center[2]).sub(home);
      const depth = -rel.dot(back);
      if (depth > NEAR && Number.isFinite(depth)) {
        const halfY = depth * Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2);
        const halfX = halfY * camera.aspect;
        const x = rel.dot(right);
        const y = rel.dot(up);
        const ox = this.offset.dot(right);
        const oy = this.offset.dot(up);
        const ob = this.offset.dot(back);
        // Eased toward the soft zone, then pushed into the hard one; no offset along the view.
        let nx = ox + (clampInto(0, x, SOFT * halfX) - ox) * ease;
        let ny = oy + (clampInto(0, y, SOFT * halfY) - oy) * ease;
        nx = clampInto(nx, x, HARD * halfX);
        ny = clampInto(ny, y, HARD * halfY);
        const nb = ob * (1 - ease);
        next.set(0, 0, 0).addScaledVector(right, nx).addScaledVector(up, ny).addScaledVector(back, nb);
      }
    } else {
      next.multiplyScalar(1 - ease);
    }
    if (next.length() > MAX_OFFSET) next.setLength(MAX_OFFSET);
    const delta = next.sub(this.offset);
    if (delta.lengthSq() < 1e-12) return false;
    this.offset.add(delta);
    camera.position.add(delta);
    this.controls.target.add(delta);
    camera.updateMatrixWorld();
    return true;
  }
}
