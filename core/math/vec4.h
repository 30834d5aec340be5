// Four-float vectors for positions padded to xyzw: one 16-byte load or store per vertex, the fourth
// lane carrying the vertex's inverse mass (1/kg) next to its position. GCC/clang vector extensions,
// so the same source compiles to SSE natively and to wasm SIMD (-msimd128) in the wasm build.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE__)
#include <xmmintrin.h>
#endif

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

typedef int32_t V4i __attribute__((vector_size(16)));

// Correctly rounded square root per lane (IEEE, like std::sqrt on each).
inline V4 sqrt4(V4 v) {
#if defined(__wasm_simd128__)
  return (V4)wasm_f32x4_sqrt((v128_t)v);
#elif defined(__SSE__)
  return (V4)_mm_sqrt_ps((__m128)v);
#else
  return V4{std::sqrt(v[0]), std::sqrt(v[1]), std::sqrt(v[2]), std::sqrt(v[3])};
#endif
}

// Rows r0..r3 to columns (and back: a transpose is its own inverse): r_k = (x_k, y_k, z_k, w_k)
// becomes x = (x_0, x_1, x_2, x_3), y, z, w.
inline void transpose4(V4& r0, V4& r1, V4& r2, V4& r3) {
  const V4 t0 = __builtin_shufflevector(r0, r1, 0, 4, 1, 5), t1 = __builtin_shufflevector(r2, r3, 0, 4, 1, 5);
  const V4 t2 = __builtin_shufflevector(r0, r1, 2, 6, 3, 7), t3 = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);
  r0 = __builtin_shufflevector(t0, t1, 0, 1, 4, 5);
  r1 = __builtin_shufflevector(t0, t1, 2, 3, 6, 7);
  r2 = __builtin_shufflevector(t2, t3, 0, 1, 4, 5);
  r3 = __builtin_shufflevector(t2, t3, 2, 3, 6, 7);
}
// v where mask lanes are all ones, +0 where they are 0 (masks from vector comparisons).
inline V4 select_or_zero(V4i mask, V4 v) { return (V4)(mask & (V4i)v); }

}  // namespace sb
