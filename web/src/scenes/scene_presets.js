// Scene presets: the obstacles of a scene and where its extra bodies are dropped. Plain data and one
// builder that makes the colliders through the bridge, shared by the demo page and <soft-body>.
// The page's own body stays where it is (its shape at (0, 1, 0)); a scene is laid out around it.
import { bowl, funnel } from './obstacle_shapes.js';
import { setWind } from '../wind.js';
import { BackendError } from '../backend.js';

// Sleep in scenes that ask for it: 2 cm/s root-mean-square speed for 0.5 s (the "at rest" is
// 1 mJ/kg, 4.5 cm/s); the pile falls asleep ~10 s after it is dropped.
export const SLEEP = Object.freeze({ speed: 0.02, seconds: 0.5 }); // m/s, s

export const SCENES = Object.freeze(['single', 'pile', 'stairs', 'obstacles', 'funnel', 'paddle', 'cloth', 'flag', 'drape', 'curtain']);

// A small body of the mix: a box of `cells`^3 cells or a ball, `size` m across, centred at `at`.
const box = (at, size = 0.35, cells = 4) => ({ kind: 'box', at, size, cells });
const ball = (at, size = 0.35, cells = 6) => ({ kind: 'ball', at, size, cells });
const bunny = (at, size = 0.55) => ({ kind: 'bunny', at, size }); // the Stanford bunny, scaled

// The 20 bodies of the pile, in layers above the bowl: boxes, balls and bunnies.
function pileDrops() {
  const drops = [];
  for (let k = 0; k < 20; k++) {
    const layer = Math.floor(k / 5);
    const angle = (2 * Math.PI * (k % 5)) / 5 + 0.6 * layer;
    const at = [0.55 * Math.cos(angle), 2.3 + 0.5 * layer, 0.55 * Math.sin(angle)];
    drops.push(k % 3 === 0 ? box(at) : k % 3 === 1 ? ball(at) : bunny(at));
  }
  return drops;
}

// The GPU's heap: `count` small boxes and balls (0.2 m, 3 box cells or 4 ball cells: ~30-60
// vertices each) dropped in layers of side x side, 0.3 m apart, into a pen of four walls beside the
// page's body. Hundreds are for a real GPU (backend="webgpu"); every body may touch every other.
export const HEAP_COUNT = 100;
const HEAP_CENTER = [2.2, 0, 0]; // m: the pen's middle on the ground, clear of the page's body
function heapPreset(count) {
  // A cube of drops, widened past ~250 bodies to at most ~4 layers: a taller pile would spill over
  // the 0.5 m walls.
  const side = Math.max(2, Math.ceil(Math.cbrt(count)), Math.ceil(Math.sqrt(count / 4)));
  const spacing = 0.3; // m between drop centres: 0.1 m gaps between 0.2 m bodies
  const half = (side * spacing) / 2 + 0.05; // m: the pen's inner half-width
  const drops = [];
  for (let k = 0; k < count; k++) {
    const layer = Math.floor(k / (side * side));
    const row = Math.floor(k / side) % side;
    const column = k % side;
    // Odd layers shifted by a quarter spacing, so the layers do not land straight on one another.
    const shift = layer % 2 ? spacing / 4 : 0;
    const at = [HEAP_CENTER[0] - half + 0.05 + spacing * (column + 0.5) + shift, 0.4 + spacing * layer, HEAP_CENTER[2] - half + 0.05 + spacing * (row + 0.5) + shift];
    drops.push(k % 2 === 0 ? box(at, 0.2, 3) : ball(at, 0.2, 4));
  }
  const wall = 0.05; // m, half thickness
  const height = 0.25; // m, half height
  const colliders = [
    { shape: 'box', halfExtents: [wall, height, half + 2 * wall], center: [HEAP_CENTER[0] - half - wall, height, HEAP_CENTER[2]] },
    { shape: 'box', halfExtents: [wall, height, half + 2 * wall], center: [HEAP_CENTER[0] + half + wall, height, HEAP_CENTER[2]] },
    { shape: 'box', halfExtents: [half, height, wall], center: [HEAP_CENTER[0], height, HEAP_CENTER[2] - half - wall] },
    { shape: 'box', halfExtents: [half, height, wall], center: [HEAP_CENTER[0], height, HEAP_CENTER[2] + half + wall] },
  ];
  return { colliders, drops };
}

// name -> { colliders: [spec], drops: [body spec] }. Collider specs are World.addCollider options
// plus a rotation quaternion (and a spin, rad/s about y, for scripted motion); every collider can be
// dragged in the page. Body specs: { kind: 'box' | 'ball' | 'sheet' | 'cloth' | 'bunny' | 'copy', at, size,
// cells } (scene_bodies.js; cloth also vertical, pin: 'left' | 'top', drag, lift, selfCollision: thickness m,
// tear: the strain its edges break at);
// needsBunny says whether the bunny's tets must be ready first. wind: [x, y, z] m/s with gust (0..1)
// and gustPeriod (s), for cloth with a drag coefficient (applySceneAir; none when absent).
// options.heapCount: the bodies of 'heap' (heapDrops). sleep: bodies at rest stop being stepped (SLEEP).
export function scenePreset(name, options = {}) {
  const preset = name === 'heap' ? heapPreset(options.heapCount ?? HEAP_COUNT) : presetFor(name);
  preset.needsBunny = preset.drops.some((d) => d.kind === 'bunny');
  return preset;
}

function presetFor(name) {
  switch (name) {
    case 'single':
      return { colliders: [], drops: [] };
    case 'pile': {
      const shell = bowl(1.4);
      return {
        colliders: [{ shape: 'mesh', ...shell, thickness: 0.06, center: [0, 0, 0] }],
        drops: pileDrops(),
        sleep: true, // once the pile rests it stops costing physics time (World.setSleep, SLEEP)
      };
    }
    case 'stairs': {
      // Five steps going down along +x; the page's body starts on the top one.
      const colliders = [];
      for (let k = 0; k < 5; k++) {
        const top = 0.45 - 0.1 * k;
        colliders.push({ shape: 'box', halfExtents: [k === 0 ? 0.7 : 0.25, top / 2, 0.9], center: [k === 0 ? 0 : 0.45 + 0.5 * k, top / 2, 0] });
      }
      return { colliders, drops: [box([-0.3, 1.9, 0.3]), ball([0.3, 2.4, -0.3])] };
    }
    case 'obstacles':
      // Spheres and capsules to drape bodies over; a soft sheet comes down on them.
      return {
        colliders: [
          { shape: 'sphere', radius: 0.3, center: [-1.1, 0.3, -0.6] },
          { shape: 'sphere', radius: 0.22, center: [1.2, 0.22, 0.5] },
          { shape: 'capsule', radius: 0.12, halfLength: 0.6, center: [1.1, 0.6, -0.8], rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] },
          { shape: 'capsule', radius: 0.1, halfLength: 0.5, center: [-1.0, 0.5, 0.9], rotation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2] },
        ],
        drops: [
          { kind: 'sheet', at: [-1.1, 1.4, -0.6], size: 1.1, cells: 10 },
          { kind: 'sheet', at: [1.1, 1.6, -0.8], size: 0.9, cells: 8 },
          ball([1.2, 1.3, 0.5], 0.4),
          box([-1.0, 1.4, 0.9], 0.35),
        ],
      };
    case 'funnel': {
      const shell = funnel(0.9, 0.22, 1.0);
      return {
        colliders: [{ shape: 'mesh', ...shell, thickness: 0.05, center: [1.6, 0.9, 0] }],
        drops: [ball([1.6, 2.5, 0], 0.5, 8), ball([1.5, 3.3, 0.1], 0.4, 6), box([1.7, 4.0, -0.1], 0.3)],
      };
    }
    case 'paddle':
      // A paddle turning about a vertical axis beside the body, sweeping what comes near.
      return {
        colliders: [{ shape: 'box', halfExtents: [0.6, 0.25, 0.03], center: [1.3, 0.27, 0], spin: 1.5 }],
        drops: [box([1.3, 1.2, 0.8]), ball([1.9, 1.0, -0.4]), box([0.9, 1.5, -0.9])],
      };
    case 'cloth':
      // A cloth sheet (XPBD, stretch and bending: docs/physics.md) falls over a sphere beside the body.
      return {
        colliders: [{ shape: 'sphere', radius: 0.35, center: [1.5, 0.35, 0] }],
        drops: [{ kind: 'cloth', at: [1.5, 1.3, 0], size: 1.4, cells: 24 }],
      };
    case 'flag':
      // A flag on a pole in a gusting wind along +z (docs/physics.md#cloth: drag and lift per triangle).
      return {
        colliders: [{ shape: 'capsule', radius: 0.03, halfLength: 1.0, center: [1.2, 1.0, 0] }],
        drops: [{ kind: 'cloth', at: [1.65, 1.6, 0], size: 0.8, cells: 16, vertical: true, pin: 'left', drag: 1.2, lift: 0.5 }],
        wind: [0, 0, 6],
        gust: 0.3,
        gustPeriod: 1.7,
      };
    case 'drape':
      // A sheet dropped on a soft box: it drapes over it and presses it down (two-sided cloth contact,
      // self-contact on: docs/contact.md#cloth-in-body-contact).
      return {
        colliders: [],
        drops: [box([1.5, 0.25, 0], 0.5, 4), { kind: 'cloth', at: [1.5, 1.0, 0], size: 1.0, cells: 14, selfCollision: 0.012 }],
      };
    case 'curtain':
      // A curtain hung by its top edge beside the body: grab it and pull hard, and it tears where
      // its edges pass 25 % strain (docs/physics.md#tearing); reset mends it.
      return {
        colliders: [],
        drops: [{ kind: 'cloth', at: [1.7, 1.0, 0], size: 1.2, cells: 20, vertical: true, pin: 'top', tear: 0.25 }],
      };
    default:
      throw new Error(`unknown scene "${name}" (${SCENES.join(', ')})`);
  }
}

// The box a view must hold for a preset (m): the page's body where it starts (a 1 m body at
// (0, 1, 0)), every collider's centre and size, and every drop where it starts, so bodies falling
// into the pile's bowl or the funnel are in view from the first frame. { center, halfExtents }.
export function sceneBounds(preset) {
  const lo = [-0.5, 0, -0.5];
  const hi = [0.5, 1.5, 0.5];
  const add = (at, half) => {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], at[k] - half);
      hi[k] = Math.max(hi[k], at[k] + half);
    }
  };
  for (const spec of preset.colliders) {
    const half = spec.radius !== undefined ? spec.radius + (spec.halfLength ?? 0) : spec.halfExtents ? Math.max(...spec.halfExtents) : 0.8;
    add(spec.center ?? [0, 0, 0], half);
  }
  for (const drop of preset.drops) add(drop.at, 0.5 * (drop.size ?? 0.5));
  lo[1] = Math.max(lo[1], 0); // nothing to see below the ground
  return { center: lo.map((l, k) => 0.5 * (l + hi[k])), halfExtents: lo.map((l, k) => 0.5 * (hi[k] - l)) };
}

// Makes the colliders of a preset in `world`; returns [{ collider, spec, position, rotation }], the
// pose kept here (the bridge does not read it back) for drawing and dragging.
export function addSceneColliders(world, preset) {
  const made = [];
  try {
    for (const spec of preset.colliders) {
      const collider = world.addCollider(spec);
      const entry = { collider, spec, position: [...(spec.center ?? [0, 0, 0])], rotation: [...(spec.rotation ?? [0, 0, 0, 1])] };
      if (spec.rotation) collider.setPose(entry.position, entry.rotation, { teleport: true });
      made.push(entry);
    }
  } catch (error) {
    for (const { collider } of made) collider.destroy();
    throw error;
  }
  return made;
}

// The preset's air: its wind (and gust), or none, so switching scenes leaves no wind behind.
export function applySceneAir(world, preset) {
  if (world.backend === 'webgpu') {
    if (preset.wind) throw new BackendError('wind');
    return; // no air on the GPU: nothing to set
  }
  // Sleep (sb_world_set_sleep): the pile at rest, 2 cm/s root-mean-square for 0.5 s, all its bodies
  // together; off in the other scenes.
  world.setSleep(preset.sleep ? SLEEP.speed : 0, SLEEP.seconds);
  setWind(world, preset.wind ?? [0, 0, 0], { gust: preset.gust ?? 0, period: preset.gustPeriod ?? 2 });
}

// Kinematic motion (the paddle's spin, rad/s about y), applied before each step unless the collider
// is held by the pointer: a quaternion about y for the angle at time t.
export function spinPose(entry, t) {
  const half = 0.5 * entry.spec.spin * t;
  entry.rotation = [0, Math.sin(half), 0, Math.cos(half)];
  entry.collider.setPose(entry.position, entry.rotation);
}
