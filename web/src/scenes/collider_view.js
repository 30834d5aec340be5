// Draws a scene's obstacles (sim.colliders) as Three.js meshes that follow their poses. The same
// dimensions and triangles the colliders were made from, so what is seen is what is hit.
import * as THREE from 'three';

export const COLLIDER_COLOR = 0x7f93a8; // slate: reads as "not soft" beside the coral bodies

function geometryFor(spec) {
  switch (spec.shape) {
    case 'sphere':
      return new THREE.SphereGeometry(spec.radius, 32, 16);
    case 'box':
      return new THREE.BoxGeometry(2 * spec.halfExtents[0], 2 * spec.halfExtents[1], 2 * spec.halfExtents[2]);
    case 'capsule':
      return new THREE.CapsuleGeometry(spec.radius, 2 * spec.halfLength, 8, 24); // axis along y, as the collider's
    case 'mesh': {
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.Float32BufferAttribute(spec.positions, 3));
      g.setIndex(Array.from(spec.triangles));
      g.computeVertexNormals();
      return g;
    }
    case 'plane': {
      const g = new THREE.PlaneGeometry(6, 6);
      g.rotateX(-Math.PI / 2); // the collider's local frame: solid below y = 0
      return g;
    }
    default:
      throw new Error(`cannot draw a "${spec.shape}" collider`);
  }
}

export class ColliderView {
  constructor(scene) {
    this.scene = scene;
    this.material = new THREE.MeshStandardMaterial({ color: COLLIDER_COLOR, roughness: 0.55, metalness: 0.1, side: THREE.DoubleSide });
    this.items = []; // { entry, mesh }
  }

  // Rebuilds the meshes for the simulation's current colliders.
  bind(entries) {
    for (const { mesh } of this.items) {
      this.scene.remove(mesh);
      mesh.geometry.dispose();
    }
    this.items = entries.map((entry) => {
      const mesh = new THREE.Mesh(geometryFor(entry.spec), this.material);
      mesh.castShadow = true;
      mesh.receiveShadow = true;
      mesh.userData.collider = entry; // what the dragger moves when this mesh is picked
      this.scene.add(mesh);
      return { entry, mesh };
    });
    this.update();
  }

  get meshes() {
    return this.items.map((item) => item.mesh);
  }

  // After each step: every mesh at its collider's pose.
  update() {
    for (const { entry, mesh } of this.items) {
      mesh.position.fromArray(entry.position);
      mesh.quaternion.fromArray(entry.rotation);
    }
  }
}
