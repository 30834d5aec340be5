// The body's surface as a Three.js mesh drawn straight from wasm memory, re-uploaded each frame
// without a copy. Two cases:
// - a body with a visual (an imported or sample surface skinned to its tets): positions, normals
//   and triangles are the bridge's live views of the skinned surface, all zero-copy;
// - cloth: positions, normals (kept by the C side) and triangles are the bridge's live views, all
//   zero-copy; drawn double-sided, since a sheet shows both faces;
// - any other body: positions wrap body.positions, the surface triangles are copied once (they
//   never change) and normals are recomputed each frame, weighted by angle (surface_normals.js).
// `showTets` swaps the surface for an exploded view of the tets (tet_view.js); the surface stays
// in place, hidden, as the target the grabber raycasts.
import * as THREE from 'three';
import { angleWeightedNormals } from './surface_normals.js';
import { TetView } from './tet_view.js';

export const BODY_COLOR = 0xff5a3c; // coral: reads well against the cool grey ground

function dynamic(array, itemSize) {
  const attribute = new THREE.BufferAttribute(array, itemSize);
  attribute.setUsage(THREE.DynamicDrawUsage); // rewritten every frame
  return attribute;
}

// The bodies' look (also gpu_stage.js's, for bodies drawn from WebGPU buffers).
export function bodyMaterial(color = BODY_COLOR) {
  return new THREE.MeshPhysicalMaterial({
    color,
    roughness: 0.42,
    metalness: 0,
    clearcoat: 0.7, // a wet, jelly-like gloss over the diffuse colour
    clearcoatRoughness: 0.25,
    sheen: 0.4,
    sheenColor: new THREE.Color(0xffc2a8),
  });
}

export class BodyMesh {
  // options.color: the body's colour (the comparison page gives each view its own).
  constructor(scene, { color = BODY_COLOR } = {}) {
    this.scene = scene;
    this.color = color;
    this.material = bodyMaterial(color);
    this.mesh = new THREE.Mesh(new THREE.BufferGeometry(), this.material);
    this.mesh.castShadow = true;
    this.mesh.receiveShadow = true;
    this.body = null;
    this.skinned = false; // drawing the body's visual surface rather than its tet surface
    this.tetView = null; // made on first use of showTets
    this._views = null; // the wasm views the skinned geometry wraps, to notice memory growth
    scene.add(this.mesh);
  }

  // Points the mesh at a (new) body. Without a visual, vertices inside the body are in the buffer
  // too; the surface triangles simply never reference them.
  bind(body) {
    const old = this.mesh.geometry;
    const geometry = new THREE.BufferGeometry();
    this.skinned = body.hasVisual;
    this.cloth = !this.skinned && body.isCloth;
    this.material.side = this.cloth ? THREE.DoubleSide : THREE.FrontSide;
    this.material.needsUpdate = true;
    if (this.cloth) {
      this._views = { positions: body.positions, normals: body.normals, triangles: body.triangles };
      geometry.setIndex(new THREE.BufferAttribute(this._views.triangles, 1));
      geometry.setAttribute('position', dynamic(this._views.positions, 3));
      geometry.setAttribute('normal', dynamic(this._views.normals, 3));
    } else if (this.skinned) {
      this._views = { positions: body.visualPositions, normals: body.visualNormals, triangles: body.visualTriangles };
      geometry.setIndex(new THREE.BufferAttribute(this._views.triangles, 1));
      geometry.setAttribute('position', dynamic(this._views.positions, 3));
      geometry.setAttribute('normal', dynamic(this._views.normals, 3));
    } else {
      this._views = null;
      geometry.setIndex(new THREE.BufferAttribute(body.triangles.slice(), 1));
      geometry.setAttribute('position', dynamic(body.positions, 3));
      geometry.setAttribute('normal', dynamic(new Float32Array(body.positions.length), 3));
    }
    this.mesh.geometry = geometry;
    old.dispose();
    this.body = body;
    this.tetView?.bind(body);
    this.update();
  }

  // After each step: rebind if wasm memory grew (the bridge then hands out new views), flag the
  // upload, and refresh normals (unless the C side skins them) and bounds (raycasting and culling
  // read the bounds).
  update() {
    const geometry = this.mesh.geometry;
    const body = this.body;
    if (this.cloth) {
      const v = this._views;
      if (body.positions !== v.positions || body.normals !== v.normals || body.triangles !== v.triangles) {
        this.bind(body); // memory grew: new views
        return;
      }
      geometry.attributes.normal.needsUpdate = true;
    } else if (this.skinned) {
      const v = this._views;
      if (body.visualPositions !== v.positions || body.visualNormals !== v.normals || body.visualTriangles !== v.triangles) {
        this.bind(body); // a fresh geometry on the new views; the old one's GPU buffers are freed
        return;
      }
      geometry.attributes.normal.needsUpdate = true;
    } else {
      const positions = body.positions;
      if (geometry.attributes.position.array !== positions) geometry.setAttribute('position', dynamic(positions, 3));
      angleWeightedNormals(positions, geometry.index.array, geometry.attributes.normal.array);
      geometry.attributes.normal.needsUpdate = true;
    }
    geometry.attributes.position.needsUpdate = true;
    geometry.computeBoundingSphere();
    geometry.computeBoundingBox();
    this.tetView?.update();
  }

  // What to show or hide as a whole (the strand mesh has the same property).
  get object() {
    return this.mesh;
  }

  set showTets(on) {
    if (on && !this.tetView) {
      this.tetView = new TetView(this.scene, { color: this.color });
      this.tetView.wireframe = this.material.wireframe;
      if (this.body) this.tetView.bind(this.body);
    }
    if (this.tetView) this.tetView.visible = on;
    this.mesh.visible = !on;
  }
  get showTets() {
    return this.tetView?.visible ?? false;
  }

  // Removes the mesh from the scene and frees its GPU buffers.
  dispose() {
    this.scene.remove(this.mesh);
    this.mesh.geometry.dispose();
    this.material.dispose();
    this.tetView?.dispose();
    this.body = null;
  }

  set wireframe(on) {
    this.material.wireframe = on;
    if (this.tetView) this.tetView.wireframe = on;
  }
  get wireframe() {
    return this.material.wireframe;
  }
}
