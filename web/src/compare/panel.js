// The shared controls (lil-gui, in the side column): scene, the physical parameters every view
// shares, time step and substeps, the number of views, and run buttons. Each change goes to the
// Comparison through guard(); a refused value is reported and the control snaps back to what the
// comparison holds. sync() shows a setup that changed elsewhere (preset, URL, view menus).
import GUI from 'lil-gui';
import { addLogSlider } from '../log_slider.js';
import { SCENES } from './scenes.js';
import { MATERIAL_PRESETS } from '../settings.js';
import { MATERIALS, MAX_VIEWS, MIN_VIEWS, RANGES, STARTS, TIME_STEPS_HZ } from './setup.js';

function formatStiffness(k) {
  return k >= 1e4 ? k.toExponential(1).replace('e+', 'e') : String(Math.round(k));
}

// comparison: the Comparison; guard(fn) -> bool; scenes: names offered; actions: { pause(bool),
// step(), reset(), restoreDefaults(), copyLink(), copyEmbed() }.
export function createPanel(container, { comparison, guard, scenes, actions }) {
  const gui = new GUI({ container, title: 'shared controls', width: 260 });
  gui.domElement.classList.add('compare-panel');
  const model = {};
  const controllers = new Map(); // key -> { controller, set(value), update() }

  function readModel() {
    const setup = comparison.setup;
    Object.assign(model, setup);
    model.viewCount = setup.views.length;
    const first = setup.views[0].substeps;
    model.substeps = first;
  }
  readModel();

  // A controller bound to model[key]; apply(value) changes the comparison and may throw.
  function add(folder, key, label, apply, ...args) {
    const controller = folder.add(model, key, ...args).name(label);
    controller.onChange((value) => {
      if (!guard(() => apply(value))) {
        readModel();
        controller.updateDisplay();
      }
    });
    controllers.set(key, { controller, set: (value) => controller.setValue(value), update: () => controller.updateDisplay() });
    return controller;
  }

  const shared = (key) => (value) => comparison.set({ [key]: value });
  const linear = (folder, key, label) => {
    const { min, max, step, unit } = RANGES[key];
    return add(folder, key, unit ? `${label} (${unit})` : label, shared(key), min, max, step);
  };

  const sceneFolder = gui.addFolder('Scene');
  const sceneOptions = Object.fromEntries(scenes.map((name) => [SCENES[name].label, name]));
  add(sceneFolder, 'scene', 'scene', shared('scene'), sceneOptions);
  add(sceneFolder, 'resolution', 'resolution', shared('resolution'), RANGES.resolution.min, RANGES.resolution.max, 1);
  add(sceneFolder, 'start', 'start', shared('start'), Object.fromEntries(Object.entries(STARTS).map(([k, v]) => [v, k])));
  linear(sceneFolder, 'pressure', 'gas nRT, pressure ball');

  const physics = gui.addFolder('Physics, all views');
  const stiffness = addLogSlider(physics, {
    label: 'stiffness k (N/m)',
    min: Math.log10(RANGES.stiffness.min),
    max: Math.log10(RANGES.stiffness.max),
    step: 0.01,
    format: formatStiffness,
    get: () => comparison.setup.stiffness,
    set: (value) => guard(() => comparison.set({ stiffness: Number(value.toPrecision(3)) })),
  });
  controllers.set('stiffness', { controller: stiffness.controller, set: stiffness.setValue, update: stiffness.update });
  linear(physics, 'springDamping', 'spring damping');
  linear(physics, 'drag', 'air drag');
  linear(physics, 'pbdStiffness', 'PBD stiffness');
  linear(physics, 'gravity', 'gravity y');
  // The material: the simple model's k above, or Neo-Hookean from E and nu (XPBD within its stiffness
  // number, VBD and the integrators; a view under PBD, or under XPBD beyond it, reports the C API's
  // refusal, which names the substeps XPBD would need).
  add(physics, 'material', 'material', shared('material'), Object.fromEntries(Object.entries(MATERIALS).map(([k, v]) => [v, k])));
  // The demo's materials with real values (settings.js MATERIAL_PRESETS), one click each: Neo-Hookean
  // with their E and nu (any view but PBD), or back to the simple k.
  const realMaterials = ['simple', 'gelatin', 'silicone', 'rubber'].map((key) => [key, MATERIAL_PRESETS[key]]);
  const materialButtons = {};
  for (const [key, preset] of realMaterials) {
    materialButtons[key] = () =>
      guard(() =>
        comparison.set(preset.neoHookean ? { material: 'neo-hookean', youngsModulus: preset.params.youngsModulus, poissonRatio: preset.params.poissonRatio } : { material: 'simple' }),
      );
    physics.add(materialButtons, key).name(`material: ${preset.label}`);
  }
  const youngs = addLogSlider(physics, {
    label: "Young's modulus E (Pa)",
    min: Math.log10(RANGES.youngsModulus.min),
    max: Math.log10(RANGES.youngsModulus.max),
    step: 0.05,
    format: (e) => e.toExponential(1).replace('e+', 'e'),
    get: () => comparison.setup.youngsModulus,
    set: (value) => guard(() => comparison.set({ youngsModulus: Number(value.toPrecision(3)) })),
  });
  controllers.set('youngsModulus', { controller: youngs.controller, set: youngs.setValue, update: youngs.update });
  linear(physics, 'poissonRatio', "Poisson's ratio ν");

  const time = gui.addFolder('Time & views');
  // The usual rates, plus whatever rate the URL asked for (any value in RANGES.hz).
  const rates = [...new Set([...TIME_STEPS_HZ, comparison.setup.hz])].sort((a, b) => b - a);
  add(time, 'hz', 'time step dt', shared('hz'), Object.fromEntries(rates.map((hz) => [`1/${hz} s`, hz])));
  add(time, 'substeps', 'substeps, all views', (n) => comparison.setAllSubsteps(n), RANGES.substeps.min, 100, 1);
  add(time, 'viewCount', 'views', (n) => comparison.setViewCount(n), MIN_VIEWS, MAX_VIEWS, 1);

  const run = gui.addFolder('Run');
  const runModel = { paused: false };
  const pause = run.add(runModel, 'paused').name('pause');
  pause.onChange((paused) => actions.pause(paused));
  controllers.set('paused', { controller: pause, set: (value) => pause.setValue(value), update: () => pause.updateDisplay() });
  const COPY_LABEL = 'copy link to this comparison';
  const buttons = {
    step: () => guard(actions.step),
    reset: () => guard(actions.reset),
    restoreDefaults: () => guard(actions.restoreDefaults), // the comparison then calls sync()
    copyLink: () =>
      guard(() =>
        actions.copyLink().then(
          () => {
            copy.name('link copied ✓');
            setTimeout(() => copy.name(COPY_LABEL), 2000);
          },
          () => {}, // already reported
        ),
      ),
  };
  run.add(buttons, 'reset').name('reset all views');
  run.add(buttons, 'step').name('step one frame');
  run.add(buttons, 'restoreDefaults').name('restore defaults');
  const copy = run.add(buttons, 'copyLink').name(COPY_LABEL);
  run.add({ copyEmbed: () => guard(actions.copyEmbed) }, 'copyEmbed').name('copy embed code…');

  // Small screens: start folded; the title bar opens it.
  if (window.innerWidth < 760) gui.close();

  return {
    gui,
    // Shows the comparison's current setup in every control.
    sync() {
      readModel();
      for (const { update } of controllers.values()) update();
    },
    syncPaused(paused) {
      runModel.paused = paused;
      pause.updateDisplay();
    },
    // Same effect as moving the control, for the test hook.
    set(key, value) {
      const entry = controllers.get(key);
      if (!entry) throw new Error(`no shared control "${key}"`);
      entry.set(value);
    },
    press(name) {
      const button = gui.controllersRecursive().find((c) => c.property === name && c.$button);
      if (!button) throw new Error(`no button "${name}"`);
      button.$button.click();
    },
  };
}
