#include "solver/xpbd_schedule.h"

#include <algorithm>

#include "solver/worker_pool.h"

namespace sb {

namespace {

constexpr uint32_t kVertexBlock = 4096;  // vertices per chunk of the xyzw copies

enum class Kind { Pack, Edges, Volumes, Unpack };

struct Segment {
  Kind kind = Kind::Pack;
  uint32_t begin = 0, end = 0;  // constraints or vertices
  bool in_colour = false;       // a colour (independent constraints), not an overflow set
  uint32_t chunks = 1;
};

// The segments of one job, walked forward (every thread walks its own copy).
class Segments {
 public:
  explicit Segments(const XpbdPasses& p) : p_(p) {
    edge_segments_ = p.edges.color_count + (p.edges.color_starts[p.edges.color_count] < p.edges.count ? 1 : 0);
    volume_segments_ = p.volumes.color_count + (p.volumes.color_starts[p.volumes.color_count] < p.volumes.count ? 1 : 0);
    count_ = 2 + uint32_t(p.iterations) * (edge_segments_ + volume_segments_);
  }
  uint32_t count() const { return count_; }

  Segment at(uint32_t s) const {
    Segment g;
    if (s == 0 || s + 1 == count_) {
      g.kind = s == 0 ? Kind::Pack : Kind::Unpack;
      g.end = p_.vertices;
      g.chunks = std::clamp(p_.vertices / kVertexBlock, 1u, p_.threads);
      return g;
    }
    uint32_t k = (s - 1) % (edge_segments_ + volume_segments_);
    const bool edges = k < edge_segments_;
    if (!edges) k -= edge_segments_;
    const uint32_t colors = edges ? p_.edges.color_count : p_.volumes.color_count;
    const uint32_t* starts = edges ? p_.edges.color_starts : p_.volumes.color_starts;
    g.kind = edges ? Kind::Edges : Kind::Volumes;
    g.begin = starts[k];
    g.end = k < colors ? starts[k + 1] : (edges ? p_.edges.count : p_.volumes.count);
    g.in_colour = k < colors;
    // At most two chunks per thread: a hand-over between threads costs a few cache-line transfers
    // (the ticket, the finished count, the colour's vertices), so fewer, larger chunks pay; two
    // per thread still let a thread that finished early take part of a late one's share.
    // Measured (native, 2 threads, 2T/1T time): n / 256 chunks 0.81 / 0.79 at 50k / 151k, at most
    // 2 per thread 0.76 / 0.69.
    g.chunks = g.in_colour ? std::clamp((g.end - g.begin) / p_.split_min, 1u, 2 * p_.threads) : 1u;
    return g;
  }

 private:
  const XpbdPasses& p_;
  uint32_t edge_segments_ = 0, volume_segments_ = 0, count_ = 0;
};

// [begin, end) of chunk k of a segment: multiples of `align` from its start, the last to its end.
void chunk_bounds(const Segment& g, uint32_t k, uint32_t align, uint32_t* begin, uint32_t* end) {
  const uint32_t n = g.end - g.begin;
  const auto cut = [&](uint32_t i) {
    return i >= g.chunks ? n : uint32_t(uint64_t(n) * i / g.chunks) / align * align;
  };
  *begin = g.begin + cut(k);
  *end = g.begin + cut(k + 1);
}

void run_chunk(const XpbdPasses& p, const Segment& g, uint32_t k) {
  uint32_t b, e;
  chunk_bounds(g, k, g.kind == Kind::Pack || g.kind == Kind::Unpack ? 16 : 4, &b, &e);
  switch (g.kind) {
    case Kind::Pack: pack_positions(p.pos + 3 * size_t(b), p.inv_mass + b, e - b, p.edges.xw + 4 * size_t(b)); break;
    case Kind::Unpack: unpack_positions(p.edges.xw + 4 * size_t(b), e - b, p.pos + 3 * size_t(b)); break;
    case Kind::Edges: solve_edge_span(p.edges, b, e, g.in_colour); break;
    case Kind::Volumes: solve_volume_span(p.volumes, b, e, g.in_colour); break;
  }
}

// A unit of the job's numbering: one segment cut into chunks, or a run of consecutive one-chunk
// segments taken as one chunk (one thread solves them in order: no hand-over between threads for
// a run of small colours, the overflow sets and a small body's copies).
struct Item {
  uint32_t first = 0, end = 0;  // segments [first, end)
  uint32_t chunks = 1;
};

Item item_at(const Segments& segments, uint32_t first, Segment* g) {
  Item it;
  it.first = first;
  it.end = first + 1;
  *g = segments.at(first);
  it.chunks = g->chunks;
  if (it.chunks == 1)
    while (it.end < segments.count() && segments.at(it.end).chunks == 1) ++it.end;
  return it;
}

void run_item_chunk(const XpbdPasses& p, const Segments& segments, const Item& it, const Segment& g, uint32_t k) {
  if (it.end == it.first + 1) {
    run_chunk(p, g, k);
    return;
  }
  for (uint32_t s = it.first; s < it.end; ++s) run_chunk(p, segments.at(s), 0);
}

uint32_t total_chunks(const XpbdPasses& p) {
  const Segments segments(p);
  uint32_t n = 0;
  Segment g;
  for (uint32_t s = 0; s < segments.count();) {
    const Item it = item_at(segments, s, &g);
    n += it.chunks;
    s = it.end;
  }
  return n;
}

// Every thread of the team: claims chunks in order; before a chunk, waits for all chunks of the
// earlier items. The job's data (ctx) is read only while holding a claimed chunk (the pool calls
// this only with one): the caller cannot return before that chunk is finished.
void xpbd_job(void* ctx, WorkerPool& pool, uint32_t epoch, uint32_t chunk) {
  const XpbdPasses& p = *static_cast<const XpbdPasses*>(ctx);
  const Segments segments(p);
  Segment g;
  Item it = item_at(segments, 0, &g);
  uint32_t first = 0;  // the number of the item's first chunk
  do {
    while (chunk >= first + it.chunks) {
      first += it.chunks;
      it = item_at(segments, it.end, &g);
    }
    pool.wait_finished(first);
    run_item_chunk(p, segments, it, g, chunk - first);
    pool.finish();
  } while (pool.claim(epoch, &chunk));
}

}  // namespace

void run_xpbd_passes(const XpbdPasses& passes, WorkerPool* pool) {
  if (pool && pool->threads() > 1) {
    XpbdPasses p = passes;
    p.threads = uint32_t(pool->threads());
    pool->run(xpbd_job, &p, total_chunks(p));
    return;
  }
  const XpbdPasses& p = passes;
  pack_positions(p.pos, p.inv_mass, p.vertices, p.edges.xw);
  for (int pass = 0; pass < p.iterations; ++pass) {
    solve_edges(p.edges);
    solve_volumes(p.volumes);
  }
  unpack_positions(p.edges.xw, p.vertices, p.pos);
}

}  // namespace sb
