// The integrator comparison page: the same soft body, from the same start, in 2 to 4 views, each
// advanced by its own solver; shared controls, fair grabbing, a heads-up line per view and a live
// energy/volume plot. This file wires the parts together and runs the frame loop.
//
// Query parameters: the setup (see setup.js fromSearchParams: scene, res, start, k, c, drag, pbd,
// g, p, hz, solvers, substeps, views) and preset=<id>; ?test selects cheap rendering (no MSAA,
// pixel ratio 1, small shadow maps) for software WebGL, with identical physics.
//
// window.app (test_hook.js) exposes the comparison, the plot's series and helpers for the tests.
import '../style.css';
import './compare.css';
import { sharedSoftbody } from '../wasm_module.js';
import { Alerts } from '../alerts.js';
import { embedSnippets } from '../embed/embed_code.js';
import { embedAddresses, showEmbedDialog } from '../embed_dialog.js';
import { Grabber } from '../grabber.js';
import { touchGate } from './touch_gate.js';
import { Comparison } from './comparison.js';
import { FairGrab } from './fair_grab.js';
import { createPanel } from './panel.js';
import { Plot } from './plot.js';
import { PRESETS } from './presets.js';
import { SCENES, availableScenes } from './scenes.js';
import { DEFAULT_SETUP, SOLVER_LABELS, sameSetup } from './setup.js';
import { exposeTestHook } from './test_hook.js';
import { UrlWriter, readUrl } from './url_state.js';
import { ViewCell } from './view_cell.js';
import { MultiView } from './views.js';

// One colour per view, for its body, its swatch and its plot line (distinct for colour-blind
// viewers too: coral, blue, green, purple differ in lightness as well as hue).
const COLORS = ['#ff5a3c', '#2f6fdf', '#1f9d55', '#8b4fd8'];
const MIN_CELL_WIDTH = 240; // px: below this the views wrap into two columns, then stack

const DEFAULT_STORY =
  'The same body from the same start under different integrators. Push the stiffness up and watch ' +
  'which one gives first — or pick a story above.';

const lowCost = new URLSearchParams(window.location.search).has('test');
const alerts = new Alerts(document.getElementById('toasts'));
const app = (window.app = { ready: false, frames: 0, errors: alerts.messages });

const guard = (fn) => alerts.guard(fn);

function seriesLabel(index, view) {
  const passes = (view.iterations ?? 1) !== 1 ? ` ×${view.iterations}` : '';
  return `${index + 1} · ${SOLVER_LABELS[view.solver]} @${view.substeps}${passes}`;
}

async function init() {
  const softbody = await sharedSoftbody();
  const scenes = availableScenes();
  const initial = readUrl(scenes);
  for (const note of initial.notes) alerts.error(note);

  const viewsElement = document.getElementById('views');
  const cellsElement = document.getElementById('cells');
  const views = new MultiView(viewsElement, { lowCost });
  const plot = new Plot(document.getElementById('plot'));
  const urlWriter = new UrlWriter();
  const story = document.getElementById('story');
  let cells = [];
  let panel = null;
  let grabber = null;
  let preset = initial.preset;
  let scene = null;

  const fairGrab = new FairGrab(
    () => comparison.lanes,
    (error) => alerts.error(error),
  );

  function dropGrab() {
    grabber?.cancel();
    fairGrab.cancel();
  }

  // Columns: all views side by side when each gets MIN_CELL_WIDTH, else two columns, else stacked.
  function layoutColumns() {
    const n = cells.length;
    const width = viewsElement.clientWidth;
    const columns = width >= n * MIN_CELL_WIDTH ? n : width >= 2 * MIN_CELL_WIDTH ? 2 : 1;
    cellsElement.style.setProperty('--columns', String(columns));
    cellsElement.style.setProperty('--rows', String(Math.ceil(n / columns)));
  }
  new ResizeObserver(layoutColumns).observe(viewsElement);

  function rebuilt(lanes) {
    dropGrab();
    if (cells.length !== lanes.length) {
      for (const cell of cells) cell.dispose();
      cells = lanes.map(
        (_, i) =>
          new ViewCell(cellsElement, i, COLORS[i], {
            solver: (name) => guard(() => comparison.setView(i, { solver: name })),
            substeps: (n) => guard(() => comparison.setView(i, { substeps: n })),
            iterations: (n) => guard(() => comparison.setView(i, { iterations: n })),
          }),
      );
      layoutColumns();
    }
    const setup = comparison.setup;
    cells.forEach((cell, i) => cell.sync(setup.views[i]));
    views.setViews(lanes.map((lane, i) => ({ element: cells[i].element, body: lane.body, color: COLORS[i] })));
    if (setup.scene !== scene) {
      scene = setup.scene;
      views.lookAt(SCENES[scene].target);
    }
    views.setGuides(SCENES[setup.scene], lanes[0]);
    plot.setSeries(setup.views.map((view, i) => ({ label: seriesLabel(i, view), color: COLORS[i] })));
  }

  function changed(setup) {
    if (preset && !sameSetup(preset.setup, setup)) preset = null;
    story.textContent = preset ? preset.story : DEFAULT_STORY;
    for (const button of document.querySelectorAll('[data-preset]')) {
      button.setAttribute('aria-pressed', String(button.dataset.preset === preset?.id));
    }
    setup.views.forEach((view, i) => {
      cells[i]?.sync(view);
      plot.setLabel(i, seriesLabel(i, view));
    });
    panel?.sync();
    if (comparison?.lanes.length) views.setGuides(SCENES[setup.scene], comparison.lanes[0]);
    urlWriter.write(setup, preset);
  }

  const comparison = new Comparison(softbody, null, {
    rebuilt,
    restarted: () => {
      dropGrab();
      plot.clear();
    },
    changed,
    error: (error) => alerts.error(error),
  });
  try {
    comparison.load(initial.setup);
  } catch (error) {
    // A URL setup the C API refused (should not happen: setup.js keeps values in range).
    alerts.error(error);
    preset = null;
    comparison.load(readUrl([]).setup);
  }

  // Preset buttons.
  const presetBar = document.getElementById('presets');
  for (const p of PRESETS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.preset = p.id;
    button.textContent = p.title;
    button.title = p.story;
    button.addEventListener('click', () => {
      const previous = preset;
      preset = p;
      if (!guard(() => comparison.load(p.setup))) preset = previous;
      changed(comparison.setup);
    });
    presetBar.append(button);
  }
  changed(comparison.setup);

  touchGate(views.canvas);
  grabber = new Grabber({
    canvas: views.canvas,
    camera: views.camera,
    controls: views.controls,
    scene: views.scene,
    getTime: () => comparison.time,
    onError: (error) => alerts.error(error),
    // The press picks the view; the grab then goes to every view through FairGrab.
    pick: (event) => {
      const view = views.viewAt(event.clientX, event.clientY);
      if (!view || comparison.lanes[view.index].exploded) return null;
      fairGrab.focus(view.index);
      return { rect: view.rect, object: view.object, body: fairGrab };
    },
  });

  panel = createPanel(document.getElementById('controls'), {
    comparison,
    guard,
    scenes,
    actions: {
      pause: (paused) => (comparison.paused = paused),
      step: () => {
        comparison.paused = true;
        panel.syncPaused(true);
        comparison.requestStep();
      },
      reset: () => {
        dropGrab(); // reset clears the grab on the C side too
        comparison.restart();
      },
      // The comparison as a <soft-body compare="..."> tag and an iframe of embed.html. The element
      // gives every view one substep count: the first view's (said in a note when they differ).
      copyEmbed: () => {
        const setup = comparison.setup;
        // The element has no clamped beam: the cantilever becomes a box, with a note.
        // Nor a held sheet of cloth: the sheet becomes the box too.
        const scene = { pressureBall: 'pressure-ball', cantilever: 'box', sheet: 'box' }[setup.scene] ?? setup.scene;
        const substeps = setup.views[0].substeps;
        const iterations = setup.views[0].iterations ?? 1;
        const neoHookean = setup.material === 'neo-hookean';
        const attributes = {
          scene,
          resolution: setup.resolution,
          compare: setup.views.map((v) => v.solver),
          start: setup.start,
          stiffness: setup.stiffness,
          'spring-damping': setup.springDamping,
          damping: setup.drag,
          'pbd-stiffness': setup.pbdStiffness,
          density: SCENES[setup.scene].params?.density ?? null,
          pressure: SCENES[setup.scene].usesPressure ? setup.pressure : null,
          gravity: setup.gravity,
          substeps,
          iterations,
          material: neoHookean ? 'neo-hookean' : null,
          'youngs-modulus': neoHookean ? setup.youngsModulus : null,
          'poisson-ratio': neoHookean ? setup.poissonRatio : null,
          dt: 1 / setup.hz,
          plot: 'both',
          autoplay: true,
        };
        const addresses = { ...embedAddresses(), title: `${setup.views.map((v) => SOLVER_LABELS[v.solver]).join(' vs ')}, live` };
        const notes = [];
        if (setup.views.some((v) => v.substeps !== substeps)) notes.push(`The views here use different substeps; a figure gives every view the same, so the snippets use the first view's ${substeps}.`);
        if (setup.views.some((v) => (v.iterations ?? 1) !== iterations)) notes.push(`The views use different iterations per substep; a figure gives every view the first view's ${iterations}.`);
        if (setup.scene === 'cantilever') notes.push('A figure has no clamped beam yet: the snippets show the box with the same material.');
        if (setup.scene === 'sheet') notes.push('A figure has no hanging sheet yet: the snippets show the box with the same solvers.');
        const note = notes.join(' ');
        showEmbedDialog({ make: (options) => embedSnippets({ ...attributes, ...options }, addresses), note });
      },
      // Back to the page as it opens without parameters: DEFAULT_SETUP, no preset. load() rebuilds
      // every view and reports the change (panel, view menus, plot labels, URL).
      restoreDefaults: () => {
        const previous = preset;
        preset = null;
        try {
          comparison.load(DEFAULT_SETUP);
        } catch (error) {
          preset = previous;
          throw error;
        }
      },
      // Resolves when copied; the panel then says so on the button.
      copyLink: () => {
        urlWriter.flush();
        return navigator.clipboard.writeText(window.location.href).catch(() => {
          alerts.error(new Error('could not copy to the clipboard; the address bar has the link'));
          throw new Error('not copied');
        });
      },
    },
  });
  exposeTestHook(app, { comparison, views, plot, panel, grabber, fairGrab, cells: () => cells, urlWriter });

  const bead = { mesh: grabber.bead, vertex: -1 };
  function frame(now) {
    requestAnimationFrame(frame);
    // Nothing here may stop the loop: errors are shown and the next frame runs.
    let stepped = false;
    guard(() => {
      grabber.update();
      stepped = comparison.advance();
    });
    guard(() => {
      const lanes = comparison.lanes;
      if (stepped) {
        plot.beginSample(comparison.time);
        for (let i = 0; i < lanes.length; i++) {
          const lane = lanes[i];
          // The frame a view explodes is still drawn (the line shoots off the top), unless its
          // state went non-finite (the C side then restored an older shape: not a sample).
          const live = !lane.exploded || (lane.explodedAt === comparison.time && lane.stats.finite);
          plot.sample(i, live ? lane.energy : NaN, live ? lane.stats.volumeRatio : NaN, Boolean(lane.exploded));
        }
      }
      for (let i = 0; i < lanes.length; i++) cells[i].frame(now, lanes[i], stepped);
      bead.vertex = grabber.dragging ? grabber.vertex : -1;
      views.render(lanes, bead.vertex >= 0 ? bead : null);
      plot.draw();
    });
    app.frames += 1;
  }
  requestAnimationFrame(frame);
  document.body.classList.add('ready');
  app.ready = true;
}

init().catch((error) => {
  alerts.error(error);
  document.body.classList.add('failed');
});
