// The peer in the benchmark: a Jolt Physics soft body (npm jolt-physics: the single-threaded `wasm`
// flavour, and the SIMD `wasm-multithread` flavour run with 0 worker threads) built from exactly the
// mesh our engine simulates, resting on a static floor.
//
// Same simulation as ours, item by item:
// - vertices: our body's rest positions, with our per-vertex masses (density * V_tet / 4 summed
//   over the vertex's tets), handed to Jolt as inverse masses;
// - constraints: one distance constraint per unique tet edge (our body.edges) and one volume
//   constraint per tet (our body.tets), all with compliance 0, rest lengths / volumes computed by
//   Jolt from the same positions (CalculateEdgeLengths, CalculateVolumeConstraintVolumes);
// - substeps: SoftBodyCreationSettings.mNumIterations = substeps. Jolt's "iterations" are XPBD
//   substeps, not Gauss-Seidel sweeps inside one step: SoftBodyMotionProperties::
//   InitializeUpdateContext sets mSubStepDeltaTime = inDeltaTime / mNumIterations, and every
//   iteration integrates velocities and positions over that dt/N (IntegratePositions), projects the
//   constraints once, then applies collisions and sets v = (x - x_prev) / (dt/N)
//   (ApplyCollisionConstraintsAndUpdateVelocities) -- the same loop as our SoftBody::step;
// - ground: a large static box whose top face is y = 0 (ours has the plane y = 0 built in);
//   Jolt collides soft-body *vertices* with other bodies (Shape::CollideSoftBodyVertices, once per
//   step, then the contact planes are enforced every iteration). Faces are only used for pressure,
//   rendering and queries against the soft body; we still add the surface triangles, as a real
//   user would, they cost nothing in this scene (pressure 0);
// - gravity -9.81, no damping (Jolt's default mLinearDamping is 0.1, ours 0), friction 0.5 and
//   restitution 0.2 like our defaults (Jolt combines friction as sqrt(f1 f2) and restitution as
//   max(r1, r2), so the floor gets the same values);
// - sleeping off (mAllowSleeping = false), otherwise a resting Jolt body costs nothing.
// What differs, and is part of what is measured: Jolt also runs its rigid-body pipeline around the
// soft body (broad phase, one vertex-vs-shape collision pass per step, bounds and re-centring of
// the body every step), its vertices are SIMD-layout Vec3s (16 bytes each) although the npm
// single-threaded `wasm` flavour is compiled without wasm SIMD (its multithreaded flavour has it),
// and it orders constraints its own way (Optimize).
import { Worker as NodeWorker } from 'node:worker_threads';

export const LAYER_STATIC = 0;
export const LAYER_MOVING = 1;

// flavour 'wasm': single-threaded, no wasm SIMD. 'simd': the `wasm-multithread` build, which is the
// npm package's only one compiled with wasm SIMD (-msimd128); scenes made with workerThreads 0 run
// every job on the calling thread, so it is a single-threaded SIMD Jolt.
// In node each flavour finds its .wasm next to its .js file by itself (fs, relative to
// import.meta.url), so no wasmBinary or locateFile is needed.
export async function loadJolt(flavour = 'wasm') {
  if (flavour === 'wasm') return (await import('jolt-physics/wasm')).default();
  if (flavour !== 'simd') throw new Error(`unknown Jolt flavour ${flavour}`);
  // The multithread build starts a pool of 16 pthread workers at load and waits for them, even when
  // no job ever runs on one. Its node check for "am I a pthread worker" is broken in 1.1.0
  // (`await import("node:worker_threads").workerData` reads workerData off the import's promise),
  // so a worker that loads the build never starts and loading never finishes. Its workers are
  // made with `new Worker(url)` after the module sets globalThis.Worker = worker_threads.Worker: keep
  // that assignment from landing and hand it a Worker that loads jolt_pthread.mjs, which starts the
  // worker side itself (left in place: threads started later need it too). The workers are unref'd
  // once loaded and idle; they cost ~0.5 GB of RSS.
  const entry = new URL('./jolt_pthread.mjs', import.meta.url);
  class PthreadWorker extends NodeWorker {
    constructor(_url, options) {
      super(entry, options);
    }
  }
  Object.defineProperty(globalThis, 'Worker', { configurable: true, get: () => PthreadWorker, set() {} });
  return (await import('jolt-physics/wasm-multithread')).default();
}

// A Jolt physics system (its own JoltInterface) with two object layers, static and moving, that
// collide with each other (and moving with moving), one broad-phase layer each, and gravity along y.
// workerThreads: Jolt's job system threads (the multithread flavour only; null: its default).
// Returns { jolt, system, bodies } (the JoltInterface owns the layer filters).
export function joltWorld(J, { gravity = -9.81, workerThreads = null } = {}) {
  const objectFilter = new J.ObjectLayerPairFilterTable(2);
  objectFilter.EnableCollision(LAYER_STATIC, LAYER_MOVING);
  objectFilter.EnableCollision(LAYER_MOVING, LAYER_MOVING);
  const bpStatic = new J.BroadPhaseLayer(0);
  const bpMoving = new J.BroadPhaseLayer(1);
  const bpInterface = new J.BroadPhaseLayerInterfaceTable(2, 2);
  bpInterface.MapObjectToBroadPhaseLayer(LAYER_STATIC, bpStatic);
  bpInterface.MapObjectToBroadPhaseLayer(LAYER_MOVING, bpMoving);
  J.destroy(bpStatic); // copied into bpInterface
  J.destroy(bpMoving);
  const bpFilter = new J.ObjectVsBroadPhaseLayerFilterTable(bpInterface, 2, objectFilter, 2);
  const settings = new J.JoltSettings();
  settings.mObjectLayerPairFilter = objectFilter;
  settings.mBroadPhaseLayerInterface = bpInterface;
  settings.mObjectVsBroadPhaseLayerFilter = bpFilter;
  if (workerThreads !== null) settings.mMaxWorkerThreads = workerThreads;
  const jolt = new J.JoltInterface(settings); // now owns the three filter objects
  J.destroy(settings);
  const system = jolt.GetPhysicsSystem();
  const g = new J.Vec3(0, gravity, 0);
  system.SetGravity(g);
  J.destroy(g);
  return { jolt, system, bodies: system.GetBodyInterface() };
}

// Per-vertex masses as in our core: each tet gives density * V / 4 to each of its 4 vertices.
export function vertexInverseMasses(positions, tets, density) {
  const n = positions.length / 3;
  const mass = new Float64Array(n);
  for (let t = 0; t < tets.length; t += 4) {
    const [a, b, c, d] = [tets[t], tets[t + 1], tets[t + 2], tets[t + 3]];
    const quarter = (density * signedVolume(positions, a, b, c, d)) / 4;
    mass[a] += quarter;
    mass[b] += quarter;
    mass[c] += quarter;
    mass[d] += quarter;
  }
  const inv = new Float64Array(n);
  for (let i = 0; i < n; ++i) inv[i] = 1 / mass[i];
  return inv;
}

export function signedVolume(p, a, b, c, d) {
  const ax = p[3 * a], ay = p[3 * a + 1], az = p[3 * a + 2];
  const e1x = p[3 * b] - ax, e1y = p[3 * b + 1] - ay, e1z = p[3 * b + 2] - az;
  const e2x = p[3 * c] - ax, e2y = p[3 * c + 1] - ay, e2z = p[3 * c + 2] - az;
  const e3x = p[3 * d] - ax, e3y = p[3 * d + 1] - ay, e3z = p[3 * d + 2] - az;
  return (e1x * (e2y * e3z - e2z * e3y) + e1y * (e2z * e3x - e2x * e3z) + e1z * (e2x * e3y - e2y * e3x)) / 6;
}

export function totalVolume(positions, tets) {
  let v = 0;
  for (let t = 0; t < tets.length; t += 4) v += signedVolume(positions, tets[t], tets[t + 1], tets[t + 2], tets[t + 3]);
  return v;
}

// One Jolt world (its own JoltInterface / PhysicsSystem) holding the floor and one soft body, so a
// step advances this mesh only.
// mesh: { positions: Float32Array xyz (rest, world space), tets, edges, triangles: Uint32Array,
//         invMass: Float64Array per vertex }.
export class JoltBoxScene {
  // workerThreads: Jolt's job system threads (the multithread flavour only; 0 = the calling thread).
  constructor(J, mesh, { substeps, gravity = -9.81, friction = 0.5, restitution = 0.2, workerThreads = null }) {
    this.J = J;
    this.tets = mesh.tets;
    this.restVolume = totalVolume(mesh.positions, mesh.tets);
    this.vertexCount = mesh.positions.length / 3;

    ({ jolt: this.jolt, system: this.system, bodies: this.bodies } = joltWorld(J, { gravity, workerThreads }));

    // Floor: 100 m x 1 m x 100 m static box, top face at y = 0.
    const half = new J.Vec3(50, 0.5, 50);
    const floorShape = new J.BoxShape(half, 0.05);
    J.destroy(half);
    const floorPos = new J.RVec3(0, -0.5, 0);
    const identity = new J.Quat(0, 0, 0, 1);
    const floorSettings = new J.BodyCreationSettings(floorShape, floorPos, identity, J.EMotionType_Static, LAYER_STATIC);
    floorSettings.mFriction = friction;
    floorSettings.mRestitution = restitution;
    this.floor = this.bodies.CreateBody(floorSettings);
    this.bodies.AddBody(this.floor.GetID(), J.EActivation_DontActivate);
    J.destroy(floorSettings); // the body holds the shape now
    J.destroy(floorPos);

    // Soft body.
    const shared = new J.SoftBodySharedSettings();
    shared.AddRef(); // ours until the body holds its own reference
    const v = new J.SoftBodySharedSettingsVertex();
    const p = mesh.positions;
    for (let i = 0; i < this.vertexCount; ++i) {
      v.mPosition.x = p[3 * i];
      v.mPosition.y = p[3 * i + 1];
      v.mPosition.z = p[3 * i + 2];
      v.mInvMass = mesh.invMass[i];
      shared.mVertices.push_back(v);
    }
    J.destroy(v);
    const edge = new J.SoftBodySharedSettingsEdge(0, 0, 0);
    const edges = mesh.edges;
    for (let e = 0; e < edges.length; e += 2) {
      edge.set_mVertex(0, edges[e]);
      edge.set_mVertex(1, edges[e + 1]);
      shared.mEdgeConstraints.push_back(edge);
    }
    J.destroy(edge);
    shared.CalculateEdgeLengths();
    const vol = new J.SoftBodySharedSettingsVolume(0, 0, 0, 0, 0);
    const tets = mesh.tets;
    for (let t = 0; t < tets.length; t += 4) {
      for (let k = 0; k < 4; ++k) vol.set_mVertex(k, tets[t + k]);
      shared.mVolumeConstraints.push_back(vol);
    }
    J.destroy(vol);
    shared.CalculateVolumeConstraintVolumes();
    const face = new J.SoftBodySharedSettingsFace(0, 0, 0, 0);
    const tris = mesh.triangles;
    for (let f = 0; f < tris.length; f += 3) {
      for (let k = 0; k < 3; ++k) face.set_mVertex(k, tris[f + k]);
      shared.AddFace(face);
    }
    J.destroy(face);
    shared.Optimize(); // Jolt's own constraint ordering (groups for its parallel solver)

    // Vertices are already in world space, so the body starts at the origin.
    const origin = new J.RVec3(0, 0, 0);
    const cs = new J.SoftBodyCreationSettings(shared, origin, identity, LAYER_MOVING);
    cs.mNumIterations = substeps;
    cs.mAllowSleeping = false;
    cs.mLinearDamping = 0;
    cs.mFriction = friction;
    cs.mRestitution = restitution;
    cs.mPressure = 0;
    cs.mGravityFactor = 1;
    // Value results such as BodyID live in a temporary of the bindings: ask body.GetID() each time.
    this.body = this.bodies.CreateSoftBody(cs);
    this.bodies.AddBody(this.body.GetID(), J.EActivation_Activate);
    J.destroy(cs);
    J.destroy(origin);
    J.destroy(identity);
    this.counts = {
      vertices: shared.mVertices.size(),
      edges: shared.mEdgeConstraints.size(),
      tets: shared.mVolumeConstraints.size(),
    };
    shared.Release(); // the body keeps it alive

    this.motion = J.castObject(this.body.GetMotionProperties(), J.SoftBodyMotionProperties);
  }

  step(dt) {
    this.jolt.Step(dt, 1);
  }

  // World-space positions (Float64Array xyz). Jolt keeps vertices relative to the body position
  // (re-centred every step, rotation kept at identity by mMakeRotationIdentity).
  positions() {
    const origin = this.body.GetPosition();
    const ox = origin.GetX(), oy = origin.GetY(), oz = origin.GetZ();
    const out = new Float64Array(3 * this.vertexCount);
    for (let i = 0; i < this.vertexCount; ++i) {
      const x = this.motion.GetVertex(i).mPosition;
      out[3 * i] = ox + x.GetX();
      out[3 * i + 1] = oy + x.GetY();
      out[3 * i + 2] = oz + x.GetZ();
    }
    return out;
  }

  // Lowest vertex y (m), current / rest volume, and whether Jolt still simulates the body.
  state() {
    const p = this.positions();
    let minY = Infinity;
    for (let i = 1; i < p.length; i += 3) minY = Math.min(minY, p[i]);
    return { minY, volumeRatio: totalVolume(p, this.tets) / this.restVolume, active: this.body.IsActive() };
  }

  destroy() {
    const J = this.J;
    for (const body of [this.body, this.floor]) {
      this.bodies.RemoveBody(body.GetID());
      this.bodies.DestroyBody(body.GetID()); // frees the body, its shape and the shared settings
    }
    J.destroy(this.jolt); // the physics system and the layer filters
    this.body = this.floor = this.motion = this.jolt = null;
  }
}
