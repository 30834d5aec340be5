// The demo's stage: one full-window renderer and its resizing, around the shared scenery
// (scenery.js: sky, lights with soft shadows, the gridded ground) and camera rig (camera_rig.js),
// and the camera keeping a thrown body in view (keepInView).
import * as THREE from 'three';
import { createCameraRig } from './camera_rig.js';
import { createRenderer } from './renderer.js';
import { createScenery } from './scenery.js';

// Keeping a thrown body in view. The orbit target (and the camera with it, so the view direction
// and distance stay as the user left them) eases toward the body's centre of mass once the body,
// moving by itself, leaves the central part of the view, until it is back near the middle. In
// normalized device coordinates (the canvas spans -1..1):
const CHASE_START = 0.7; // |x| or |y| beyond this starts the chase (30 % of the half-width from the edge)
const CHASE_STOP = 0.25; // ...and it ends once both are within this
const CHASE_TIME = 0.25; // s, time constant of the easing: a body at rest is centred within ~1 s
// Only a body that moves starts a chase (m/s of its centre of mass): one the user orbited or panned
// out of view stays out of view (the recentre button brings it back), so the camera never fights
// the user's own camera moves.
const CHASE_MIN_SPEED = 0.3;

// options.lowCost (the ?test mode): no MSAA, pixel ratio 1, small shadow map, no environment map,
// because headless Chromium renders WebGL on the CPU (SwiftShader). recentreButton: an element shown
// while the body's centre is off the canvas; clicking it starts a chase.
export function createStage(container, { lowCost: asked = false, recentreButton = null } = {}) {
  // Cheap settings when asked for, or on a software rasterizer (renderer.js).
  const { renderer, lowCost } = createRenderer({ lowCost: asked });
  renderer.setPixelRatio(lowCost ? 1 : Math.min(window.devicePixelRatio, 2));
  renderer.setSize(window.innerWidth, window.innerHeight);
  container.appendChild(renderer.domElement);
  // For screen readers: what the canvas shows and how to use it. role="img", not "application": the
  // canvas has no keyboard interaction of its own (the panel holds every control).
  renderer.domElement.setAttribute('role', 'img');
  renderer.domElement.setAttribute(
    'aria-label',
    'Live 3D view of a soft jelly body on a gridded floor. Drag the body with the mouse or a finger to grab it and ' +
      'flick to throw it; drag elsewhere to orbit the camera, scroll or pinch to zoom. The control panel changes ' +
      'the shape, its stiffness and the world, and can squash or reset the body.',
  );

  const { scene, follow } = createScenery(renderer, { lowCost });

  const { camera, controls, fit, frame } = createCameraRig(renderer.domElement);

  function resize() {
    const width = window.innerWidth;
    const height = window.innerHeight;
    fit(width / height);
    if (!lowCost) renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    renderer.setSize(width, height);
  }
  window.addEventListener('resize', resize);
  resize();

  // Chase state. The user steering the camera (an orbit, pan or zoom in progress) ends a chase.
  let chasing = false;
  let userSteering = false;
  controls.addEventListener('start', () => {
    userSteering = true;
    chasing = false;
  });
  controls.addEventListener('end', () => (userSteering = false));
  const lastCenter = new THREE.Vector3(NaN, NaN, NaN);
  const centre = new THREE.Vector3();
  const ndc = new THREE.Vector3();
  const shift = new THREE.Vector3();
  recentreButton?.addEventListener('click', () => (chasing = true));

  // Once per frame, before render(). center: the body's centre of mass (m); dt: simulated seconds
  // since the last call (0 while paused); holding: the user is dragging the body (the camera then
  // stays put, as the grab plane faces it). Returns whether the centre projects inside the canvas.
  function keepInView(center, { dt, holding = false }) {
    centre.set(center[0], center[1], center[2]);
    const speed = dt > 0 && Number.isFinite(lastCenter.x) ? centre.distanceTo(lastCenter) / dt : 0; // m/s
    lastCenter.copy(centre);
    ndc.copy(centre).project(camera);
    const behind = ndc.z > 1; // projected through the camera: behind it
    const reach = behind ? Infinity : Math.max(Math.abs(ndc.x), Math.abs(ndc.y));
    if (holding || userSteering) chasing = false;
    else if (!chasing && reach > CHASE_START && speed > CHASE_MIN_SPEED) chasing = true;
    else if (chasing && reach < CHASE_STOP) chasing = false;
    if (chasing && dt > 0) {
      // The target eases toward the centre of mass, the camera moving with it (a pan, not a turn).
      shift.subVectors(centre, controls.target).multiplyScalar(1 - Math.exp(-dt / CHASE_TIME));
      controls.target.add(shift);
      camera.position.add(shift);
    }
    const inside = reach < 1;
    if (recentreButton) recentreButton.hidden = inside || chasing;
    return inside;
  }

  return {
    renderer,
    scene,
    camera,
    controls,
    canvas: renderer.domElement,

    follow, // centres the key light's shadow on the body
    keepInView,
    frame, // frame(sphere | null): look at a scene's bounds (sceneBounds), or the starting view again
    get chasing() {
      return chasing;
    },

    render() {
      controls.update();
      renderer.render(scene, camera);
    },
  };
}
