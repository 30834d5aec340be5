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

// One thread: the caller runs every chunk in order.
struct WorkerPool::Shared {
  uint32_t next = 0, chunks = 0;
};
bool WorkerPool::available() { return false; }
WorkerPool::WorkerPool() : shared_(new Shared) {}
WorkerPool::~WorkerPool() = default;
bool WorkerPool::set_threads(int n) { return n == 1; }
void WorkerPool::run(Job job, void* ctx, uint32_t chunks) {
  shared_->next = 0;
  shared_->chunks = chunks;
  uint32_t chunk;
  if (claim(0, &chunk)) job(ctx, *this, 0, chunk);
}
bool WorkerPool::claim(uint32_t, uint32_t* chunk) {
  if (shared_->next >= shared_->chunks) return false;
  *chunk = shared_->next++;
  return true;
}
void WorkerPool::wait_finished(uint32_t) {}
void WorkerPool::finish() {}
void WorkerPool::stop_workers() {}
void WorkerPool::worker_main(WorkerPool*, uint32_t) {}

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
constexpr auto kYieldAfter = std::chrono::microseconds(1000);  // see wait_finished


// Jobs are numbered (epoch, 32 bits). The ticket word holds the current job's epoch and its next
// chunk; `limit` its epoch and chunk count. A worker claims only in the job it saw posted, so one
// that wakes up after that job is over (or the OS kept it off a core through it) finds the epoch
// changed and claims nothing: the caller never waits for a worker that has not started.
struct WorkerPool::Shared {
  alignas(64) std::atomic<uint64_t> ticket{0};    // epoch << 32 | next chunk to claim
  alignas(64) std::atomic<uint32_t> finished{0};  // chunks of the current job finished
  alignas(64) std::atomic<uint32_t> job_gen{0};   // the current job's epoch
  std::atomic<uint64_t> limit{0};                 // epoch << 32 | chunks of that job
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
    for (int i = 1; i < n; ++i) s.workers.emplace_back(worker_main, this, gen);
  } catch (const std::system_error&) {  // the OS refused a thread: back to one
    stop_workers();
    return false;
  }
  threads_ = n;
  return true;
}

void WorkerPool::worker_main(WorkerPool* pool, uint32_t seen) {
  Shared& s = *pool->shared_;
  // `seen`: the epoch when set_threads started this worker (a run() may come before the thread
  // gets going). A worker joins the latest job it sees, if that is not over yet.
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
    uint32_t chunk;
    if (!pool->claim(seen, &chunk)) continue;  // over already
    // A claimed chunk keeps the job (and its job and ctx) alive until it is finished.
    s.job.load(std::memory_order_relaxed)(s.ctx.load(std::memory_order_relaxed), *pool, seen, chunk);
  }
}

void WorkerPool::run(Job job, void* ctx, uint32_t chunks) {
  Shared& s = *shared_;
  if (chunks == 0) return;
  // The last job is over (every chunk finished), so no thread holds a chunk of it; workers that
  // still look at it fail to claim (epoch).
  const uint32_t epoch = s.job_gen.load(std::memory_order_relaxed) + 1;
  s.finished.store(0, std::memory_order_relaxed);
  s.job.store(job, std::memory_order_relaxed);
  s.ctx.store(ctx, std::memory_order_relaxed);
  s.limit.store(uint64_t(epoch) << 32 | chunks, std::memory_order_release);
  s.ticket.store(uint64_t(epoch) << 32, std::memory_order_release);
  if (threads_ > 1) {
    s.job_gen.store(epoch);  // seq_cst, as the sleepers count: either a worker going to sleep sees
                             // the new job, or this sees the sleeper and wakes it
    // The mutex only when someone sleeps: on the browser's main thread (and in node's) a contended
    // lock busy-waits in Emscripten, and the workers are usually spinning here.
    if (s.sleepers.load() > 0) {
      { std::lock_guard<std::mutex> lock(s.mutex); }
      s.wake.notify_all();
    }
  }
  uint32_t chunk;
  if (claim(epoch, &chunk)) job(ctx, *this, epoch, chunk);
  // Chunks other threads still hold; the job's data (ctx) may go once they are finished.
  wait_finished(chunks);
}

bool WorkerPool::claim(uint32_t epoch, uint32_t* chunk) {
  Shared& s = *shared_;
  uint64_t t = s.ticket.load(std::memory_order_acquire);
  for (;;) {
    // limit is published before the ticket, so it is at least as new as t's job.
    const uint64_t l = s.limit.load(std::memory_order_acquire);
    if (uint32_t(t >> 32) != epoch || uint32_t(l >> 32) != epoch || uint32_t(t) >= uint32_t(l)) return false;
    if (s.ticket.compare_exchange_weak(t, t + 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
      *chunk = uint32_t(t);
      return true;
    }
  }
}

void WorkerPool::wait_finished(uint32_t n) {
  Shared& s = *shared_;
  // Spinning, no yield for the first millisecond: the caller holds a claimed chunk, and a yield on
  // a busy machine hands the core to another process for a whole time slice, during which the
  // other threads wait for that chunk. Waits that long mean more threads than free cores (the
  // thread being waited for is off the core): then yield, so it can get back on.
  int spins = 0;
  std::chrono::steady_clock::time_point yield_from{};
  while (s.finished.load(std::memory_order_acquire) < n) {
    cpu_relax();
    if ((++spins & 1023) != 0) continue;
    const auto now = std::chrono::steady_clock::now();
    if (spins == 1024) yield_from = now + kYieldAfter;
    else if (now > yield_from) std::this_thread::yield();
  }
}

void WorkerPool::finish() { shared_->finished.fetch_add(1, std::memory_order_acq_rel); }

#endif

}  // namespace sb
