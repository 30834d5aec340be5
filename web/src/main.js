// softbody demo page: wires the parts together and runs the animation loop.
//
// Query parameters (for tests and slow machines):
//   ?test  SwiftShader-friendly rendering: no MSAA, pixel ratio 1, 512 px shadow map, no
//          environment map. The physics is identical.
//   ?heap=N  the "gpu heap" scene's body count on WebGPU (else the device probe's).
//
// window.app (see test_hook.js) exposes frames, ready, errors, stats() and helpers for the tests.
import './style.css';
import * as THREE from 'three';
import { sharedSoftbody } from './wasm_module.js';
import { Alerts } from './alerts.js';
import { BodyMesh } from './body_mesh.js';
import { downloadText } from './download.js';
import { embedSnippets } from './embed/embed_code.js';
import { embedAddresses, showEmbedDialog } from './embed_dialog.js';
import { Grabber, aimRay } from './grabber.js';
import { createFilePicker } from './import/file_picker.js';
import { Importer } from './import/importer.js';
import { offerThinChoice } from './import/thin_parts_choice.js';
import { ProgressView } from './import/progress_view.js';
import { serializeTets } from './import/tet_files.js';
import { createPanel } from './panel.js';
import { Readout } from './readout.js';
import { ColliderView } from './scenes/collider_view.js';
import { PinView } from './scenes/pin_view.js';
import { VertexBrush } from './scenes/vertex_brush.js';
import { ScenePointer, nearestBodyHit } from './scenes/scene_pointer.js';
import { bunnyTets } from './scenes/scene_bodies.js';
import { GPU_HEAP_SCENE, GpuHeapScene, MAX_GPU_HEAP } from './scenes/gpu_heap_scene.js';
import { sceneBounds, scenePreset } from './scenes/scene_presets.js';
import { DT, LATTICE_SHAPES, MATERIAL_PRESETS, SAMPLE_SHAPES } from './settings.js';
import { Simulation } from './simulation.js';
import { createStage } from './stage.js';
import { exposeTestHook } from './test_hook.js';

// The material settings as <soft-body> attributes: the solver and Neo-Hookean values for a
// Neo-Hookean preset (under VBD without the volume compliance the page may hold at 0, which VBD's
// simple model refuses; the element then picks one > 0 that Neo-Hookean ignores), the plastic ones
// when creep is on. The solver and passes are what the body runs: a preset falls back to VBD with
// its own sweeps for a body XPBD refuses (simulation.js), and the figure must do the same.
function withMaterial(attributes, s, body) {
  const out = { ...attributes };
  const preset = MATERIAL_PRESETS[s.material];
  if (preset.neoHookean) {
    const solver = body.solver;
    if (solver === 'vbd') delete out['volume-compliance'];
    Object.assign(out, { solver, material: 'neo-hookean', 'youngs-modulus': s.youngsModulus, 'poisson-ratio': s.poissonRatio });
  }
  const iterations = body.getParam('iterations');
  if (iterations !== 1) out.iterations = iterations;
  if (s.plasticCreep > 0) Object.assign(out, { 'plastic-yield': s.plasticYield, 'plastic-creep': s.plasticCreep });
  return out;
}

const query = new URLSearchParams(window.location.search);
const lowCost = query.has('test');
const heapCount = Number.parseInt(query.get('heap') ?? '', 10);
const alerts = new Alerts(document.getElementById('toasts'), document.getElementById('exploded'));
const app = (window.app = { ready: false, frames: 0, errors: alerts.messages });

const guard = (fn) => alerts.guard(fn);

async function init() {
  const softbody = await sharedSoftbody();
  const stage = createStage(document.getElementById('stage'), { lowCost, recentreButton: document.getElementById('recentre') });
  const bodyMesh = new BodyMesh(stage.scene);
  const readout = new Readout(document.getElementById('readout'));
  let grabber = null;
  let panel = null;
  let scenePointer = null;
  let sceneLoading = Promise.resolve(); // a scene waiting for the bunny's tets
  const colliderView = new ColliderView(stage.scene);
  // The "gpu heap" scene: a <soft-body> over the stage while chosen; the page's world waits meanwhile.
  const gpuHeap = new GpuHeapScene({
    root: document.getElementById('gpu-heap'),
    sb: softbody,
    count: heapCount >= 1 ? Math.min(heapCount, MAX_GPU_HEAP) : null,
    onError: (error) => alerts.error(error),
  });
  const pins = new PinView(stage.scene);
  const brush = new VertexBrush(stage.scene, pins);
  const extraMeshes = new Map(); // extra body -> its BodyMesh
  // Meshes follow the simulation's extra bodies and obstacles after "add body", "clear bodies" or a scene.
  function syncExtras() {
    for (const [body, mesh] of extraMeshes) {
      if (sim.extras.includes(body)) continue;
      if (grabber?.body === body) grabber.cancel();
      mesh.dispose();
      extraMeshes.delete(body);
    }
    for (const body of sim.extras) {
      if (extraMeshes.has(body)) continue;
      const mesh = new BodyMesh(stage.scene);
      mesh.bind(body);
      extraMeshes.set(body, mesh);
    }
    scenePointer?.cancel();
    colliderView.bind(sim.colliders);
    pins.keepOnly(sim.bodies);
    brush.keepOnly(sim.bodies);
  }
  let sim = null; // assigned below; the first body arrives while the constructor runs
  sim = new Simulation(softbody, {
    onBodyChange: (body, source) => {
      grabber?.cancel(); // the held particle belonged to the old body
      bodyMesh.bind(body);
      if (sim) {
        pins.keepOnly(sim.bodies);
        brush.keepOnly(sim.bodies);
      }
      if (source.kind === 'lattice') readout.setMeshInfo(null); // the summary was the import's
      panel?.sync();
    },
    onBodiesChange: () => syncExtras(),
  });
  // Every body the pointer can pick: the page's and the extras.
  const pickable = () => [{ mesh: bodyMesh.mesh, body: sim.body }, ...[...extraMeshes].map(([body, mesh]) => ({ mesh: mesh.mesh, body }))];
  // Registered before the grabber: Shift+click pins, and obstacles are dragged, ahead of a grab.
  scenePointer = new ScenePointer({
    canvas: stage.canvas,
    camera: stage.camera,
    controls: stage.controls,
    getBodies: pickable,
    colliders: colliderView,
    pins,
    sim,
    brush,
    onError: (error) => alerts.error(error),
  });
  const raycaster = new THREE.Raycaster();
  grabber = new Grabber({
    canvas: stage.canvas,
    camera: stage.camera,
    controls: stage.controls,
    scene: stage.scene,
    bodyMesh,
    getBody: () => sim.body,
    getTime: () => sim.world.time,
    onError: (error) => alerts.error(error),
    // The nearest body under the pointer, of all of them.
    pick: (event) => {
      const rect = stage.canvas.getBoundingClientRect();
      aimRay(raycaster, stage.camera, event, rect);
      const { mesh, body } = nearestBodyHit(raycaster, pickable())?.item ?? pickable()[0];
      return { rect, object: mesh, body };
    },
  });
  const importer = new Importer({
    sim,
    alerts,
    progress: new ProgressView(document.getElementById('import-progress')),
    readout,
    getOptions: () => panel.meshOptions(),
    onChange: (state) => panel?.sync(importer.busy ? state.name : null),
    offerChoice: (message, onChoose) => offerThinChoice(document.body, message, onChoose),
  });
  const picker = createFilePicker({
    input: document.getElementById('file-input'),
    overlay: document.getElementById('drop-overlay'),
    onFiles: (files) => importer.importFiles(files),
  });
  panel = createPanel({
    sim,
    sceneName: () => (gpuHeap.active ? GPU_HEAP_SCENE : sim.scene),
    guard,
    brush,
    view: bodyMesh,
    actions: {
      togglePause: (paused) => (sim.paused = paused),
      step: () => {
        sim.paused = true;
        panel.sync();
        sim.requestStep();
      },
      reset: () => {
        grabber.cancel(); // reset clears the grab on the C side too
        sim.reset();
      },
      squash: () => sim.squash(),
      addBody: () => sim.addBody(),
      clearBodies: () => sim.clearBodies(),
      // Scenes with bunnies wait for its tets (tetrahedralized once, ~30 ms); the menu shows the
      // new scene once it is built.
      scene: (name) => {
        if (name === GPU_HEAP_SCENE) {
          grabber.cancel();
          sim.setScene('single'); // the page's scene bodies go; its body waits under the heap
          readout.element.hidden = true; // the page's body is not what runs
          sceneLoading = gpuHeap.show().catch((error) => alerts.error(error)).finally(() => panel.sync());
          return;
        }
        gpuHeap.hide();
        readout.element.hidden = false;
        const build = (bunny) => {
          grabber.cancel();
          sim.setScene(name, { bunny });
          // Bodies dropped from up to 4 m (the pile, the funnel) are in view from the first frame.
          stage.frame(name === 'single' ? null : sceneBounds(scenePreset(name)));
          panel.sync();
        };
        if (!scenePreset(name).needsBunny) return build(null);
        sceneLoading = bunnyTets(softbody)
          .then((bunny) => guard(() => build(bunny)))
          .catch((error) => alerts.error(error))
          .finally(() => panel.sync());
      },
      // The current setup as a <soft-body> tag and an iframe of embed.html (embed_code.js).
      copyEmbed: () => {
        const s = sim.settings;
        const lattice = LATTICE_SHAPES.includes(s.shape);
        const sample = SAMPLE_SHAPES.includes(s.shape);
        const setup = withMaterial(
          {
            scene: lattice || sample ? s.shape : 'box',
            resolution: lattice ? s.resolution : sample ? panel.meshOptions().resolution : null,
            'edge-compliance': s.edgeCompliance,
            'volume-compliance': s.volumeCompliance,
            density: s.density,
            damping: s.damping,
            'grab-radius': s.grabRadius,
            restitution: s.restitution,
            friction: s.friction,
            gravity: s.gravity,
            substeps: s.substeps,
            scenery: sim.scene === 'single' ? null : sim.scene,
            autoplay: true,
          },
          s,
          sim.body,
        );
        const addresses = { ...embedAddresses(), title: `a soft ${lattice || sample ? s.shape : 'body'}, live` };
        // Said plainly, from the state now (not from an earlier import): what a figure cannot hold.
        const notes = [];
        if (!lattice && !sample) notes.push(`${s.shape} is your own file: put it on your site and add src="…" with its address (the snippets show the box meanwhile).`);
        // The scene carries over (scenery="..."); bodies added by hand and moved obstacles do not.
        const added = sim.extras.length - scenePreset(sim.scene).drops.length;
        if (added > 0) notes.push(`Left out: ${added} ${added === 1 ? 'body' : 'bodies'} added with "add body" (a figure holds its body and its scenery's).`);
        showEmbedDialog({ make: (options) => embedSnippets({ ...setup, ...options }, addresses), note: notes.join(' ') });
      },
      restoreDefaults: () => {
        gpuHeap.hide();
        readout.element.hidden = false;
        grabber.cancel();
        scenePointer.cancel();
        importer.cancel(); // an import in flight would replace the default box when it lands
        sim.restoreDefaults();
        panel.sync();
      },
      // A lattice replaces the body at once (and ends any import in flight); a sample goes
      // through the importer like a file.
      shape: (name) => {
        if (!LATTICE_SHAPES.includes(name)) return void importer.importSample(name);
        importer.cancel();
        sim.set('shape', name);
      },
      chooseFile: () => picker.choose(),
      remesh: () => importer.remeshSoon(),
      downloadTets: () => {
        const { name, positions, tets, surface } = sim.source;
        const base = name.replace(/ \+ .*$/, '').replace(/\.[^.]*$/, ''); // "a.node + a.ele" -> "a"
        downloadText(`${base}.tets.json`, serializeTets({ positions, tets, surface }));
      },
    },
  });
  panel.sync();
  exposeTestHook(app, { sim, stage, bodyMesh, grabber, panel, importer, scenePointer, pins, brush, whenSceneBuilt: () => sceneLoading, gpuHeap });

  function frame(now) {
    requestAnimationFrame(frame);
    // Nothing here may stop the loop: errors are shown and the next frame runs.
    app.frames += 1;
    if (gpuHeap.active) return; // the heap's <soft-body> steps and draws itself
    let stepMs = null;
    guard(() => {
      grabber.update();
      scenePointer.update();
      if (sim.advance()) stepMs = sim.stepMs;
    });
    guard(() => {
      const stats = sim.body.stats();
      alerts.exploded = !stats.finite;
      bodyMesh.update();
      for (const mesh of extraMeshes.values()) mesh.update();
      colliderView.update();
      pins.update();
      brush.update();
      grabber.updateBead();
      stage.follow(stats.center);
      stage.keepInView(stats.center, { dt: stepMs === null ? 0 : DT, holding: grabber.dragging });
      stage.render();
      readout.frame(now, { stepMs, body: sim.body, stats, world: { bodies: sim.bodies.length, contacts: () => sim.contactSummary() }, threads: sim.world.threads });
    });
  }
  requestAnimationFrame(frame);
  document.body.classList.add('ready');
  app.ready = true;
}

init().catch((error) => {
  // Loading failed (no WebGL, missing wasm build...): say so in the page.
  alerts.error(error);
  document.body.classList.add('failed');
});
