// The bridge's side of the tetrahedralizer's thin-parts choice (sb_tetra_set_thin_parts): what a
// job does when thin parts, sampled by their thickness, would take it over maxTets. Split from
// softbody.js, which hooks it into createTetra and Tetra.stats().

// SB_TETRA_THIN_*: sample them anyway (the job is refused), thicken them (sheets offset outward: a
// change of the geometry, reported in the stats), sample them coarser than two across, or drop them
// (parts thinner than the bound meshes removed; refused when nothing is left).
export const ThinParts = Object.freeze({ sample: 0, thicken: 1, coarsen: 2, drop: 3 });

// Byte offset of the choice's fields in sb_tetra_stats: after the 51 int32/float32 fields before them.
const CHOICE_OFFSET = 51 * 4;
export const THIN_CHOICE_STATS_BYTES = 11 * 4; // 3 int32, 3 float32, 1 int32, 2 float32, 2 int32

// Sets the choice on a new job (before its first run). The caller validated `thinParts`.
export function setThinParts(sb, handle, thinParts) {
  if (thinParts !== 'sample') sb.check(sb.M._sb_tetra_set_thin_parts(handle, ThinParts[thinParts]));
}

// The choice's fields of the stats the job just wrote at `at`: { thinParts, estimatedTetsAsSampled,
// choiceFloorTets, thickenedTo (m), thickenedVolume (m^3), coarsenedSpacing (m), droppedFaces,
// droppedBelow (m), droppedVolume (m^3), boundRetries, overBoundTets } (the last two: meshings redone
// because a result came out over maxTets, and the tets of the last such result).
export function thinChoiceStats(buffer, at) {
  const ints = new Int32Array(buffer, at + CHOICE_OFFSET, 3);
  const floats = new Float32Array(buffer, at + CHOICE_OFFSET + 12, 3);
  const dropped = new DataView(buffer, at + CHOICE_OFFSET + 24, 20);
  const thinParts = Object.keys(ThinParts).find((k) => ThinParts[k] === ints[0]) ?? 'sample';
  return {
    thinParts,
    estimatedTetsAsSampled: ints[1],
    choiceFloorTets: ints[2],
    thickenedTo: floats[0],
    thickenedVolume: floats[1],
    coarsenedSpacing: floats[2],
    droppedFaces: dropped.getInt32(0, true),
    droppedBelow: dropped.getFloat32(4, true),
    droppedVolume: dropped.getFloat32(8, true),
    boundRetries: dropped.getInt32(12, true),
    overBoundTets: dropped.getInt32(16, true),
  };
}
