// The camera and its orbit controls, shared by the demo and the comparison page: a perspective
// camera looking at the resting body, orbiting with damping, never below the ground.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const TARGET = [0, 0.55, 0]; // m: the centre of a 1 m body resting on the ground
const HALF_HORIZONTAL_VIEW = THREE.MathUtils.degToRad(20);

// element: the canvas that receives the orbit drags.
export function createCameraRig(element, { target = TARGET, position = [2.9, 2.1, 3.6] } = {}) {
  const camera = new THREE.PerspectiveCamera(38, 1, 0.05, 100);
  camera.position.set(...position);

  const controls = new OrbitControls(camera, element);
  controls.target.set(...target);
  controls.enableDamping = true;
  controls.dampingFactor = 0.08;
  controls.minDistance = 1.5;
  controls.maxDistance = 15;
  controls.maxPolarAngle = Math.PI / 2 - 0.04; // never below the ground
  controls.update();

  const home = { target: new THREE.Vector3(...target), position: new THREE.Vector3(...position) };
  return {
    camera,
    controls,
    // Looks at a box ({ center, halfExtents }, m) from the starting view's direction, far enough that
    // its height fits the vertical field of view and its width the horizontal one, with a margin,
    // never closer than the starting view; with no box, back to the starting view.
    frame(box = null) {
      if (!box) {
        controls.target.copy(home.target);
        camera.position.copy(home.position);
      } else {
        const direction = home.position.clone().sub(home.target).normalize();
        const vertical = Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2);
        const [hx, hy, hz] = box.halfExtents;
        const needed = 1.15 * Math.max(hy / vertical, Math.max(hx, hz) / (vertical * camera.aspect));
        const distance = Math.min(controls.maxDistance, Math.max(home.position.distanceTo(home.target), needed));
        controls.target.set(...box.center);
        camera.position.copy(controls.target).addScaledVector(direction, distance);
      }
      controls.update();
    },
    // Sets the aspect ratio, keeping roughly 40 degrees of horizontal view on portrait views so
    // the body stays in frame.
    fit(aspect) {
      if (camera.aspect === aspect) return;
      camera.aspect = aspect;
      const fov = 2 * Math.atan(Math.tan(HALF_HORIZONTAL_VIEW) / aspect);
      camera.fov = Math.min(75, Math.max(38, THREE.MathUtils.radToDeg(fov)));
      camera.updateProjectionMatrix();
    },
  };
}
