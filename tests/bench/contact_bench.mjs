// Benchmark part 5: contact (issue 12). A pile of 20 bodies (boxes of 6^3 cells and balls of 8 cells,
// ~44k tets) poured between four box walls, 10 substeps, dt = 1/60 s, in the wasm build under node.
// The same scene runs twice, interleaved frame batch by frame batch: with contact between bodies, and
// with every body's collision mask 0 (walls and ground still touch). The difference is what contact
// between bodies costs; its share of the frame is the measure (target 30 %, and the pile at 30
// physics frames per second). Frames 0-119 let the pile fall and meet; the timed frames follow.
//
// The contact phases' own costs come from world.contactStats() (sb_world_get_contact_stats): the
// gathering (broad phase, hash, candidates; once per frame) and the solving (every substep), per
// candidate and per contact. Then self-collision: a 12^3-cell box (10,368 tets) resting, with it on
// and off (what switching it on costs a body that does not touch itself), and a hairpin of ~10k tets
// whose soft upper arm lies on its lower arm (a body resting on itself).
//
//   node tests/bench/bench.mjs --only contact      (or npm run bench -- --only contact)

const SUBSTEPS = 10;
const DT = 1 / 60;
const SETTLE = 120; // frames before timing: the bodies have landed and touch
const BATCH = 20; // frames per timed batch

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function buildPile(sb, contact) {
  const world = sb.createWorld();
  world.setSubsteps(SUBSTEPS);
  for (let k = 0; k < 4; k++) {
    const along = k < 2;
    world.addCollider({
      shape: 'box',
      halfExtents: along ? [0.05, 0.5, 1] : [1, 0.5, 0.05],
      center: [k === 0 ? -1 : k === 1 ? 1 : 0, 0.5, k === 2 ? -1 : k === 3 ? 1 : 0],
    });
  }
  let tets = 0;
  for (let k = 0; k < 20; k++) {
    const x = -0.5 + 0.5 * (k % 3);
    const z = -0.5 + 0.5 * (Math.floor(k / 3) % 3);
    const y = 0.4 + 0.45 * Math.floor(k / 9) + 0.05 * k;
    const body = k % 2 ? world.addBall({ radius: 0.2, cells: 8, center: [x, y, z] }) : world.addBox({ cells: [6, 6, 6], size: [0.35, 0.35, 0.35], center: [x, y, z] });
    body.setParams({ edgeCompliance: 1e-4, damping: 0.5 });
    if (!contact) body.setCollisionFilter(1, 0);
    tets += body.tets.length / 4;
  }
  for (let f = 0; f < SETTLE; f++) world.step(DT);
  return { world, tets };
}

// A lattice of cells[0] x cells[1] x cells[2] over 1.0 x 0.3 x 0.1 m with the tets of a 0.1 m slot
// between two arms removed (x > 0.1 m): the hairpin of tests/core/test_self_collision.cpp, finer.
function buildHairpin(sb, cells) {
  const world = sb.createWorld();
  world.setSubsteps(SUBSTEPS);
  const lattice = world.addBox({ cells, size: [1, 0.3, 0.1], center: [0.5, 0.15, 0] });
  const pos = lattice.positions.slice();
  const src = lattice.tets.slice();
  lattice.destroy();
  const remap = new Map();
  const vertices = [];
  const tets = [];
  for (let t = 0; t < src.length; t += 4) {
    let cx = 0, cy = 0;
    for (let k = 0; k < 4; k++) (cx += pos[3 * src[t + k]] / 4), (cy += pos[3 * src[t + k] + 1] / 4);
    if (cx > 0.1 && cy > 0.1 && cy < 0.2) continue;
    for (let k = 0; k < 4; k++) {
      const v = src[t + k];
      if (!remap.has(v)) remap.set(v, vertices.push(pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]) / 3 - 1);
      tets.push(remap.get(v));
    }
  }
  const body = world.addTets(new Float32Array(vertices), new Uint32Array(tets));
  body.setParams({ edgeCompliance: 2e-3, damping: 2 });
  body.setSelfCollision(true, 0.005);
  for (let f = 0; f < SETTLE; f++) world.step(DT);
  return { world, tets: tets.length / 4 };
}

function buildRestingBox(sb, self) {
  const world = sb.createWorld();
  world.setSubsteps(SUBSTEPS);
  const body = world.addBox({ cells: [12, 12, 12], size: [1.2, 1.2, 1.2], center: [0, 0.65, 0] });
  body.setParams({ edgeCompliance: 1e-4, damping: 1 });
  if (self) body.setSelfCollision(true, 0.05);
  for (let f = 0; f < SETTLE; f++) world.step(DT);
  return { world, tets: body.tets.length / 4 };
}

// Times `frames` frames of each named scene, interleaved batch by batch over `rounds`; returns
// per-scene { ms: median ms/frame, phases: mean contact stats per frame }.
function timeInterleaved(scenes, rounds, log, label) {
  const samples = Object.fromEntries(Object.keys(scenes).map((k) => [k, []]));
  const sums = Object.fromEntries(Object.keys(scenes).map((k) => [k, { candidates: 0, contacts: 0, gatherMs: 0, solveMs: 0, frames: 0 }]));
  const names = Object.keys(scenes);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [...names].reverse() : names;
    for (const name of order) {
      const { world } = scenes[name];
      for (let f = 0; f < BATCH; f++) {
        const t0 = performance.now();
        world.step(DT);
        samples[name].push(performance.now() - t0);
        const c = world.contactStats();
        const sum = sums[name];
        sum.candidates += c.candidates;
        sum.contacts += c.contacts;
        sum.gatherMs += c.gatherMs;
        sum.solveMs += c.solveMs;
        sum.frames += 1;
      }
    }
    log(`${label} round ${r + 1}/${rounds}`);
  }
  const out = {};
  for (const name of names) {
    const { frames, ...rest } = sums[name];
    out[name] = { ms: median(samples[name]), phases: Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, v / frames])) };
  }
  return out;
}

export async function runContactPart(sb, { rounds = 5, log = () => {} } = {}) {
  const selfScenes = { boxOff: buildRestingBox(sb, false), boxOn: buildRestingBox(sb, true), hairpin: buildHairpin(sb, [48, 12, 4]) };
  const self = timeInterleaved(selfScenes, rounds, log, 'self-collision');
  const selfTets = { box: selfScenes.boxOn.tets, hairpin: selfScenes.hairpin.tets };
  for (const { world } of Object.values(selfScenes)) world.destroy();
  const scenes = { contact: buildPile(sb, true), none: buildPile(sb, false) };
  const pile = timeInterleaved(scenes, rounds, log, 'contact');
  const contactMs = pile.contact.ms;
  const noneMs = pile.none.ms;
  let contacts = 0;
  for (const body of scenes.contact.world.bodies) contacts += body.stats().contacts;
  for (const { world } of Object.values(scenes)) world.destroy();
  const perFrame = pile.contact.phases;
  return {
    tets: scenes.contact.tets,
    contactMs,
    noneMs,
    share: (contactMs - noneMs) / contactMs,
    contacts,
    phases: perFrame,
    self,
    selfTets,
    results: [
      { part: 'contact', build: 'wasm', scene: 'pile of 20 bodies in four walls', tets: scenes.contact.tets, bodyContact: true, msPerFrame: contactMs, contacts, phases: perFrame },
      { part: 'contact', build: 'wasm', scene: 'pile of 20 bodies in four walls', tets: scenes.contact.tets, bodyContact: false, msPerFrame: noneMs },
      { part: 'contact', build: 'wasm', scene: 'box 12^3 resting, self-collision off', tets: selfTets.box, selfCollision: false, msPerFrame: self.boxOff.ms },
      { part: 'contact', build: 'wasm', scene: 'box 12^3 resting, self-collision on', tets: selfTets.box, selfCollision: true, msPerFrame: self.boxOn.ms, phases: self.boxOn.phases },
      { part: 'contact', build: 'wasm', scene: 'hairpin resting on itself, self-collision on', tets: selfTets.hairpin, selfCollision: true, msPerFrame: self.hairpin.ms, phases: self.hairpin.phases },
    ],
  };
}

export function contactReport(part) {
  const f = (x, d = 2) => x.toFixed(d);
  return [
    `Part 5: contact, wasm, a pile of 20 bodies (${part.tets.toLocaleString('en-US')} tets) in four box walls, ${SUBSTEPS} substeps`,
    `  with contact between bodies    ${f(part.contactMs)} ms/frame (${part.contacts} particles in contact at the end)`,
    `  bodies filtered apart          ${f(part.noneMs)} ms/frame`,
    `  contact between bodies: ${f(100 * part.share, 0)} % of the frame (target 30 %); ${f(1000 / part.contactMs, 1)} physics frames/s (target 30)`,
    `  phases per frame: gathering ${f(part.phases.gatherMs, 2)} ms for ${Math.round(part.phases.candidates).toLocaleString('en-US')} candidates (${f((1e6 * part.phases.gatherMs) / part.phases.candidates, 0)} ns each), solving ${f(part.phases.solveMs, 2)} ms over ${SUBSTEPS} substeps for ${Math.round(part.phases.contacts).toLocaleString('en-US')} contacts (${f((1e6 * part.phases.solveMs) / (SUBSTEPS * part.phases.candidates), 0)} ns per candidate and substep, ${f((1e6 * part.phases.solveMs) / Math.max(1, part.phases.contacts), 0)} ns per contact)`,
    `Self-collision, wasm, ${SUBSTEPS} substeps`,
    `  box of ${part.selfTets.box.toLocaleString('en-US')} tets resting: ${f(part.self.boxOff.ms)} ms/frame off, ${f(part.self.boxOn.ms)} ms/frame on (gathering ${f(part.self.boxOn.phases.gatherMs)} ms, solving ${f(part.self.boxOn.phases.solveMs)} ms, ${Math.round(part.self.boxOn.phases.candidates).toLocaleString('en-US')} candidates, ${Math.round(part.self.boxOn.phases.contacts)} contacts)`,
    `  hairpin of ${part.selfTets.hairpin.toLocaleString('en-US')} tets lying on itself: ${f(part.self.hairpin.ms)} ms/frame (gathering ${f(part.self.hairpin.phases.gatherMs)} ms, solving ${f(part.self.hairpin.phases.solveMs)} ms, ${Math.round(part.self.hairpin.phases.candidates).toLocaleString('en-US')} candidates, ${Math.round(part.self.hairpin.phases.contacts).toLocaleString('en-US')} contacts per frame)`,
  ];
}
