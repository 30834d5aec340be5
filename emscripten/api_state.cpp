#include "api_state.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <memory>
#include <vector>

namespace sbapi {

namespace {
char g_message[512] = "";
int32_t g_code = SB_OK;

struct WorldSlot {
  std::unique_ptr<sb::World> world;
  uint32_t generation = 1;
};
std::vector<WorldSlot> g_worlds;

// Handle = generation << 16 | (index + 1): never 0, positive while generation < 32768.
int32_t encode(uint32_t index, uint32_t generation) {
  return int32_t(((generation & 0x7fffu) << 16) | (index + 1));
}
}  // namespace

int32_t fail(sb_error code, const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vsnprintf(g_message, sizeof g_message, format, args);
  va_end(args);
  g_code = code;
  return code;
}

void clear_error() {
  g_message[0] = '\0';
  g_code = SB_OK;
}

const char* message() { return g_message; }
int32_t code() { return g_code; }

sb::World* find_world(sb_world handle) {
  const uint32_t index = (uint32_t(handle) & 0xffffu) - 1;
  const uint32_t generation = (uint32_t(handle) >> 16) & 0x7fffu;
  if (handle <= 0 || index >= g_worlds.size() || !g_worlds[index].world ||
      (g_worlds[index].generation & 0x7fffu) != generation) {
    fail(SB_ERR_INVALID_WORLD, "world handle %d is not a live world (never created, or destroyed)", handle);
    return nullptr;
  }
  return g_worlds[index].world.get();
}

sb::SoftBody* find_body(sb_world world, sb_body body, sb::World** world_out) {
  sb::World* w = find_world(world);
  if (!w) return nullptr;
  sb::SoftBody* b = body > 0 ? w->body(decode_body(body)) : nullptr;
  if (!b) {
    fail(SB_ERR_INVALID_BODY, "body handle %d is not a live body of world %d (never created, or destroyed)",
         body, world);
    return nullptr;
  }
  if (world_out) *world_out = w;
  return b;
}

sb_world add_world() {
  size_t index = 0;
  while (index < g_worlds.size() && g_worlds[index].world) ++index;
  if (index >= SB_MAX_WORLDS) return fail(SB_ERR_LIMIT, "already %d worlds alive (SB_MAX_WORLDS)", SB_MAX_WORLDS);
  if (index == g_worlds.size()) g_worlds.emplace_back();
  g_worlds[index].world = std::make_unique<sb::World>();
  return encode(uint32_t(index), g_worlds[index].generation);
}

bool remove_world(sb_world handle) {
  if (!find_world(handle)) return false;
  WorldSlot& slot = g_worlds[(uint32_t(handle) & 0xffffu) - 1];
  slot.world.reset();
  slot.generation = slot.generation % 0x7fffu + 1;  // stays in [1, 32767]
  return true;
}

int32_t encode_body(sb::BodyHandle h) { return encode(h.index, h.generation); }

sb::BodyHandle decode_body(sb_body handle) {
  return {(uint32_t(handle) & 0xffffu) - 1, (uint32_t(handle) >> 16) & 0x7fffu};
}

bool check_finite(float value, const char* what) {
  if (std::isfinite(value)) return true;
  fail(SB_ERR_NOT_FINITE, "%s must be finite, got %g", what, double(value));
  return false;
}

bool check_range(float value, float lo, float hi, const char* what) {
  if (!check_finite(value, what)) return false;
  if (value >= lo && value <= hi) return true;
  fail(SB_ERR_OUT_OF_RANGE, "%s must be in [%g, %g], got %g", what, double(lo), double(hi), double(value));
  return false;
}

}  // namespace sbapi
