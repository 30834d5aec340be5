// The demo's stage: one full-window renderer and its resizing, around the shared scenery
// (scenery.js: sky, lights with soft shadows, the gridded ground) and camera rig (camera_rig.js).
import * as THREE from 'three';
import { createCameraRig } from './camera_rig.js';
import { createScenery } from './scenery.js';

// options.lowCost (the ?test mode): no MSAA, pixel ratio 1, small shadow map, no environment map,
// because headless Chromium renders WebGL on the CPU (SwiftShader).
export function createStage(container, { lowCost = false } = {}) {
  const renderer = new THREE.WebGLRenderer({ antialias: !lowCost, powerPreference: 'high-performance' });
  renderer.setPixelRatio(lowCost ? 1 : Math.min(window.devicePixelRatio, 2));
  renderer.setSize(window.innerWidth, window.innerHeight);
  container.appendChild(renderer.domElement);

  const { scene, follow } = createScenery(renderer, { lowCost });

  const { camera, controls, fit } = createCameraRig(renderer.domElement);

  function resize() {
    const width = window.innerWidth;
    const height = window.innerHeight;
    fit(width / height);
    if (!lowCost) renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    renderer.setSize(width, height);
  }
  window.addEventListener('resize', resize);
  resize();

  return {
    renderer,
    scene,
    camera,
    controls,
    canvas: renderer.domElement,

    follow, // centres the key light's shadow on the body

    render() {
      controls.update();
      renderer.render(scene, camera);
    },
  };
}
