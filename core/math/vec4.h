// Four-float vectors for positions padded to xyzw: one 16-byte load or store per vertex, the fourth
// lane carrying the vertex's inverse mass (1/kg) next to its position. GCC/clang vector extensions,
// so the same source compiles to SSE natively and to wasm SIMD (-msimd128) in the wasm build.
#pragma once
#include <cstring>

namespace sb {

typedef float V4 __attribute__((vector_size(16)));

inline V4 load4(const float* a, unsigned i) {
  V4 v;
  std::memcpy(&v, a + 4 * size_t(i), sizeof v);  // one unaligned 16-byte load
  return v;
}
inline void store4(float* a, unsigned i, V4 v) { std::memcpy(a + 4 * size_t(i), &v, sizeof v); }
inline V4 splat4(float s) { return V4{s, s, s, s}; }
// x*x + y*y + z*z in the same order as dot() in vec3.h, so the packed loops round exactly like the
// xyz ones.
inline float dot3(V4 a, V4 b) {
  const V4 p = a * b;
  return p[0] + p[1] + p[2];
}
// The cross product of the xyz parts, lane w = a.w b.w - a.w b.w = 0 for finite w.
inline V4 cross3(V4 a, V4 b) {
  const V4 a_yzx = __builtin_shufflevector(a, a, 1, 2, 0, 3), b_zxy = __builtin_shufflevector(b, b, 2, 0, 1, 3);
  const V4 a_zxy = __builtin_shufflevector(a, a, 2, 0, 1, 3), b_yzx = __builtin_shufflevector(b, b, 1, 2, 0, 3);
  return a_yzx * b_zxy - a_zxy * b_yzx;
}

}  // namespace sb
