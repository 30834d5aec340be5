// Benchmark part 5: contact (issue 12). A pile of 20 bodies (boxes of 6^3 cells and balls of 8 cells,
// ~44k tets) poured between four box walls, 10 substeps, dt = 1/60 s, in the wasm build under node.
// The same scene runs twice, interleaved frame batch by frame batch: with contact between bodies, and
// with every body's collision mask 0 (walls and ground still touch). The difference is what contact
// between bodies costs; its share of the frame is the measure (target 30 %, and the pile at 30
// physics frames per second). Frames 0-119 let the pile fall and meet; the timed frames follow.
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

export async function runContactPart(sb, { rounds = 5, log = () => {} } = {}) {
  const scenes = { contact: buildPile(sb, true), none: buildPile(sb, false) };
  const samples = { contact: [], none: [] };
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? ['none', 'contact'] : ['contact', 'none'];
    for (const name of order) {
      const { world } = scenes[name];
      for (let f = 0; f < BATCH; f++) {
        const t0 = performance.now();
        world.step(DT);
        samples[name].push(performance.now() - t0);
      }
    }
    log(`contact round ${r + 1}/${rounds}`);
  }
  const contactMs = median(samples.contact);
  const noneMs = median(samples.none);
  let contacts = 0;
  for (const body of scenes.contact.world.bodies) contacts += body.stats().contacts;
  for (const { world } of Object.values(scenes)) world.destroy();
  return {
    tets: scenes.contact.tets,
    contactMs,
    noneMs,
    share: (contactMs - noneMs) / contactMs,
    contacts,
    results: [
      { part: 'contact', build: 'wasm', scene: 'pile of 20 bodies in four walls', tets: scenes.contact.tets, bodyContact: true, msPerFrame: contactMs, contacts },
      { part: 'contact', build: 'wasm', scene: 'pile of 20 bodies in four walls', tets: scenes.contact.tets, bodyContact: false, msPerFrame: noneMs },
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
  ];
}
