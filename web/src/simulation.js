// The physics side of the page: one world with one body, built from the settings, stepped with a
// fixed dt. Every change the panel or the test hook makes goes through set(), so both take the
// same path. Methods throw the bridge's SoftbodyError; callers decide how to show it.
import { BODY_PARAMS, DEFAULTS, DT, LATTICE_SHAPES, SHAPES, SQUASH_FACTOR, SQUASH_RELEASE_S } from './settings.js';

export class Simulation {
  // onBodyChange(body, source) runs after a new body replaced the old one (the mesh must rebind);
  // source is what it was made from (see this.source).
  constructor(softbody, { onBodyChange = () => {} } = {}) {
    this.softbody = softbody;
    this.onBodyChange = onBodyChange;
    this.settings = { ...DEFAULTS }; // the values the C side currently holds
    this.paused = false;
    this._stepRequested = false;
    this.stepMs = 0; // wall time of the last world.step, ms
    this.world = softbody.createWorld();
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

  _install(body, settings, source, prepare = () => {}) {
    try {
      for (const name of BODY_PARAMS) body.setParam(name, settings[name]);
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
    this.onBodyChange(body, source);
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
    } else {
      this.body.setParam(key, value);
    }
    this.settings[key] = value;
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
      this.world.step(DT);
    } finally {
      this.stepMs = performance.now() - start;
    }
  }

  // Reset keeps the parameters (documented); this goes back to DEFAULTS: a new default body, built
  // first so that a failure changes nothing, then the world settings. Defaults are in range, so the
  // world calls cannot fail halfway.
  restoreDefaults() {
    this._build({ ...DEFAULTS });
    this.world.setSubsteps(DEFAULTS.substeps);
    this.world.setGravity(0, DEFAULTS.gravity, 0);
    this.settings = { ...DEFAULTS };
  }

  reset() {
    this.body.reset();
  }

  // Squashes at once, then a plate lets the body rise back over SQUASH_RELEASE_S instead of letting go
  // at once (which throws it out of the picture).
  squash() {
    this.body.press(SQUASH_FACTOR, SQUASH_RELEASE_S);
  }
}
