// Turns a request (dropped or chosen files, a sample from the shape menu, new mesh settings for
// the current surface) into a new body, while the old one keeps simulating:
//   surface file or sample -> worker (progress bar, cancel): reads the file into a normalized
//     surface, tetrahedralizes it, binds the surface to the tets -> sim.adopt (copies tets and
//     binding: the page never blocks on a big mesh);
//   tet file (JSON, TetGen) -> parsed and checked here -> sim.adopt.
// Only the newest request counts: starting one cancels the one before, and results of a stale
// request are dropped. Failures become one toast each; cancelling is silent.
import { classifyFiles, checkFileSize } from './file_kinds.js';
import { describeImportError, importWarnings, isThinOverBudget, meshSummary, tetFileSummary, thinChoiceMessage } from './import_messages.js';
import { placeOnStage } from './placement.js';
import { sampleSurface } from './samples.js';
import { parseTetGen, parseTetJson } from './tet_files.js';
import { isCancel, tetrahedralize } from './tetra_client.js';

const REMESH_DELAY_MS = 300; // a slider drag re-runs the tetrahedralizer once, after it settles
const BUSY = new Set(['reading', 'tetrahedralizing']);

async function readText(file) {
  checkFileSize(file);
  return file.text();
}

export class Importer {
  // sim: the Simulation; alerts: toasts; progress: ProgressView; readout: for the summary line;
  // getOptions(): { resolution, minQuality, maxTets, thinParts } for the tetrahedralizer (thinParts:
  // 'ask', 'thicken', 'coarsen' or 'drop'); onChange(state): after every status change (the panel shows the
  // body's new name, or snaps back after a failure); offerChoice(message, onChoose): shows the
  // thin-parts choice (thin_parts_choice.js) when thin parts take an import over maxTets and
  // thinParts is 'ask' (without it, the refusal is a toast).
  constructor({ sim, alerts, progress, readout, getOptions, onChange = () => {}, offerChoice = null }) {
    Object.assign(this, { sim, alerts, progress, readout, getOptions, onChange, offerChoice });
    this._retry = null; // { id, name, input } of the newest surface import, to re-run with a choice
    this._request = 0; // id of the newest request; older ones see they are stale and stop
    this._job = null; // the running worker job, { promise, cancel }
    this._waiters = [];
    this._remeshTimer = null;
    // status: 'idle' | 'reading' | 'tetrahedralizing' | 'done' | 'failed' | 'cancelled'
    this.state = { status: 'idle', name: null, progress: 0, error: null, summary: null, stats: null, outside: 0 };
  }

  get busy() {
    return BUSY.has(this.state.status);
  }

  // Resolves with the state once nothing is in flight (at once if nothing is).
  whenIdle() {
    return this.busy ? new Promise((resolve) => this._waiters.push(resolve)) : Promise.resolve({ ...this.state });
  }

  // files: File objects from a drop or the file input.
  importFiles(files) {
    const id = this._start(files.map((f) => f.name).join(' + '));
    return this._run(id, async () => {
      const request = classifyFiles(files);
      if (request.kind === 'surface') {
        // Read here (asynchronously), parsed in the worker: Three.js's loaders take ~0.5 s on a
        // 40k-triangle OBJ, far too long for the page's thread.
        const { name } = request.file;
        checkFileSize(request.file);
        const buffer = await request.file.arrayBuffer();
        if (this._current(id)) await this._tetrahedralize(id, name, { file: { name, buffer } });
      } else if (request.kind === 'tets') {
        const { name } = request.file;
        const text = await readText(request.file);
        if (this._current(id)) this._adoptTets(id, name, parseTetJson(text, name));
      } else {
        const [nodeText, eleText] = await Promise.all([readText(request.node), readText(request.ele)]);
        if (!this._current(id)) return;
        const mesh = parseTetGen(nodeText, eleText, { nodeName: request.node.name, eleName: request.ele.name });
        // TetGen files carry no unit: placed and sized like a surface (1 m, dropped from 0.5 m).
        mesh.positions = placeOnStage(mesh.positions, request.node.name);
        this._adoptTets(id, `${request.node.name} + ${request.ele.name}`, mesh);
      }
    });
  }

  importSample(name) {
    const id = this._start(name);
    return this._run(id, async () => {
      const surface = await sampleSurface(name);
      if (this._current(id)) await this._tetrahedralize(id, name, surface);
    });
  }

  // Re-runs the tetrahedralizer on the current body's surface with the current mesh settings
  // (after a short pause, so dragging a slider starts one run). Bodies not made from a surface
  // keep the new settings for the next import.
  remeshSoon() {
    clearTimeout(this._remeshTimer);
    this._remeshTimer = setTimeout(() => this.remesh(), REMESH_DELAY_MS);
  }

  remesh() {
    clearTimeout(this._remeshTimer);
    const source = this.sim.source;
    if (source?.kind !== 'surface') return Promise.resolve();
    const id = this._start(source.name);
    return this._run(id, () => this._tetrahedralize(id, source.name, source.surface));
  }

  // Stops whatever is in flight (the worker is terminated); the current body stays.
  cancel() {
    clearTimeout(this._remeshTimer);
    this._request += 1;
    this._stopJob();
    if (this.busy) this._settle({ status: 'cancelled' });
  }

  _start(name) {
    this.cancel();
    this.state = { status: 'reading', name, progress: 0, error: null, summary: null, stats: null, outside: 0 };
    this.onChange(this.state);
    return this._request;
  }

  _current(id) {
    return id === this._request;
  }

  _stopJob() {
    if (!this._job) return;
    this._job.cancel();
    this._job = null;
    this.progress.hide();
  }

  async _run(id, work) {
    try {
      await work();
    } catch (error) {
      if (!this._current(id)) return; // a newer request took over; its outcome is what counts
      if (isCancel(error)) {
        this._settle({ status: 'cancelled' });
        return;
      }
      const options = { ...this.getOptions(), msPerTet: this.sim.msPerTet };
      const retry = this._retry?.id === id ? this._retry : null;
      if (retry && this.offerChoice && options.thinParts === 'ask' && isThinOverBudget(error)) {
        this.offerChoice(thinChoiceMessage(error.stats, retry.name, options), (overrides) => this.importWith(retry, overrides));
        this._settle({ status: 'failed', error: 'over the tet limit: a choice is offered' });
        return;
      }
      const shown = describeImportError(error, this.state.name, options);
      this.alerts.error(shown);
      this._settle({ status: 'failed', error: shown.message });
    }
  }

  // The thin-parts choice's re-run of a refused import: the same input with `overrides` of the
  // options ({ maxTets: 0 } for more tets, { thinParts: 'thicken' | 'coarsen' | 'drop' }).
  importWith({ name, input }, overrides) {
    const id = this._start(name);
    return this._run(id, () => this._tetrahedralize(id, name, input, overrides));
  }

  // input: a normalized surface, or { file: { name, buffer } } (see tetra_client.js).
  async _tetrahedralize(id, name, input, overrides = {}) {
    const settings = { ...this.getOptions(), ...overrides };
    const { resolution, minQuality, maxTets = 0 } = settings;
    // 'ask' runs as sampled; a refusal then offers the choice.
    const thinParts = ['thicken', 'coarsen', 'drop'].includes(settings.thinParts) ? settings.thinParts : 'sample';
    // A file's bytes go to the worker (transferred): kept here too while a refusal may re-run them.
    const again = input.file && maxTets > 0 ? { file: { name: input.file.name, buffer: input.file.buffer.slice(0) } } : input;
    this._retry = { id, name, input: again };
    this.state.status = 'tetrahedralizing';
    const job = tetrahedralize(input, { resolution, minQuality, maxTets, thinParts, thinSurface: true, skin: true }, {
      onProgress: (fraction) => {
        this.state.progress = fraction;
        this.progress.set(fraction);
      },
    });
    this._job = job;
    this.progress.show(`tetrahedralizing ${name}…`, () => this.cancel());
    this.onChange(this.state);
    let result;
    try {
      result = await job.promise;
    } finally {
      if (this._job === job) {
        this._job = null;
        this.progress.hide();
      }
    }
    if (!this._current(id)) return;
    const { surface, visual } = result;
    const outside = this.sim.adopt({ kind: 'surface', name, positions: result.positions, tets: result.tets, surface, visual });
    this._settle({ status: 'done', progress: 1, stats: result.stats, outside, summary: meshSummary(result.stats) });
    for (const warning of importWarnings(result.stats, name, { resolution, minQuality, msPerTet: this.sim.msPerTet })) this.alerts.warn(warning);
  }

  _adoptTets(id, name, mesh) {
    this.state.name = name;
    this.sim.adopt({ kind: 'tets', name, positions: mesh.positions, tets: mesh.tets, surface: mesh.surface });
    this._settle({ status: 'done', progress: 1, summary: tetFileSummary(mesh) });
  }

  _settle(changes) {
    Object.assign(this.state, changes);
    if (changes.status === 'done') this.readout.setMeshInfo(this.state.summary);
    this.onChange(this.state);
    const waiters = this._waiters.splice(0);
    for (const resolve of waiters) resolve({ ...this.state });
  }
}
