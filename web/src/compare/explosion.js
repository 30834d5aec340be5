// When a view counts as EXPLODED, and so stops being stepped.
//
// Rule: the state is non-finite (the C side froze the body and world.step threw DIVERGED), or the
// total energy E = kinetic + elastic + gravitational exceeds
//
//     EXPLOSION_FACTOR x ( |E_start| + m |g| h_start + m x ENERGY_FLOOR )
//
// where E_start is the total energy of the start state (at rest, so elastic + gravitational),
// h_start the start height of the centre of mass and m the mass.
//
// Why this bound: without input, a passive body's energy can only fall (damping, inelastic ground
// contact), so E never legitimately exceeds E_start. The grab adds work, but lifting the body a few
// metres or throwing it at pointer speeds adds a few times m |g| h_start, far below 50 x. The floor
// of 1 J/kg (the kinetic energy at 1.4 m/s) keeps the bound meaningful in zero gravity with an
// unstressed start. An unstable integrator grows energy exponentially (explicit Euler by
// (1 + w^2 h^2) per step for a mode of frequency w): measured on the presets, E goes from 2x to
// 1000x of the scale within 2-5 frames, so the factor hardly changes WHEN a view is declared exploded
// (10x and 50x differ by a frame or two), while 50x leaves a wide margin against false alarms.
// Often the state goes non-finite within the same frame and the C check fires first.
//
// What an exploded view shows: the state at detection is already garbage (strains of several
// hundred per cent), so the lane keeps a copy of the last shape whose energy was within the scale
// above (1x, not 50x: a state a passive body could actually reach) and shows that, frozen, under the
// label. For the stiff-jelly preset that is the frame 0.07 s before detection, wobbling with 84 %
// peak strain: recognisably the body, visibly tearing.
//
// Stiffness and gravity can change while running; the bound follows them: E_start's elastic part
// scales linearly with k (springs and volume terms both scale with k, see lane.js) and its
// gravitational part is recomputed from h_start and the new g.

export const EXPLOSION_FACTOR = 50;
export const ENERGY_FLOOR = 1; // J per kg

export function totalEnergy(stats) {
  return stats.kineticEnergy + stats.elasticEnergy + stats.potentialEnergy;
}

// start: { elastic (J, at stiffness k0), k0, mass (kg), height (m) }; k: N/m now; g: gravity y now.
export function energyScale(start, k, g) {
  const startEnergy = start.elastic * (k / start.k0) - start.mass * g * start.height;
  return Math.abs(startEnergy) + start.mass * Math.abs(g) * start.height + start.mass * ENERGY_FLOOR;
}

// null while stable, else why it exploded (shown in the view's label). limit: EXPLOSION_FACTOR x
// energyScale.
export function explosionReason(stats, limit) {
  if (!stats.finite) return 'non-finite state';
  const energy = totalEnergy(stats);
  if (!Number.isFinite(energy)) return 'non-finite energy';
  if (energy > limit) return `energy above ${EXPLOSION_FACTOR}× the start scale`;
  return null;
}
