// A constraint solve order cut into batches that a many-core device (a GPU's compute dispatches) can
// run one after the other, each batch's constraints at the same time, with the same result as the
// serial loop over the solve order.
//
// Level scheduling over the solve order: a constraint's batch is one past the latest batch that
// wrote any of its vertices. A constraint then runs after every earlier constraint it shares a vertex
// with, and no two constraints of a batch share one, so each sees exactly the inputs the serial loop
// gives it. Constraints that share no vertex commute, so the order within and between the colours of
// the XPBD plan (xpbd_partition.h) is kept where it matters: a colour of that plan never needs more
// than one batch, and the units of a phase fall into the same batches.
#pragma once
#include <cstdint>
#include <vector>

namespace sb {

struct ParallelBatches {
  std::vector<uint32_t> order;   // solve positions, batch by batch (in solve order within a batch)
  std::vector<uint32_t> starts;  // batch b: order[starts[b] .. starts[b + 1]); batches() + 1 entries
  uint32_t batches() const { return starts.empty() ? 0 : uint32_t(starts.size()) - 1; }
};

// ids: `arity` vertex indices per constraint (all < vertex_count), in solve order.
ParallelBatches level_batches(const uint32_t* ids, uint32_t count, int arity, uint32_t vertex_count);

}  // namespace sb
