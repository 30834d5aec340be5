// The comparison: one Lane per view, all built from the same setup, so every view starts from the
// same state, and advanced in lockstep by the same dt. Every change from the panel, the views'
// menus, a preset, the URL or the test hook goes through here. Methods throw (SoftbodyError from
// the C API, or Error for a value outside RANGES) and then leave the running comparison as it was.
import { Lane } from './lane.js';
import { REBUILD_KEYS, RESTART_KEYS, checkValue, cloneSetup, defaultView, MAX_VIEWS, MIN_VIEWS } from './setup.js';

const BODY_KEYS = ['stiffness', 'springDamping', 'drag', 'pbdStiffness', 'pressure', 'youngsModulus', 'poissonRatio'];

export class Comparison {
  // on: { rebuilt(lanes), restarted(), changed(setup), error(error) }, all optional. Without a
  // setup, nothing is built until load() (so the callbacks can refer to the comparison).
  constructor(softbody, setup = null, on = {}) {
    this.softbody = softbody;
    this.on = { rebuilt() {}, restarted() {}, changed() {}, error() {}, ...on };
    this.lanes = [];
    this.setup = null; // what the C side holds now
    this.time = 0; // simulated seconds since the last (re)start, the same in every view
    this.paused = false;
    this._stepRequested = false;
    if (setup) this.load(setup);
  }

  get dt() {
    return 1 / this.setup.hz;
  }

  // New lanes for the whole setup; the old ones are dropped only once all new ones exist.
  _build(setup) {
    const lanes = [];
    try {
      for (const view of setup.views) {
        const lane = new Lane(this.softbody);
        lanes.push(lane);
        lane.build(setup, view);
      }
    } catch (error) {
      for (const lane of lanes) lane.destroy();
      throw error;
    }
    for (const lane of this.lanes) lane.destroy();
    this.lanes = lanes;
    this.setup = setup;
    this.time = 0;
    this.on.rebuilt(lanes);
    this.on.changed(this.setup);
  }

  // Replaces the whole setup (a preset, or the URL): every view is rebuilt and restarted.
  load(setup) {
    const next = cloneSetup(setup);
    for (const key of Object.keys(next)) if (key !== 'views') checkValue(key, next[key]);
    if (next.views.length < MIN_VIEWS || next.views.length > MAX_VIEWS) throw new Error(`a comparison has ${MIN_VIEWS} to ${MAX_VIEWS} views`);
    this._build(next);
  }

  // Applies shared values ({ stiffness: 2e4 }, { scene: 'ball' }, ...). The scene and resolution
  // rebuild every body; the start state restarts them; everything else reaches the running bodies,
  // so a view that is mid-wobble feels the new stiffness at once.
  set(patch) {
    for (const [key, value] of Object.entries(patch)) checkValue(key, value);
    const next = { ...cloneSetup(this.setup), ...patch };
    const changed = (key) => key in patch && patch[key] !== this.setup[key];
    if (REBUILD_KEYS.some(changed)) {
      this._build(next);
      return;
    }
    const restart = RESTART_KEYS.some(changed);
    if (BODY_KEYS.some(changed)) this._eachLane((lane) => lane.setParams(next));
    if (changed('gravity')) this._eachLane((lane) => lane.setGravity(next.gravity));
    this.setup = next;
    if (restart) this.restart();
    this.on.changed(this.setup);
  }

  // Runs fn on the first lane, then on the others: all lanes hold the same body with the same
  // values, so a value the C API refuses fails on the first one, before anything changed.
  _eachLane(fn) {
    fn(this.lanes[0]);
    for (const lane of this.lanes.slice(1)) fn(lane);
  }

  // One view's solver, substeps or iterations ({ solver: 'rk4' }, { substeps: 40 },
  // { iterations: 32 }); the others keep running.
  setView(index, patch) {
    const lane = this.lanes[index];
    if (!lane) throw new Error(`no view ${index + 1}`);
    if ('substeps' in patch) lane.setSubsteps(patch.substeps);
    if ('iterations' in patch) lane.setIterations(patch.iterations);
    if ('solver' in patch) lane.setSolver(patch.solver);
    this.setup.views[index] = { ...this.setup.views[index], ...patch };
    this.on.changed(this.setup);
  }

  // Every view to the same substep count (the panel's shared slider).
  setAllSubsteps(n) {
    this._eachLane((lane) => lane.setSubsteps(n));
    for (const view of this.setup.views) view.substeps = n;
    this.on.changed(this.setup);
  }

  // More or fewer views: rebuilds all, so the new ones start together with the old ones.
  setViewCount(count) {
    if (!Number.isInteger(count) || count < MIN_VIEWS || count > MAX_VIEWS) {
      throw new Error(`views must be ${MIN_VIEWS} to ${MAX_VIEWS}, got ${count}`);
    }
    const next = cloneSetup(this.setup);
    while (next.views.length < count) next.views.push(defaultView(next.views.length));
    next.views.length = count;
    this._build(next);
  }

  // Every view back to the start state, exploded ones included, and the clock to 0.
  restart() {
    for (const lane of this.lanes) lane.restart(this.setup.start);
    this.time = 0;
    this.on.restarted();
  }

  requestStep() {
    this._stepRequested = true;
  }

  // Once per rendered frame: every view that has not exploded advances dt, unless paused (a
  // requested single step runs while paused). Returns whether time advanced. A lane's C API error
  // is reported and the other lanes still step.
  advance() {
    if (this.paused && !this._stepRequested) return false;
    this._stepRequested = false;
    this.time += this.dt;
    for (const lane of this.lanes) {
      try {
        lane.step(this.dt, this.time);
      } catch (error) {
        this.on.error(error);
      }
    }
    return true;
  }

  destroy() {
    for (const lane of this.lanes) lane.destroy();
    this.lanes = [];
  }
}
