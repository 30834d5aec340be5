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
  job(ctx, *this);
}
bool WorkerPool::claim(uint32_t* chunk) {
  if (shared_->next >= shared_->chunks) return false;
  *chunk = shared_->next++;
  return true;
}
void WorkerPool::wait_finished(uint32_t) {}
void WorkerPool::finish() {}
void WorkerPool::stop_workers() {}
void WorkerPool::worker_main(WorkerPool*, uint64_t) {}

#else

// Spinning: a pause hint per turn, and after a while a yield per turn, so a thread waiting on one the
// OS has descheduled (a shared machine) hands its core over instead of burning the other's time.
static inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}
constexpr int kSpinsBeforeYield = 2048;
// How long an idle worker spins for the next job before it sleeps: longer than the serial part
// between two substeps' jobs (prediction, ground, velocities: ~0.1-0.2 ms at 150k tets), so the
// substeps of a frame do not wait for wake-ups.
constexpr auto kIdleSpin = std::chrono::microseconds(1000);

template <typename Done>
static void spin_until(Done done) {
  for (int spins = 0; !done(); ++spins) {
    if (spins < kSpinsBeforeYield) cpu_relax();
    else std::this_thread::yield();
  }
}

struct WorkerPool::Shared {
  alignas(64) std::atomic<uint32_t> next{0};      // the ticket counter: next chunk to claim
  alignas(64) std::atomic<uint32_t> finished{0};  // chunks finished
  alignas(64) std::atomic<uint64_t> job_gen{0};   // bumped by run() for each job
  std::atomic<uint32_t> active{0};                // workers still inside the last job
  std::atomic<bool> stop{false};
  uint32_t chunks = 0;
  Job job = nullptr;
  void* ctx = nullptr;
  std::mutex mutex;  // guards the sleep: job_gen and stop change under it
  std::condition_variable wake;
  std::vector<std::thread> workers;
};

bool WorkerPool::available() { return true; }

WorkerPool::WorkerPool() : shared_(new Shared) {}

WorkerPool::~WorkerPool() { stop_workers(); }

void WorkerPool::stop_workers() {
  Shared& s = *shared_;
  if (s.workers.empty()) return;
  spin_until([&] { return s.active.load(std::memory_order_acquire) == 0; });
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
    const uint64_t gen = s.job_gen.load();
    for (int i = 1; i < n; ++i) s.workers.emplace_back(worker_main, this, gen);
  } catch (const std::system_error&) {  // the OS refused a thread: back to one
    stop_workers();
    return false;
  }
  threads_ = n;
  return true;
}

void WorkerPool::worker_main(WorkerPool* pool, uint64_t seen) {
  Shared& s = *pool->shared_;
  // `seen` is the job count when set_threads started this worker (a run() may come before the
  // thread gets going); run() waits for every worker to leave a job before it posts the next, so
  // each job is seen by every worker.
  for (;;) {
    const auto spin_end = std::chrono::steady_clock::now() + kIdleSpin;
    int spins = 0;
    bool ready = false;
    // Spin, then yield (a thread of ours may be waiting for this core), then sleep.
    while (!(ready = s.job_gen.load(std::memory_order_acquire) != seen) && !s.stop.load(std::memory_order_relaxed)) {
      if (++spins < kSpinsBeforeYield) {
        cpu_relax();
        continue;
      }
      std::this_thread::yield();
      if (std::chrono::steady_clock::now() > spin_end) break;
    }
    if (!ready) {
      std::unique_lock<std::mutex> lock(s.mutex);
      s.wake.wait(lock, [&] { return s.job_gen.load() != seen || s.stop.load(); });
      ready = s.job_gen.load() != seen;
    }
    if (!ready) return;  // stop
    ++seen;
    s.job(s.ctx, *pool);
    s.active.fetch_sub(1, std::memory_order_release);
  }
}

void WorkerPool::run(Job job, void* ctx, uint32_t chunks) {
  Shared& s = *shared_;
  // A worker that was descheduled through the whole last job may still be on its way out of it
  // (it claims past the end and leaves); the counters are reset only after it left.
  spin_until([&] { return s.active.load(std::memory_order_acquire) == 0; });
  s.next.store(0, std::memory_order_relaxed);
  s.finished.store(0, std::memory_order_relaxed);
  s.chunks = chunks;
  s.job = job;
  s.ctx = ctx;
  if (threads_ > 1) {
    s.active.store(uint32_t(threads_ - 1), std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lock(s.mutex);  // a worker on its way to sleep sees the new job
      s.job_gen.fetch_add(1, std::memory_order_release);
    }
    s.wake.notify_all();
  }
  job(ctx, *this);
  // Chunks other threads still hold; the job's data (ctx) may go once they are finished: a worker
  // that comes late only claims past the end.
  wait_finished(chunks);
}

bool WorkerPool::claim(uint32_t* chunk) {
  Shared& s = *shared_;
  if (s.next.load(std::memory_order_relaxed) >= s.chunks) return false;  // no traffic on the line once done
  const uint32_t c = s.next.fetch_add(1, std::memory_order_relaxed);
  if (c >= s.chunks) return false;
  *chunk = c;
  return true;
}

void WorkerPool::wait_finished(uint32_t n) {
  Shared& s = *shared_;
  if (s.finished.load(std::memory_order_acquire) >= n) return;
  spin_until([&] { return s.finished.load(std::memory_order_acquire) >= n; });
}

void WorkerPool::finish() { shared_->finished.fetch_add(1, std::memory_order_acq_rel); }

#endif

}  // namespace sb
