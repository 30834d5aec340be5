// Built-in surfaces for the shape menu and the tests, normalized like imported files
// (placement.js). Three.js's generators keep their UV seams and pole vertices on purpose: the
// duplicated vertices along them are what the tetrahedralizer's welding must close.
import * as THREE from 'three';
import { normalizeSurface } from './mesh_files.js';

export const SAMPLE_NAMES = Object.freeze(['bunny', 'torus', 'sphere', 'box']);

function fromGeometry(geometry) {
  const surface = {
    positions: Float32Array.from(geometry.attributes.position.array),
    triangles: Uint32Array.from(geometry.index.array),
  };
  geometry.dispose();
  return surface;
}

const BUILDERS = {
  // The Stanford bunny (public domain, npm "bunny": 1,839 vertices, 3,674 triangles; y is up).
  // Loaded on demand: its 110 kB of source stay out of the page until asked for.
  async bunny() {
    const { default: bunny } = await import('bunny');
    return { positions: Float32Array.from(bunny.positions.flat()), triangles: Uint32Array.from(bunny.cells.flat()) };
  },
  // Lying flat like a ring on a table (Three's torus stands in the xy plane and would roll away).
  torus: () => fromGeometry(new THREE.TorusGeometry(0.35, 0.15, 24, 48).rotateX(-Math.PI / 2)),
  sphere: () => fromGeometry(new THREE.SphereGeometry(0.5, 32, 16)),
  // 24 vertices: each face has its own four corners.
  box: () => fromGeometry(new THREE.BoxGeometry(1, 1, 1)),
};

// Returns { positions: Float32Array (m), triangles: Uint32Array }, placed like an imported mesh.
export async function sampleSurface(name) {
  const build = BUILDERS[name];
  if (!build) throw new Error(`unknown sample "${name}" (samples: ${SAMPLE_NAMES.join(', ')})`);
  return normalizeSurface(await build());
}
