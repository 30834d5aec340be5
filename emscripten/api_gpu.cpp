// The C API's reads for a second solver implementation (the WebGPU backend): rest data, masses and
// the parallel batches of the solve order, as zero-copy pointers (softbody.h).
#include <cstdint>

#include "api_state.h"
#include "softbody.h"

using namespace sbapi;

extern "C" {

const float* sb_body_velocities(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  return b ? b->velocities() : nullptr;
}

const float* sb_body_inverse_masses(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  return b ? b->inverse_masses() : nullptr;
}

const float* sb_body_edge_rest_lengths(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  return b && b->edge_count() > 0 ? b->edge_rest_lengths() : nullptr;  // NULL with SB_OK: no edges
}

const float* sb_body_tet_6_rest_volumes(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  return b && b->tet_count() > 0 ? b->tet_rest_volumes6() : nullptr;  // NULL with SB_OK: no tets
}

const float* sb_body_inverse_rest_shapes(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  return b && b->tet_count() > 0 ? b->inverse_rest_shapes() : nullptr;
}

// The body's batches of `kind`, or null with the error recorded.
static const sb::ParallelBatches* batches(sb_world world, sb_body body, int32_t kind) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  if (!b) return nullptr;
  if (kind != SB_BATCH_EDGES && kind != SB_BATCH_TETS) {
    fail(SB_ERR_OUT_OF_RANGE, "batch kind %d: expected SB_BATCH_EDGES (0) or SB_BATCH_TETS (1)", int(kind));
    return nullptr;
  }
  return &b->parallel_batches(kind);
}

int32_t sb_body_batch_count(sb_world world, sb_body body, int32_t kind) {
  const sb::ParallelBatches* p = batches(world, body, kind);
  return p ? int32_t(p->batches()) : sb_last_error_code();
}

const uint32_t* sb_body_batch_starts(sb_world world, sb_body body, int32_t kind) {
  const sb::ParallelBatches* p = batches(world, body, kind);
  return p ? p->starts.data() : nullptr;
}

const uint32_t* sb_body_batch_order(sb_world world, sb_body body, int32_t kind) {
  const sb::ParallelBatches* p = batches(world, body, kind);
  return p && !p->order.empty() ? p->order.data() : nullptr;  // NULL with SB_OK: no constraints
}

}  // extern "C"
