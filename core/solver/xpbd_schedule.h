// The XPBD/PBD passes of one substep, on one thread or as a job for a worker pool (worker_pool.h).
//
// The job is a fixed sequence of segments: pack the positions into xyzw, then per iteration each
// edge colour, the edge overflow set, each tet colour, the tet overflow set, then unpack. A segment
// is cut into chunks: a colour of n constraints into clamp(n / split_min, 1, 2 threads) (within a colour no two
// constraints share a vertex, so its chunks are independent; their bounds are multiples of 4, so the
// SIMD batches stay whole; at most two per thread), the overflow sets into one (their constraints may share vertices: in
// order on one thread), the vertex copies into blocks. Chunks are numbered segment by segment and
// each waits until every chunk of the earlier segments is finished, so every constraint is solved
// with the same arithmetic on the same inputs as in the one-thread loop: the results are the same to
// the bit for any number of threads.
#pragma once
#include <cstdint>

#include "solver/xpbd_constraints.h"

namespace sb {

class WorkerPool;

struct XpbdPasses {
  EdgePass edges;  // edges.xw is the xyzw buffer; volumes.xw must be the same
  VolumePass volumes;
  int iterations = 1;
  float* pos = nullptr;             // xyz per vertex (m): packed from, unpacked to
  const float* inv_mass = nullptr;  // 1/kg per vertex
  uint32_t vertices = 0;
  uint32_t split_min = 256;  // the smallest colour cut into more than one chunk
  uint32_t threads = 1;      // set by run_xpbd_passes: a colour is cut into at most 2 x threads chunks
};

// Runs the passes; on the pool's threads when pool is non-null with more than one thread.
void run_xpbd_passes(const XpbdPasses& passes, WorkerPool* pool);

}  // namespace sb
