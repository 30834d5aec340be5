// Shared plumbing of the C API: the last-error slot and the handle registry.
// This is the only global state in the project; the core has none.
#pragma once
#include <cstdint>

#include "solver/world.h"
#include "softbody.h"

namespace sbapi {

// Records a failure (printf-style message) and returns `code` so callers can `return fail(...)`.
int32_t fail(sb_error code, const char* format, ...);
void clear_error();
const char* message();  // the last failure's text, "" after success
int32_t code();         // the last failure's code, SB_OK after success

// Resolve handles; on failure the error is already recorded and null is returned.
sb::World* find_world(sb_world handle);
sb::SoftBody* find_body(sb_world world, sb_body body, sb::World** world_out = nullptr);

sb_world add_world();  // a handle, or a negative sb_error
bool remove_world(sb_world handle);
// World handles carry a 24-bit generation per slot (api_state.cpp); a slot whose last generation
// was destroyed is retired.
constexpr uint32_t kMaxWorldGeneration = (1u << 24) - 1;
uint32_t world_slot(sb_world handle);  // the slot a handle names (valid or not)
// For tests only: the generation the next world made in a free slot gets.
void set_world_generation_for_test(uint32_t slot, uint32_t generation);

int32_t encode_body(sb::BodyHandle h);
sb::BodyHandle decode_body(sb_body handle);

// XPBD with Neo-Hookean is supported up to a stiffness number per substep (materials/neo_hookean_xpbd.h):
// records SB_ERR_MATERIAL_SOLVER naming the substeps that would work and returns it, if any body of
// the world would exceed it at dt seconds with `substeps` substeps; else SB_OK. `what` says what was refused.
int32_t check_xpbd_range(const sb::World& w, float dt, int32_t substeps, const char* what);
// The same for one body, at the world's last dt and substeps (after a change to that body).
// assume_xpbd: as if the body ran XPBD already (checked before switching to it).
int32_t check_xpbd_body(const sb::World& w, sb_body handle, const sb::SoftBody& b, const char* what,
                        bool assume_xpbd = false);

// Checks shared by several entry points; each records a message naming `what`.
bool check_finite(float value, const char* what);
bool check_range(float value, float lo, float hi, const char* what);

}  // namespace sbapi
