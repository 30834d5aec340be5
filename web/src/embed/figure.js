// The physics of one <soft-body> element: one view per solver (one, or 2-4 with compare="..."),
// each its own world with the same body from the same start, advanced in lockstep by the same dt,
// frozen when it explodes (the comparison page's rule, compare/explosion.js). Bridge calls only, no
// DOM, so node tests drive it exactly as the element does.
import { ErrorCode } from '../softbody.js';
import { ThreadTuner } from '../thread_tuner.js';
import { autoThreads } from '../wasm_module.js';
import { EXPLOSION_FACTOR, energyScale, explosionReason, totalEnergy } from '../compare/explosion.js';
import { DEFAULT_RESOLUTION, SQUASH_START } from './attributes.js';
import { addDropBody } from '../scenes/scene_bodies.js';
import { addSceneColliders, applySceneAir, sceneBounds, scenePreset, spinPose } from '../scenes/scene_presets.js';

const POSITION_BASED = new Set(['xpbd', 'pbd']);
const PRESSURE_BALL_NRT = 4000; // J: the comparison page's default gas for the pressure ball

// Scene name -> how to build it in a world from a resolution (in the scene's unit), and where the
// camera looks. Meshes (samples, src) are built from tets handed in (mesh_source.js).
export const SCENE_BUILDERS = Object.freeze({
  box: { build: (world, n) => world.addBox({ cells: [n, n, n], size: [1, 1, 1], center: [0, 1, 0] }), target: [0, 0.55, 0] },
  ball: { build: (world, n) => world.addBall({ radius: 0.55, cells: n, center: [0, 1.05, 0] }), target: [0, 0.55, 0] },
  // The demo's bar (settings.js SHAPES.bar): bend it by an end; plastic-creep keeps the bend.
  bar: { build: (world, n) => world.addBox({ cells: [2 * n, Math.max(1, Math.round(n / 4)), Math.max(1, Math.round(n / 4))], size: [1.6, 0.2, 0.2], center: [0, 0.6, 0] }), target: [0, 0.4, 0] },
  jelly: { build: (world, n) => world.addJelly({ cells: n, size: 1, center: [0, 1, 0] }), target: [0, 0.55, 0] },
  'pressure-ball': { build: (world, n) => world.addPressureBall({ radius: 0.55, cells: Math.max(4, n), center: [0, 1.05, 0] }), target: [0, 0.55, 0] },
  // Starts horizontal from its pinned end and swings down.
  rope: { build: (world, n) => world.addRope({ segments: 4 * n, length: 1.2, anchor: [-0.6, 1.7, 0] }), target: [-0.1, 1.0, 0] },
  // A weight on a spring (the rope's anchor pinned, the rest free): released level with the
  // anchor, it swings down and stretches, the smallest system whose energy an integrator can gain.
  spring: { build: (world, n) => world.addRope({ segments: n, length: 0.6, anchor: [-0.3, 1.5, 0] }), target: [0, 1.0, 0] },
  // A square sheet hanging in the xy plane, held by cloth-pin, its bottom edge 0.2 m up.
  cloth: { build: (world, n, values) => buildCloth(world, n, values), target: [0, 0.7, 0] },
});

function buildCloth(world, n, values) {
  const size = values?.clothSize ?? 1;
  const sheet = world.addClothRectangle({ cells: [n, n], size: [size, size], center: [0, 0.2 + size / 2, 0], vertical: true });
  const pin = values?.clothPin ?? 'top-corners';
  if (pin === 'none') return sheet;
  const x = sheet.positions;
  const top = 0.2 + size - 1e-4 * size;
  const half = size / 2 - 1e-4 * size;
  for (let i = 0; i < sheet.vertexCount; i++)
    if (x[3 * i + 1] > top && (pin === 'top-edge' || Math.abs(x[3 * i]) > half)) sheet.pin(i);
  return sheet;
}
const MESH_TARGET = [0, 0.55, 0];

// Mean rest length of a body's edges (m), from its creation-state positions.
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

// The body parameters the element's values imply, the same for every view so that all views
// simulate one physics:
// - stiffness k (when set) gives edge compliance 1/k and volume compliance L^4/k, the comparison
//   page's rule (compare/lane.js explains why L^4);
// - an unset volume compliance is 0 (incompressible) when every view is position-based, and
//   L^4 x edge compliance when any view is force-based (which needs a finite stiffness);
// - an unset pressure is the pressure ball's 4000 J, or 0.
export function bodyParams(values, { meanEdge, solvers, scene }) {
  const params = {
    density: values.density,
    damping: values.damping,
    springDamping: values.springDamping,
    pbdStiffness: values.pbdStiffness,
    restitution: values.restitution,
    friction: values.friction,
    grabRadius: values.grabRadius,
    grabCompliance: values.grabCompliance,
  };
  const L4 = meanEdge ** 4;
  if (values.stiffness !== null && values.stiffness !== undefined) {
    params.edgeCompliance = 1 / values.stiffness;
    params.volumeCompliance = L4 / values.stiffness;
  } else {
    params.edgeCompliance = values.edgeCompliance;
    const positionBased = solvers.every((s) => POSITION_BASED.has(s));
    params.volumeCompliance = values.volumeCompliance ?? (positionBased ? 0 : L4 * values.edgeCompliance);
  }
  params.pressure = values.pressure ?? (scene === 'pressure-ball' ? PRESSURE_BALL_NRT : 0);
  params.iterations = values.iterations;
  params.stiffnessTarget = values.stiffnessTarget;
  params.maxIterations = values.maxIterations;
  params.youngsModulus = values.youngsModulus;
  params.poissonRatio = values.poissonRatio;
  params.plasticYield = values.plasticYield;
  params.plasticCreep = values.plasticCreep;
  if (scene === 'cloth')
    for (const name of ['arealDensity', 'bendingStiffness', 'thickness', 'longRangeStretch', 'dragCoefficient', 'liftCoefficient', 'tearStrain'])
      if (values[name] !== null && values[name] !== undefined) params[name] = values[name];
  params.material = values.material === 'neo-hookean' ? 1 : 0;  // it needs the solver it names
  params.strainSmoothing = values.strainSmoothing;  // last: it needs the material and the solver
  return params;
}

// Applies params to a body in an order force-based solvers accept (compliances first), and, on a
// refusal, puts back what was set so far and rethrows: all or nothing.
function applyParams(body, params) {
  const before = {};
  try {
    for (const [name, value] of Object.entries(params)) {
      before[name] = body.getParam(name);
      body.setParam(name, value);
    }
  } catch (error) {
    for (const [name, value] of Object.entries(before)) {
      try {
        body.setParam(name, value);
      } catch {
        // accepted before, so accepted again
      }
    }
    throw error;
  }
}

// scenery="...": the demo's obstacles and dropped bodies (scene_presets.js) in one view's world.
// bunny: the bunny's rest tets when the preset drops bunnies. Returns { colliders, bodies }.
function addScenery(world, name, bunny, heapCount) {
  if (!name || name === 'none') return { colliders: [], bodies: [] };
  const preset = scenePreset(name, { heapCount });
  const colliders = addSceneColliders(world, preset);
  applySceneAir(world, preset);
  const bodies = preset.drops.map((drop) => addDropBody(world, drop, { current: null, bunny }));
  // The heap is a pile to play with: each of its bodies may be grabbed, not only the figure's.
  return { colliders, bodies, grabbable: name === 'heap' };
}

class FigureLane {
  constructor(world, body, solver, scenery = { colliders: [], bodies: [] }) {
    this.world = world;
    this.body = body;
    this.solver = solver;
    this.meanEdge = meanEdgeLength(body);
    this.colliders = scenery.colliders; // [{ collider, spec, position, rotation }]
    this.extras = scenery.bodies; // the scenery's bodies: stepped and drawn, not plotted; grabbed only when
    this.grabScenery = !!scenery.grabbable; // the scenery says so (the heap)
    // Every body with the edge length its automatic volume compliance scales with.
    this.all = [{ body, meanEdge: this.meanEdge }, ...this.extras.map((b) => ({ body: b, meanEdge: meanEdgeLength(b) }))];
    this.start = null; // { elastic, k0, mass, height } of the start state, for the explosion bound
    this.limit = Infinity; // J
    this.scale = Infinity; // J
    this.exploded = null; // null, or why
    this.explodedAt = null; // s
    this.sane = null; // last positions whose energy was within the scale (shown once exploded)
    this.stats = null;
    this.energy = 0; // J, total after the last step or restart
    this.stepMs = 0;
    // More threads only for large bodies in the multi-threaded build, and only if faster here.
    this.threads = new ThreadTuner(world);
    this.threads.fit(world.backend === 'webgpu' ? 1 : autoThreads(world.sb, body.tetCount));
  }

  restart(start, stiffness) {
    for (const { body } of this.all) body.reset();
    for (const entry of this.colliders) if (entry.spec.spin) spinPose(entry, 0);
    if (start === 'squash') this.body.squash(SQUASH_START);
    this.exploded = null;
    this.explodedAt = null;
    this._observe();
    this.start = { elastic: this.stats.elasticEnergy, k0: stiffness, mass: this.stats.mass, height: this.stats.center[1] };
    this.updateLimit(stiffness, this.world.gravityY);
    this.sane = Float32Array.from(this.body.positions);
  }

  // stiffness: 1/edge compliance now (N/m); g: gravity y now. The bound follows them (explosion.js).
  updateLimit(stiffness, g) {
    if (!this.start) return;
    this.scale = energyScale(this.start, stiffness, g);
    this.limit = EXPLOSION_FACTOR * this.scale;
  }

  // read: whether a WebGPU body starts a read back now (it cannot wait for one inside a frame, and
  // reports its last one); a wasm body's stats are always current.
  _observe(read = true) {
    this.stats = this.body.frameStats ? this.body.frameStats(read) : this.body.stats();
    // The scenery's bodies too (their last read back is what a pick raycasts): a GPU world reads them
    // all in one copy (hundreds of bodies: one map, not one per body).
    if (this.world.frameRead) {
      if (read && this.extras.length) this.world.frameRead(this.extras);
    } else for (const b of this.extras) b.frameStats?.(read);
    this.energy = totalEnergy(this.stats);
  }

  // One frame; returns true if the lane exploded in it. read: as _observe.
  step(dt, time, read = true) {
    if (this.exploded) return false;
    for (const entry of this.colliders) if (entry.spec.spin) spinPose(entry, time); // the paddle turns
    const started = performance.now();
    try {
      this.world.step(dt);
    } catch (error) {
      if (error?.code !== ErrorCode.DIVERGED) throw error;
      // The C side froze the body at its last finite shape; stats().finite is now false.
    } finally {
      this.stepMs = performance.now() - started;
    }
    this.threads.stepped(this.stepMs);
    this._observe(read);
    const reason = explosionReason(this.stats, this.limit);
    if (reason) {
      this.exploded = reason;
      this.explodedAt = time;
      if (this.sane.length === this.body.positions.length) this.body.positions.set(this.sane); // frozen from here on: show the last sane shape
      return true;
    }
    if (this.energy <= this.scale) {
      if (this.sane.length !== this.body.positions.length) this.sane = new Float32Array(this.body.positions.length); // torn cloth
      this.sane.set(this.body.positions);
    }
    return false;
  }

  destroy() {
    this.world.destroy();
  }
}

// The stiffness the explosion bound scales with (explosion.js): 1/edge compliance, or 1 for rigid
// edges (compliance 0 never changes, so the ratio stays 1).
function boundStiffness(params) {
  return params.edgeCompliance > 0 ? 1 / params.edgeCompliance : 1;
}

export class Figure {
  constructor(softbody) {
    this.softbody = softbody;
    this.lanes = [];
    this.time = 0; // simulated s since the last restart
    this.config = null;
    this.target = MESH_TARGET; // where the camera looks
    this.bounds = null; // the scenery's box ({ center, halfExtents }, m) for the camera, or null
    this.makeWorld = () => softbody.createWorld(); // one per view; figure_backend.js may hand GPU worlds
    // How often GPU bodies are read back (ms): 0, every frame (their stats and, without zero-copy
    // rendering, what is drawn); a renderer that draws from the GPU's buffers sets a few Hz, and
    // readEveryFrame while a pointer may pick or holds a body.
    this.readbackMs = 0;
    this.readEveryFrame = false;
    this._lastRead = -Infinity;
  }

  // Whether this frame reads GPU bodies back (readbackMs, readEveryFrame).
  _readDue() {
    const now = performance.now();
    if (!this.readEveryFrame && now - this._lastRead < this.readbackMs) return false;
    this._lastRead = now;
    return true;
  }

  // config: { scene, resolution (null: the scene's default), solvers: [bridge names], values (the
  // element's attribute values by property name), start, bunny (the bunny's rest tets, when the
  // scenery drops bunnies) }; mesh: { positions, tets, surface, visual (a binding made in the
  // worker, or null) } for samples and src, else null. All new lanes are built before the old ones
  // go, so a refused setting leaves the running figure as it was.
  build(config, mesh = null) {
    const { scene, solvers, values, start } = config;
    const lanes = [];
    try {
      for (const solver of solvers) {
        const world = this.makeWorld();
        let body;
        try {
          world.setSubsteps(values.substeps);
          world.setGravity(0, values.gravity, 0);
          world.gravityY = values.gravity;
          world.setGround(values.ground);
          if (mesh) {
            body = world.addTets(mesh.positions, mesh.tets);
            if (mesh.visual) body.setVisualBound(mesh.visual, mesh.visual.outside ?? 0);
            else if (mesh.surface) body.setVisual(mesh.surface.positions, mesh.surface.triangles);
          } else {
            const builder = SCENE_BUILDERS[scene];
            if (!builder) throw new Error(`scene "${scene}" needs a mesh`);
            body = builder.build(world, config.resolution ?? DEFAULT_RESOLUTION[scene], values);
          }
        } catch (error) {
          world.destroy();
          throw error;
        }
        let scenery;
        try {
          scenery = addScenery(world, values.scenery, config.bunny ?? null, values.heapCount);
        } catch (error) {
          world.destroy();
          throw error;
        }
        const lane = new FigureLane(world, body, solver, scenery);
        lanes.push(lane);
        for (const { body: b, meanEdge } of lane.all) {
          const { material, strainSmoothing, ...rest } = bodyParams(values, { meanEdge, solvers, scene });
          applyParams(b, rest);
          b.setSolver(solver); // before the material: PBD refuses Neo-Hookean, XPBD beyond its stiffness number
          b.setParam('material', material);
          b.setParam('strainSmoothing', strainSmoothing); // after both: Neo-Hookean under a force-based solver only
        }
      }
    } catch (error) {
      for (const lane of lanes) lane.destroy();
      throw error;
    }
    for (const lane of this.lanes) lane.destroy();
    this.lanes = lanes;
    this.config = { ...config, values: { ...values } };
    this.target = SCENE_BUILDERS[scene]?.target ?? MESH_TARGET;
    if (mesh) this.target = MESH_TARGET;
    // A scenery spreads wider than the body: the camera frames all of it (null: look at the body).
    this.bounds = values.scenery && values.scenery !== 'none' ? sceneBounds(scenePreset(values.scenery, { heapCount: values.heapCount })) : null;
    this.restart();
  }

  get built() {
    return this.lanes.length > 0;
  }

  // Every view back to its start state, exploded ones included, and the clock to 0.
  restart(start = this.config.start) {
    this.config.start = start;
    const k = boundStiffness(this._params(this.lanes[0]));
    for (const lane of this.lanes) lane.restart(start, k);
    this.time = 0;
  }

  _params(lane, values = this.config.values, meanEdge = lane.meanEdge) {
    return bodyParams(values, { meanEdge, solvers: this.config.solvers, scene: this.config.scene });
  }

  // A body value changed (by property name: edgeCompliance, stiffness, ...): every view gets the
  // resulting parameters. All or nothing across views: the first view is tried first and a refusal
  // there changes nothing; a later refusal (cannot happen for identical bodies) is undone.
  setBodyValue(key, value) {
    const values = { ...this.config.values, [key]: value };
    const done = [];
    try {
      for (const lane of this.lanes) {
        for (const item of lane.all) {
          applyParams(item.body, this._params(lane, values, item.meanEdge));
          done.push([lane, item]);
        }
      }
    } catch (error) {
      for (const [lane, item] of done) applyParams(item.body, this._params(lane, this.config.values, item.meanEdge));
      throw error;
    }
    this.config.values = values;
    const k = boundStiffness(this._params(this.lanes[0]));
    for (const lane of this.lanes) lane.updateLimit(k, lane.world.gravityY);
  }

  // substeps, gravity (y, m/s^2) or ground (boolean) on every view's world.
  setWorldValue(key, value) {
    const previous = this.config.values[key];
    const apply = (world, v) => {
      if (key === 'substeps') world.setSubsteps(v);
      else if (key === 'gravity') {
        world.setGravity(0, v, 0);
        world.gravityY = v;
      } else if (key === 'ground') world.setGround(v);
      else throw new Error(`"${key}" is not a world setting`);
    };
    const done = [];
    try {
      for (const lane of this.lanes) {
        apply(lane.world, value);
        done.push(lane);
      }
    } catch (error) {
      for (const lane of done) apply(lane.world, previous);
      throw error;
    }
    this.config.values[key] = value;
    if (key === 'gravity') {
      const k = boundStiffness(this._params(this.lanes[0]));
      for (const lane of this.lanes) lane.updateLimit(k, value);
    }
  }

  // The solver of a single-view figure (compare="..." sets one per view at build time).
  setSolver(solver) {
    if (this.lanes.length !== 1) throw new Error('solver applies to a single view; this figure compares several (set compare instead)');
    const lane = this.lanes[0];
    const solvers = [solver];
    const done = [];
    try {
      for (const item of lane.all) {
        // A force-based solver may need the automatic volume compliance first; XPBD takes any.
        done.push(item);
        applyParams(item.body, bodyParams(this.config.values, { meanEdge: item.meanEdge, solvers, scene: this.config.scene }));
        item.body.setSolver(solver);
      }
    } catch (error) {
      for (const item of done) {
        applyParams(item.body, this._params(lane, this.config.values, item.meanEdge));
        item.body.setSolver(lane.solver);
      }
      throw error;
    }
    lane.solver = solver;
    this.config.solvers = solvers;
  }

  // One frame of dt seconds for every view that has not exploded. Returns the lanes that exploded in
  // this frame. A view's C API error other than divergence propagates after the others stepped.
  advance(dt) {
    // A GPU world still running earlier frames skips this one: simulated time follows the GPU.
    if (this.lanes.some((lane) => lane.world.busy)) return [];
    this.time += dt;
    const exploded = [];
    let failure = null;
    const read = this._readDue();
    for (const lane of this.lanes) {
      try {
        if (lane.step(dt, this.time, read)) exploded.push(lane);
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure) throw failure;
    return exploded;
  }

  destroy() {
    for (const lane of this.lanes) lane.destroy();
    this.lanes = [];
  }
}
