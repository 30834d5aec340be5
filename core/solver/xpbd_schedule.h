// The XPBD/PBD passes of one substep, on one thread or as a job for a worker pool (worker_pool.h).
//
// The job is a fixed sequence of phases: pack the positions into xyzw, then per iteration the edge
// plan's phases, the tet plan's and the cloth bending plan's (xpbd_partition.h), then unpack. The units of a phase share no
// vertex; a unit waits for the earlier units that share a vertex group with it (not the whole
// earlier phase: a thread done early starts where its groups are ready). A phase of one
// colour without overflow (the left-over set's) is cut into clamp(n / split_min, 1, 2 threads)
// chunks whose bounds are multiples of 4 (the SIMD batches stay whole); the vertex copies run per
// vertex group (or per block), with the caller's per-vertex work. Every constraint gets the same arithmetic on the same inputs as in
// the one-thread loop, so the results are the same to the bit for any number of threads.
#pragma once
#include <cstdint>

#include "solver/cloth_constraints.h"
#include "solver/xpbd_constraints.h"
#include "solver/xpbd_partition.h"

namespace sb {

class WorkerPool;

struct XpbdPasses {
  EdgePass edges;  // edges.xw is the xyzw buffer; volumes.xw must be the same
  VolumePass volumes;
  const PassPlan* edge_plan = nullptr;  // the solve order of edges.ids and volumes.ids
  const PassPlan* tet_plan = nullptr;
  // Cloth bending (cloth_constraints.h), after the volumes in each iteration; bends.xw must be
  // edges.xw. Null plan: none.
  BendPass bends;
  const PassPlan* bend_plan = nullptr;
  int iterations = 1;
  float* pos = nullptr;             // xyz per vertex (m): packed from, unpacked to
  float origin[3] = {0, 0, 0};      // m: the passes run on pos - origin (pack_positions)
  const float* inv_mass = nullptr;  // 1/kg per vertex
  uint32_t vertices = 0;
  // The vertex ranges packed and unpacked as units: ranges + 1 bounds, the last = vertices.
  const uint32_t* vertex_bounds = nullptr;
  uint32_t vertex_ranges = 0;
  bool copies_per_group = false;  // the ranges are the vertex groups (else all in group 0)
  // Per-vertex work fused into the copies, on the same vertex ranges and threads (null: none):
  // `before` ahead of packing a range, `after` once it is unpacked; unit = the range's number.
  // So the substep's per-vertex passes (prediction, ground, velocities) need no serial pass.
  using VertexWork = void (*)(void* ctx, uint32_t unit, uint32_t begin, uint32_t end);
  VertexWork before = nullptr, after = nullptr;
  void* vertex_ctx = nullptr;
  uint32_t split_min = 256;  // the smallest colour cut into more than one chunk
  uint32_t threads = 1;      // set by run_xpbd_passes
};

// Runs the passes; on the pool's threads when pool is non-null with more than one thread.
void run_xpbd_passes(const XpbdPasses& passes, WorkerPool* pool);

}  // namespace sb
