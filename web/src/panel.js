// The lil-gui control panel. Each controller's onChange hands its value to the simulation through
// guard(); a value the C API rejects is reported and the controller snaps back to what the body
// still holds. set()/press() drive the same controllers for the test hook.
import GUI from 'lil-gui';
import { addLogSlider } from './log_slider.js';
import { addMeshFolder } from './mesh_panel.js';
import { BRUSHES } from './scenes/vertex_brush.js';
import { SCENES } from './scenes/scene_presets.js';
import { GPU_HEAP_SCENE } from './scenes/gpu_heap_scene.js';
import { LATTICE_SHAPES, MATERIAL_PRESETS, RANGES, SAMPLE_SHAPES } from './settings.js';

// 2 significant digits in scientific form for the compliance read-outs, "0" for exactly zero.
function formatScientific(value) {
  return value === 0 ? '0' : value.toExponential(1).replace('e+', 'e');
}

// guard(fn) runs fn and returns true, or shows the error and returns false.
// actions: { togglePause(paused), step(), reset(), squash(), restoreDefaults(), copyEmbed(), shape(name),
// chooseFile(), remesh(), downloadTets(), scene(name), addBody(), clearBodies() }: shape(name) builds a lattice or starts loading a sample
// (the importer), and the menu shows the body's actual shape again on sync(). view: { wireframe, showTets } setters.
// sceneName(): the scene shown (the page's, or the GPU heap, which is not the simulation's).
export function createPanel({ sim, guard, actions, view, brush = null, sceneName = () => sim.scene }) {
  const gui = new GUI({ title: 'softbody controls', width: 270 });
  gui.domElement.classList.add('panel');
  const model = { ...sim.settings, paused: false, wireframe: false, scene: sceneName() };
  const controllers = new Map(); // key -> { controller, set(value), update() }

  function revert(key, controller) {
    model[key] = key === 'scene' ? sceneName() : sim.settings[key];
    controller.updateDisplay();
  }

  // A plain controller bound to model[key].
  function addSetting(folder, key, label, ...args) {
    const controller = folder.add(model, key, ...args).name(label);
    controller.onChange((value) => {
      if (!guard(() => sim.set(key, value))) revert(key, controller);
    });
    controllers.set(key, { controller, set: (value) => controller.setValue(value), update: () => controller.updateDisplay() });
    return controller;
  }

  function addLinear(folder, key, label) {
    const { min, max, step, unit } = RANGES[key];
    return addSetting(folder, key, unit ? `${label} (${unit})` : label, min, max, step);
  }

  // Compliances span orders of magnitude: a log slider (log_slider.js) whose leftmost position is
  // exactly 0 (zeroAtMin; not for Young's modulus, which must be > 0).
  function addLog(folder, key, label, zeroAtMin = true) {
    const { min, max, step, unit } = RANGES[key];
    const slider = addLogSlider(folder, {
      label: `${label} (${unit})`,
      min,
      max,
      step,
      zeroAtMin,
      format: formatScientific,
      get: () => model[key],
      set: (value) => {
        if (!guard(() => sim.set(key, value))) return false;
        model[key] = value;
        return true;
      },
    });
    controllers.set(key, { controller: slider.controller, set: slider.setValue, update: slider.update });
    return slider.controller;
  }

  const run = gui.addFolder('Simulation');
  const pause = run.add(model, 'paused').name('pause');
  pause.onChange((paused) => actions.togglePause(paused));
  controllers.set('paused', { controller: pause, set: (value) => pause.setValue(value) });
  const buttons = {
    step: () => guard(actions.step),
    reset: () => guard(actions.reset),
    squash: () => guard(actions.squash),
    // Every setting back to settings.js (DEFAULTS, MESH_DEFAULTS) and the default box rebuilt;
    // reset only restores the shape.
    restoreDefaults: () => {
      if (!guard(actions.restoreDefaults)) return;
      mesh.restore();
      showSettings();
    },
  };
  run.add(buttons, 'step').name('step one frame');
  run.add(buttons, 'reset').name('reset');
  run.add(buttons, 'squash').name('squash');
  run.add(buttons, 'restoreDefaults').name('restore defaults');
  run.add({ copyEmbed: () => guard(actions.copyEmbed) }, 'copyEmbed').name('copy embed code…');

  const body = gui.addFolder('Body');
  // The shape menu: lattices (built at once) and samples (tetrahedralized in a worker). After an
  // import it shows the file's name, which is not one of the options.
  const shape = body.add(model, 'shape', [...LATTICE_SHAPES, ...SAMPLE_SHAPES]).name('shape');
  shape.onChange((value) => {
    if (!guard(() => actions.shape(value))) revert('shape', shape);
  });
  controllers.set('shape', { controller: shape, set: (value) => shape.setValue(value), update: () => shape.updateDisplay() });
  body.add({ importFile: () => actions.chooseFile() }, 'importFile').name('import file…');
  const latticeResolution = addSetting(body, 'resolution', 'resolution', RANGES.resolution.min, RANGES.resolution.max, 1);
  addLog(body, 'edgeCompliance', 'edge compliance');
  addLog(body, 'volumeCompliance', 'volume compliance');
  addLinear(body, 'density', 'density');
  addLinear(body, 'damping', 'damping');
  addLinear(body, 'grabRadius', 'grab radius');

  // What the bodies are made of: presets with real values (settings.js MATERIAL_PRESETS; the
  // Neo-Hookean ones run under XPBD), then the numbers they set, each adjustable (an E that XPBD
  // cannot run at the current substeps is refused with the substeps it needs).
  const matter = gui.addFolder('Material');
  const presetNames = Object.fromEntries(Object.entries(MATERIAL_PRESETS).map(([key, p]) => [p.label, key]));
  const material = matter.add(model, 'material', presetNames).name('preset');
  material.onChange((value) => {
    if (!guard(() => sim.set('material', value))) revert('material', material);
    showSettings(); // the preset moved the sliders below (and the edge compliance above)
  });
  controllers.set('material', { controller: material, set: (value) => material.setValue(value), update: () => material.updateDisplay() });
  addLog(matter, 'youngsModulus', "Young's modulus", false);
  addLinear(matter, 'poissonRatio', "Poisson's ratio");
  // Neo-Hookean bodies run passes until the stiffness target (0: the iterations below instead).
  addLinear(matter, 'stiffnessTarget', 'stiffness target');
  addLinear(matter, 'maxIterations', 'max passes (budget)');
  addLinear(matter, 'iterations', 'iterations');
  addLinear(matter, 'plasticYield', 'plastic yield');
  addLog(matter, 'plasticCreep', 'plastic creep');

  // Vertex groups (scenes/vertex_brush.js): with a brush chosen, pressing and dragging over a body
  // paints the particles within the radius instead of grabbing them.
  if (brush) {
    const paint = gui.addFolder('Vertex groups (brush)');
    const brushModel = { brush: brush.mode, brushRadius: brush.radius };
    const labels = Object.fromEntries(Object.entries(BRUSHES).map(([key, b]) => [b.label, key]));
    const mode = paint.add(brushModel, 'brush', labels).name('brush');
    mode.onChange((value) => (brush.mode = value));
    controllers.set('brush', { controller: mode, set: (value) => mode.setValue(value), update: () => mode.updateDisplay() });
    const radius = paint.add(brushModel, 'brushRadius', 0.02, 0.5, 0.01).name('brush radius (m)');
    radius.onChange((value) => (brush.radius = value));
    controllers.set('brushRadius', { controller: radius, set: (value) => radius.setValue(value), update: () => radius.updateDisplay() });
    paint.close();
  }

  // Scenes and more bodies: obstacles to fall on and drag (scene_presets.js), another of the current
  // shape dropped from above, and contact of each body with itself.
  const sceneFolder = gui.addFolder('Scene & bodies');
  const scene = sceneFolder.add(model, 'scene', [...SCENES, GPU_HEAP_SCENE]).name('scene');
  scene.onChange((value) => {
    if (!guard(() => actions.scene(value))) revert('scene', scene);
  });
  controllers.set('scene', { controller: scene, set: (value) => scene.setValue(value), update: () => scene.updateDisplay() });
  sceneFolder.add({ addBody: () => guard(actions.addBody) }, 'addBody').name('add body');
  sceneFolder.add({ clearBodies: () => guard(actions.clearBodies) }, 'clearBodies').name('clear bodies');
  addSetting(sceneFolder, 'selfCollision', 'self-collision');

  const world = gui.addFolder('Ground & world');
  addLinear(world, 'restitution', 'restitution');
  addLinear(world, 'friction', 'friction');
  addLinear(world, 'gravity', 'gravity y');
  addLinear(world, 'substeps', 'substeps');

  const mesh = addMeshFolder(gui, { view, actions });
  for (const [key, entry] of mesh.controllers) controllers.set(key, entry);

  // Shows what the simulation holds in every setting's control. E and nu only mean something to the
  // Neo-Hookean presets: greyed out under the simple model.
  function showSettings() {
    Object.assign(model, sim.shownSettings());
    for (const key of Object.keys(sim.settings)) controllers.get(key)?.update?.();
    pause.updateDisplay();
    const neoHookean = Boolean(MATERIAL_PRESETS[sim.settings.material]?.neoHookean);
    for (const key of ['youngsModulus', 'poissonRatio']) controllers.get(key)?.controller.enable(neoHookean);
  }

  showSettings(); // E and nu greyed out under the default simple model

  const look = gui.addFolder('View');
  const wire = look.add(model, 'wireframe').name('wireframe');
  wire.onChange((on) => (view.wireframe = on));
  controllers.set('wireframe', { controller: wire, set: (value) => wire.setValue(value) });
  look.close();

  // Small screens: start folded so the body is visible; the title bar opens it.
  if (window.innerWidth < 640) gui.close();

  function controllerFor(key) {
    const entry = controllers.get(key);
    if (!entry) throw new Error(`no panel control "${key}"`);
    return entry;
  }

  return {
    gui,
    // Same effect as the user moving the control (values outside the slider range included).
    set(key, value) {
      controllerFor(key).set(value);
    },
    // Clicks a button such as 'reset' or 'squash' by its DOM element, as a user would.
    press(name) {
      const button = gui.controllersRecursive().find((c) => c.property === name && c.$button);
      if (!button) throw new Error(`no panel button "${name}"`);
      button.$button.click();
    },
    // The tetrahedralizer options the Mesh folder holds: { resolution, minQuality }.
    meshOptions: mesh.options,
    // Shows state changed outside the panel: paused (keyboard, step), and the body's shape after
    // an import finished, failed or was cancelled. The lattice resolution only applies to lattices.
    // pendingShape: what an import in flight is loading, shown in the menu meanwhile.
    sync(pendingShape = null) {
      model.paused = sim.paused;
      pause.updateDisplay();
      model.shape = pendingShape ?? sim.settings.shape;
      shape.updateDisplay();
      model.scene = sceneName();
      scene.updateDisplay();
      latticeResolution.enable(LATTICE_SHAPES.includes(sim.settings.shape));
      model.iterations = sim.shownSettings().iterations; // a new body may have fallen back to VBD
      controllers.get('iterations').update();
    },
  };
}
