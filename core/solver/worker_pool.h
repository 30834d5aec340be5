// A small persistent pool of worker threads for the solver's parallel loops (the XPBD passes, in
// phases of independent units: xpbd_schedule.h, xpbd_partition.h).
//
// run() calls the job once on every thread of the team that gets to it, the caller as thread 0. The
// job walks the same sequence of phases on each thread: it claims units of a phase (claim) until
// none is left, and before running one waits until the earlier units it depends on are finished
// (wait_regions).
// The units of a phase are dealt out in one contiguous lane per thread: thread t takes its own lane
// from the front, so it gets the same units (the same vertices, already in its cache) phase after
// phase, and only when that lane is empty takes units from the back of the others'. There is no
// barrier: a thread that the OS deschedules (a shared machine) holds up the others only while it
// holds a claimed unit, and a team member that never wakes up is not needed: the others empty its
// lane.
//
// Between jobs the workers spin a little (the next substep's job comes after a short serial part),
// then sleep on a condition variable until the next run(). Nothing is allocated in run(); threads
// start in set_threads. In a build without threads (Emscripten without -pthread) available() is
// false and set_threads accepts 1 only.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>

namespace sb {

class WorkerPool {
 public:
  static constexpr int kMaxThreads = 64;
  // True when this build can start threads (native, or Emscripten with -pthread).
  static bool available();

  WorkerPool();
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // The team size, the caller included: n in [1, kMaxThreads]; 1 stops every worker. False (and
  // nothing changed, or back to 1 thread if the OS refused a thread) when n is out of range, or
  // n > 1 in a build without threads.
  bool set_threads(int n);
  int threads() const { return threads_; }

  // Runs a job of `units` units in all (over all its phases) on the team: job(ctx, pool, thread) on
  // each thread that joins in time (thread 0 is the caller). Returns once every unit is finished and
  // every thread has left the job. Not reentrant.
  using Job = void (*)(void* ctx, WorkerPool& pool, uint32_t thread);
  void run(Job job, void* ctx, uint32_t units);

  // Within a job: the next unit of `phase` (numbered from 0 in each job, at most 65,535 apart from
  // any phase still running) of `units` (at most 255 per thread) for `thread`, or false when all
  // are claimed. Call only once claim has returned false for every earlier phase.
  bool claim(uint32_t phase, uint32_t units, uint32_t thread, uint32_t* unit);
  // Within a job: returns once at least n units (counted over the whole job) are finished; their
  // writes are then visible.
  void wait_finished(uint32_t n);
  // Regions: what a job's units touch (the XPBD passes: vertex groups), numbered by the job. A unit
  // that touches regions [first, last] waits until each region r has had count[r] units finished
  // (wait_regions: the earlier units that touch it), not for the whole earlier phase, so a thread
  // that ends a phase early starts on the next one where its regions are ready.
  static constexpr uint32_t kMaxRegions = 32;
  void wait_regions(uint32_t first, uint32_t last, const uint32_t* count);
  // Within a job: marks one claimed unit as finished (after its writes), and with it each region
  // it touches.
  void finish(uint32_t first_region = 0, uint32_t last_region = 0);

 private:
  struct Shared;
  void stop_workers();
  static void worker_main(WorkerPool* pool, uint32_t thread, uint32_t seen);

  int threads_ = 1;
  std::unique_ptr<Shared> shared_;  // the workers, their mutex and condition, the job slot
};

}  // namespace sb
