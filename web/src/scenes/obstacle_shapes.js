// Triangle surfaces for the scenes' mesh obstacles (open shells, sb_collider_create_mesh with a
// thickness): a bowl and a funnel. Plain arrays in the collider's frame, metres; the same arrays
// draw the obstacle (collider_view.js), so what is seen is what is hit.

// A surface of revolution about y through the profile points [[r, y], ...], `segments` around; open
// at both ends. Triangles wind counter-clockwise seen from outside (away from the axis).
function revolve(profile, segments) {
  const positions = [];
  const triangles = [];
  for (const [r, y] of profile) {
    for (let s = 0; s < segments; s++) {
      const a = (2 * Math.PI * s) / segments;
      positions.push(r * Math.cos(a), y, r * Math.sin(a));
    }
  }
  for (let ring = 0; ring + 1 < profile.length; ring++) {
    for (let s = 0; s < segments; s++) {
      const a = ring * segments + s;
      const b = ring * segments + ((s + 1) % segments);
      const c = a + segments;
      const d = b + segments;
      triangles.push(a, c, b, b, c, d);
    }
  }
  return { positions, triangles };
}

// A hemispherical bowl of the given radius (m), its lowest point at the origin, open at the top.
export function bowl(radius, segments = 32, rings = 10) {
  const profile = [];
  for (let k = 1; k <= rings; k++) {
    const polar = (k / rings) * (Math.PI / 2); // from the bottom (0) to the rim (pi/2)
    profile.push([radius * Math.sin(polar), radius - radius * Math.cos(polar)]);
  }
  // The bottom's small hole is closed by a cap fan, so nothing falls through the middle.
  const shell = revolve(profile, segments);
  const centre = shell.positions.length / 3;
  shell.positions.push(0, 0, 0);
  for (let s = 0; s < segments; s++) shell.triangles.push(centre, s, (s + 1) % segments);
  return shell;
}

// A funnel: a cone from radius `top` at height `height` down to radius `bottom` at 0, open at both
// ends (the spout lets bodies squeeze through), plus a short straight spout below.
export function funnel(top, bottom, height, spout = 0.25, segments = 32) {
  const profile = [[bottom, -spout], [bottom, 0]];
  const rings = 8;
  for (let k = 1; k <= rings; k++) profile.push([bottom + ((top - bottom) * k) / rings, (height * k) / rings]);
  return revolve(profile, segments);
}
