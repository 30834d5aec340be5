// The bodies a scene drops (scene_presets.js): small boxes, balls, thin sheets, cloth, bunnies and copies of
// the page's current shape (rest tets, scaled and moved), made through the bridge.

// Tetrahedralizer cells along the bunny's longest side. The ears are sampled by their thickness at
// any resolution, so 4-10 cells all give ~6,000 tets; 10 gives the best of them (min quality 0.138
// against 0.068 at 6). Measured in node (0.55 m bunny, page defaults): dropped alone from 0.8 / 1.5 /
// 2.3 m it keeps 1 / 6 / 4 tets inverted after 4 s against 9 / 17 / 18 at 6 cells, and in the pile
// no bunny still trembles after 10 s (docs, Known limitations).
export const BUNNY_RESOLUTION = 10;

let bunnyPromise = null;

// The Stanford bunny's rest tets ({ positions, tets }), tetrahedralized once per page (about 70 ms)
// and kept; the scenes drop scaled copies of them.
export function bunnyTets(softbody) {
  // samples.js (and the mesh readers it brings) loads only when a scene drops bunnies: the
  // <soft-body> runtime imports this module for every figure.
  bunnyPromise ??= import('../import/samples.js').then(({ sampleSurface }) => sampleSurface('bunny')).then((surface) => {
    const job = softbody.createTetra(surface.positions, surface.triangles, { resolution: BUNNY_RESOLUTION });
    try {
      job.runAll();
      return job.result();
    } finally {
      job.destroy();
    }
  });
  return bunnyPromise;
}

// The current shape's rest tets scaled so its largest side is `size` m (null: as it is) and centred at `at`.
export function placedCopy(source, size, at) {
  const p = source.positions;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) {
    for (let c = 0; c < 3; c++) {
      lo[c] = Math.min(lo[c], p[i + c]);
      hi[c] = Math.max(hi[c], p[i + c]);
    }
  }
  const scale = size === null ? 1 : size / Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const out = new Float32Array(p.length);
  for (let i = 0; i < p.length; i += 3) {
    for (let c = 0; c < 3; c++) out[i + c] = at[c] + scale * (p[i + c] - 0.5 * (lo[c] + hi[c]));
  }
  return out;
}

// One dropped body. shapes: { current, bunny }, each { positions, tets } at rest: the page's current
// shape (for 'copy') and the bunny (for 'bunny', see bunnyTets).
export function addDropBody(world, drop, shapes) {
  const { kind, at, size } = drop;
  if (kind === 'box') return world.addBox({ cells: [drop.cells, drop.cells, drop.cells], size: [size, size, size], center: at });
  if (kind === 'ball') return world.addBall({ radius: size / 2, cells: drop.cells, center: at });
  if (kind === 'sheet') return world.addBox({ cells: [drop.cells, 1, drop.cells], size: [size, size / drop.cells, size], center: at });
  // Cloth: a sheet of near-equilateral triangles, `cells` bases across (rows 0.87 as tall), horizontal
  // unless vertical; pinned along its left edge (a flag's pole), in the wind, touching itself on request.
  if (kind === 'cloth') {
    const cloth = world.addClothRectangle({ cells: [drop.cells, Math.round(drop.cells / 0.866)], size: [size, size], center: at, vertical: !!drop.vertical });
    if (drop.pin === 'left') {
      for (let i = 0; i < cloth.vertexCount; i++) if (cloth.positions[3 * i] < at[0] - size / 2 + 1e-4) cloth.pin(i);
    }
    if (drop.pin === 'top') {
      let top = -Infinity;
      for (let i = 0; i < cloth.vertexCount; i++) top = Math.max(top, cloth.positions[3 * i + 1]);
      for (let i = 0; i < cloth.vertexCount; i++) if (cloth.positions[3 * i + 1] > top - 1e-4) cloth.pin(i);
    }
    if (drop.tear) cloth.setParam('tearStrain', drop.tear);
    if (drop.drag) cloth.setParam('dragCoefficient', drop.drag);
    if (drop.lift) cloth.setParam('liftCoefficient', drop.lift);
    if (drop.selfCollision) cloth.setSelfCollision(true, drop.selfCollision);
    return cloth;
  }
  if (kind === 'copy' || kind === 'bunny') {
    const source = kind === 'copy' ? shapes.current : shapes.bunny;
    if (!source) throw new Error(`a "${kind}" body needs its shape's tets`);
    return world.addTets(placedCopy(source, size, at), source.tets);
  }
  throw new Error(`unknown body kind "${kind}"`);
}
