// Cloth tearing changes a body's vertices and triangles (SB_PARAM_TEAR_STRAIN): the C side rebuilds
// the body, so its buffers move and its counts grow, and sb_body_topology_version counts each change.
// The bridge's Body asks here before handing out its zero-copy views; on a change it takes the
// counts again and the caller makes new views (the renderer notices the new arrays and rebinds, as
// after a memory growth). Only cloth tears, so other bodies never call into wasm for it.

// True (once) when the body's topology changed since the last call; refreshes its counts.
export function topologyChanged(body) {
  if (!body.isCloth) return false;
  const { M } = body.sb;
  const w = body.world.handle;
  const version = body.sb.check(M._sb_body_topology_version(w, body.handle));
  if (version === body.topologyVersion) return false;
  body.topologyVersion = version;
  body.vertexCount = body.sb.check(M._sb_body_vertex_count(w, body.handle));
  body.triangleCount = body.sb.check(M._sb_body_triangle_count(w, body.handle));
  body.edgeCount = body.sb.check(M._sb_body_edge_count(w, body.handle));
  return true;
}
