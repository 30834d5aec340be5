// ONE WebGL context for every <soft-body> on the page. Browsers keep about 16 contexts alive and
// drop the oldest, so a canvas per element would blank figures on a long article. Here one renderer
// draws into an off-screen canvas, and each element's view is rendered in turn and copied into that
// element's own 2D canvas (drawImage in the same task, so no preserveDrawingBuffer is needed). The
// scenery (sky, lights, ground, shader programs, shadow map) exists once; each element owns a group
// of objects that is visible only while its view renders.
//
// The page has one animation loop, and it runs only while some element wants frames: visible and
// playing, or asked to redraw (orbiting, a step, a resize). With every figure off-screen or paused
// no requestAnimationFrame is pending at all, so an idle article costs nothing.
import * as THREE from 'three';
import { BodyMesh } from '../body_mesh.js';
import { createRenderer } from '../renderer.js';
import { createScenery } from '../scenery.js';

let shared = null;

// The page's stage, made on first use. lowCost: no MSAA, small shadow map, no environment map
// (headless Chromium renders WebGL on the CPU); fixed by the first element that asks.
export function pageStage({ lowCost = false } = {}) {
  shared ??= new PageStage({ lowCost });
  return shared;
}

export class PageStage {
  // lowCost: cheap rendering asked for (?test); also chosen on a software rasterizer.
  constructor({ lowCost }) {
    // Never in the DOM: only drawn from. Cheap settings on a software rasterizer (renderer.js).
    ({ renderer: this.renderer, lowCost: this.lowCost, software: this.software } = createRenderer({ lowCost }));
    this.canvas = this.renderer.domElement;
    lowCost = this.lowCost;
    this.renderer.setPixelRatio(1); // views are sized in device pixels by their elements
    this.renderer.setScissorTest(true);
    const scenery = createScenery(this.renderer, { lowCost });
    this.scene = scenery.scene;
    this.follow = scenery.follow;
    this.width = 0; // device px of the drawing buffer, grown to the largest view
    this.height = 0;
    this.figures = new Set(); // objects with wantsFrame() and frame(now)
    this.lost = false;
    this.losses = 0; // context losses seen (for the tests)
    this.frames = 0; // loop iterations (for the tests)
    this._raf = 0;

    // Keep the context restorable; draw nothing while it is gone; redraw everything once back.
    this.canvas.addEventListener('webglcontextlost', (event) => {
      event.preventDefault();
      this.lost = true;
      this.losses += 1;
    });
    this.canvas.addEventListener('webglcontextrestored', () => {
      this.lost = false;
      scenery.buildEnvironment();
      for (const figure of this.figures) figure.invalidate?.();
      this.wake();
    });
    // A hidden tab gets no animation frames anyway; this restarts the loop when it shows again.
    document.addEventListener('visibilitychange', () => this.wake());
    this._warmUp();
  }

  // Compiles the scenery's and a body's shader programs now, while the physics module is still
  // loading, instead of in the first figure's first frame (where, on a CPU renderer, they cost
  // hundreds of milliseconds). Programs depend on a material's kind and features, not its colour,
  // so one stand-in body serves every figure.
  _warmUp() {
    const standIn = new BodyMesh(this.scene);
    standIn.mesh.geometry = new THREE.BoxGeometry(0.1, 0.1, 0.1);
    const camera = new THREE.PerspectiveCamera(40, 1, 0.05, 100);
    camera.position.set(2.9, 2.1, 3.6);
    camera.lookAt(0, 0.5, 0);
    // compile() registers the programs of what is visible now; the stand-in leaves the scene at
    // once but keeps its material, whose disposal would free the programs it asked for.
    this.renderer.compileAsync(this.scene, camera).catch(() => {}); // the first frame compiles what is missing
    this.scene.remove(standIn.mesh);
    this._standIn = standIn;
  }

  add(figure) {
    this.figures.add(figure);
    this.wake();
  }

  remove(figure) {
    this.figures.delete(figure);
  }

  // Schedules the loop if anything wants a frame and none is pending.
  wake() {
    if (this._raf || document.hidden) return;
    for (const figure of this.figures) {
      if (figure.wantsFrame()) {
        this._raf = requestAnimationFrame(this._frame);
        return;
      }
    }
  }

  _frame = (now) => {
    this._raf = 0;
    if (document.hidden) return;
    this.frames += 1;
    for (const figure of this.figures) {
      if (figure.wantsFrame()) figure.frame(now);
    }
    this.wake();
  };

  // Renders `group` (made visible for this one render) through `camera` into a width x height
  // device-pixel image and copies it to ctx at (x, y). center: the key light follows it. Returns
  // false while the context is lost.
  draw(group, camera, width, height, ctx, x, y, center) {
    if (this.lost || width < 1 || height < 1) return false;
    if (width > this.width || height > this.height) {
      this.width = Math.max(this.width, width);
      this.height = Math.max(this.height, height);
      this.renderer.setSize(this.width, this.height, false);
    }
    group.visible = true;
    this.follow(center);
    this.renderer.setViewport(0, 0, width, height);
    this.renderer.setScissor(0, 0, width, height);
    this.renderer.render(this.scene, camera);
    group.visible = false;
    // WebGL's viewport starts at the bottom left: the image is the buffer's bottom rows.
    ctx.drawImage(this.canvas, 0, this.height - height, width, height, x, y, width, height);
    return true;
  }
}
