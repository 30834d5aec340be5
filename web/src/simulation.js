// The physics side of the page: one world with the page's body (built from the settings), the bodies
// "add body" and the scenes drop beside it, and the scene's obstacles, stepped with a fixed dt. Every
// change the panel or the test hook makes goes through set(), so both take the same path. Methods
// throw the bridge's SoftbodyError; callers decide how to show it.
import { addDropBody, placedCopy } from './scenes/scene_bodies.js';
import { addSceneColliders, applySceneAir, scenePreset, spinPose } from './scenes/scene_presets.js';
import { Material, POSITION_BASED_SOLVERS } from './softbody.js';
import { ThreadTuner } from './thread_tuner.js';
import { autoThreads } from './wasm_module.js';
import { BODY_PARAMS, DEFAULTS, DT, LATTICE_SHAPES, MATERIAL_PRESETS, MAX_EXTRA_BODIES, SHAPES, SQUASH_FACTOR, SQUASH_RELEASE_S, VBD_SPARE_COMPLIANCE } from './settings.js';

// The panel's body parameters a cloth body takes as they are (its stiffness, mass and solver are its own).
const CLOTH_PARAMS = new Set(['damping', 'restitution', 'friction', 'grabRadius', 'iterations']);

// The gap a body's surface keeps from itself under self-collision: half its mean surface edge (m),
// within the C API's [0.0005, 0.5] (a gap of ~0.4-1 spacing keeps edges from passing between vertices).
export function selfThickness(body) {
  const p = body.positions;
  const t = body.triangles;
  let sum = 0;
  for (let i = 0; i < t.length; i += 3) {
    const a = 3 * t[i], b = 3 * t[i + 1];
    sum += Math.hypot(p[a] - p[b], p[a + 1] - p[b + 1], p[a + 2] - p[b + 2]);
  }
  const mean = t.length ? sum / (t.length / 3) : 0.02;
  return Math.min(0.5, Math.max(0.0005, 0.5 * mean));
}

export class Simulation {
  // onBodyChange(body, source) runs after a new body replaced the old one (the mesh must rebind);
  // source is what it was made from (see this.source).
  // onBodiesChange() runs after extra bodies or colliders came or went (their meshes must follow).
  constructor(softbody, { onBodyChange = () => {}, onBodiesChange = () => {} } = {}) {
    this.softbody = softbody;
    this.onBodyChange = onBodyChange;
    this.onBodiesChange = onBodiesChange;
    this.extras = []; // bodies dropped by "add body" and by scenes, beside this.body
    this.colliders = []; // the scene's obstacles: { collider, spec, position, rotation } (scene_presets.js)
    this.scene = 'single';
    this.heldCollider = null; // the obstacle the pointer is dragging (its scripted motion pauses)
    this.settings = { ...DEFAULTS }; // the values the C side currently holds
    this.paused = false;
    this._stepRequested = false;
    this.stepMs = 0; // wall time of the last world.step, ms
    // Step time per tet of the bodies in the world, ms, averaged over about 20 steps (null before
    // any step with tets): what the import messages price a new body's tets at.
    this.msPerTet = null;
    this._contactMs = 0; // contact's wall time summed over the steps since contactSummary() last read it, ms
    this._contactSteps = 0;
    this.world = softbody.createWorld();
    this.threads = new ThreadTuner(this.world);
    this._threadTets = -1; // the tet count threads were last fitted to
    this.world.setSubsteps(this.settings.substeps);
    this.world.setGravity(0, this.settings.gravity, 0);
    this.body = null;
    // What the current body was made from, at rest: { kind: 'lattice' | 'surface' | 'tets', name,
    // positions, tets, surface } (surface: the render surface, or null). For "download tets"
    // and for re-tetrahedralizing a surface with new mesh settings.
    this.source = null;
    this._build(this.settings);
  }

  // Creates the body first and destroys the old one only on success, so a rejected shape or
  // resolution leaves the running body untouched.
  _build(settings) {
    const { shape, resolution } = settings;
    let body;
    if (shape === 'ball') {
      body = this.world.addBall({ ...SHAPES.ball, cells: resolution });
    } else if (shape === 'box') {
      body = this.world.addBox({ ...SHAPES.box, cells: [resolution, resolution, resolution] });
    } else if (shape === 'bar') {
      const across = Math.max(1, Math.round(resolution / 4));
      body = this.world.addBox({ ...SHAPES.bar, cells: [2 * resolution, across, across] });
    } else {
      throw new Error(`unknown shape "${shape}"`);
    }
    this._install(body, settings, { kind: 'lattice', name: shape, positions: body.positions.slice(), tets: body.tets.slice(), surface: null });
  }

  // Replaces the body with one made of the given tets (positions in m, at rest), skinning
  // `surface` to it when given: by copying `visual`, a binding made in the import worker for these
  // tets ({ vertexCount, triangles, boundVertices, weights, outside }, tetra_job.js bindSurface),
  // or else by searching here (tet files). Same rule as _build: the old body goes only once the
  // new one is complete. Returns the number of surface vertices that lay outside every tet.
  adopt({ kind, name, positions, tets, surface = null, visual = null }) {
    const body = this.world.addTets(positions, tets);
    let outside = 0;
    const source = { kind, name, positions: Float32Array.from(positions), tets: Uint32Array.from(tets), surface };
    this._install(body, this.settings, source, () => {
      if (visual) {
        body.setVisualBound(visual, visual.outside);
        outside = visual.outside;
      } else if (surface) {
        outside = body.setVisual(surface.positions, surface.triangles);
      }
    });
    return outside;
  }

  // Every body takes the panel's parameters, its material's solver, and self-collision when it is on;
  // cloth only those that mean the same for a sheet (it keeps its own stiffness, mass and XPBD).
  _applyParams(body, settings) {
    if (body.isCloth) {
      for (const name of BODY_PARAMS) if (CLOTH_PARAMS.has(name)) body.setParam(name, settings[name]);
      return;
    }
    for (const name of BODY_PARAMS) body.setParam(name, settings[name]);
    this._applyMaterial(body, settings);
    body.setSelfCollision(settings.selfCollision, selfThickness(body));
  }

  // The solver and elastic model of settings.material (MATERIAL_PRESETS) on a body that holds the
  // other settings. The order is the C API's: VBD needs the simple model's compliances > 0 until the
  // material is Neo-Hookean (a body may still be under VBD from an older page state), so the switches
  // pass through spare compliances; XPBD takes Neo-Hookean within its stiffness number (the presets are).
  _applyMaterial(body, settings) {
    const preset = MATERIAL_PRESETS[settings.material];
    if (body.getParam('material') === Material.neoHookean || preset.neoHookean) {
      body.setParam('edgeCompliance', settings.edgeCompliance || VBD_SPARE_COMPLIANCE);
      body.setParam('volumeCompliance', settings.volumeCompliance || VBD_SPARE_COMPLIANCE);
    }
    if (preset.neoHookean) {
      body.setSolver(preset.solver);
      try {
        body.setParam('material', Material.neoHookean);
      } catch (error) {
        // XPBD refuses a body past its stiffness number at these substeps (sb_body_stats): the preset
        // runs under its fallback solver instead, which has no such limit.
        if (!preset.fallback || !/MATERIAL_SOLVER/.test(String(error?.message ?? error))) throw error;
        body.setSolver(preset.fallback.solver);
        body.setParam('iterations', preset.fallback.iterations);
        body.setParam('material', Material.neoHookean);
      }
    } else {
      body.setParam('material', Material.simple);
      body.setSolver(preset.solver);
      body.setParam('edgeCompliance', settings.edgeCompliance);
      body.setParam('volumeCompliance', settings.volumeCompliance);
    }
  }

  get bodies() {
    return [this.body, ...this.extras];
  }

  // The settings as the panel shows them: the iterations are what the page's body runs, which
  // differ from settings.iterations (the passes asked for) after a preset fell back to VBD with its
  // own sweeps (_applyMaterial). Moving the slider sets every body's, as any setting does.
  shownSettings() {
    return { ...this.settings, iterations: this.body ? this.body.getParam('iterations') : this.settings.iterations };
  }

  _install(body, settings, source, prepare = () => {}) {
    try {
      this._applyParams(body, settings);
      prepare();
    } catch (error) {
      body.destroy();
      throw error;
    }
    const old = this.body;
    this.body = body;
    this.source = source;
    this.settings.shape = source.name;
    if (old) old.destroy();
    this._fitThreads();
    this.onBodyChange(body, source);
  }

  // Threads for the bodies now in the world (wasm_module.js autoThreads: more than 1 only in the
  // multi-threaded build and for large bodies), tried against one thread on the next steps
  // (thread_tuner.js). The bits of a step do not depend on the count.
  _fitThreads() {
    const tets = this.bodies.reduce((sum, body) => sum + body.tetCount, 0);
    if (tets === this._threadTets) return;
    this._threadTets = tets;
    this.threads.fit(autoThreads(this.softbody, tets));
  }

  // Applies one setting; on a C API error nothing changes and the error propagates.
  set(key, value) {
    if (!(key in this.settings)) throw new Error(`unknown setting "${key}"`);
    if (key === 'resolution' && !LATTICE_SHAPES.includes(this.settings.shape)) {
      // Lattice cells; kept for the next box or ball (a mesh body has its own mesh resolution).
    } else if (key === 'shape' || key === 'resolution') {
      this._build({ ...this.settings, [key]: value });
    } else if (key === 'substeps') {
      this.world.setSubsteps(value);
    } else if (key === 'gravity') {
      this.world.setGravity(0, value, 0);
    } else if (key === 'material') {
      const preset = MATERIAL_PRESETS[value];
      if (!preset) throw new Error(`unknown material "${value}" (${Object.keys(MATERIAL_PRESETS).join(', ')})`);
      // The preset's values replace the sliders' (they show them afterwards); presets hold values in
      // range for every body the page makes, so no body refuses halfway.
      const next = { ...this.settings, ...preset.params, material: value };
      for (const body of this.bodies) {
        if (body.isCloth) continue; // the presets are tet materials
        // A Neo-Hookean body goes through VBD (no stiffness limit) while E and nu change, so XPBD
        // never sees the new E on the way (_applyMaterial picks its solver).
        if (body.getParam('material') === Material.neoHookean) body.setSolver('vbd');
        for (const name of Object.keys(preset.params)) body.setParam(name, next[name]);
        this._applyMaterial(body, next);
      }
      Object.assign(this.settings, next);
      return;
    } else if (key === 'selfCollision') {
      for (const body of this.bodies) if (!body.isCloth) body.setSelfCollision(value, selfThickness(body));
    } else {
      // The page's body first: a refused value stops here, before any other body changed.
      for (const body of this.bodies) if (!body.isCloth || CLOTH_PARAMS.has(key)) body.setParam(key, value);
    }
    this.settings[key] = value;
  }

  // Drops one more of the current shape from above (at most MAX_EXTRA_BODIES), beside the last.
  addBody() {
    if (this.extras.length >= MAX_EXTRA_BODIES) throw new Error(`at most ${MAX_EXTRA_BODIES} extra bodies; "clear bodies" removes them`);
    const n = this.extras.length;
    const angle = 2.4 * n; // golden-angle-like spread, so drops do not stack in a column
    const at = [0.35 * Math.cos(angle), 2.6 + 0.25 * (n % 6), 0.35 * Math.sin(angle)];
    this._addExtra(() => this.world.addTets(placedCopy(this.source, null, at), this.source.tets));
    this._fitThreads();
    this.onBodiesChange();
  }

  _addExtra(make) {
    const body = make();
    try {
      this._applyParams(body, this.settings);
    } catch (error) {
      body.destroy();
      throw error;
    }
    this.extras.push(body);
    return body;
  }

  // Removes every body but the page's own.
  clearBodies() {
    for (const body of this.extras) body.destroy();
    this.extras = [];
    this._fitThreads();
    this.onBodiesChange();
  }

  // Replaces the obstacles and extra bodies with a preset's (scene_presets.js); the page's body is
  // reset to its start. An unknown name changes nothing. bunny: the bunny's rest tets, for presets
  // that drop bunnies (scene_bodies.js bunnyTets; preset.needsBunny).
  setScene(name, { bunny = null } = {}) {
    const preset = scenePreset(name);
    if (preset.needsBunny && !bunny) throw new Error(`scene "${name}" needs the bunny's tets`);
    for (const body of this.extras) body.destroy();
    this.extras = [];
    for (const { collider } of this.colliders) collider.destroy();
    this.colliders = [];
    this.heldCollider = null;
    this.scene = name;
    this.sleeps = Boolean(preset.sleep);
    try {
      this.colliders = addSceneColliders(this.world, preset);
      applySceneAir(this.world, preset);
      for (const drop of preset.drops) this._addExtra(() => addDropBody(this.world, drop, { current: this.source, bunny }));
    } finally {
      this.body.reset();
      this._fitThreads();
      this.onBodiesChange();
    }
  }

  // Once per rendered frame: one step unless paused; a requested single step runs while paused.
  // Returns whether it stepped.
  advance() {
    if (this.paused && !this._stepRequested) return false;
    this._stepRequested = false;
    this.step();
    return true;
  }

  requestStep() {
    this._stepRequested = true;
  }

  // One fixed frame of simulated time, timed for the readout. A diverged body makes the bridge
  // throw DIVERGED once; the body then stays frozen (stats().finite false) until reset.
  step() {
    const start = performance.now();
    try {
      // Scripted obstacles move to where they are at the end of this frame (the step sweeps them).
      for (const entry of this.colliders) if (entry.spec.spin && entry !== this.heldCollider) spinPose(entry, this.world.time + DT);
      this.world.step(DT);
    } finally {
      this.stepMs = performance.now() - start;
      // Contact's share of the step (between bodies and with obstacles: gathering and solving).
      const c = this.world.contactStats();
      this._contactMs += c.gatherMs + c.solveMs + c.colliders.gatherMs + c.colliders.solveMs;
      this._contactSteps += 1;
    }
    const tets = this._threadTets; // kept current by _fitThreads whenever bodies come or go
    // A scene that sleeps (scene_presets.js SLEEP) steps almost nothing once it rests: such frames
    // (under a fifth of the running cost) would teach the thread tuner and the price of an import
    // that physics is free here.
    if (this.sleeps && this.msPerTet !== null && this.stepMs < 0.2 * this.msPerTet * tets) return;
    this.threads.stepped(this.stepMs);
    if (tets > 0) this.msPerTet = this.msPerTet === null ? this.stepMs / tets : 0.95 * this.msPerTet + 0.05 * (this.stepMs / tets);
  }

  // Reset keeps the parameters (documented); this goes back to DEFAULTS: a new default body, built
  // first so that a failure changes nothing, then the world settings. Defaults are in range, so the
  // world calls cannot fail halfway.
  restoreDefaults() {
    this.setScene('single');
    this._build({ ...DEFAULTS });
    this.world.setSubsteps(DEFAULTS.substeps);
    this.world.setGravity(0, DEFAULTS.gravity, 0);
    this.settings = { ...DEFAULTS };
  }

  // The page's body and every extra body back to where they started.
  reset() {
    for (const body of this.bodies) body.reset();
  }

  // Squashes at once, then a plate lets the body rise back over SQUASH_RELEASE_S instead of letting go
  // at once (which throws it out of the picture).
  squash() {
    this.body.press(SQUASH_FACTOR, SQUASH_RELEASE_S);
  }

  // Contacts over every body (particles touching ground, obstacles or bodies in the last substep),
  // the deepest penetration (m), and contact's wall time per step since the last call (ms: between
  // bodies and with obstacles, gathering and solving; the ground's projection is in the solve, not
  // here); null when no body is position-based.
  contactSummary() {
    let contacts = 0;
    let deepest = 0;
    let any = false;
    for (const body of this.bodies) {
      const s = body.stats();
      if (!POSITION_BASED_SOLVERS.has(s.solver)) continue;
      any = true;
      contacts += s.contacts;
      deepest = Math.max(deepest, s.maxPenetration);
    }
    const ms = this._contactSteps ? this._contactMs / this._contactSteps : 0;
    this._contactMs = 0;
    this._contactSteps = 0;
    return any ? { contacts, deepest, ms } : null;
  }
}
