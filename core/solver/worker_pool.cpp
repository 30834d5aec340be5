#include "solver/worker_pool.h"

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define SB_NO_THREADS 1
#endif

#ifndef SB_NO_THREADS
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>
#endif

namespace sb {

#ifdef SB_NO_THREADS

// One thread: the caller runs every unit in order.
struct WorkerPool::Shared {
  uint32_t phase = ~0u, next = 0;
};
bool WorkerPool::available() { return false; }
WorkerPool::WorkerPool() : shared_(new Shared) {}
WorkerPool::~WorkerPool() = default;
bool WorkerPool::set_threads(int n) { return n == 1; }
void WorkerPool::run(Job job, void* ctx, uint32_t units) {
  if (units == 0) return;
  shared_->phase = ~0u;
  job(ctx, *this, 0);
}
bool WorkerPool::claim(uint32_t phase, uint32_t units, uint32_t, uint32_t* unit) {
  Shared& s = *shared_;
  if (s.phase != phase) s.phase = phase, s.next = 0;
  if (s.next >= units) return false;
  *unit = s.next++;
  return true;
}
void WorkerPool::wait_finished(uint32_t) {}
void WorkerPool::wait_regions(uint32_t, uint32_t, const uint32_t*) {}
void WorkerPool::finish(uint32_t, uint32_t) {}
void WorkerPool::stop_workers() {}
void WorkerPool::worker_main(WorkerPool*, uint32_t, uint32_t) {}

#else

// Spinning: a pause hint per turn, a yield only after a long wait. On a busy machine sched_yield hands the core to
// another process for a whole time slice (milliseconds), while the other threads of the team wait
// for this one: with yields after 2048 turns, 2 threads took 1.4-1.6x the time of one (native,
// 50k and 151k tets, load ~4, nice -20); without, 0.81 and 0.79.
static inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}
// How long an idle worker spins for the next job before it sleeps: longer than the serial part
// between two substeps' jobs (prediction, ground, velocities: ~0.1-0.2 ms at 150k tets), so the
// substeps of a frame do not wait for wake-ups.
constexpr auto kIdleSpin = std::chrono::microseconds(2000);
constexpr auto kYieldAfter = std::chrono::microseconds(1000);  // see spin_until

// Spins until done() (see wait_finished for why it hardly ever yields).
template <typename Done>
static void spin_until(Done done) {
  int spins = 0;
  std::chrono::steady_clock::time_point yield_from{};
  while (!done()) {
    cpu_relax();
    if ((++spins & 1023) != 0) continue;
    const auto now = std::chrono::steady_clock::now();
    if (spins == 1024) yield_from = now + kYieldAfter;
    else if (now > yield_from) std::this_thread::yield();
  }
}

// A lane's claim word: the job's epoch (32 bits), the phase (16), and how many of the lane's units
// were taken from its front (by its owner, 8) and from its back (by others, 8). A word from another
// job or an earlier phase means nothing is taken yet, so lanes need no reset between phases: the
// first claim of a phase replaces the word.
constexpr uint64_t lane_word(uint32_t epoch, uint32_t phase, uint32_t front, uint32_t back) {
  return uint64_t(epoch) << 32 | uint64_t(phase & 0xffffu) << 16 | uint64_t(front) << 8 | back;
}

// The entry word: the job's epoch (32 bits), whether it is open to new threads (bit 31), and how
// many threads are inside it (the low bits). run() closes the job when every unit is finished and
// then waits until no thread is inside: so a worker reads the job's data only while it counts.
constexpr uint64_t kOpen = 1u << 31;
constexpr uint64_t kInside = kOpen - 1;

struct WorkerPool::Shared {
  struct alignas(64) Lane {
    std::atomic<uint64_t> word{0};
  };
  Lane lanes[kMaxThreads];                        // one cache line each: an owner claims without traffic
  alignas(64) std::atomic<uint32_t> finished{0};  // units of the current job finished
  struct alignas(64) Region {
    std::atomic<uint32_t> finished{0};  // units of the current job that touch it, finished
  };
  Region regions[kMaxRegions];
  alignas(64) std::atomic<uint32_t> job_gen{0};   // the current job's epoch
  std::atomic<uint64_t> entry{0};                 // see kOpen
  std::atomic<uint32_t> sleepers{0};              // workers asleep (or about to be) on `wake`
  std::atomic<bool> stop{false};
  std::atomic<Job> job{nullptr};
  std::atomic<void*> ctx{nullptr};
  std::mutex mutex;  // guards the sleep
  std::condition_variable wake;
  std::vector<std::thread> workers;
};

bool WorkerPool::available() { return true; }

WorkerPool::WorkerPool() : shared_(new Shared) {}

WorkerPool::~WorkerPool() { stop_workers(); }

void WorkerPool::stop_workers() {
  Shared& s = *shared_;
  if (s.workers.empty()) return;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.stop.store(true);
  }
  s.wake.notify_all();
  for (std::thread& t : s.workers) t.join();
  s.workers.clear();
  s.stop.store(false);
  threads_ = 1;
}

bool WorkerPool::set_threads(int n) {
  if (n < 1 || n > kMaxThreads) return false;
  if (n == threads_) return true;
  stop_workers();
  if (n == 1) return true;
  Shared& s = *shared_;
  try {
    s.workers.reserve(size_t(n - 1));
    const uint32_t gen = s.job_gen.load();
    for (int i = 1; i < n; ++i) s.workers.emplace_back(worker_main, this, uint32_t(i), gen);
  } catch (const std::system_error&) {  // the OS refused a thread: back to one
    stop_workers();
    return false;
  }
  threads_ = n;
  return true;
}

void WorkerPool::worker_main(WorkerPool* pool, uint32_t thread, uint32_t seen) {
  Shared& s = *pool->shared_;
  // `seen`: the epoch when set_threads started this worker (a run() may come before the thread
  // gets going). A worker joins the latest job it sees, if that is still open.
  for (;;) {
    const auto spin_end = std::chrono::steady_clock::now() + kIdleSpin;
    int spins = 0;
    bool ready = false;
    // Spin (no yield: on a busy machine it gives the core away for a whole time slice, and the
    // next substep's job comes within microseconds), then sleep.
    while (!(ready = s.job_gen.load(std::memory_order_acquire) != seen) && !s.stop.load(std::memory_order_relaxed)) {
      cpu_relax();
      if ((++spins & 255) == 0 && std::chrono::steady_clock::now() > spin_end) break;
    }
    if (!ready) {
      std::unique_lock<std::mutex> lock(s.mutex);
      s.sleepers.fetch_add(1);  // before the last look at job_gen: run() then sees a sleeper (seq_cst)
      s.wake.wait(lock, [&] { return s.job_gen.load() != seen || s.stop.load(); });
      s.sleepers.fetch_sub(1);
      ready = s.job_gen.load() != seen;
    }
    if (!ready) return;  // stop
    seen = s.job_gen.load(std::memory_order_acquire);
    uint64_t e = s.entry.load(std::memory_order_acquire);
    bool inside = false;
    while (uint32_t(e >> 32) == seen && (e & kOpen) &&
           !(inside = s.entry.compare_exchange_weak(e, e + 1, std::memory_order_acq_rel, std::memory_order_acquire))) {
    }
    if (!inside) continue;  // over already
    s.job.load(std::memory_order_relaxed)(s.ctx.load(std::memory_order_relaxed), *pool, thread);
    s.entry.fetch_sub(1, std::memory_order_release);
  }
}

void WorkerPool::run(Job job, void* ctx, uint32_t units) {
  Shared& s = *shared_;
  if (units == 0) return;
  // The last job is closed and no thread is inside it: its data and counters are free.
  const uint32_t epoch = s.job_gen.load(std::memory_order_relaxed) + 1;
  s.finished.store(0, std::memory_order_relaxed);
  for (Shared::Region& r : s.regions) r.finished.store(0, std::memory_order_relaxed);
  s.job.store(job, std::memory_order_relaxed);
  s.ctx.store(ctx, std::memory_order_relaxed);
  s.entry.store(uint64_t(epoch) << 32 | kOpen, std::memory_order_release);
  if (threads_ > 1) {
    s.job_gen.store(epoch);  // seq_cst, as the sleepers count: either a worker going to sleep sees
                             // the new job, or this sees the sleeper and wakes it
    // The mutex only when someone sleeps: on the browser's main thread (and in node's) a contended
    // lock busy-waits in Emscripten, and the workers are usually spinning here.
    if (s.sleepers.load() > 0) {
      { std::lock_guard<std::mutex> lock(s.mutex); }
      s.wake.notify_all();
    }
  } else {
    s.job_gen.store(epoch, std::memory_order_relaxed);
  }
  job(ctx, *this, 0);
  wait_finished(units);
  s.entry.fetch_and(~kOpen, std::memory_order_acq_rel);
  // Threads still inside are past their last unit (all are finished) and leave without waiting.
  spin_until([&] { return (s.entry.load(std::memory_order_acquire) & kInside) == 0; });
}

bool WorkerPool::claim(uint32_t phase, uint32_t units, uint32_t thread, uint32_t* unit) {
  Shared& s = *shared_;
  const uint32_t team = uint32_t(threads_);
  const uint32_t epoch = uint32_t(s.entry.load(std::memory_order_relaxed) >> 32);
  // Own lane from the front, then the others' from the back (the units their owners reach last).
  for (uint32_t k = 0; k < team; ++k) {
    const uint32_t lane = (thread + k) % team;
    // Lane l: units [ceil(units l / team), ceil(units (l + 1) / team)): with fewer units than
    // threads the first lanes get them (a phase of one unit is thread 0's, the caller's).
    const uint32_t begin = (units * lane + team - 1) / team, end = (units * (lane + 1) + team - 1) / team;
    if (begin == end) continue;
    std::atomic<uint64_t>& word = s.lanes[lane].word;
    uint64_t w = word.load(std::memory_order_acquire);
    for (;;) {
      uint32_t front = 0, back = 0;
      if (uint32_t(w >> 32) == epoch) {
        const int16_t ahead = int16_t(uint16_t(uint32_t(w >> 16) - phase));  // the word's phase - ours
        if (ahead > 0) break;  // a later phase: this one's units are all taken
        if (ahead == 0) front = uint32_t(w >> 8) & 0xffu, back = uint32_t(w) & 0xffu;
      }
      if (front + back >= end - begin) break;
      const bool own = k == 0;
      const uint64_t next = lane_word(epoch, phase, front + (own ? 1 : 0), back + (own ? 0 : 1));
      if (word.compare_exchange_weak(w, next, std::memory_order_acq_rel, std::memory_order_acquire)) {
        *unit = own ? begin + front : end - 1 - back;
        return true;
      }
    }
  }
  return false;
}

void WorkerPool::wait_finished(uint32_t n) {
  Shared& s = *shared_;
  // Spinning, no yield for the first millisecond: the thread we wait for holds a claimed unit,
  // and a yield on a busy machine hands the core to another process for a whole time slice. Waits
  // that long mean more threads than free cores (the thread being waited for is off the core):
  // then yield, so it can get back on.
  spin_until([&] { return s.finished.load(std::memory_order_acquire) >= n; });
}

void WorkerPool::wait_regions(uint32_t first, uint32_t last, const uint32_t* count) {
  Shared& s = *shared_;
  for (uint32_t r = first; r <= last; ++r)  // as wait_finished
    spin_until([&] { return s.regions[r].finished.load(std::memory_order_acquire) >= count[r]; });
}

void WorkerPool::finish(uint32_t first_region, uint32_t last_region) {
  Shared& s = *shared_;
  for (uint32_t r = first_region; r <= last_region; ++r) s.regions[r].finished.fetch_add(1, std::memory_order_acq_rel);
  s.finished.fetch_add(1, std::memory_order_acq_rel);
}

#endif

}  // namespace sb
