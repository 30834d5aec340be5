// Types of "softbody": the bridge (bridge.d.ts) and the <soft-body> element
// (web/src/embed/soft_body_element.js). Importing the package in a browser registers the element.
import type { Body, BodyStats, SolverName, World } from './bridge.js';

export * from './bridge.js';

export type SceneName = 'box' | 'ball' | 'bunny' | 'torus' | 'sphere' | 'rope' | 'spring' | 'jelly' | 'pressure-ball';
export type SolverAttribute =
  | 'xpbd'
  | 'pbd'
  | 'explicit-euler'
  | 'semi-implicit-euler'
  | 'verlet'
  | 'midpoint'
  | 'heun'
  | 'rk4'
  | 'implicit-euler'
  | 'vbd';

/** One row of the attribute table (docs "Embed it"). */
export interface AttributeInfo {
  name: string;
  kind: 'enum' | 'url' | 'integer' | 'number' | 'boolean' | 'solver' | 'solvers' | 'controls' | 'camera';
  default: unknown;
  apply: 'rebuild' | 'restart' | 'body' | 'world' | 'solver' | 'element';
  param?: string;
  unit?: string;
  values?: readonly string[];
  min?: number;
  max?: number;
  slider?: { log?: boolean; min: number; max: number; step: number; zero?: boolean };
  doc: string;
}
export declare const ATTRIBUTES: readonly AttributeInfo[];
export declare const SCENES: readonly SceneName[];
export declare const SOLVER_NAMES: Readonly<Record<SolverAttribute, SolverName>>;

/** One view's numbers: its body's stats plus the figure's bookkeeping. */
export interface ViewStats extends BodyStats {
  solver: SolverName;
  /** J: kinetic + elastic + gravitational. */
  energy: number;
  /** Why it exploded, or null. */
  exploded: string | null;
  explodedAt: number | null;
}
/** The first view's numbers, the clock, and every view. */
export interface FigureStats extends ViewStats {
  time: number;
  frames: number;
  paused: boolean;
  views: ViewStats[];
}

export interface SoftBodyEventMap {
  ready: CustomEvent<{ frames: number }>;
  exploded: CustomEvent<{ view: number; solver: SolverName; time: number; reason: string }>;
  error: CustomEvent<{ message: string; code: number | null; codeName: string | null; attribute: string | null }>;
  frame: CustomEvent<FigureStats>;
}

/** <soft-body>: a live soft-body figure. Properties reflect the attributes and apply live. */
export declare class SoftBodyElement extends HTMLElement {
  static readonly observedAttributes: readonly string[];
  /** The page's shared renderer and loop once loaded (diagnostics). */
  static readonly stage: unknown;

  scene: SceneName;
  src: string | null;
  resolution: number | null;
  solver: SolverName;
  compare: SolverName[] | null;
  start: 'drop' | 'squash';
  stiffness: number | null;
  edgeCompliance: number;
  volumeCompliance: number | null;
  density: number;
  damping: number;
  springDamping: number;
  pbdStiffness: number;
  pressure: number | null;
  restitution: number;
  friction: number;
  grabRadius: number;
  grabCompliance: number;
  substeps: number;
  gravity: number;
  ground: boolean;
  dt: number;
  controls: 'none' | 'minimal' | string[];
  plot: 'none' | 'energy' | 'volume' | 'both';
  autoplay: boolean;
  camera: { position: [number, number, number]; target: [number, number, number] | null } | null;
  poster: string | null;

  play(): void;
  pause(): void;
  /** Every view back to its start state (parameters kept). */
  reset(): void;
  /** Pauses, then advances n frames. */
  step(n?: number): void;
  /** Same as setting the attribute (kebab-case or camelCase); false when refused. */
  setParam(name: string, value: unknown): boolean;

  readonly world: World | null;
  readonly bodies: Body[];
  readonly stats: FigureStats | null;
  readonly paused: boolean;
  readonly frames: number;
  readonly time: number;
  readonly loaded: boolean;

  addEventListener<K extends keyof SoftBodyEventMap>(type: K, listener: (this: SoftBodyElement, event: SoftBodyEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}

/** Registers the element (done on import in a browser); harmless when already defined. */
export declare function defineSoftBody(name?: string): CustomElementConstructor;

declare global {
  interface HTMLElementTagNameMap {
    'soft-body': SoftBodyElement;
  }
}
