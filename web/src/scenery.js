// The world the bodies sit in, shared by the demo and the comparison page: sky and fog, a studio
// environment, a hemisphere light, a shadow-casting key light that follows a body, a fill light and
// the gridded ground. Physics units are metres with y up, ground at y = 0.
import * as THREE from 'three';
import { RoomEnvironment } from 'three/addons/environments/RoomEnvironment.js';

export const SKY = 0xe6ebf1; // background and fog: the ground fades into it at the horizon
const GROUND = 0xdfe4ea;
const GRID_LINE = 0x9aa6b4;

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

// Builds the scene and configures the renderer's shadows and tone mapping.
// options.lowCost (the ?test mode): small shadow map, no environment map, because headless
// Chromium renders WebGL on the CPU (SwiftShader). environment: false leaves the environment map
// out (it is made with WebGL's PMREM generator; the WebGPU stage has none).
export function createScenery(renderer, { lowCost = false, environment = true } = {}) {
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = THREE.PCFShadowMap; // with light.shadow.radius: soft edges
  renderer.toneMapping = THREE.ACESFilmicToneMapping;
  renderer.toneMappingExposure = 1.05;

  const scene = new THREE.Scene();
  scene.background = new THREE.Color(SKY);
  scene.fog = new THREE.Fog(SKY, 9, 28);

  // A soft studio environment gives the glossy body its highlights; built once, and again after a
  // lost WebGL context comes back (it lives in a render target, whose pixels the loss took).
  function buildEnvironment() {
    if (lowCost || !environment) return;
    const pmrem = new THREE.PMREMGenerator(renderer);
    scene.environment?.dispose();
    scene.environment = pmrem.fromScene(new RoomEnvironment(), 0.04).texture;
    scene.environmentIntensity = 0.35;
    pmrem.dispose();
  }
  buildEnvironment();

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

  return {
    scene,
    buildEnvironment,
    // Centres the shadow camera on a body (x, z of its centre of mass).
    follow(center) {
      sun.target.position.set(center[0], 0, center[2]);
      sun.position.copy(sun.target.position).add(sunOffset);
    },
  };
}
