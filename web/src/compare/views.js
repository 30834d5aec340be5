// All views in ONE WebGL canvas: the shared scenery is rendered once per view into that view's
// rectangle (viewport + scissor), showing only that view's body, with one camera and one set of
// orbit controls, so orbiting moves every view together.
//
// Why one renderer rather than a canvas per view: one WebGL context holds the scenery, shaders and
// shadow map once (browsers also cap live contexts at about 16), there is no per-canvas camera
// syncing to get wrong, and the layout stays plain DOM: each view's cell is a grid element laid over
// the canvas, and its rectangle is read back when rendering. The shadow map is redrawn per view
// (each has its own body), which is what a canvas per view would cost too.
import * as THREE from 'three';
import { BodyMesh } from '../body_mesh.js';
import { createCameraRig } from '../camera_rig.js';
import { createRenderer } from '../renderer.js';
import { createScenery } from '../scenery.js';
import { StrandMesh } from '../strand_mesh.js';

export class MultiView {
  // container: the element the canvas fills (the cells are laid over it by CSS).
  constructor(container, { lowCost: asked = false } = {}) {
    // Cheap settings when asked for, or on a software rasterizer (renderer.js).
    const { renderer, lowCost } = createRenderer({ lowCost: asked });
    this.lowCost = lowCost;
    this.renderer = renderer;
    renderer.setPixelRatio(lowCost ? 1 : Math.min(window.devicePixelRatio, 2));
    renderer.setScissorTest(true);
    this.canvas = renderer.domElement;
    this.canvas.className = 'views-canvas';
    // For screen readers (role="img": the canvas has no keyboard interaction of its own).
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute(
      'aria-label',
      'The same soft body under different solvers, one view per solver side by side, each labelled with its solver ' +
        'and live numbers. Drag a body to grab the same particle in every view and flick to throw; drag elsewhere ' +
        'to orbit all views together, scroll or pinch to zoom.',
    );
    container.prepend(this.canvas);
    const scenery = createScenery(renderer, { lowCost });
    this.scene = scenery.scene;
    this.follow = scenery.follow;
    this.rig = createCameraRig(this.canvas);
    this.camera = this.rig.camera;
    this.controls = this.rig.controls;
    this.views = []; // [{ element, mesh }]
    this.container = container;
    new ResizeObserver(() => this._resize()).observe(container);
    this._resize();
  }

  _resize() {
    if (!this.lowCost) this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.renderer.setSize(this.container.clientWidth, this.container.clientHeight, false);
  }

  // One entry per view: { element (its cell), body, color }. Replaces the previous meshes.
  setViews(list) {
    for (const view of this.views) view.mesh.dispose();
    this.views = list.map(({ element, body, color }) => {
      const mesh = body.triangleCount > 0 ? new BodyMesh(this.scene, { color }) : new StrandMesh(this.scene, { color });
      mesh.bind(body);
      return { element, mesh };
    });
  }

  // What the scene draws besides the bodies: a clamp (the cantilever's dark wall at its fixed end, the
  // sheet's rail along its held edge),
  // beam theory's position of its free end (a red line across it, from the lane's E and gravity)
  // and the free end's static equilibrium on this very mesh (a green line: where every solver
  // should settle; the gap to the red one is the mesh's, not a solver's); nothing for other scenes.
  // Called after every change (material, E or gravity move the lines).
  setGuides(scene, lane) {
    if (!this.guides) {
      const clamp = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), new THREE.MeshStandardMaterial({ color: 0x3a4350 }));
      const line = (color, name) => {
        const l = new THREE.Line(
          new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(-0.25, 0, 0), new THREE.Vector3(0.25, 0, 0), new THREE.Vector3(0.25, 0, 0), new THREE.Vector3(0.25, 0, 0.12)]),
          new THREE.LineBasicMaterial({ color }),
        );
        l.name = name;
        return l;
      };
      const beam = line(0xd62828, 'beam-theory');
      const settled = line(0x2a9d4b, 'static-answer');
      this.guides = { clamp, beam, settled };
      this.scene.add(clamp, beam, settled);
    }
    const { clamp, beam, settled } = this.guides;
    clamp.visible = Boolean(scene?.clampBox);
    if (scene?.clampBox) {  // placed and sized by the scene (m)
      clamp.position.set(...scene.clampBox.center);
      clamp.scale.set(...scene.clampBox.size);
    }
    const place = (object, sag) => {
      object.visible = sag !== null;
      if (sag !== null) object.position.set(scene.beamTip[0] - 0.25, scene.beamTip[1] - sag, scene.beamTip[2]);
    };
    place(beam, lane?.beamSag ?? null);
    place(settled, scene?.beamTip ? (lane?.staticSag() ?? null) : null);
  }

  // Points the camera at a scene's subject.
  lookAt(target) {
    this.controls.target.set(...target);
    this.controls.update();
  }

  // The view under a client point: { index, rect (client rectangle), object (to raycast) } or null.
  viewAt(clientX, clientY) {
    for (let i = 0; i < this.views.length; i++) {
      const rect = this.views[i].element.getBoundingClientRect();
      if (clientX >= rect.left && clientX < rect.right && clientY >= rect.top && clientY < rect.bottom) {
        return { index: i, rect, object: this.views[i].mesh.mesh };
      }
    }
    return null;
  }

  // Client coordinates of a world point in view i (for the test hook).
  project(index, [x, y, z]) {
    const rect = this.views[index].element.getBoundingClientRect();
    this.rig.fit(rect.width / rect.height);
    const ndc = new THREE.Vector3(x, y, z).project(this.camera);
    return { x: rect.left + ((ndc.x + 1) / 2) * rect.width, y: rect.top + ((1 - ndc.y) / 2) * rect.height };
  }

  // After the step: uploads every body's positions, then draws each view into its cell. lanes: the
  // comparison's lanes, in view order (the key light follows each one's centre of mass); bead:
  // { mesh, vertex } while a particle is held (shown on that particle in every view), else null.
  render(lanes, bead) {
    this.controls.update();
    const canvasRect = this.canvas.getBoundingClientRect();
    const height = canvasRect.height;
    for (const view of this.views) view.mesh.update();
    for (const view of this.views) view.mesh.object.visible = false;
    for (let i = 0; i < this.views.length; i++) {
      const { element, mesh } = this.views[i];
      const r = element.getBoundingClientRect();
      const x = r.left - canvasRect.left;
      const y = height - (r.bottom - canvasRect.top); // WebGL counts rows from the bottom
      if (r.width <= 0 || r.height <= 0) continue;
      this.rig.fit(r.width / r.height);
      mesh.object.visible = true;
      this.follow(lanes[i].stats.center);
      if (bead) {
        const p = lanes[i].body.positions;
        bead.mesh.position.set(p[3 * bead.vertex], p[3 * bead.vertex + 1], p[3 * bead.vertex + 2]);
      }
      this.renderer.setViewport(x, y, r.width, r.height);
      this.renderer.setScissor(x, y, r.width, r.height);
      this.renderer.render(this.scene, this.camera);
      mesh.object.visible = false;
    }
    for (const view of this.views) view.mesh.object.visible = true; // raycasting ignores visibility anyway
  }
}
