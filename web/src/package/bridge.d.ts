// Types of "softbody/bridge": the C API (emscripten/softbody.h) mirrored as classes
// (web/src/softbody.js). Units: metres, seconds, kilograms; see the docs' parameter table.

/** Body parameters by name (sb_param); values and ranges as in docs/c-api.md. */
export declare const Param: Readonly<{
  edgeCompliance: 0; // m/N
  volumeCompliance: 1; // m^5/N
  density: 2; // kg/m^3
  damping: 3; // 1/s
  restitution: 4;
  friction: 5;
  grabCompliance: 6; // m/N
  grabRadius: 7; // m
  springDamping: 8; // N s/m
  pbdStiffness: 9;
  pressure: 10; // J (nRT)
  iterations: 11; // XPBD/PBD passes or VBD sweeps per substep, 1..100
  material: 12; // Material
  youngsModulus: 13; // Pa
  poissonRatio: 14; // [0, 0.499]
  plasticYield: 15; // equivalent strain past which tets flow, [0, 10]
  plasticCreep: 16; // 1/s, 0 = elastic, [0, 1000]
  arealDensity: 17; // kg/m^2, cloth only
  bendingStiffness: 18; // N m, cloth only
  thickness: 19; // m, cloth only (half kept from the ground)
  stiffnessTarget: 20; // 0 (off) or [0.01, 0.999]
  maxIterations: 21; // 1..100, the budget while a target is set
  longRangeStretch: 22; // cloth only: 0 = off, else the most a vertex may be from its nearest pin over its rest distance along the sheet
  dragCoefficient: 23; // cloth only: C_d in the wind (setWind)
  liftCoefficient: 24; // cloth only: C_l
  strainSmoothing: 27; // [0, 1], Neo-Hookean under a force-based solver only: node-smoothed share of the energy (against bending locking)
}>;
export type ParamName = keyof typeof Param;
/** sb_material: values of Param.material. */
export declare const Material: Readonly<{ simple: 0; neoHookean: 1 }>;
/** sb_collider_param: the names Collider.setParam takes. */
export declare const ColliderParam: Readonly<{ friction: 0; restitution: 1 }>;
/** What a tetrahedralization does when thin parts take its estimate over maxTets (sb_tetra_set_thin_parts). */
export declare const ThinParts: Readonly<{ sample: 0; thicken: 1; coarsen: 2; drop: 3 }>;
export type ThinPartsChoice = keyof typeof ThinParts;

/** Return codes of the C API (sb_error); negative means failure. */
export declare const ErrorCode: Readonly<{
  OK: 0;
  INVALID_WORLD: -1;
  INVALID_BODY: -2;
  NULL_POINTER: -3;
  BAD_COUNT: -4;
  INDEX_OUT_OF_RANGE: -5;
  NOT_FINITE: -6;
  DEGENERATE_TET: -7;
  INVERTED_TET: -8;
  UNUSED_VERTEX: -9;
  OUT_OF_RANGE: -10;
  UNKNOWN_PARAM: -11;
  LIMIT: -12;
  DIVERGED: -13;
  NOT_GRABBING: -14;
  UNKNOWN_SOLVER: -15;
  NEEDS_COMPLIANCE: -16;
  EMPTY_MESH: -17;
  FLAT_MESH: -18;
  NO_INSIDE_TETS: -19;
  TOO_LARGE: -20;
  INVALID_TETRA: -21;
  NOT_READY: -22;
  INVALID_COLLIDER: -23;
  MATERIAL_SOLVER: -24;
  DEGENERATE_TRIANGLE: -25;
  NON_MANIFOLD: -26;
  NOT_CLOTH: -27;
}>;

/** Limits of the tetrahedralizer's input (SB_TETRA_MAX_*). */
/** XPBD runs the Neo-Hookean material up to this stiffness number per substep (Body.stats().stiffnessNumber). */
export declare const XPBD_NEO_HOOKEAN_MAX_STIFFNESS: number;
export declare const TetraLimits: Readonly<{ maxVertices: number; maxTriangles: number; maxResolution: number }>;

/** How a body is advanced (sb_solver): all simulate the same model. */
export declare const Solver: Readonly<{
  xpbd: 0;
  pbd: 1;
  explicitEuler: 2;
  semiImplicitEuler: 3;
  verlet: 4;
  midpoint: 5;
  heun: 6;
  rk4: 7;
  implicitEuler: 8;
  vbd: 9; // Vertex Block Descent
}>;
export type SolverName = keyof typeof Solver;
/** The solvers that move positions directly (count contacts, report a residual, take iterations). */
export declare const POSITION_BASED_SOLVERS: ReadonlySet<SolverName>;

/** A failed C API call: the code, its name and the C message ("SB_ERR_...: ..."). Every call also checks
 *  its arguments before the C API sees them (web/src/bridge_args.js) and throws this with the call, the
 *  argument and the value it got ("SB_ERR_OUT_OF_RANGE: Body.pin: vertex must be an integer ..., got
 *  \"abc\" (a string)"): numbers must be finite numbers (NaN, Infinity: NOT_FINITE; strings, booleans,
 *  BigInt, objects: OUT_OF_RANGE), integers whole and within int32 (masks uint32), indices below the
 *  count (INDEX_OUT_OF_RANGE), flags true or false, Vec3 exactly 3 numbers and arrays of 3 (or 4) per
 *  item (BAD_COUNT), arrays not null (NULL_POINTER). Nothing is coerced, and a refusal changes nothing. */
export declare class SoftbodyError extends Error {
  constructor(code: number, codeName: string, message: string);
  readonly name: 'SoftbodyError';
  /** One of ErrorCode. */
  readonly code: number;
  /** "SB_ERR_..." */
  readonly codeName: string;
}

export type Vec3 = [number, number, number];

/** sb_body_stats, read by Body.stats(). Energies in J (doubles in C: finite for any finite state),
 *  lengths in m. */
export interface BodyStats {
  volumeRatio: number;
  kineticEnergy: number;
  mass: number;
  minY: number;
  maxEdgeStrain: number;
  center: Vec3;
  momentum: Vec3;
  finite: boolean;
  grabbedVertex: number;
  elasticEnergy: number;
  potentialEnergy: number;
  solver: SolverName;
  cgIterations: number;
  /** XPBD/PBD: particles touching the ground, colliders or other bodies in the last substep. */
  contacts: number;
  /** m: the deepest contact corrected during the last step. */
  maxPenetration: number;
  residual: number; // XPBD: largest relative |C + alpha~ lambda| after the last substep
  stiffnessNumber: number; // XPBD with Neo-Hookean: tet stiffness x h^2 / mass of the last substep (0 otherwise)
  /** Tets whose signed volume is <= 0 now (inside out or flat). */
  invertedTets: number;
  /** Asleep (World.setSleep): not stepped, velocities 0, until something wakes it. */
  asleep: boolean;
}

/** sb_tetra_stats, read by Tetra.stats(). */
export interface TetraStats {
  inputVertices: number;
  inputTriangles: number;
  weldedVertices: number;
  droppedTriangles: number;
  flippedTriangles: number;
  openEdges: number;
  surfacePoints: number;
  interiorPoints: number;
  uninsertedPoints: number;
  delaunayTets: number;
  slivers: number;
  vertices: number;
  tets: number;
  parts: number;
  minQuality: number;
  meanQuality: number;
  volume: number;
  /** m^3 of the solid the surface encloses (winding number over 1/2): space inside overlapping pieces counted once. */
  surfaceVolume: number;
  milliseconds: number;
  fragmentTets: number;
  /** Closed pieces inside an odd number of others, kept hollow. */
  cavities: number;
  /** Flat faces closing T-junctions, removed without opening the surface. */
  repairedNeedles: number;
  /** m: thickness of the thinnest parts, measured when the tets lost over 5 % of the volume and thin parts were sampled coarser than their thickness (thinSamplesNeeded > 0); else 0. */
  thinThickness: number;
  /** Always 0: thin parts are sampled by their thickness at any resolution (see thinSamplesNeeded). */
  cellsForThin: number;
  /** Flat tets of four surface points on the boundary, removed before the quality cut. */
  peeledSlivers: number;
  /** Points inserted at circumcentres of poor tets (at most 30 % more points). */
  refinementPoints: number;
  /** Moves of interior points that raised the worst quality around them. */
  smoothedVertices: number;
  /** Tets of the result by quality: entry i counts quality in [i/10, (i+1)/10). */
  qualityHistogram: number[];
  /** Wall time per stage, ms. */
  stageMilliseconds: { cleanup: number; sampling: number; delaunay: number; inside: number; improve: number; finish: number };
  /** > 0 when thin parts would need more surface samples than sampleBudget: about how many. */
  thinSamplesNeeded: number;
  /** Surface samples the job could place: 10,000 + 16 x those of half-cell spacing, at most 150,000. */
  sampleBudget: number;
  /** With thinSamplesNeeded > 0: the samples the thin parts need at the coarsest spacing that still keeps their two sides apart (a budget this large may mesh them). */
  thinSamplesCoarsest: number;
  /** Points on the medial surface of parts under two grid cells thick. */
  medialPoints: number;
  /** The estimate made before sampling (Tetra.estimateTets(), or the first run()). */
  estimatedTets: number;
  /** The createTetra option maxTets (0: no bound). */
  maxTets: number;
  /** m: the thinnest part the sampling measured (distance through the solid to its opposite side), if under a grid cell (such parts are sampled by their thickness); else 0. */
  thinnest: number;
  /** m: the interior grid's spacing (the longest side over the resolution); parts at least this thick are sampled as a solid is. */
  cellSize: number;
  /** The createTetra option thinParts. */
  thinParts: ThinPartsChoice;
  /** The estimate with thin parts sampled by their thickness, when the choice acted (else 0). */
  estimatedTetsAsSampled: number;
  /** When the choice could not fit maxTets either: the lowest estimate it reached. */
  choiceFloorTets: number;
  /** m: the thickness thin sheets were offset outward to ('thicken'), else 0. */
  thickenedTo: number;
  /** m^3 the offset added to the solid (surfaceVolume includes it). */
  thickenedVolume: number;
  /** m: the spacing thin parts were sampled at ('coarsen'), else 0. */
  coarsenedSpacing: number;
  /** 'drop': faces removed (parts thinner than droppedBelow). */
  droppedFaces: number;
  /** m: parts thinner than this were dropped ('drop'), else 0. */
  droppedBelow: number;
  /** m^3 the dropped parts held (surfaceVolume excludes it). */
  droppedVolume: number;
  /** Meshings redone because a result came out over maxTets (each with the estimate held lower). */
  boundRetries: number;
  /** The tets of the last result over maxTets (0: none was); with a TOO_LARGE refusal, the result itself was over. */
  overBoundTets: number;
}

export interface LoadOptions {
  /** The .wasm bytes (node: the module is built for browsers and workers). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** An already compiled module (compiledWasm() in a page; what workers receive). */
  module?: WebAssembly.Module;
  /** Where the glue finds the .wasm when neither of the above is given. */
  locateFile?: (file: string) => string;
}

/** Instantiates the physics module. In a page prefer sharedSoftbody(). */
export declare function loadSoftbody(options?: LoadOptions): Promise<Softbody>;
/** The page's one compiled module: fetched beside the package's files on first call. */
export declare function compiledWasm(): Promise<WebAssembly.Module>;
/** The page's one instance: the multi-threaded build (dist/wasm-mt/) when the page is cross-origin
 * isolated and it loads, else one made from compiledWasm(). */
export declare function sharedSoftbody(): Promise<Softbody>;
/** Where the multi-threaded build's glue (softbody-mt.mjs, with its .wasm and .worker.js beside it)
 * is served, or null for one thread. Call before the first sharedSoftbody(); false if too late. */
export declare function useThreadedBuild(url: string | URL | null): boolean;

export declare class Softbody {
  /** The ArrayBuffer behind wasm memory now (replaced when memory grows). */
  readonly buffer: ArrayBuffer;
  /** The most threads a world of this build accepts: 1 in the single-threaded build, 4 in the multi-threaded one. */
  readonly maxThreads: number;
  createWorld(): World;
  /** With options: a world on the chosen backend (docs/gpu.md). 'auto' takes WebGPU when an adapter
   * exists, else wasm; 'webgpu' rejects without one. The GPU world runs a subset (tet bodies, XPBD,
   * simple material, ground, pins) and throws BackendError for the rest. */
  createWorld(options: { backend?: 'wasm' | 'webgpu' | 'auto'; tets?: number }): Promise<BackendWorld>;
  /** This device's GPU budget (docs/gpu.md, "The device budget probe"): measured on the first call of
   * the session, the stored result afterwards (cached: true); rejects without WebGPU. */
  probeGpu(options?: { tets?: number[]; frames?: number }): Promise<GpuProbe>;
  /** A tetrahedralization job of a triangle surface (copied in); nothing runs until run(). */
  createTetra(positions: ArrayLike<number>, triangles: ArrayLike<number>, options?: { resolution?: number; minQuality?: number; thinSurface?: boolean; /** A bound on the tets: the first run() throws TOO_LARGE, naming the estimate, when the estimate exceeds it (0: none). */ maxTets?: number; /** When thin parts take the estimate over maxTets: refuse ('sample', the default), thicken them, sample them coarser, or drop them; a result over maxTets is meshed again coarser under the last three, else refused. */ thinParts?: ThinPartsChoice }): Tetra;
  lastError(): string;
}

/** Thrown by the WebGPU backend for what it does not run yet; feature names it. */
export declare class BackendError extends Error {
  readonly name: 'BackendError';
  readonly feature: string;
  readonly backend: string;
}
/** ms per frame on this GPU ~ a + b * tets, fitted from boxes stepped off screen. */
export interface GpuProbe {
  readonly a: number;
  readonly b: number;
  /** vendor/architecture of the adapter it was measured on. */
  readonly key: string;
  readonly samples: ReadonlyArray<{ tets: number; ms: number }>;
  readonly cached: boolean;
  estimateFrameMs(tets: number): number;
  largestTetsAt(fps: number): number;
}
/** What createWorld({ backend }) resolves to: which backend it got, and why. */
export interface BackendInfo {
  readonly backend: 'wasm' | 'webgpu';
  readonly backendReason: string;
}
/** The WebGPU world's bodies read their state back from the GPU (docs/gpu.md). */
export interface GpuBody {
  readonly vertexCount: number;
  readonly tetCount: number;
  readonly edgeCount: number;
  readonly triangles: Uint32Array;
  /** The last read()'s snapshot, xyz (m). */
  readonly positions: Float32Array;
  read(): Promise<{ positions: Float32Array; velocities: Float32Array }>;
  stats(): Promise<{ mass: number; center: number[]; momentum: number[]; kineticEnergy: number; potentialEnergy: number; minY: number }>;
  writeState(positions: ArrayLike<number>, velocities: ArrayLike<number>): void;
  setParam(name: keyof typeof Param, value: number): void;
  setParams(params: Partial<Record<keyof typeof Param, number>>): void;
  getParam(name: keyof typeof Param): number;
  pin(vertex: number, pinned?: boolean): void;
  setCollisionFilter(group?: number, mask?: number): void;
  reset(): void;
  destroy(): void;
}
export interface GpuWorld extends BackendInfo {
  readonly backend: 'webgpu';
  readonly bodies: Set<GpuBody>;
  /** Dispatches and submits of the last step. */
  readonly counters: { dispatches: number; submits: number };
  setGravity(x: number, y: number, z: number): void;
  setSubsteps(n: number): void;
  readonly substeps: number;
  setGround(enabled: boolean): void;
  addBox(options?: { cells?: [number, number, number]; size?: [number, number, number]; center?: [number, number, number] }): GpuBody;
  addBall(options?: { radius?: number; cells?: number; center?: [number, number, number] }): GpuBody;
  addTets(vertices: ArrayLike<number>, tets: ArrayLike<number>): GpuBody;
  /** Encodes and submits dt seconds; the GPU runs it after this returns. */
  step(dt: number): void;
  /** Resolves when the GPU has finished what was submitted. */
  done(): Promise<void>;
  destroy(): void;
}
export type BackendWorld = (World & BackendInfo & { readonly backend: 'wasm' }) | GpuWorld;

export declare class World {
  readonly bodies: Set<Body>;
  setGravity(x: number, y: number, z: number): void;
  /** n: an integer (the C API takes [1, 200]). */
  setSubsteps(n: number): void;
  /** Threads stepping this world, [1, Softbody.maxThreads]; positions are the same to the bit for any count. */
  setThreads(n: number): void;
  readonly threads: number;
  readonly substeps: number;
  setGround(enabled: boolean): void;
  /** Sleep (sb_world_set_sleep): bodies under `speed` m/s root-mean-square for `seconds` (default 0.5), with all they
   * may touch, stop being stepped until something wakes them; speed 0, the default, turns it off. */
  setSleep(speed: number, seconds?: number): void;
  /** Simulated seconds. */
  readonly time: number;
  /** Contact between bodies (and self-contact) in the last step: candidates gathered, contacts solved over the substeps, wall ms of each phase. */
  /** Contact in the last step: between bodies (candidate pairs, vertex contacts solved, wall times in ms, the
   * broad phase's within the gathering) and with colliders (particles given candidate faces, faces listed,
   * vertex substeps tested, wall times in ms) and cloth's edge-edge pairs (the ms of gathering them, within
   * gatherMs, and of the bounded displacement, within solveMs). */
  contactStats(): {
    candidates: number;
    contacts: number;
    gatherMs: number;
    solveMs: number;
    broadMs: number;
    colliders: { candidates: number; faces: number; tested: number; gatherMs: number; solveMs: number };
    cloth: { edgePairs: number; edgeMs: number; boundMs: number };
  };
  readonly bodyCount: number;
  /** Advances every body by dt seconds; throws SoftbodyError (DIVERGED) when a body went non-finite or blew up. */
  step(dt: number): void;
  /** cells: 3 integers. */
  addBox(options?: { cells?: Vec3; size?: Vec3; center?: Vec3 }): Body;
  /** cells, segments: integers. */
  addBall(options?: { radius?: number; cells?: number; center?: Vec3 }): Body;
  addRope(options?: { segments?: number; length?: number; anchor?: Vec3 }): Body;
  addJelly(options?: { cells?: number; size?: number; center?: Vec3 }): Body;
  addPressureBall(options?: { radius?: number; cells?: number; center?: Vec3; pressure?: number }): Body;
  /** A body from xyz positions (m) and 4 indices per positively oriented tet; both copied. */
  addTets(vertices: ArrayLike<number>, tets: ArrayLike<number>): Body;
  /** Cloth (every solver but PBD) from xyz positions (m) and 3 indices per triangle, counter-clockwise from the front; both copied. */
  addCloth(vertices: ArrayLike<number>, triangles: ArrayLike<number>): Body;
  /** cells: [bases along x, rows along v] (integers); size [u, v] m; vertical: xy plane facing +z, else xz facing +y. */
  addClothRectangle(options?: { cells?: [number, number]; size?: [number, number]; center?: Vec3; vertical?: boolean }): Body;
  addClothDisc(options?: { radius?: number; rings?: number; center?: Vec3; vertical?: boolean }): Body;
  /** A rigid obstacle every body of this world collides with. Lengths in m. */
  addCollider(
    options:
      | { shape: 'plane'; point?: Vec3; normal?: Vec3 }
      | { shape: 'sphere'; radius?: number; center?: Vec3 }
      | { shape: 'box'; halfExtents?: Vec3; center?: Vec3 }
      | { shape: 'capsule'; radius?: number; halfLength?: number; center?: Vec3 }
      /** Any surface: closed = a solid, open = a two-sided shell `thickness` m thick (default 0.02). */
      | { shape: 'mesh'; positions: ArrayLike<number>; triangles: ArrayLike<number>; thickness?: number; center?: Vec3 },
  ): Collider;
  readonly colliderCount: number;
  destroy(): void;
}

/** A rigid obstacle (sb_collider_*). */
export declare class Collider {
  readonly world: World;
  /** The next step sweeps it from where it was to here (rotation: quaternion x, y, z, w); teleport: at once. */
  setPose(position: Vec3, rotation?: [number, number, number, number], options?: { teleport?: boolean }): void;
  /** Coulomb coefficient in [0, 10] (default 0.5). */
  setFriction(friction: number): void;
  /** friction: [0, 10], default 0.5; restitution (normal speed after / before, relative to the surface): [0, 1], default 0.2. */
  setParam(name: 'friction' | 'restitution', value: number): void;
  getParam(name: 'friction' | 'restitution'): number;
  /** Mesh colliders: true when the mesh is closed (a solid), false for a shell; throws for other shapes. */
  readonly isSolid: boolean;
  destroy(): void;
}

/** A binding of a render surface to the tets (Body.visualBinding / setVisualBound). */
export interface VisualBinding {
  vertexCount: number;
  triangles: Uint32Array;
  boundVertices: Uint32Array;
  weights: Float32Array;
}

export declare class Body {
  readonly world: World;
  readonly vertexCount: number;
  readonly triangleCount: number;
  readonly tetCount: number;
  readonly edgeCount: number;
  readonly visualVertexCount: number;
  readonly visualTriangleCount: number;
  /** Live xyz positions (m), zero-copy into wasm memory; compare by identity to notice memory growth. */
  readonly positions: Float32Array;
  readonly triangles: Uint32Array;
  readonly tets: Uint32Array;
  readonly edges: Uint32Array;
  readonly isCloth: boolean;
  /** Cloth: live unit vertex normals (zero-copy, like positions); null for other bodies. */
  readonly normals: Float32Array | null;
  readonly hasVisual: boolean;
  readonly visualPositions: Float32Array | null;
  readonly visualNormals: Float32Array | null;
  readonly visualTriangles: Uint32Array | null;
  /** Binds a render surface to the tets; returns how many vertices lay outside every tet. */
  setVisual(positions: ArrayLike<number>, triangles?: ArrayLike<number> | null): number;
  visualBinding(): VisualBinding;
  /** A binding from visualBinding() (triangles may be null); outside: an integer >= 0. The C API checks ids
   *  against the vertex count and weights within [-1000, 1001], summing to 1. */
  setVisualBound(
    binding: { vertexCount: number; triangles?: ArrayLike<number> | null; boundVertices: ArrayLike<number>; weights: ArrayLike<number> },
    outside?: number,
  ): void;
  setParam(name: ParamName, value: number): void;
  getParam(name: ParamName): number;
  /** Every name and value is checked before any is set; the C API then checks each range in order. */
  setParams(params: Partial<Record<ParamName, number>>): void;
  setSolver(name: SolverName): void;
  readonly solver: SolverName;
  /** Contact with other bodies: they touch when (groupA & maskB) and (groupB & maskA) are nonzero. Defaults 1 and 0xffffffff; mask 0 = no body contact. Both integers in [0, 2^32 - 1]. */
  setCollisionFilter(group?: number, mask?: number): void;
  /** Self-collision (XPBD/PBD; off by default): the surface keeps `thickness` m (default 0.01, in [0.0005, 0.5]) from its own parts that were not its neighbours at rest. */
  setSelfCollision(enabled: boolean, thickness?: number): void;
  readonly selfCollision: { enabled: boolean; thickness: number };
  /** vertex: an integer index below vertexCount. */
  pin(vertex: number, pinned?: boolean): void;
  /** Vertex groups: mass and stiffness multipliers of the listed vertices, each in [1e-3, 1e3]. */
  setVertexScales(vertices: ArrayLike<number>, massScale?: number, stiffnessScale?: number): void;
  vertexScales(vertex: number): { mass: number; stiffness: number };
  /** Presses to factor in [0.05, 1] of the height at once, volume kept. */
  squash(factor: number): void;
  /** Moves the body to its static equilibrium under gravity (pinned vertices held) and stops it; tolerance in [1e-10, 1e-2] of its weight. Returns Newton's iterations. */
  solveStatic(tolerance?: number): number;
  /** Squashes, then releases under a plate rising over `seconds`, so the body does not launch. */
  press(factor: number, seconds: number): void;
  reset(): void;
  nearestVertex(x: number, y: number, z: number): number;
  grabBegin(vertex: number, x: number, y: number, z: number): void;
  grabMove(x: number, y: number, z: number): void;
  /** Releases with the pointer's velocity (m/s). */
  grabEnd(vx?: number, vy?: number, vz?: number): void;
  stats(): BodyStats;
  destroy(): void;
}

export declare class Tetra {
  /** Does about `work` units (an integer >= 1); true when finished. */
  run(work?: number): boolean;
  runAll(): void;
  /** About how many tets the job will give, before it runs (measured -42 % / +38 % of the result on the tests' shapes). */
  estimateTets(): number;
  /** In [0, 1]. */
  readonly progress: number;
  stats(): TetraStats;
  /** Copies of the result, ready for World.addTets. */
  result(): { positions: Float32Array; tets: Uint32Array };
  destroy(): void;
}
