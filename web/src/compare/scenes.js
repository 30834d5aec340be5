// The scenes a comparison can run, each built the same way in every view's world. A scene's
// `resolution` is the shared detail slider (RANGES.resolution, 2..10) mapped onto its own unit.
// Scenes that need a newer bridge are offered only when the bridge has their World method.
// params: body parameters the scene sets before the shared ones (lane.js).
import { World } from '../softbody.js';

export const SCENES = Object.freeze({
  box: {
    label: 'jelly box (tets)',
    // cells per side; 1 m cube, bottom 0.5 m above the ground
    build: (world, resolution) => world.addBox({ cells: [resolution, resolution, resolution], size: [1, 1, 1], center: [0, 1, 0] }),
    target: [0, 0.55, 0],
  },
  ball: {
    label: 'jelly ball (tets)',
    // cells across the diameter (the C API rounds odd counts up)
    build: (world, resolution) => world.addBall({ radius: 0.55, cells: resolution, center: [0, 1.05, 0] }),
    target: [0, 0.55, 0],
  },
  // The stiff cantilever: a 1 m x 0.1 m x 0.1 m beam clamped (pinned) at x = -0.5 m, its
  // free end at x = +0.5 m. 4 cells per resolution step along, a tenth of that across (5: 20 x 2 x 2).
  cantilever: {
    label: 'cantilever (clamped beam)',
    build: (world, resolution) => {
      const across = Math.max(1, Math.round((4 * resolution) / 10));
      return world.addBox({ cells: [4 * resolution, across, across], size: [1, 0.1, 0.1], center: [0, 1.2, 0] });
    },
    clamped: (x) => x < -0.5 + 1e-4,
    clampBox: { center: [-0.53, 1.2, 0], size: [0.06, 0.4, 0.3] }, // m, the wall drawn at the fixed end
    tip: (x) => x > 0.5 - 1e-4,
    target: [0, 1.0, 0],
    // Euler-Bernoulli's static sag of the free end under its own weight, m: w L^4 / (8 E I) with
    // w = rho g A, A = h^2, I = h^4 / 12, so 1.5 rho g L^4 / (E h^2). Only for a material with an E.
    beamSag: ({ youngsModulus, gravity }, density = 1000) => (1.5 * density * Math.abs(gravity)) / (youngsModulus * 0.1 ** 2),
    beamTip: [0.5, 1.2, 0], // m, the free end's axis at rest
  },
  jelly: {
    label: 'spring lattice (no tets)',
    needs: 'addJelly',
    build: (world, resolution) => world.addJelly({ cells: resolution, size: 1, center: [0, 1, 0] }),
    target: [0, 0.55, 0],
  },
  pressureBall: {
    label: 'pressure ball (skin + gas)',
    needs: 'addPressureBall',
    usesPressure: true,
    // the skin's cells as for the ball; at least 4 so the surface is round
    build: (world, resolution) => world.addPressureBall({ radius: 0.55, cells: Math.max(4, resolution), center: [0, 1.05, 0] }),
    target: [0, 0.55, 0],
  },
  rope: {
    label: 'rope (springs, pinned end)',
    needs: 'addRope',
    // 4 segments per resolution step; starts horizontal from its pinned end and swings down.
    // A heavy chain (19.6 kg): at the rope's own 1000 kg/m^3 (1.5 kg, 75 g per particle) the
    // shared spring damping of tens of N s/m alone makes every explicit scheme unstable (c h / m > 1),
    // so the scenes would not be comparable on one set of parameters.
    params: { density: 13000 },
    build: (world, resolution) => world.addRope({ segments: 4 * resolution, length: 1.2, anchor: [-0.6, 1.7, 0] }),
    target: [-0.1, 1.0, 0],
  },
  // A 1 m square sheet held along its edge z = -0.5 m, let go horizontal 1.6 m up: it swings down and
  // hangs like a curtain. The shared stiffness k is the sheet's in-plane stiffness Y (N/m: its edge
  // compliance is 1/Y, docs/physics.md#cloth); 2 rows of near-equilateral triangles per resolution
  // step. Heavy canvas (1 kg/m^2) with a little bending stiffness of its own.
  sheet: {
    label: 'hanging sheet (cloth)',
    needs: 'addClothRectangle',
    params: { arealDensity: 1, bendingStiffness: 1e-3 },
    build: (world, resolution) => world.addClothRectangle({ cells: [Math.round(1.7 * resolution), 2 * resolution], size: [1, 1], center: [0, 1.6, 0] }),
    clamped: (x, y, z) => z < -0.5 + 1e-4,
    clampBox: { center: [0, 1.6, -0.52], size: [1.04, 0.04, 0.04] }, // m, the rail drawn along the held edge
    target: [0, 1.1, -0.4],
  },
});

// Names of the scenes this bridge can build, in menu order.
export function availableScenes() {
  return Object.keys(SCENES).filter((name) => !SCENES[name].needs || typeof World.prototype[SCENES[name].needs] === 'function');
}
