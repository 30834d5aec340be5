// What one <soft-body> element shows: its views (one per solver) drawn side by side into the
// element's own 2D canvas by the page's shared renderer (page_stage.js), one camera with orbit
// controls for all of them, grabbing (a grab in any view drives the same particle in every view,
// compare/fair_grab.js), and the wheel/touch rules that keep an article scrollable.
import * as THREE from 'three';
import { BodyMesh } from '../body_mesh.js';
import { createCameraRig } from '../camera_rig.js';
import { CameraFollow } from './camera_follow.js';
import { FairGrab } from '../compare/fair_grab.js';
import { ColliderView } from '../scenes/collider_view.js';
import { Grabber, aimRay } from '../grabber.js';
import { nearestBodyHit } from '../scenes/scene_pointer.js';
import { StrandMesh } from '../strand_mesh.js';

// One colour per view (the comparison page's: coral, blue, green, purple).
export const VIEW_COLORS = ['#ff5a3c', '#2f6fdf', '#1f9d55', '#8b4fd8'];
const MIN_VIEW_WIDTH = 150; // CSS px: narrower views wrap into two columns

export class FigureView {
  // canvas: the element's 2D canvas; stage: the page stage; onError(error): shows a failed call.
  constructor({ canvas, stage, lowCost, onError, getTime, onChange }) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.stage = stage;
    this.lowCost = lowCost;
    this.onChange = onChange; // the view needs a redraw (the camera moved)
    // Phones: until a tap activates the figure a touch belongs to the page, so a swipe that starts
    // on a body scrolls the article instead of throwing the body out of the figure. Registered
    // before the orbit controls and the grabber, whose pointerdown it then keeps from them.
    // interactive="false": no pointer reaches them at all.
    canvas.addEventListener('pointerdown', (e) => {
      if (!this.interactive || (!this.active && e.pointerType === 'touch')) e.stopImmediatePropagation();
    }, { capture: true });
    // A pointer over the figure may pick at any moment: GPU bodies are then read back every frame.
    this.hover = false;
    canvas.addEventListener('pointerenter', () => (this.hover = true));
    canvas.addEventListener('pointerleave', () => (this.hover = false));
    this.group = new THREE.Group(); // everything this element shows; visible only while it renders
    this.group.visible = false;
    stage.scene.add(this.group);
    this.rig = createCameraRig(canvas);
    this.camera = this.rig.camera;
    this.controls = this.rig.controls;
    this.controls.addEventListener('change', () => this.onChange());
    this.follow = new CameraFollow(this.camera, this.controls);
    this.following = true; // camera-follow
    this.views = []; // [{ lane, mesh, group }]
    this.rects = []; // CSS px within the canvas, per view: { x, y, width, height }
    this.pixelRatio = 1;
    this.lanes = [];
    this.fairGrab = new FairGrab(() => this.lanes, onError);
    this.grabber = new Grabber({
      canvas,
      camera: this.camera,
      controls: this.controls,
      scene: this.group,
      getTime,
      onError,
      pick: (event) => this._pick(event),
    });
    this.active = false;
    this.interactive = true; // interactive="false": the figure only plays
    this.zoom = true; // disable-zoom: never
    this.setActive(false);
  }

  // Inactive (the default, until the first click, tap or focus): the wheel and swipes scroll the
  // page, as a map embedded in an article does; a mouse still orbits and grabs by dragging, a touch
  // does neither. Active: the wheel zooms and touches belong to the view.
  setActive(active) {
    this.active = active;
    this.controls.enabled = this.interactive;
    this.controls.enableZoom = active && this.zoom; // OrbitControls then leaves the wheel event alone
    this.canvas.style.touchAction = !this.interactive ? 'auto' : active ? 'none' : 'manipulation';
  }

  // interactive: grabbing and orbiting at all; zoom: the wheel, pinch and keys may zoom.
  setInteraction({ interactive, zoom }) {
    this.interactive = interactive;
    this.zoom = zoom;
    if (!interactive) this.grabber.cancel();
    this.setActive(this.active);
  }

  // Points the camera: position and target in m (target null: the scene's).
  setCamera(position, target) {
    if (position) this.camera.position.set(...position);
    if (target) this.controls.target.set(...target);
    this.controls.update();
    this.follow.reset();
  }

  // Looks at a box ({ center, halfExtents }, m): the whole scenery in view (camera_rig.js).
  frame(bounds) {
    this.rig.frame(bounds);
    this.follow.reset();
  }

  // Whether picking or a held body needs the bodies' present positions (figure.js readEveryFrame).
  get wantsPositions() {
    return this.interactive && (this.hover || this.grabber.dragging);
  }

  // Draws with `stage` from now on (the page's WebGL stage, or a WebGPU one for a GPU world:
  // gpu_stage.js); its meshes are made at the next bind.
  setStage(stage) {
    if (stage === this.stage) return;
    for (const view of this.views) this._disposeView(view);
    this.views = [];
    this.stage = stage;
    stage.scene.add(this.group);
  }

  // The mesh for one body: the stage's own (drawn from GPU buffers) where it has one.
  _bodyMesh(group, body, options) {
    const mesh = this.stage.bodyMesh?.(group, body, options) ?? new BodyMesh(group, options);
    mesh.bind(body);
    return mesh;
  }

  // New meshes for the figure's lanes (after a build).
  bind(lanes) {
    this.grabber.cancel();
    this.fairGrab.cancel();
    for (const view of this.views) this._disposeView(view);
    this.lanes = lanes;
    this.views = lanes.map((lane, i) => {
      const group = new THREE.Group();
      this.group.add(group);
      const color = VIEW_COLORS[i % VIEW_COLORS.length];
      let mesh;
      if (lane.body.triangleCount > 0) mesh = this._bodyMesh(group, lane.body, { color });
      else {
        mesh = new StrandMesh(group, { color });
        mesh.bind(lane.body);
      }
      // The scenery (scenery="..."): its bodies in a quieter shade of the view's colour, and its
      // obstacles, drawn from the same specs the colliders were made from.
      const shade = { color: new THREE.Color(color).lerp(new THREE.Color(0xd9dee4), 0.45).getHex() };
      // On WebGPU all of them are one mesh (one draw call), with a mesh per body to pick from.
      const heap = this.stage.bodiesMesh?.(group, lane.extras, shade) ?? null;
      const extras = heap ? heap.parts : lane.extras.map((body) => this._bodyMesh(group, body, shade));
      const colliders = new ColliderView(group);
      colliders.bind(lane.colliders);
      return { lane, mesh, group, extras, heap, colliders };
    });
    this.layout();
  }

  // Sizes the canvas to its box and splits it into one rectangle per view. Returns the rectangles.
  layout() {
    const width = this.canvas.clientWidth;
    const height = this.canvas.clientHeight;
    this.pixelRatio = this.lowCost ? 1 : Math.min(window.devicePixelRatio || 1, 2);
    const w = Math.max(1, Math.round(width * this.pixelRatio));
    const h = Math.max(1, Math.round(height * this.pixelRatio));
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    const n = Math.max(1, this.views.length);
    const columns = width >= n * MIN_VIEW_WIDTH || n < 3 ? n : 2;
    const rows = Math.ceil(n / columns);
    this.rects = [];
    for (let i = 0; i < n; i++) {
      const c = i % columns;
      const r = Math.floor(i / columns);
      const x0 = Math.round((c * width) / columns);
      const x1 = Math.round(((c + 1) * width) / columns);
      const y0 = Math.round((r * height) / rows);
      const y1 = Math.round(((r + 1) * height) / rows);
      this.rects.push({ x: x0, y: y0, width: x1 - x0, height: y1 - y0 });
    }
    return this.rects;
  }

  // The view under a pointer event: what the grabber raycasts and drives.
  _pick(event) {
    const box = this.canvas.getBoundingClientRect();
    const px = event.clientX - box.left;
    const py = event.clientY - box.top;
    for (let i = 0; i < this.views.length; i++) {
      const r = this.rects[i];
      if (!r || px < r.x || px >= r.x + r.width || py < r.y || py >= r.y + r.height) continue;
      const { lane, mesh } = this.views[i];
      if (lane.exploded) return null;
      const rect = { left: box.left + r.x, top: box.top + r.y, width: r.width, height: r.height };
      if (this.views.length === 1 && lane.grabScenery) return this._nearestBody(event, rect, this.views[i]);
      if (this.views.length === 1) return { rect, object: mesh.mesh, body: lane.body };
      this.fairGrab.focus(i);
      return { rect, object: mesh.mesh, body: this.fairGrab };
    }
    return null;
  }

  // A scenery whose bodies are grabbed too (the heap): the nearest body under the pointer, else the figure's.
  _nearestBody(event, rect, { lane, mesh, extras }) {
    this.raycaster ??= new THREE.Raycaster();
    aimRay(this.raycaster, this.camera, event, rect);
    const items = [{ mesh: mesh.mesh, body: lane.body }, ...extras.map((m, k) => ({ mesh: m.mesh, body: lane.extras[k] }))];
    const { mesh: object, body } = nearestBodyHit(this.raycaster, items)?.item ?? items[0];
    return { rect, object, body };
  }

  // Client coordinates of a world point in view i (for tests and captions).
  project(index, [x, y, z]) {
    const r = this.rects[index];
    const box = this.canvas.getBoundingClientRect();
    this.rig.fit(r.width / r.height);
    const ndc = new THREE.Vector3(x, y, z).project(this.camera);
    return { x: box.left + r.x + ((ndc.x + 1) / 2) * r.width, y: box.top + r.y + ((1 - ndc.y) / 2) * r.height };
  }

  // Moves the camera after the body (camera-follow): the centre of the views' bodies that have not
  // exploded, fitted to the narrowest view. Not while the reader holds a body or turns the camera:
  // a grab follows the pointer, and a camera moving under it would drag the body further.
  _follow(dt) {
    if (!this.following || this.grabber.dragging || this.grabber.orbiting || !this.rects.length) return false;
    const live = this.views.filter((v) => !v.lane.exploded && v.lane.stats);
    let center = null;
    if (live.length) {
      center = [0, 0, 0];
      for (const { lane } of live) for (let k = 0; k < 3; k++) center[k] += lane.stats.center[k] / live.length;
    }
    this.rig.fit(Math.min(...this.rects.map((r) => r.width / Math.max(1, r.height))));
    return this.follow.update(center, dt);
  }

  // Uploads every body's positions and draws each view into its rectangle. dt: s since the last
  // frame (the camera's follow eases by it). Returns whether the camera is still moving (damping,
  // following), so the caller keeps asking for frames.
  render(dt = 0) {
    let moving = this.controls.update();
    if (this._follow(dt)) moving = true;
    const ratio = this.pixelRatio;
    const vertex = this.grabber.dragging ? this.grabber.vertex : -1;
    this.grabber.bead.visible = vertex >= 0;
    for (const view of this.views) view.group.visible = false;
    for (let i = 0; i < this.views.length; i++) {
      const { lane, mesh, group } = this.views[i];
      const r = this.rects[i];
      if (!r || r.width < 1 || r.height < 1) continue;
      mesh.update();
      if (this.views[i].heap) this.views[i].heap.update(); // its parts too
      else for (const m of this.views[i].extras) m.update();
      this.views[i].colliders.update();
      this.rig.fit(r.width / r.height);
      if (vertex >= 0) {
        const p = lane.body.positions;
        this.grabber.bead.position.set(p[3 * vertex], p[3 * vertex + 1], p[3 * vertex + 2]);
      }
      group.visible = true;
      const x = Math.round(r.x * ratio);
      const y = Math.round(r.y * ratio);
      const w = Math.round((r.x + r.width) * ratio) - x;
      const h = Math.round((r.y + r.height) * ratio) - y;
      this.stage.draw(this.group, this.camera, w, h, this.ctx, x, y, lane.stats.center);
      group.visible = false;
    }
    return moving;
  }

  _disposeView(view) {
    view.mesh.dispose();
    if (view.heap) view.heap.dispose(); // its parts too
    else for (const m of view.extras) m.dispose();
    view.colliders.bind([]);
    view.colliders.material.dispose();
    this.group.remove(view.group);
  }

  dispose() {
    this.grabber.dispose();
    for (const view of this.views) this._disposeView(view);
    this.views = [];
    this.stage.scene.remove(this.group);
    this.controls.dispose();
  }
}
