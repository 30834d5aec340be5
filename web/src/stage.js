// Everything around the body: renderer, camera, lights with soft shadows, the ground with its
// grid, orbit controls and resizing. Physics units are metres with y up, ground at y = 0.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { RoomEnvironment } from 'three/addons/environments/RoomEnvironment.js';

const SKY = 0xe6ebf1; // background and fog: the ground fades into it at the horizon
const GROUND = 0xdfe4ea;
const GRID_LINE = 0x9aa6b4;
const TARGET = new THREE.Vector3(0, 0.55, 0); // the camera looks at the resting body

// The ground with a metre grid (stronger every 5 m) drawn in its fragment shader: anti-aliased,
// lit and shadowed with the ground, fading with distance. Line primitives were not an option:
// long grid lines that cross the camera plane vanished under SwiftShader.
function createGroundMaterial() {
  const material = new THREE.MeshStandardMaterial({ color: GROUND, roughness: 0.95, metalness: 0 });
  material.onBeforeCompile = (shader) => {
    shader.uniforms.gridColor = { value: new THREE.Color(GRID_LINE) };
    shader.vertexShader = shader.vertexShader
      .replace('#include <common>', '#include <common>\nvarying vec3 vGroundPosition;')
      .replace('#include <begin_vertex>', '#include <begin_vertex>\nvGroundPosition = (modelMatrix * vec4(transformed, 1.0)).xyz;');
    shader.fragmentShader = shader.fragmentShader
      .replace(
        '#include <common>',
        `#include <common>
        varying vec3 vGroundPosition;
        uniform vec3 gridColor;
        // 1 on a line of the given spacing (m), 0 off it; about 1.2 px wide at any distance.
        float gridLine(vec2 p, float spacing) {
          vec2 q = p / spacing;
          vec2 d = abs(fract(q - 0.5) - 0.5) / fwidth(q);
          return 1.0 - min(min(d.x, d.y) / 1.2, 1.0);
        }`,
      )
      .replace(
        '#include <color_fragment>',
        `#include <color_fragment>
        float gridFade = 1.0 - smoothstep(6.0, 22.0, distance(vGroundPosition, cameraPosition));
        float grid = max(0.45 * gridLine(vGroundPosition.xz, 1.0), 0.8 * gridLine(vGroundPosition.xz, 5.0));
        diffuseColor.rgb = mix(diffuseColor.rgb, gridColor, grid * gridFade);`,
      );
  };
  return material;
}

// options.lowCost (the ?test mode): no MSAA, pixel ratio 1, small shadow map, no environment map,
// because headless Chromium renders WebGL on the CPU (SwiftShader).
export function createStage(container, { lowCost = false } = {}) {
  const renderer = new THREE.WebGLRenderer({ antialias: !lowCost, powerPreference: 'high-performance' });
  renderer.setPixelRatio(lowCost ? 1 : Math.min(window.devicePixelRatio, 2));
  renderer.setSize(window.innerWidth, window.innerHeight);
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = THREE.PCFShadowMap; // with light.shadow.radius: soft edges
  renderer.toneMapping = THREE.ACESFilmicToneMapping;
  renderer.toneMappingExposure = 1.05;
  container.appendChild(renderer.domElement);

  const scene = new THREE.Scene();
  scene.background = new THREE.Color(SKY);
  scene.fog = new THREE.Fog(SKY, 9, 28);

  if (!lowCost) {
    // A soft studio environment gives the glossy body its highlights; built once.
    const pmrem = new THREE.PMREMGenerator(renderer);
    scene.environment = pmrem.fromScene(new RoomEnvironment(), 0.04).texture;
    scene.environmentIntensity = 0.35;
    pmrem.dispose();
  }

  const camera = new THREE.PerspectiveCamera(38, window.innerWidth / window.innerHeight, 0.05, 100);
  camera.position.set(2.9, 2.1, 3.6);

  scene.add(new THREE.HemisphereLight(0xf4f7ff, 0xb7a898, 1.3));

  // The key light follows the body (see follow()) so its shadow stays sharp wherever it is thrown.
  const sun = new THREE.DirectionalLight(0xffffff, 2.4);
  const sunOffset = new THREE.Vector3(-3, 7, 1.5); // from the left, so the shadow falls in view
  sun.position.copy(sunOffset);
  sun.castShadow = true;
  sun.shadow.mapSize.setScalar(lowCost ? 512 : 2048);
  sun.shadow.radius = lowCost ? 2 : 5;
  sun.shadow.bias = -0.0004;
  sun.shadow.normalBias = 0.02;
  Object.assign(sun.shadow.camera, { left: -3, right: 3, top: 3, bottom: -3, near: 0.5, far: 20 });
  scene.add(sun, sun.target);

  // A weak fill from the camera's side keeps the shaded faces from going muddy.
  const fill = new THREE.DirectionalLight(0xfff1e8, 0.6);
  fill.position.set(3, 2, 4);
  scene.add(fill);

  const ground = new THREE.Mesh(new THREE.PlaneGeometry(200, 200), createGroundMaterial());
  ground.rotation.x = -Math.PI / 2;
  ground.receiveShadow = true;
  scene.add(ground);

  const controls = new OrbitControls(camera, renderer.domElement);
  controls.target.copy(TARGET);
  controls.enableDamping = true;
  controls.dampingFactor = 0.08;
  controls.minDistance = 1.5;
  controls.maxDistance = 15;
  controls.maxPolarAngle = Math.PI / 2 - 0.04; // never below the ground
  controls.update();

  // Keep roughly 40 degrees of horizontal view on portrait screens so the body stays in frame.
  function resize() {
    const width = window.innerWidth;
    const height = window.innerHeight;
    const aspect = width / height;
    camera.aspect = aspect;
    const halfHorizontal = THREE.MathUtils.degToRad(20);
    camera.fov = Math.min(75, Math.max(38, THREE.MathUtils.radToDeg(2 * Math.atan(Math.tan(halfHorizontal) / aspect))));
    camera.updateProjectionMatrix();
    if (!lowCost) renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    renderer.setSize(width, height);
  }
  window.addEventListener('resize', resize);
  resize();

  const lightTarget = new THREE.Vector3();
  return {
    renderer,
    scene,
    camera,
    controls,
    canvas: renderer.domElement,

    // Centres the shadow camera on the body (x, z of its centre of mass).
    follow(center) {
      lightTarget.set(center[0], 0, center[2]);
      sun.target.position.copy(lightTarget);
      sun.position.copy(lightTarget).add(sunOffset);
    },

    render() {
      controls.update();
      renderer.render(scene, camera);
    },
  };
}
