// One view's simulation: its own world with one body, built from the shared setup, advanced by its
// own solver and substep count, and frozen when it explodes (explosion.js). Bridge calls only; no
// DOM, so node scripts run lanes exactly as the page does (scripts/compare_presets.mjs).
//
// Stiffness: ONE value k (N/m) for every view. Each edge spring gets k, i.e. edge compliance 1/k.
// Each tet's volume term U = kV/2 (6V - 6V0)^2 gets kV = k / L^4, L the mean rest edge length of
// the body: a tet of edge L has 6V ~ L^3, so a relative volume change e stores kV/2 L^6 e^2 = k/2
// L^2 e^2, the same as one of its springs stretched by e. So the volume term is about as stiff as the
// springs, whatever the resolution, and volume compliance = L^4 / k. (Bodies without tets ignore it.)
import { ErrorCode, Material, SoftbodyError } from '../softbody.js';
import { EXPLOSION_FACTOR, energyScale, explosionReason, totalEnergy } from './explosion.js';
import { SCENES } from './scenes.js';
import { SQUASH_START } from './setup.js';

const GRAB_RADIUS = 0.15; // m, as in the demo: the pointer holds a patch, not one particle

// Mean rest length of the body's springs (m), from its creation-state positions.
function meanEdgeLength(body) {
  const p = body.positions;
  const e = body.edges;
  let sum = 0;
  for (let i = 0; i < body.edgeCount; i++) {
    const a = 3 * e[2 * i];
    const b = 3 * e[2 * i + 1];
    sum += Math.hypot(p[a] - p[b], p[a + 1] - p[b + 1], p[a + 2] - p[b + 2]);
  }
  return body.edgeCount ? sum / body.edgeCount : 1;
}

// The body parameters a setup implies (see the stiffness note above).
export function bodyParams(setup, meanEdge, { usesPressure = false } = {}) {
  const params = {
    edgeCompliance: 1 / setup.stiffness,
    volumeCompliance: meanEdge ** 4 / setup.stiffness,
    springDamping: setup.springDamping,
    damping: setup.drag,
    pbdStiffness: setup.pbdStiffness,
    grabRadius: GRAB_RADIUS,
    // The Neo-Hookean material's; a simple body holds them unused.
    youngsModulus: setup.youngsModulus,
    poissonRatio: setup.poissonRatio,
  };
  if (usesPressure) params.pressure = setup.pressure;
  return params;
}

export class Lane {
  constructor(softbody) {
    this.softbody = softbody;
    this.world = null;
    this.body = null;
    this.meanEdge = 1;
    this.usesPressure = false;
    this.stiffness = 1;
    this.gravity = -9.81;
    this.start = null; // { elastic, k0, mass, height } of the start state, for the explosion bound
    this.scale = Infinity; // J, the energy scale of explosion.js
    this.limit = Infinity; // J, EXPLOSION_FACTOR x scale
    this.exploded = null; // null, or why (a short phrase)
    this.explodedAt = null; // simulated time of the explosion, s
    this.sane = null; // positions of the last state with energy within the scale (shown once exploded)
    this.saneAt = 0; // its simulated time, s
    this.stats = null; // body.stats() after the last step or reset
    this.energy = 0; // total energy after the last step or reset, J
    this.stepMs = 0; // wall time of the last world.step, ms
  }

  // Builds this lane's world and body for the setup and view ({ solver, substeps }). A failure
  // leaves the previous world and body in place.
  build(setup, view) {
    const scene = SCENES[setup.scene];
    if (!scene) throw new Error(`unknown scene "${setup.scene}"`);
    const world = this.softbody.createWorld();
    let body;
    let meanEdge;
    try {
      world.setSubsteps(view.substeps);
      world.setGravity(0, setup.gravity, 0);
      body = scene.build(world, setup.resolution);
      meanEdge = meanEdgeLength(body);
      if (scene.params) body.setParams(scene.params);
      // Compliances first: force-based solvers refuse a body with compliance 0 (the default).
      body.setParams(bodyParams(setup, meanEdge, scene));
      body.setSolver(view.solver);
      body.setParam('iterations', view.iterations ?? 1);
      // After the solver: PBD refuses Neo-Hookean, and XPBD beyond its stiffness number, with a message
      // that says so (and names the substeps XPBD would need).
      if (setup.material === 'neo-hookean') body.setParam('material', Material.neoHookean);
      if (scene.clamped) {
        const p = body.positions;
        for (let i = 0; i < body.vertexCount; i++) if (scene.clamped(p[3 * i], p[3 * i + 1], p[3 * i + 2])) body.pin(i);
      }
    } catch (error) {
      world.destroy();
      throw error;
    }
    const old = this.world;
    this.world = world;
    this.body = body;
    this.meanEdge = meanEdge;
    this.usesPressure = Boolean(scene.usesPressure);
    this.stiffness = setup.stiffness;
    this.gravity = setup.gravity;
    this.scene = scene;
    this.material = setup.material;
    this.youngsModulus = setup.youngsModulus;
    this.setup = { ...setup };
    // Scenes with a free end (the cantilever): its vertices and their rest heights, for the tip sag.
    this.tip = null;
    if (scene.tip) {
      const p = body.positions;
      const vertices = [];
      for (let i = 0; i < body.vertexCount; i++) if (scene.tip(p[3 * i], p[3 * i + 1], p[3 * i + 2])) vertices.push(i);
      this.tip = { vertices, restY: vertices.map((i) => p[3 * i + 1]) };
    }
    if (old) old.destroy();
    this.restart(setup.start);
  }

  // Back to the creation state, then the start action; clears an explosion.
  restart(start) {
    this.body.reset();
    if (start === 'squash') this.body.squash(SQUASH_START);
    this.exploded = null;
    this.explodedAt = null;
    this.stepMs = 0;
    const stats = this.body.stats();
    this.start = { elastic: stats.elasticEnergy, k0: this.stiffness, mass: stats.mass, height: stats.center[1] };
    this._updateLimit();
    this._observe(stats);
    this.sane = Float32Array.from(this.body.positions);
    this.saneAt = 0;
  }

  // Shared physical parameters on the running body. All or nothing: on a C API error the values
  // set so far are put back and the error propagates.
  setParams(setup) {
    const next = bodyParams(setup, this.meanEdge, { usesPressure: this.usesPressure });
    const before = {};
    for (const name of Object.keys(next)) before[name] = this.body.getParam(name);
    try {
      // Every k in range keeps both compliances > 0, so force-based solvers accept any order.
      for (const [name, value] of Object.entries(next)) this.body.setParam(name, value);
    } catch (error) {
      for (const [name, value] of Object.entries(before)) {
        try {
          this.body.setParam(name, value);
        } catch {
          // the value was accepted before, so it is accepted again
        }
      }
      throw error;
    }
    this.stiffness = setup.stiffness;
    this.youngsModulus = setup.youngsModulus;
    this.setup = { ...this.setup, ...setup };
    this._updateLimit();
  }

  // Beam theory's sag of the free end for this body's E and gravity, m; null when the scene has no
  // free end or the material no E.
  get beamSag() {
    if (!this.scene?.beamSag || this.material !== 'neo-hookean') return null;
    return this.scene.beamSag({ youngsModulus: this.youngsModulus, gravity: this.gravity });
  }

  setGravity(g) {
    this.world.setGravity(0, g, 0);
    this.gravity = g;
    this.setup = { ...this.setup, gravity: g };
    this._updateLimit();
  }

  setSolver(name) {
    this.body.setSolver(name);
  }

  setSubsteps(n) {
    this.world.setSubsteps(n);
  }

  setIterations(n) {
    this.body.setParam('iterations', n);
  }

  // The free end's sag at static equilibrium on this mesh and material, m: where every solver's
  // settled answer should land (Body.solveStatic on the same setup in a scratch world; ~10 ms for
  // the cantilever, so cached per setup). null without a free end, or when the solve is refused
  // (a compliance of 0 is infinitely stiff) or does not converge.
  staticSag() {
    if (!this.tip) return null;
    const key = JSON.stringify(this.setup);
    if (this._static?.key === key) return this._static.sag;
    const scratch = new Lane(this.softbody);
    let sag = null;
    try {
      scratch.build(this.setup, { solver: 'implicitEuler', substeps: 1 });
      scratch.body.solveStatic(1e-8);
      sag = scratch.tipSag();
    } catch (error) {
      if (!(error instanceof SoftbodyError)) throw error;
    } finally {
      scratch.destroy();
    }
    this._static = { key, sag };
    return sag;
  }

  // How far the free end hangs below its rest height, m (mean over its vertices); null without one.
  tipSag() {
    if (!this.tip) return null;
    const p = this.body.positions;
    let sum = 0;
    this.tip.vertices.forEach((i, k) => (sum += this.tip.restY[k] - p[3 * i + 1]));
    return sum / this.tip.vertices.length;
  }

  get solver() {
    return this.body.solver;
  }

  get substeps() {
    return this.world.substeps;
  }

  // One frame of dt seconds, unless exploded. `time` is the comparison's clock after this frame
  // (for explodedAt). Errors other than DIVERGED propagate.
  step(dt, time) {
    if (this.exploded) return false;
    const started = performance.now();
    try {
      this.world.step(dt);
    } catch (error) {
      if (error?.code !== ErrorCode.DIVERGED) throw error;
      // The C side froze the body at its last finite shape; stats().finite is now false.
    } finally {
      this.stepMs = performance.now() - started;
    }
    const stats = this.body.stats();
    this._observe(stats);
    const reason = explosionReason(stats, this.limit);
    if (reason) {
      this.exploded = reason;
      this.explodedAt = time;
      // Frozen from here on (never stepped until restart, which resets the body): show the last
      // sane shape rather than the debris (explosion.js). Written through the bridge's view.
      this.body.positions.set(this.sane);
    } else if (this.energy <= this.scale) {
      this.sane.set(this.body.positions);
      this.saneAt = time;
    }
    return true;
  }

  _observe(stats) {
    this.stats = stats;
    this.energy = totalEnergy(stats);
  }

  _updateLimit() {
    if (!this.start) return;
    this.scale = energyScale(this.start, this.stiffness, this.gravity);
    this.limit = EXPLOSION_FACTOR * this.scale;
  }

  destroy() {
    this.world?.destroy();
    this.world = null;
    this.body = null;
  }
}
