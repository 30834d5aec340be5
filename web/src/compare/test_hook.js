// window.app on the comparison page: what the browser tests (tests/browser/compare_page.test.mjs)
// read and drive. Changes go through the same controls the user touches (panel controllers, the
// views' menus, the preset buttons); reads go through the bridge.
import { cloneSetup } from './setup.js';

export function exposeTestHook(app, { comparison, views, plot, panel, grabber, fairGrab, cells, urlWriter }) {
  function laneInfo(lane, i) {
    const stats = lane.stats;
    return {
      index: i,
      solver: lane.solver, // read back from the C side
      substeps: lane.substeps,
      exploded: lane.exploded,
      explodedAt: lane.explodedAt,
      finite: stats.finite,
      energy: lane.energy,
      limit: lane.limit,
      volumeRatio: stats.volumeRatio,
      maxEdgeStrain: stats.maxEdgeStrain,
      center: stats.center,
      grabbedVertex: stats.grabbedVertex,
      time: lane.world.time,
      vertexCount: lane.body.vertexCount,
      iterations: lane.body.getParam('iterations'),
      material: lane.body.getParam('material'),
      tipSag: lane.tipSag(), // m, the cantilever's free end (null for other scenes)
      beamSag: lane.beamSag, // m, beam theory's (null without a free end or an E)
      staticSag: lane.staticSag(), // m, the free end at static equilibrium on this mesh (null without one)
      params: {
        edgeCompliance: lane.body.getParam('edgeCompliance'),
        volumeCompliance: lane.body.getParam('volumeCompliance'),
        springDamping: lane.body.getParam('springDamping'),
        damping: lane.body.getParam('damping'),
        pbdStiffness: lane.body.getParam('pbdStiffness'),
      },
      meanEdge: lane.meanEdge,
      hud: Object.fromEntries(Object.entries(cells()[i].fields).map(([key, el]) => [key, el.textContent])),
      label: cells()[i].explodedLabel.hidden ? null : cells()[i].explodedLabel.textContent,
    };
  }

  // defineProperties, not Object.assign: assign would freeze the getters' current values.
  Object.defineProperties(app, Object.getOwnPropertyDescriptors({
    comparison,
    views,
    get time() {
      return comparison.time;
    },
    get paused() {
      return comparison.paused;
    },
    setup: () => cloneSetup(comparison.setup),
    lanes: () => comparison.lanes.map(laneInfo),
    lane: (i) => comparison.lanes[i],
    // The plot's lines, one per view: { label, color, samples, finiteSamples, exploded, lastEnergy, lastVolume }.
    get plot() {
      return { series: plot.describe() };
    },
    // A shared control, as if moved by the user (panel.js names: stiffness, springDamping, scene...).
    set: (key, value) => panel.set(key, value),
    press: (name) => panel.press(name),
    // A view's menu or substep field, changed through its DOM element.
    setView(i, { solver, substeps, iterations }) {
      const cell = cells()[i];
      if (solver !== undefined) {
        cell.solverSelect.value = solver;
        cell.solverSelect.dispatchEvent(new Event('change'));
      }
      if (substeps !== undefined) {
        cell.substepsInput.value = String(substeps);
        cell.substepsInput.dispatchEvent(new Event('change'));
      }
      if (iterations !== undefined) {
        cell.iterationsInput.value = String(iterations);
        cell.iterationsInput.dispatchEvent(new Event('change'));
      }
    },
    // The cantilever's clamp and beam-theory line: { clamp, beam (visible), beamY (m) }.
    guides: () => (views.guides ? { clamp: views.guides.clamp.visible, beam: views.guides.beam.visible, beamY: views.guides.beam.position.y, settled: views.guides.settled.visible, settledY: views.guides.settled.position.y } : null),
    // Clicks a preset button.
    preset(id) {
      const button = document.querySelector(`[data-preset="${id}"]`);
      if (!button) throw new Error(`no preset "${id}"`);
      button.click();
    },
    // The query string, with any pending write done.
    url() {
      urlWriter.flush();
      return window.location.search;
    },
    project: (i, point) => views.project(i, point),
    // Screen point of view i's centre of mass: a ray through it meets the body's near side.
    bodyScreenPoint: (i) => views.project(i, comparison.lanes[i].stats.center),
    grab: () => ({ dragging: grabber.dragging, vertex: grabber.vertex, primary: fairGrab.primary, held: fairGrab.held.length }),
    cellCount: () => document.querySelectorAll('.cell').length,
  }));
}
