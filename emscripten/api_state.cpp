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
  uint32_t generation = 1;  // of the next (or current) world in this slot; 0 once retired
};
std::vector<WorldSlot> g_worlds;

// Handle = generation << 7 | (index + 1): 7 bits of slot (up to 127 slots for SB_MAX_WORLDS = 64
// alive) and 24 bits of generation, so a handle is a positive int32 and a slot repeats no handle
// for 16,777,215 worlds; after that it is retired (never reused), so a stale handle can never reach
// a newer world. Body handles share the layout with 13 bits of slot (core/solver/world.h).
constexpr uint32_t kWorldIndexBits = 7;
constexpr uint32_t kMaxWorldSlots = (1u << kWorldIndexBits) - 1;
int32_t encode(uint32_t index, uint32_t generation, uint32_t index_bits) {
  return int32_t((generation << index_bits) | (index + 1));
}
uint32_t world_index(sb_world handle) { return (uint32_t(handle) & kMaxWorldSlots) - 1; }
uint32_t world_generation(sb_world handle) { return uint32_t(handle) >> kWorldIndexBits; }
static_assert(kWorldIndexBits + 24 == 31, "world handles fill 31 bits");
static_assert(uint64_t(kMaxWorldGeneration) << kWorldIndexBits <= uint64_t(INT32_MAX), "handles are positive");
static_assert(uint64_t(sb::World::kMaxGeneration) << sb::World::kIndexBits <= uint64_t(INT32_MAX),
              "body handles are positive");
static_assert(sb::World::kMaxSlots >= SB_MAX_BODIES_PER_WORLD && kMaxWorldSlots >= SB_MAX_WORLDS,
              "room for every live object");
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
  const uint32_t index = world_index(handle);
  if (handle <= 0 || index >= g_worlds.size() || !g_worlds[index].world ||
      g_worlds[index].generation != world_generation(handle)) {
    fail(SB_ERR_INVALID_WORLD, "world handle %d is not a live world (never created, or destroyed)", handle);
    return nullptr;
  }
  return g_worlds[index].world.get();
}

namespace {
int32_t xpbd_range_error(sb_body handle, const sb::SoftBody& b, float dt, int32_t substeps, const char* what) {
  const sb::BodyParams& p = b.params();
  const int32_t need = b.xpbd_min_substeps(dt);
  char remedy[160];
  if (need <= SB_MAX_SUBSTEPS)
    std::snprintf(remedy, sizeof remedy, "use %d or more substeps (sb_world_set_substeps), a smaller dt, or the VBD solver", need);
  else  // more than the world allows at this dt
    std::snprintf(remedy, sizeof remedy, "it would need %d substeps at this dt, more than the %d allowed: use a smaller dt, or the VBD solver",
                  need, SB_MAX_SUBSTEPS);
  return fail(SB_ERR_MATERIAL_SOLVER,
              "%s refused: body %d is Neo-Hookean (E = %g Pa, nu = %g, %g kg/m^3) under XPBD, whose stiffness number "
              "(tet stiffness x h^2 / mass) would be %.3g at dt = %g s and %d substeps, above the %.0f it runs robustly "
              "at; %s",
              what, handle, double(p.youngs_modulus), double(p.poisson_ratio), double(p.density),
              b.xpbd_stiffness_number(dt / float(substeps)), double(dt), substeps, sb::kXpbdNeoHookeanMaxStiffness, remedy);
}
}  // namespace

int32_t check_xpbd_range(const sb::World& w, float dt, int32_t substeps, const char* what) {
  sb::BodyHandle body;
  int32_t need = 0;
  if (!w.xpbd_out_of_range(dt, substeps, &body, &need)) return SB_OK;
  return xpbd_range_error(encode_body(body), *const_cast<sb::World&>(w).body(body), dt, substeps, what);
}

int32_t check_xpbd_body(const sb::World& w, sb_body handle, const sb::SoftBody& b, const char* what, bool assume_xpbd) {
  const float dt = w.last_dt();
  const int32_t substeps = w.settings.substeps;
  if ((!assume_xpbd && b.solver() != sb::Solver::Xpbd) ||
      b.xpbd_stiffness_number(dt / float(substeps)) <= sb::kXpbdNeoHookeanMaxStiffness)
    return SB_OK;
  return xpbd_range_error(handle, b, dt, substeps, what);
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
  size_t alive = 0;
  for (const WorldSlot& slot : g_worlds) alive += slot.world ? 1 : 0;
  if (alive >= SB_MAX_WORLDS) return fail(SB_ERR_LIMIT, "already %d worlds alive (SB_MAX_WORLDS)", SB_MAX_WORLDS);
  size_t index = 0;  // the first free slot that is not retired
  while (index < g_worlds.size() && (g_worlds[index].world || g_worlds[index].generation == 0)) ++index;
  if (index >= kMaxWorldSlots)
    return fail(SB_ERR_LIMIT, "every world handle has been used (%u slots x %u worlds each); restart the module",
                kMaxWorldSlots, kMaxWorldGeneration);
  if (index == g_worlds.size()) g_worlds.emplace_back();
  g_worlds[index].world = std::make_unique<sb::World>();
  return encode(uint32_t(index), g_worlds[index].generation, kWorldIndexBits);
}

bool remove_world(sb_world handle) {
  if (!find_world(handle)) return false;
  WorldSlot& slot = g_worlds[world_index(handle)];
  slot.world.reset();
  // The next world here gets a new handle; after the last generation the slot is retired (0).
  slot.generation = slot.generation == kMaxWorldGeneration ? 0 : slot.generation + 1;
  return true;
}

uint32_t world_slot(sb_world handle) { return world_index(handle); }

void set_world_generation_for_test(uint32_t slot, uint32_t generation) {
  if (slot < g_worlds.size() && !g_worlds[slot].world) g_worlds[slot].generation = generation;
}

int32_t encode_body(sb::BodyHandle h) { return encode(h.index, h.generation, sb::World::kIndexBits); }

sb::BodyHandle decode_body(sb_body handle) {
  return {(uint32_t(handle) & sb::World::kMaxSlots) - 1, uint32_t(handle) >> sb::World::kIndexBits};
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
