// The lil-gui control panel. Each controller's onChange hands its value to the simulation through
// guard(); a value the C API rejects is reported and the controller snaps back to what the body
// still holds. set()/press() drive the same controllers for the test hook.
import GUI from 'lil-gui';
import { addLogSlider } from './log_slider.js';
import { RANGES } from './settings.js';

// 2 significant digits in scientific form for the compliance read-outs, "0" for exactly zero.
function formatScientific(value) {
  return value === 0 ? '0' : value.toExponential(1).replace('e+', 'e');
}

// guard(fn) runs fn and returns true, or shows the error and returns false.
// actions: { togglePause(paused), step(), reset(), squash() }; view: { wireframe } setter object.
export function createPanel({ sim, guard, actions, view }) {
  const gui = new GUI({ title: 'softbody controls', width: 270 });
  gui.domElement.classList.add('panel');
  const model = { ...sim.settings, paused: false, wireframe: false };
  const controllers = new Map(); // key -> { controller, set(value) }

  function revert(key, controller) {
    model[key] = sim.settings[key];
    controller.updateDisplay();
  }

  // A plain controller bound to model[key].
  function addSetting(folder, key, label, ...args) {
    const controller = folder.add(model, key, ...args).name(label);
    controller.onChange((value) => {
      if (!guard(() => sim.set(key, value))) revert(key, controller);
    });
    controllers.set(key, { controller, set: (value) => controller.setValue(value) });
    return controller;
  }

  function addLinear(folder, key, label) {
    const { min, max, step, unit } = RANGES[key];
    return addSetting(folder, key, unit ? `${label} (${unit})` : label, min, max, step);
  }

  // Compliances span orders of magnitude: a log slider (log_slider.js) whose leftmost position is
  // exactly 0.
  function addLog(folder, key, label) {
    const { min, max, step, unit } = RANGES[key];
    const slider = addLogSlider(folder, {
      label: `${label} (${unit})`,
      min,
      max,
      step,
      zeroAtMin: true,
      format: formatScientific,
      get: () => model[key],
      set: (value) => {
        if (!guard(() => sim.set(key, value))) return false;
        model[key] = value;
        return true;
      },
    });
    controllers.set(key, { controller: slider.controller, set: slider.setValue });
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
  };
  run.add(buttons, 'step').name('step one frame');
  run.add(buttons, 'reset').name('reset');
  run.add(buttons, 'squash').name('squash');

  const body = gui.addFolder('Body');
  addSetting(body, 'shape', 'shape', ['box', 'ball']);
  addSetting(body, 'resolution', 'resolution', RANGES.resolution.min, RANGES.resolution.max, 1);
  addLog(body, 'edgeCompliance', 'edge compliance');
  addLog(body, 'volumeCompliance', 'volume compliance');
  addLinear(body, 'density', 'density');
  addLinear(body, 'damping', 'damping');
  addLinear(body, 'grabRadius', 'grab radius');

  const world = gui.addFolder('Ground & world');
  addLinear(world, 'restitution', 'restitution');
  addLinear(world, 'friction', 'friction');
  addLinear(world, 'gravity', 'gravity y');
  addLinear(world, 'substeps', 'substeps');

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
    // Shows paused state changes made outside the panel (e.g. keyboard).
    sync() {
      model.paused = sim.paused;
      pause.updateDisplay();
    },
  };
}
