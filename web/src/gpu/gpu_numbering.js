// One vertex numbering for a world's bodies, body after body: body j's vertex i is base[j] + i. The
// world's vertex buffers (gpu_merged.js) and the contact hash (gpu_body_contact.js) number alike,
// so the contacts can run on the world's buffers.
export function vertexBases(bodies) {
  const base = [];
  let vertices = 0;
  for (const b of bodies) {
    base.push(vertices);
    vertices += b.vertexCount;
  }
  return { base, vertices };
}
