// The benchmark's tet order, shared by bench.mjs and ab.mjs: tets sorted by their indices, then a
// Fisher-Yates shuffle with xorshift32 (the same sequence as shuffle_tets in bench_native.cpp), and
// the FNV-1a hash both sides print to check that native and wasm solve the same order.

// Tets (4 indices each) sorted lexicographically by their indices, as a new array.
export function sortedTets(tets) {
  const n = tets.length / 4;
  const idx = Array.from({ length: n }, (_, i) => i);
  idx.sort((a, b) => tets[4 * a] - tets[4 * b] || tets[4 * a + 1] - tets[4 * b + 1]
    || tets[4 * a + 2] - tets[4 * b + 2] || tets[4 * a + 3] - tets[4 * b + 3]);
  const out = new Uint32Array(4 * n);
  idx.forEach((t, i) => out.set(tets.subarray(4 * t, 4 * t + 4), 4 * i));
  return out;
}

// Fisher-Yates over whole tets with xorshift32 from `seed`: the same sequence as shuffle_tets in
// bench_native.cpp, after sorting the tets by their indices (so the input does not depend on the
// solve order the box body was read in). Returns a shuffled copy.
export function shuffleTets(tets, seed) {
  const out = sortedTets(tets);
  let x = seed >>> 0;
  for (let i = out.length / 4; i > 1; --i) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    const j = x % i;
    for (let k = 0; k < 4; ++k) {
      const t = out[4 * (i - 1) + k];
      out[4 * (i - 1) + k] = out[4 * j + k];
      out[4 * j + k] = t;
    }
  }
  return out;
}

// FNV-1a over 32-bit words, as softbody_bench's tetsHash.
export function fnv1a(words) {
  let h = 2166136261;
  for (const w of words) h = Math.imul(h ^ w, 16777619) >>> 0;
  return h;
}
