// Reading a fuzzer's bytes as arguments: each read takes what it needs from the front and returns a
// default (0) once the input is used up, so every byte string is a valid program.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

namespace fuzz {

class Input {
 public:
  Input(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  bool empty() const { return p_ >= end_; }
  uint8_t byte() { return p_ < end_ ? *p_++ : 0; }
  uint32_t u32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(byte()) << (8 * i);
    return v;
  }
  int32_t i32() { return int32_t(u32()); }
  // An integer in [lo, hi], or (1 time in 16) any int32: counts and indices just outside their
  // ranges are where contracts break.
  int32_t in(int32_t lo, int32_t hi) {
    const uint8_t b = byte();
    if ((b & 15) == 15) return i32();
    return lo + int32_t(b >> 4 | uint32_t(byte()) << 4) % (hi - lo + 1);
  }
  // A float: ordinary values most of the time, the edges of the type otherwise.
  float real(float scale = 1.0f) {
    static const float kSpecial[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1e-30f, 1e-6f, 1e6f, 1e20f, -1e20f, 3e38f,
                                     std::numeric_limits<float>::denorm_min(), INFINITY, -INFINITY, NAN, 1e-45f};
    const uint8_t b = byte();
    if (b < 160) return scale * (float(int8_t(byte())) / 32.0f);  // [-4, 4) x scale, in steps of 1/32
    if (b < 224) return kSpecial[b % (sizeof kSpecial / sizeof kSpecial[0])];
    const uint32_t bits = u32();
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

}  // namespace fuzz
