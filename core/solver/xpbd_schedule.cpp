#include "solver/xpbd_schedule.h"

#include <algorithm>

#include "solver/worker_pool.h"

static_assert(sb::kMaxVertexGroups <= sb::WorkerPool::kMaxRegions, "a vertex group per region");

namespace sb {

namespace {

enum class Kind { Pack, Edges, Volumes, Bends, Unpack };

// One phase of the job: what it runs and into how many units it is cut.
struct Phase {
  Kind kind = Kind::Pack;
  const PassPlan* plan = nullptr;
  uint32_t local = 0;  // the plan's phase
  bool split = false;  // one colour cut into `units` chunks
  uint32_t units = 1;
};

// The phases of one job (every thread walks them in the same order).
class Phases {
 public:
  explicit Phases(const XpbdPasses& p)
      : p_(p), edge_phases_(p.edge_plan->phases()), tet_phases_(p.tet_plan->phases()),
        bend_phases_(p.bend_plan ? p.bend_plan->phases() : 0),
        count_(2 + uint32_t(p.iterations) * (edge_phases_ + tet_phases_ + bend_phases_)) {}
  uint32_t count() const { return count_; }

  Phase at(uint32_t i) const {
    Phase f;
    if (i == 0 || i + 1 == count_) {
      f.kind = i == 0 ? Kind::Pack : Kind::Unpack;
      f.units = p_.vertex_ranges;
      return f;
    }
    uint32_t k = (i - 1) % (edge_phases_ + tet_phases_ + bend_phases_);
    if (k < edge_phases_) {
      f.kind = Kind::Edges;
      f.plan = p_.edge_plan;
    } else if (k < edge_phases_ + tet_phases_) {
      k -= edge_phases_;
      f.kind = Kind::Volumes;
      f.plan = p_.tet_plan;
    } else {
      k -= edge_phases_ + tet_phases_;
      f.kind = Kind::Bends;
      f.plan = p_.bend_plan;
    }
    f.local = k;
    f.units = f.plan->phase_starts[k + 1] - f.plan->phase_starts[k];
    if (f.plan->splittable(k)) {
      const PassUnit& u = f.plan->units[f.plan->phase_starts[k]];
      f.split = true;
      // At most two chunks per thread: fewer, larger chunks pay (a hand-over costs a few cache-line
      // transfers), two per thread still let an early thread take part of a late one's share.
      f.units = std::clamp((u.end - u.begin) / p_.split_min, 1u, 2 * p_.threads);
    }
    return f;
  }

 private:
  const XpbdPasses& p_;
  uint32_t edge_phases_, tet_phases_, bend_phases_, count_;
};

void solve_span(const XpbdPasses& p, Kind kind, uint32_t begin, uint32_t end, bool in_colour) {
  if (kind == Kind::Edges) solve_edge_span(p.edges, begin, end, in_colour);
  else if (kind == Kind::Volumes) solve_volume_span(p.volumes, begin, end, in_colour);
  else solve_bend_span(p.bends, begin, end);
}

// A unit of a plan: its colours one after the other, then its overflow in order.
void solve_unit(const XpbdPasses& p, Kind kind, const PassPlan& plan, const PassUnit& u) {
  const uint32_t* starts = plan.colour_starts.data() + u.first_colour;
  for (uint32_t c = 0; c < u.colours; ++c) solve_span(p, kind, starts[c], starts[c + 1], true);
  if (starts[u.colours] < u.end) solve_span(p, kind, starts[u.colours], u.end, false);
}

// Vertex range k of the copies, with the per-vertex work around it.
void pack_range(const XpbdPasses& p, uint32_t k) {
  const uint32_t b = p.vertex_bounds[k], e = p.vertex_bounds[k + 1];
  if (p.before) p.before(p.vertex_ctx, k, b, e);
  pack_positions(p.pos + 3 * size_t(b), p.inv_mass + b, e - b, p.edges.xw + 4 * size_t(b), p.origin);
}
void unpack_range(const XpbdPasses& p, uint32_t k) {
  const uint32_t b = p.vertex_bounds[k], e = p.vertex_bounds[k + 1];
  unpack_positions(p.edges.xw + 4 * size_t(b), e - b, p.pos + 3 * size_t(b), p.origin);
  if (p.after) p.after(p.vertex_ctx, k, b, e);
}

void run_unit(const XpbdPasses& p, const Phase& f, uint32_t k) {
  switch (f.kind) {
    case Kind::Pack: pack_range(p, k); return;
    case Kind::Unpack: unpack_range(p, k); return;
    default: break;
  }
  const PassPlan& plan = *f.plan;
  if (!f.split) {
    solve_unit(p, f.kind, plan, plan.units[plan.phase_starts[f.local] + k]);
    return;
  }
  // Chunk k of the colour: bounds at multiples of 4 from its start, the last to its end.
  const PassUnit& u = plan.units[plan.phase_starts[f.local]];
  const uint32_t n = u.end - u.begin;
  const auto cut = [&](uint32_t i) { return i >= f.units ? n : uint32_t(uint64_t(n) * i / f.units) / 4 * 4; };
  solve_span(p, f.kind, u.begin + cut(k), u.begin + cut(k + 1), true);
}

// The vertex groups (regions, worker_pool.h) unit k of a phase touches.
void unit_groups(const XpbdPasses& p, const Phase& f, uint32_t k, uint32_t* first, uint32_t* last) {
  if (f.kind == Kind::Pack || f.kind == Kind::Unpack) {
    *first = *last = p.copies_per_group ? k : 0;
    return;
  }
  const PassUnit& u = f.plan->units[f.plan->phase_starts[f.local] + (f.split ? 0 : k)];
  *first = u.first_group;
  *last = u.last_group;
}

uint32_t total_units(const XpbdPasses& p) {
  const Phases phases(p);
  uint32_t n = 0;
  for (uint32_t i = 0; i < phases.count(); ++i) n += phases.at(i).units;
  return n;
}

// Every thread of the team: phase after phase, claims units until none is left; before running
// one, waits until every earlier unit that shares a vertex group with it is finished (a group's
// units are counted in `need` as the phases go by). The job's data (ctx) lives until every thread
// has left.
void xpbd_job(void* ctx, WorkerPool& pool, uint32_t thread) {
  const XpbdPasses& p = *static_cast<const XpbdPasses*>(ctx);
  const Phases phases(p);
  uint32_t need[WorkerPool::kMaxRegions] = {};  // per group: units of the earlier phases touching it
  for (uint32_t i = 0; i < phases.count(); ++i) {
    const Phase f = phases.at(i);
    uint32_t k, first, last;
    while (pool.claim(i, f.units, thread, &k)) {
      unit_groups(p, f, k, &first, &last);
      pool.wait_regions(first, last, need);
      run_unit(p, f, k);
      pool.finish(first, last);
    }
    for (k = 0; k < f.units; ++k) {
      unit_groups(p, f, k, &first, &last);
      for (uint32_t g = first; g <= last; ++g) ++need[g];
    }
  }
}

}  // namespace

void run_xpbd_passes(const XpbdPasses& passes, WorkerPool* pool) {
  if (pool && pool->threads() > 1) {
    XpbdPasses p = passes;
    p.threads = uint32_t(pool->threads());
    pool->run(xpbd_job, &p, total_units(p));
    return;
  }
  // One thread: the same units in the same order, each colour whole.
  const XpbdPasses& p = passes;
  for (uint32_t k = 0; k < p.vertex_ranges; ++k) pack_range(p, k);
  for (int pass = 0; pass < p.iterations; ++pass)
    for (const PassPlan* plan : {p.edge_plan, p.tet_plan, p.bend_plan}) {
      if (!plan) continue;
      const Kind kind = plan == p.edge_plan ? Kind::Edges : plan == p.tet_plan ? Kind::Volumes : Kind::Bends;
      for (const PassUnit& u : plan->units) solve_unit(p, kind, *plan, u);
    }
  for (uint32_t k = 0; k < p.vertex_ranges; ++k) unpack_range(p, k);
}

}  // namespace sb
