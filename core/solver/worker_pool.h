// A small persistent pool of worker threads for the solver's parallel loops (the XPBD passes split
// colour by colour, xpbd_schedule.h).
//
// A job is a sequence of chunks 0 .. n-1 handed out by one ticket counter: every thread of the team
// (the caller of run() included) claims the next chunk, runs it and marks it finished, until none is
// left. A chunk that depends on earlier ones waits until enough chunks are finished
// (wait_finished); the schedule numbers chunks so that "the first k are finished" is exactly what a
// chunk needs. There is no barrier: a thread that the OS deschedules (a shared machine) holds up the
// others only while it holds a claimed chunk, and a team member that never wakes up is simply not
// needed: the others take its chunks.
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

  // Runs a job of `chunks` chunks on the team; returns once all are finished. A thread that claimed
  // a chunk calls job(ctx, pool, epoch, chunk), which loops: (wait_finished,) work, finish, then
  // claim(epoch, ...) the next until none is left. Not reentrant.
  using Job = void (*)(void* ctx, WorkerPool& pool, uint32_t epoch, uint32_t first_chunk);
  void run(Job job, void* ctx, uint32_t chunks);

  // Within a job: the next unclaimed chunk of job `epoch`, or false when all are claimed.
  bool claim(uint32_t epoch, uint32_t* chunk);
  // Within a job: returns once at least n chunks are finished; their writes are then visible.
  void wait_finished(uint32_t n);
  // Within a job: marks one claimed chunk as finished (after its writes).
  void finish();

 private:
  struct Shared;
  void stop_workers();
  static void worker_main(WorkerPool* pool, uint32_t seen);

  int threads_ = 1;
  std::unique_ptr<Shared> shared_;  // the workers, their mutex and condition, the job slot
};

}  // namespace sb
