// <soft-body>: a live soft-body figure for articles, in one tag.
//
//   <soft-body scene="box" compare="explicit-euler xpbd" stiffness="10000" plot="energy" autoplay></soft-body>
//
// Attributes (attributes.js has the full table) are reflected as properties and apply live. The
// element is frugal: nothing but this small module and the shadow DOM exists until the element
// comes within about one viewport of being seen; then three.js, the bridge and the wasm module are
// loaded (once per page, runtime.js) and the body is built. Off-screen or in a hidden tab it steps
// and draws nothing, and resumes where it stopped. All elements share one WebGL context
// (page_stage.js).
//
// API: play(), pause(), reset(), step(n), setParam(name, value), dismissPoster(), toBlob(); read-only
// world, bodies, stats, paused, frames, time. Events (bubbling, composed): load (each build's first
// frame; ready is the first one's old name), progress, visibility, exploded, error, and a throttled
// frame event (4 per second) for captions that show live numbers.
import { ATTRIBUTES, ATTRIBUTE_NAMES, DEFAULT_RESOLUTION, SAMPLE_SCENES, attributeInfo, attributeName, formatAttribute, parseAttribute, propertyName } from './attributes.js';
import { buildControls } from './element_controls.js';
import { buildShadow, setProgress } from './element_dom.js';
import { labelViews, samplePlot, setupPlot } from './element_overlays.js';
import { addShadowMethods } from './element_shadow.js';
import { snapshot } from './element_snapshot.js';

// ?test in the page's URL: cheap rendering (no MSAA, pixel ratio 1, small shadow map), identical
// physics, as on the demo page. The stage also picks it by itself on a software renderer.
const LOW_COST = typeof location !== 'undefined' && new URLSearchParams(location.search).has('test');
const FRAME_EVENT_MS = 250; // the frame event's period
// ms between read backs of a WebGPU world drawn from its buffers: its stats, plot and readout (the
// frame event's rate), the camera follow and the explosion check; picking reads every frame.
const READBACK_MS = FRAME_EVENT_MS;
const MAX_FRAME_S = 0.1; // s: the camera follow's step after a pause is no longer than this
const NEAR_MARGIN = '100% 0px 100% 0px'; // load when within about one viewport of being visible

let runtime = null;
let sharedStage = null;
function loadRuntime() {
  runtime ??= import('./runtime.js');
  runtime.catch(() => (runtime = null));
  return runtime;
}

// Two observers for all elements: "near" starts loading, "visible" starts and stops the frames.
let nearObserver = null;
let visibleObserver = null;
function observe(element) {
  nearObserver ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) if (entry.isIntersecting) entry.target._near();
    },
    { rootMargin: NEAR_MARGIN },
  );
  visibleObserver ??= new IntersectionObserver((entries) => {
    for (const entry of entries) entry.target._setVisible(entry.isIntersecting);
  });
  nearObserver.observe(element);
  visibleObserver.observe(element);
}
function unobserve(element) {
  nearObserver?.unobserve(element);
  visibleObserver?.unobserve(element);
}

const reducedMotion = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

export class SoftBodyElement extends HTMLElement {
  static get observedAttributes() {
    return ATTRIBUTE_NAMES;
  }

  // The page's shared renderer and loop (page_stage.js) once an element has loaded it, else null:
  // for diagnostics and the browser tests (frames run, context losses seen, the renderer).
  static get stage() {
    return sharedStage;
  }

  constructor() {
    super();
    this._parts = buildShadow(this.attachShadow({ mode: 'open' }));
    this._values = {}; // property name -> the value in effect
    for (const a of ATTRIBUTES) this._values[propertyName(a.name)] = a.default;
    this._status = 'idle'; // idle | loading | ready | failed
    this._rt = null;
    this._stage = null;
    this._figure = null;
    this._view = null;
    this._plot = null;
    this._controls = buildControls(this._parts.bar, 'minimal', this._controlHandlers());
    this._visible = false;
    this._playing = false;
    this._everPlayed = false;
    this._wantPlay = null; // play()/pause() before the figure exists: applied when it does
    this._dirty = false; // draw once more even if paused (camera moved, reset, resize)
    this._pendingSteps = 0;
    this._frames = 0;
    this._readyFired = false;
    this._reverting = false; // writing an attribute back after a refusal: not a change
    this._buildId = 0; // the newest build request; older ones see they are stale
    this._rebuildOld = null; // attribute -> text before the changes a queued rebuild applies
    this._lastFrameEvent = 0;
    this._warned = new Set(); // messages already logged to the console
    this._messageTimer = 0;
    this._hintTimer = 0;
    this._disposeTimer = 0;
    this._labels = [];
    this._revealed = false; // reveal="interaction" or "manual": clicked, or dismissPoster() called
    this._loadPending = false; // a build whose first frame has not been drawn yet (the load event)
    this._lastNow = 0;
    this._internals = this.attachInternals?.() ?? null; // the host's role and name (alt)
    if (this._internals) this._internals.role = 'figure';
    this._wire();
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  connectedCallback() {
    clearTimeout(this._disposeTimer);
    // A property a page set before the element was upgraded hides the accessor: pass it through.
    for (const [key, value] of Object.entries(this)) if (Object.hasOwn(this._values, key) && delete this[key]) this[key] = value;
    this._syncTabIndex();
    this._describe();
    this._showPoster();
    if (this._status === 'idle') this._parts.loadingText.textContent = this._shown ? 'soft body' : this._values.reveal === 'interaction' ? 'click to load the simulation' : 'soft body';
    this._syncPlay();
    observe(this);
    if (this._status === 'ready') this._stage.add(this);
    else if (this._values.loading === 'eager') this._near();
  }

  // Focusable (focus activates the view) when there is something to do with the keys; a tabindex
  // the page set is the page's.
  _syncTabIndex() {
    const wanted = this._values.interactive || (!this._shown && this._values.reveal === 'interaction');
    if (wanted && !this.hasAttribute('tabindex')) {
      this.tabIndex = 0;
      this._ownTabIndex = true;
    } else if (!wanted && this._ownTabIndex) {
      this.removeAttribute('tabindex');
      this._ownTabIndex = false;
    }
  }

  // Whether the simulation shows (reveal="auto", or revealed).
  get _shown() {
    return this._values.reveal === 'auto' || this._revealed;
  }

  disconnectedCallback() {
    unobserve(this);
    this._visible = false;
    this._setActive(false);
    this._stage?.remove(this);
    // Moved elsewhere in the page: disconnected and connected in one task. Removed for good: free
    // the worlds (wasm memory) and the GPU buffers; a later connect builds anew.
    // A figure still loading is disposed by _near() when it finds itself disconnected.
    this._disposeTimer = setTimeout(() => {
      if (!this.isConnected && this._status !== 'loading') this._dispose();
    }, 0);
  }

  _dispose() {
    this._resizeObserver?.disconnect();
    this._view?.dispose();
    this._figure?.destroy();
    this._view = null;
    this._figure = null;
    if (this._status === 'ready') this._status = 'idle';
  }

  attributeChangedCallback(name, oldText, text) {
    if (this._reverting || oldText === text) return;
    const key = propertyName(name);
    let value;
    try {
      value = parseAttribute(name, text);
    } catch (error) {
      this._report(error, name);
      this._revert(name, oldText);
      return;
    }
    const info = attributeInfo(name);
    if (this._status !== 'ready') {
      this._values[key] = value; // applied when the figure is built
      this._applyElementValue(name, value);
      return;
    }
    // The tet bound matters only to meshes: a lattice figure keeps running.
    const meshOnly = (name === 'max-tets' || name === 'thin-parts') && !this._values.src && !SAMPLE_SCENES.includes(this._values.scene);
    if (info.apply === 'rebuild' && !meshOnly) {
      this._rebuildOld ??= {};
      if (!(name in this._rebuildOld)) this._rebuildOld[name] = oldText;
      this._values[key] = value;
      this._queueRebuild();
      return;
    }
    try {
      if (info.apply === 'body') this._figure.setBodyValue(key, value);
      else if (info.apply === 'world') this._figure.setWorldValue(key, value);
      else if (info.apply === 'solver' && !this._values.compare) this._figure.setSolver(value);
      else if (info.apply === 'restart') {
        this._figure.restart(value);
        this._restarted();
      }
    } catch (error) {
      this._report(error, name);
      this._revert(name, oldText);
      return;
    }
    this._values[key] = value;
    this._applyElementValue(name, value);
    this._controls.update(name);
    if (info.apply === 'solver') labelViews(this);
    this._invalidate();
  }

  // ---- public API -----------------------------------------------------------------------------

  play() {
    if (this._status !== 'ready') {
      this._wantPlay = true;
      return;
    }
    this._playing = true;
    this._everPlayed = true;
    this._syncPlay();
    this._stage.wake();
  }

  pause() {
    if (this._status !== 'ready') {
      this._wantPlay = false;
      return;
    }
    this._playing = false;
    this._syncPlay();
  }

  // Every view back to its start state (the parameters stay).
  reset() {
    if (!this._figure?.built) return;
    this._view.grabber.cancel();
    this._view.fairGrab.cancel();
    this._figure.restart();
    this._restarted();
    this._invalidate();
  }

  // Pauses and advances n frames.
  step(n = 1) {
    if (!Number.isInteger(n) || n < 1) {
      this._report(new Error(`step(n) needs a whole number n >= 1, got ${n}`));
      return;
    }
    this.pause();
    this._pendingSteps += n;
    this._stage?.wake();
  }

  // Same as setting the attribute (name in kebab-case or camelCase). Returns false when the value
  // was refused (the message shows in the element); rebuilds (scene, resolution...) finish later.
  setParam(name, value) {
    const attr = attributeName(name);
    const info = attributeInfo(attr);
    if (!info) {
      this._report(new Error(`unknown parameter "${name}" (one of ${ATTRIBUTE_NAMES.join(', ')})`));
      return false;
    }
    const text = typeof value === 'string' ? value : formatAttribute(attr, value);
    const before = this.getAttribute(attr);
    if (text === null) this.removeAttribute(attr);
    else this.setAttribute(attr, text);
    return this.getAttribute(attr) === text || before === text;
  }

  get world() {
    return this._figure?.lanes[0]?.world ?? null;
  }
  get bodies() {
    return this._figure?.lanes.map((lane) => lane.body) ?? [];
  }
  get paused() {
    return !this._playing;
  }
  get frames() {
    return this._frames;
  }
  get time() {
    return this._figure?.time ?? 0;
  }
  get loaded() {
    return this._status === 'ready';
  }
  // { backend: 'wasm' | 'webgpu', reason } the views run on (backend="..." asks), null before.
  get activeBackend() {
    return this._backend ?? null;
  }

  // reveal="interaction" or "manual": show the simulation now (loading it first if it has not).
  dismissPoster() {
    if (this._revealed) return;
    this._revealed = true;
    this._syncTabIndex();
    this._syncPlay();
    if (this._status === 'idle') {
      this._parts.loadingText.textContent = 'soft body';
      this._near();
    } else this._invalidate();
  }

  // A still image of what the figure shows now: its views, their labels and the plot, at the
  // canvas's resolution. type: 'image/png' (default), 'image/jpeg' or 'image/webp'; quality: 0 to 1
  // for the lossy ones. Draws the current state first, so it works paused or off-screen.
  async toBlob({ type = 'image/png', quality } = {}) {
    if (this._status !== 'ready' || !this._figure?.built) throw new Error('toBlob(): the figure has not loaded yet (wait for its load event)');
    this._view.layout();
    this._view.render();
    if (this._plot) this._plot.draw();
    return snapshot(this._parts, this._labels, { type, quality });
  }

  // The first view's body statistics (bridge Body.stats()) plus time, energy and state, and one
  // entry per view; null before the figure exists.
  get stats() {
    const lanes = this._figure?.lanes;
    if (!lanes?.length) return null;
    const views = lanes.map((lane) => ({
      ...lane.stats,
      solver: lane.solver,
      energy: lane.energy, // J: kinetic + elastic + gravitational
      exploded: lane.exploded,
      explodedAt: lane.explodedAt,
    }));
    return { ...views[0], time: this._figure.time, frames: this._frames, paused: !this._playing, views };
  }

  // ---- loading and building -------------------------------------------------------------------

  async _near() {
    if (this._status !== 'idle' || !this.isConnected) return;
    if (!this._shown && this._values.loading !== 'eager') return; // loads when revealed
    this._status = 'loading';
    this._parts.loadingText.textContent = 'loading physics…';
    this._loadStarted = performance.now();
    try {
      // The wasm is fetched and compiled while three.js and the runtime load and the renderer
      // warms up its shaders: the first figure waits for the slower of the two, not their sum.
      const physics = import('../wasm_module.js').then((m) => m.sharedSoftbody());
      physics.catch(() => {}); // reported below, once awaited
      const rt = (this._rt = await loadRuntime());
      this._stage = sharedStage = rt.pageStage({ lowCost: LOW_COST });
      const softbody = await physics;
      this._figure = new rt.Figure(softbody);
      this._view = new rt.FigureView({
        canvas: this._parts.canvas,
        stage: this._stage,
        lowCost: this._stage.lowCost,
        onError: (error) => this._report(error),
        getTime: () => this._figure?.time ?? 0,
        onChange: () => this._invalidate(),
      });
      this._keys.attach(this._view);
      this._applyInteraction();
      this._setActive(this._active ?? false);
      this._resizeObserver = new ResizeObserver(() => {
        this._view?.layout();
        labelViews(this);
        this._invalidate();
      });
      this._resizeObserver.observe(this._parts.canvas);
      await this._build({ initial: true });
    } catch (error) {
      // The reason stays in the figure (the message line fades; the console is not the reader's):
      // no poster over it, no play button or controls that could do nothing.
      this._status = 'failed';
      const p = this._parts;
      p.loadingText.textContent = `the simulation could not start: ${String(error?.message ?? error)}`;
      p.altText.textContent = this._values.alt ?? '';
      p.altText.hidden = !this._values.alt; // what the reader would have seen, in words
      p.poster.hidden = true;
      p.bar.hidden = true;
      p.play.hidden = true;
      p.placeholder.setAttribute('role', 'alert');
      this._report(error, null, { fatal: true });
      return;
    }
    this._status = 'ready';
    if (!this.isConnected) {
      this._dispose(); // removed while loading: build again if it comes back
      return;
    }
    // A figure revealed by a click plays: the click was the reader asking for it.
    const play = this._wantPlay ?? ((this._values.autoplay && !reducedMotion()) || (this._revealed && this._values.reveal === 'interaction'));
    this._playing = Boolean(play);
    this._everPlayed = this._playing;
    this._syncPlay();
    this._dirty = true;
    this._stage.add(this);
  }

  _config() {
    const v = this._values;
    return { scene: v.scene, resolution: v.resolution, solvers: v.compare ?? [v.solver], values: { ...v }, start: v.start };
  }

  // Loads the mesh a sample scene or src needs (progress ring), then builds every view.
  // initial: the first build, where values set before loading are tried one by one, so that a bad
  // one is reported by name and dropped while the rest apply.
  async _build({ initial = false } = {}) {
    const id = ++this._buildId;
    this._loadStarted ??= performance.now(); // for the load event's ms
    const v = this._values;
    let mesh = null;
    const needsMesh = Boolean(v.src) || SAMPLE_SCENES.includes(v.scene);
    if (needsMesh) {
      const label = v.src ? `meshing ${this._rt.fileNameOf(this._rt.srcUrls(v.src)[0])}` : `meshing ${v.scene}`;
      this._progress(0, label);
      try {
        mesh = await this._rt.loadMesh({ scene: v.scene, src: v.src, resolution: v.resolution ?? DEFAULT_RESOLUTION.src, maxTets: v.maxTets, thinParts: v.thinParts }, (f) => {
          if (id === this._buildId) this._progress(f, label);
        });
      } finally {
        if (id === this._buildId) setProgress(this._parts, null);
      }
      if (id === this._buildId) this._emit('progress', { fraction: 1, label }); // done: the ring is gone
      if (id !== this._buildId) return false;
      this._meshNote = mesh.note ?? null;
      // max-tets bounds a surface by its estimate, before meshing (mesh_source.js); a tet file here.
      const tets = mesh.tets.length / 4;
      if (!mesh.stats && v.maxTets && tets > v.maxTets) throw new Error(`${mesh.name} has ${tets.toLocaleString('en')} tets; this figure takes at most ${v.maxTets.toLocaleString('en')}`);
    }
    const config = this._config();
    if (v.scenery !== 'none' && this._rt.scenePreset(v.scenery).needsBunny) {
      config.bunny = await this._rt.bunnyTets(this._figure.softbody); // once per page (scene_bodies.js)
      if (id !== this._buildId) return false;
    }
    try {
      // { backend, reason } for the label; null: a newer build took over while the GPU was asked for.
      this._backend = await this._rt.buildOnBackend(this._figure, config, mesh, v.backend, () => id === this._buildId);
      if (!this._backend) return false;
      if (!(await this._useStage(id))) return false;
    } catch (error) {
      if (!initial) throw error;
      this._backend = { backend: 'wasm', reason: `${v.backend}: values tried one at a time on wasm` };
      this._buildOneByOne(config, mesh, error);
      this._view.setStage(this._stage);
      this._figure.readbackMs = 0;
    }
    this._built();
    return true;
  }

  // The first build failed on some value: build with the defaults, then apply the values one at a
  // time, reporting and dropping each one the C API refuses.
  _buildOneByOne(config, mesh, firstError) {
    const defaults = {};
    for (const a of ATTRIBUTES) defaults[propertyName(a.name)] = a.default;
    const base = { ...config, resolution: config.resolution, values: { ...defaults, scene: config.scene, scenery: config.values.scenery } };
    try {
      this._figure.build(base, mesh);
    } catch (error) {
      // Not a parameter but the shape itself (a resolution the C API refuses): drop that too.
      this._report(error, 'resolution');
      this._revert('resolution', null);
      this._values.resolution = null;
      this._figure.build({ ...base, resolution: null }, mesh);
    }
    let reported = false;
    for (const a of ATTRIBUTES) {
      if (a.apply !== 'body' && a.apply !== 'world' && a.apply !== 'solver') continue;
      const key = propertyName(a.name);
      const value = config.values[key];
      if (value === a.default || (a.apply === 'solver' && config.values.compare)) continue;
      try {
        if (a.apply === 'body') this._figure.setBodyValue(key, value);
        else if (a.apply === 'world') this._figure.setWorldValue(key, value);
        else this._figure.setSolver(value);
      } catch (error) {
        reported = true;
        this._report(error, a.name);
        this._revert(a.name, null);
        this._values[key] = a.default;
      }
    }
    if (!reported) this._report(firstError);
  }

  // Draws a WebGPU world with a WebGPU renderer on its device, straight from its buffers (read back
  // only a few times a second: READBACK_MS), and anything else with the page's WebGL stage. Returns
  // false when a newer build took over meanwhile.
  async _useStage(id) {
    const figure = this._figure;
    let stage = this._stage;
    if (this._backend.backend === 'webgpu' && figure.gpu?.device) {
      this._watchDevice(figure.gpu);
      try {
        stage = await this._rt.gpuStage(figure.gpu.device, { lowCost: this._stage.lowCost });
      } catch (error) {
        // The figure still runs, drawn by WebGL from a read back every frame, as before.
        console.warn(`<soft-body>: WebGPU rendering unavailable, drawing from read backs: ${String(error?.message ?? error)}`);
      }
      if (id !== this._buildId) return false;
    }
    this._view.setStage(stage);
    figure.readbackMs = stage.zeroCopy ? READBACK_MS : 0;
    return true;
  }

  // A lost GPU device (a driver reset, a GPU process crash, a browser that cannot present WebGPU
  // canvases) takes the solver's state and the renderer with it: the figure is rebuilt on wasm and
  // its label says why, rather than freezing.
  _watchDevice(gpu) {
    if (gpu.watched) return;
    gpu.watched = true;
    gpu.device.lost.then((info) => {
      const figure = this._figure;
      if (!figure || figure.gpu !== gpu) return;
      figure.gpu = { device: null, reason: `the WebGPU device was lost (${info.message || info.reason || 'no reason given'})` };
      if (this._backend?.backend === 'webgpu') this._queueRebuild();
    });
  }

  // The progress ring and a progress event ({ fraction, label }) while a mesh is made.
  _progress(fraction, label) {
    setProgress(this._parts, fraction, label);
    this._emit('progress', { fraction, label });
  }

  // After a build: meshes, camera, labels, plot series.
  _built() {
    const figure = this._figure;
    this._view.bind(figure.lanes);
    this._loadPending = true;
    const camera = this._values.camera;
    if (figure.bounds && !camera) this._view.frame(figure.bounds); // the whole scenery in view
    else this._view.setCamera(camera?.position ?? null, camera?.target ?? figure.target);
    labelViews(this);
    setupPlot(this);
    for (const name of this._controls.sliders.keys()) this._controls.update(name);
    this._describe();
    this._invalidate();
  }

  _queueRebuild() {
    if (this._rebuildQueued) return;
    this._rebuildQueued = true;
    queueMicrotask(async () => {
      this._rebuildQueued = false;
      const old = this._rebuildOld ?? {};
      this._rebuildOld = null;
      try {
        await this._build();
      } catch (error) {
        // The running figure stays; the attributes go back to what it shows.
        this._report(error, Object.keys(old)[0]);
        for (const [name, text] of Object.entries(old)) {
          this._values[propertyName(name)] = parseAttribute(name, text);
          this._revert(name, text);
        }
      }
    });
  }

  // ---- the frame ------------------------------------------------------------------------------

  // Asked by the page stage before every animation frame.
  wantsFrame() {
    return this._status === 'ready' && this._shown && this._visible && Boolean(this._figure?.built) && (this._playing || this._dirty || this._pendingSteps > 0 || this._view.grabber.dragging);
  }

  // One frame: grab input, a step of every view (unless paused), drawing, plot, events.
  frame(now) {
    this._dirty = false;
    const dt = this._lastNow ? Math.min(MAX_FRAME_S, Math.max(0, (now - this._lastNow) / 1000)) : 0;
    this._lastNow = now;
    const figure = this._figure;
    const stepping = this._playing || this._pendingSteps > 0;
    if (stepping) {
      if (this._pendingSteps > 0) this._pendingSteps -= 1;
      try {
        this._view.grabber.update();
        figure.readEveryFrame = this._view.wantsPositions;
        const exploded = figure.advance(this._values.dt);
        for (const lane of exploded) {
          const view = figure.lanes.indexOf(lane);
          // diverged: the C solver found a non-finite state and froze the body (else the energy bound).
          this._emit('exploded', { view, solver: lane.solver, time: lane.explodedAt, reason: lane.exploded, diverged: !lane.stats.finite || /non-finite/.test(lane.exploded) });
        }
        if (exploded.length) labelViews(this);
        samplePlot(this);
      } catch (error) {
        this._report(error);
        this.pause(); // a C error that repeats every frame would only repeat its message
      }
    }
    try {
      if (this._view.render(this._values.cameraFollow ? dt : 0)) this._dirty = true; // the camera is still gliding
    } catch (error) {
      this._report(error);
    }
    if (this._plot && (stepping || !this._plotDrawn)) {
      this._plot.draw();
      this._plotDrawn = true;
    }
    this._frames += 1;
    if (!this._readyFired) {
      this._readyFired = true;
      this._parts.placeholder.classList.add('gone');
      this._parts.poster.classList.add('gone');
      this._emit('ready', { frames: this._frames });
    }
    if (this._loadPending) {
      this._loadPending = false;
      const v = this._values;
      const body = figure.lanes[0].body;
      this._emit('load', { scene: v.src ? null : v.scene, src: v.src, views: figure.lanes.length, vertices: body.vertexCount, tets: body.tetCount, ms: performance.now() - this._loadStarted, note: this._meshNote ?? null });
      this._loadStarted = null;
    }
    if (now - this._lastFrameEvent >= FRAME_EVENT_MS) {
      this._lastFrameEvent = now;
      this._emit('frame', this.stats);
    }
  }

  _invalidate() {
    this._dirty = true;
    this._plotDrawn = false;
    this._stage?.wake();
  }
  invalidate() {
    this._invalidate();
  }

  _setVisible(visible) {
    if (visible !== this._visible) this._emit('visibility', { visible });
    this._visible = visible;
    this._lastNow = 0; // no camera catch-up for the time it was away
    if (visible) this._invalidate();
  }

  _restarted() {
    this._plot?.clear();
    labelViews(this);
  }

  // ---- attributes that act on the element ------------------------------------------------------

  // Element-only attributes take effect here (also before loading).
  _applyElementValue(name, value) {
    if (name === 'controls') {
      this._controls = buildControls(this._parts.bar, value, this._controlHandlers());
      this._syncPlay();
    } else if (name === 'plot') {
      setupPlot(this);
    } else if (name === 'camera' && this._view && this._figure) {
      this._view.setCamera(value?.position ?? [2.9, 2.1, 3.6], value?.target ?? this._figure.target);
    } else if (name === 'poster') {
      this._showPoster();
    } else if (name === 'interactive' || name === 'disable-zoom' || name === 'camera-follow') {
      this._applyInteraction();
    } else if (name === 'reveal' || name === 'loading') {
      this._syncTabIndex();
      this._syncPlay();
      if (this.isConnected && this._status === 'idle') {
        if (this._values.loading === 'eager') this._near();
        else (unobserve(this), observe(this)); // the observers report again whether it is near now
      }
    }
    if (name === 'alt') this._describe();
    if (name === 'scene' || name === 'src' || name === 'compare' || name === 'solver') this._describe();
  }
}

// Input, activation, play button, poster, accessible name, messages and events (element_shadow.js).
addShadowMethods(SoftBodyElement);

// Properties reflect attributes: el.edgeCompliance = 1e-3 sets edge-compliance="0.001", and reads
// back the value in effect (parsed). Setting null removes the attribute (the default applies).
for (const a of ATTRIBUTES) {
  const key = propertyName(a.name);
  Object.defineProperty(SoftBodyElement.prototype, key, {
    configurable: true,
    enumerable: true,
    get() {
      return this._values[key];
    },
    set(value) {
      const text = value === null || value === undefined ? null : typeof value === 'string' ? value : formatAttribute(a.name, value);
      if (text === null) this.removeAttribute(a.name);
      else this.setAttribute(a.name, text);
    },
  });
}

// Registers <soft-body> once (importing this module twice, or two bundles, is harmless).
export function defineSoftBody(name = 'soft-body') {
  if (!customElements.get(name)) customElements.define(name, SoftBodyElement);
  return customElements.get(name);
}
