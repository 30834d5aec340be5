// Tiny helpers for xyz triples stored interleaved in flat float buffers.
// Plain inline functions so the solver loops read like the math and compile to straight-line code.
#pragma once
#include <cmath>

namespace sb {

struct Vec3 {
  float x, y, z;
};

inline Vec3 load3(const float* a, unsigned i) { return {a[3 * i], a[3 * i + 1], a[3 * i + 2]}; }
inline void store3(float* a, unsigned i, Vec3 v) {
  a[3 * i] = v.x;
  a[3 * i + 1] = v.y;
  a[3 * i + 2] = v.z;
}
inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline float length_sq(Vec3 a) { return dot(a, a); }
inline float length(Vec3 a) { return std::sqrt(dot(a, a)); }

}  // namespace sb
