// Vertex normals of a triangle surface weighted by each triangle's angle at the vertex
// (Thürmer & Wüthrich 1998), for the tet surface of bodies drawn without a visual mesh.
//
// Why not BufferGeometry.computeVertexNormals (area-weighted): a box lattice's faces are cut into
// triangles whose diagonals alternate, so a vertex on a box edge meets one triangle of one face and
// two of the other, alternately along the edge; area weights then tilt its normal toward one face
// or the other, and the shading shows a dark saw-tooth along every edge. Angle weights give each
// face the same 180° there, whatever the triangulation.

// The interior angle between the edge arriving along u and the one leaving along v (clamped
// against rounding).
function angle(ux, uy, uz, lu, vx, vy, vz, lv) {
  return Math.acos(Math.min(1, Math.max(-1, -(ux * vx + uy * vy + uz * vz) / (lu * lv))));
}

// normals (Float32Array, 3 per vertex) from positions (3 per vertex) and triangles (3 indices each).
export function angleWeightedNormals(positions, triangles, normals) {
  normals.fill(0);
  for (let f = 0; f < triangles.length; f += 3) {
    const ia = 3 * triangles[f];
    const ib = 3 * triangles[f + 1];
    const ic = 3 * triangles[f + 2];
    const ax = positions[ia], ay = positions[ia + 1], az = positions[ia + 2];
    const bx = positions[ib], by = positions[ib + 1], bz = positions[ib + 2];
    const cx = positions[ic], cy = positions[ic + 1], cz = positions[ic + 2];
    // Edge vectors a->b, b->c, c->a and their lengths.
    const abx = bx - ax, aby = by - ay, abz = bz - az;
    const bcx = cx - bx, bcy = cy - by, bcz = cz - bz;
    const cax = ax - cx, cay = ay - cy, caz = az - cz;
    const lab = Math.hypot(abx, aby, abz);
    const lbc = Math.hypot(bcx, bcy, bcz);
    const lca = Math.hypot(cax, cay, caz);
    let nx = aby * -caz - abz * -cay;
    let ny = abz * -cax - abx * -caz;
    let nz = abx * -cay - aby * -cax;
    const ln = Math.hypot(nx, ny, nz);
    if (ln === 0 || lab === 0 || lbc === 0 || lca === 0) continue; // degenerate: no direction to give
    nx /= ln;
    ny /= ln;
    nz /= ln;
    const wa = angle(cax, cay, caz, lca, abx, aby, abz, lab);
    const wb = angle(abx, aby, abz, lab, bcx, bcy, bcz, lbc);
    const wc = Math.PI - wa - wb;
    normals[ia] += wa * nx;
    normals[ia + 1] += wa * ny;
    normals[ia + 2] += wa * nz;
    normals[ib] += wb * nx;
    normals[ib + 1] += wb * ny;
    normals[ib + 2] += wb * nz;
    normals[ic] += wc * nx;
    normals[ic + 1] += wc * ny;
    normals[ic + 2] += wc * nz;
  }
  for (let i = 0; i < normals.length; i += 3) {
    const l = Math.hypot(normals[i], normals[i + 1], normals[i + 2]);
    if (l > 0) {
      normals[i] /= l;
      normals[i + 1] /= l;
      normals[i + 2] /= l;
    } else {
      normals[i + 1] = 1; // a vertex of no triangle (inside the body), or of degenerate ones only
    }
  }
  return normals;
}
