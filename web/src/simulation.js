// The physics side of the page: one world with one body, built from the settings, stepped with a
// fixed dt. Every change the panel or the test hook makes goes through set(), so both take the
// same path. Methods throw the bridge's SoftbodyError; callers decide how to show it.
import { BODY_PARAMS, DEFAULTS, DT, SHAPES, SQUASH_FACTOR } from './settings.js';

export class Simulation {
  // onBodyChange(body) runs after a new body replaced the old one (the mesh must rebind).
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
    try {
      for (const name of BODY_PARAMS) body.setParam(name, settings[name]);
    } catch (error) {
      body.destroy();
      throw error;
    }
    const old = this.body;
    this.body = body;
    if (old) old.destroy();
    this.onBodyChange(body);
  }

  // Applies one setting; on a C API error nothing changes and the error propagates.
  set(key, value) {
    if (!(key in this.settings)) throw new Error(`unknown setting "${key}"`);
    if (key === 'shape' || key === 'resolution') {
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

  reset() {
    this.body.reset();
  }

  squash() {
    this.body.squash(SQUASH_FACTOR);
  }
}
