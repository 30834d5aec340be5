// window.app: what the browser tests (tests/browser/) read and drive. Everything here goes
// through the same objects the user touches; nothing reaches past the bridge.
import * as THREE from 'three';
import { BODY_COLOR } from './body_mesh.js';

// A pixel is "body" when red clearly dominates (the coral body, lit or shaded); the sky, ground,
// grid and shadows are all near-neutral greys.
function isBodyColour(r, g, b) {
  return r >= 50 && r > 1.4 * g && r > 1.4 * b;
}

export function exposeTestHook(app, { sim, stage, bodyMesh, grabber, panel, importer, scenePointer, pins, brush, whenSceneBuilt, gpuHeap }) {
  // CSS pixel position (viewport coordinates) of a world point, for page.mouse.
  function project([x, y, z]) {
    const ndc = new THREE.Vector3(x, y, z).project(stage.camera);
    const rect = stage.canvas.getBoundingClientRect();
    return { x: rect.left + ((ndc.x + 1) / 2) * rect.width, y: rect.top + ((1 - ndc.y) / 2) * rect.height };
  }

  // defineProperties, not Object.assign: assign would freeze the getters' current values.
  Object.defineProperties(app, Object.getOwnPropertyDescriptors({
    bodyColor: BODY_COLOR,
    stage,
    bodyMesh,
    meshTriangleCount: () => bodyMesh.mesh.geometry.index.count / 3,
    get body() {
      return sim.body;
    },
    get world() {
      return sim.world;
    },
    get paused() {
      return sim.paused;
    },
    stats: () => sim.body.stats(),
    settings: () => ({ ...sim.settings }),
    particleCount: () => sim.body.vertexCount,
    tetCount: () => sim.body.tetCount,
    stepMs: () => sim.stepMs, // wall time of the last world.step, ms (the readout's "physics")
    // The world's threads: the count now, the build's most, what autoThreads asked, whether the
    // tuner is still timing, and its last medians (ms) on many threads and on one.
    threads: () => ({ count: sim.world.threads, max: sim.softbody.maxThreads, wanted: sim.threads.wanted, trying: sim.threads.trial !== null, verdict: sim.threads.verdict }),
    positions: () => Array.from(sim.body.positions),
    // The current body and how it is drawn: skinned = its imported surface follows the tets.
    bodyInfo: () => ({
      shape: sim.settings.shape,
      source: sim.source.kind, // 'lattice' | 'surface' | 'tets'
      vertices: sim.body.vertexCount,
      tets: sim.body.tetCount,
      visualVertices: sim.body.visualVertexCount,
      visualTriangles: sim.body.visualTriangleCount,
      skinned: bodyMesh.skinned,
      meshVertices: bodyMesh.mesh.geometry.attributes.position.count,
      showTets: bodyMesh.showTets,
    }),
    // Imports: what is in flight or how the last one ended ({ status, name, progress, error,
    // summary, stats, outside }), a promise for the end of the current one, and shortcuts that take
    // the same path as a dropped file or the shape menu.
    importState: () => ({ ...importer.state, progressBar: !document.getElementById('import-progress').hidden }),
    whenImported: () => importer.whenIdle(),
    importSample: (name) => void importer.importSample(name),
    importFile: (name, content) => void importer.importFiles([new File([content], name)]),
    meshSummary: () => document.querySelector('[data-field="mesh"]').textContent,
    // The same controllers the user moves (see panel.js), and its buttons by name.
    set: (key, value) => panel.set(key, value),
    press: (name) => panel.press(name),
    openPanel: () => panel.gui.open(),
    closePanel: () => panel.gui.close(),
    project,
    // Screen point of the body's centre of mass: a ray through it meets the body's near side.
    bodyScreenPoint: () => project(sim.body.stats().center),
    grab: () => ({ dragging: grabber.dragging, vertex: grabber.vertex, lastRelease: grabber.lastRelease ?? null }),
    // Scenes: the preset, the bodies (the page's first) and the obstacles with their poses.
    sceneInfo: () => ({
      scene: sim.scene,
      bodies: sim.bodies.map((b) => ({ vertices: b.vertexCount, center: b.stats().center, minY: b.stats().minY, finite: b.stats().finite, self: b.selfCollision.enabled })),
      colliders: sim.colliders.map((c) => ({ shape: c.spec.shape, position: [...c.position], rotation: [...c.rotation] })),
      draggingCollider: scenePointer.dragging,
      pins: pins.count,
      lastPin: scenePointer.lastPin,
      lastPaint: scenePointer.lastPaint ?? null, // { count, mode } of the last brush stroke
      painted: brush.count, // particles with a stiffness or mass paint
    }),
    whenSceneBuilt, // resolves once a scene waiting for the bunny's tets is built (or the GPU heap is placed)
    // The "gpu heap" scene: { shown, choice: { backend, count, tets }, active: { backend, reason, count, tets }, label }
    // and its <soft-body>.
    gpuHeap: () => gpuHeap.info(),
    gpuHeapElement: () => gpuHeap.element,
    // Screen point of an obstacle's top centre (a press there picks it when no body is in front).
    colliderScreenPoint: (index) => {
      const c = sim.colliders[index];
      const top = c.spec.shape === 'box' ? c.spec.halfExtents[1] : c.spec.radius ?? 0;
      return project([c.position[0], c.position[1] + top, c.position[2]]);
    },
    // Renders and reads the frame back in the same task (no preserveDrawingBuffer needed) and
    // counts body-coloured pixels; the box is in CSS pixels from the top left.
    bodyPixels() {
      stage.render();
      const gl = stage.renderer.getContext();
      const width = gl.drawingBufferWidth;
      const height = gl.drawingBufferHeight;
      const rgba = new Uint8Array(width * height * 4);
      gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, rgba);
      let count = 0;
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const i = 4 * (y * width + x);
          if (!isBodyColour(rgba[i], rgba[i + 1], rgba[i + 2])) continue;
          count += 1;
          const top = height - 1 - y; // readPixels rows start at the bottom
          x0 = Math.min(x0, x), x1 = Math.max(x1, x), y0 = Math.min(y0, top), y1 = Math.max(y1, top);
        }
      }
      const scale = stage.canvas.getBoundingClientRect().width / width; // device -> CSS pixels
      const box = count ? { x0: x0 * scale, y0: y0 * scale, x1: x1 * scale, y1: y1 * scale } : null;
      return { width, height, count, box };
    },
  }));
}
