// Keeps the demo's world on the thread count that is actually faster here. More threads pay only
// when every thread has a core: on a busy machine (or one whose cores also rasterize WebGL in
// software) a worker that loses its core stalls the others at every colour hand-over, and a frame
// that takes 7 ms on one thread can take 100 ms on two. So a new count is tried against one thread
// on the running scene, and the faster one stays. The physics does not notice: positions are the
// same to the bit on any thread count (docs "Threads").

const TRIAL_STEPS = 12; // steps timed per candidate, after one untimed step each to settle
const KEEP_IF_BELOW = 0.9; // more threads stay only when their median is 10 % under one thread's

export class ThreadTuner {
  constructor(world) {
    this.world = world;
    this.wanted = 1;
    this.trial = null; // { phase: 'many' | 'one', skip, samples: { many: [], one: [] } } while trying
    this.verdict = null; // { many, one } medians (ms) of the last trial, for the readout's tooltip
  }

  // A new wish (wasm_module.js autoThreads): 1 takes effect at once; more starts a trial.
  fit(wanted) {
    this.wanted = wanted;
    this.trial = null;
    if (wanted <= 1) {
      this._set(1);
      return;
    }
    this.trial = { phase: 'many', skip: 1, samples: { many: [], one: [] } };
    this._set(wanted);
  }

  // The wall time of the step just taken (ms) on the current count.
  stepped(ms) {
    const trial = this.trial;
    if (!trial) return;
    if (trial.skip > 0) {
      trial.skip -= 1;
      return;
    }
    const samples = trial.samples[trial.phase];
    samples.push(ms);
    if (samples.length < TRIAL_STEPS) return;
    if (trial.phase === 'many') {
      trial.phase = 'one';
      trial.skip = 1;
      this._set(1);
      return;
    }
    const many = median(trial.samples.many);
    const one = median(trial.samples.one);
    this.verdict = { many, one };
    this.trial = null;
    this._set(many < KEEP_IF_BELOW * one ? this.wanted : 1);
  }

  _set(n) {
    if (this.world.threads !== n) this.world.setThreads(n);
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
}
