// Native benchmark of the softbody C API: one box lattice resting on the ground, timed per frame.
//
//   softbody_bench --cells NX NY NZ [--frames N] [--warmup W] [--substeps S] [--dt SECONDS]
//                  [--cell-size METRES] [--drop METRES] [--solver ID] [--edge-compliance M_PER_N]
//                  [--volume-compliance M5_PER_N] [--spring-damping NS_PER_M] [--shuffle SEED] [--serve]
//                  [--threads N] [--split-min N]
//
// The box has NX x NY x NZ cubic cells of --cell-size (6 tets each) and starts --drop above the
// ground plane y = 0, so it has landed by the end of the warm-up. Density 1000 kg/m^3, gravity
// -9.81. --shuffle SEED (> 0) makes the body from the box's vertices and its tets in a shuffled order
// (shuffle_tets below; bench.mjs shuffles its wasm body and Jolt's the same way), as a mesh from a
// tetrahedralizer comes, instead of the box's lattice order. --threads N steps the world on N
// threads (sb_world_set_threads, default 1); --split-min N (testing the split size only) overrides
// the smallest colour the passes split across them, through the core (the C API has no such knob). --solver takes an sb_solver value (0 XPBD, the default, ... 8 implicit Euler, see
// emscripten/softbody.h); the force-based ones (2..8) need both compliances > 0 (defaults 0).
//
// One-shot (default): warms up, times --frames frames and prints one JSON object on stdout: the
// mesh counts, the settings, one wall-clock sample per frame (std::chrono::steady_clock, ms), the
// CG iterations of each frame's last substep (implicit Euler, else 0), and the body state after
// the last frame so the caller can check it rests on the ground with its volume kept.
// tests/bench/bench.mjs runs it as a child process, one batch per call; errors go to stderr.
//
// --serve: warms up, prints the same JSON object for zero frames (the "ready" line), then reads
// one frame count per line on stdin, times that many more frames of the same body and answers
// each with one JSON line; exits at end of input. bench.mjs keeps one such process per solver, so
// a batch costs no process start and no warm-up.
//
// If the body diverges (the C API freezes it and sb_world_step reports SB_ERR_DIVERGED), timing
// stops at that frame: the samples end there and "finite" is false, with "divergedAtFrame"
// counting all frames stepped, warm-up included (1-based).
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "api_state.h"  // --split-min only: the world behind the handle
#include "softbody.h"

namespace {

struct Options {
  int cells[3] = {12, 12, 12};
  int frames = 100;
  int warmup = 40;
  int substeps = 10;
  double dt = 1.0 / 60.0;
  double cell_size = 0.05;  // m
  double drop = 0.01;       // m between the ground and the bottom of the box at the start
  int solver = SB_SOLVER_XPBD;
  double edge_compliance = 0.0;    // m/N
  double volume_compliance = 0.0;  // m^5/N
  double spring_damping = 0.0;     // N s/m
  int material = SB_MATERIAL_SIMPLE;
  double youngs_modulus = 1e5;     // Pa (Neo-Hookean)
  double poisson_ratio = 0.45;     // (Neo-Hookean)
  int iterations = 1;              // XPBD passes or VBD sweeps per substep
  uint32_t shuffle = 0;             // seed; 0 = the box's own tet order
  int threads = 1;
  int split_min = -1;               // -1: the core's default
  bool serve = false;
};

// Fisher-Yates over whole tets with xorshift32 (Marsaglia 2003) from `seed`: the same sequence as
// shuffleTets in bench.mjs, so native, wasm and Jolt get the same input order. The tets are first
// sorted by their indices, so the input does not depend on the order the solver keeps them in (the
// box body's sb_body_tets, which a change of the solver's ordering changes).
void shuffle_tets(std::vector<uint32_t>& tets, uint32_t seed) {
  std::vector<std::array<uint32_t, 4>> sorted(tets.size() / 4);
  std::memcpy(sorted.data(), tets.data(), tets.size() * sizeof(uint32_t));
  std::sort(sorted.begin(), sorted.end());
  std::memcpy(tets.data(), sorted.data(), tets.size() * sizeof(uint32_t));
  uint32_t x = seed;
  for (size_t i = tets.size() / 4; i > 1; --i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    const size_t j = x % i;
    for (int k = 0; k < 4; ++k) std::swap(tets[4 * (i - 1) + k], tets[4 * j + k]);
  }
}

// FNV-1a over 32-bit words: tells the caller that its body got the same tets in the same solve
// order (and, for positions, the same state to the bit).
uint32_t fnv1a(const void* data, size_t words) {
  const uint32_t* w = static_cast<const uint32_t*>(data);
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < words; ++i) {
    h ^= w[i];
    h *= 16777619u;
  }
  return h;
}

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "softbody_bench: %s\n"
               "usage: softbody_bench --cells NX NY NZ [--frames N] [--warmup W] [--substeps S]\n"
               "                      [--dt SECONDS] [--cell-size METRES] [--drop METRES] [--solver ID]\n"
               "                      [--edge-compliance M_PER_N] [--volume-compliance M5_PER_N]\n"
               "                      [--spring-damping NS_PER_M] [--material 0|1] [--youngs-modulus PA]\n"
               "                      [--poisson-ratio NU] [--iterations N] [--shuffle SEED] [--serve]\n"
               "                      [--threads N] [--split-min N]\n"
               "solver ids: 0 xpbd, 1 pbd, 2 explicit Euler, 3 semi-implicit Euler, 4 Verlet,\n"
               "            5 midpoint, 6 Heun, 7 RK4, 8 implicit Euler, 9 VBD (2..9 need compliances > 0)\n",
               why);
  std::exit(2);
}

double number(int argc, char** argv, int i) {
  if (i >= argc) usage("an option is missing its value");
  char* end = nullptr;
  const double v = std::strtod(argv[i], &end);
  if (end == argv[i] || *end != '\0' || !std::isfinite(v)) usage((std::string("not a number: ") + argv[i]).c_str());
  return v;
}

int integer(int argc, char** argv, int i) {
  const double v = number(argc, argv, i);
  if (v != std::floor(v) || v < 0 || v > 1e9) usage((std::string("not a count: ") + argv[i]).c_str());
  return int(v);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--cells") {
      for (int k = 0; k < 3; ++k) o.cells[k] = integer(argc, argv, ++i);
    } else if (a == "--frames") {
      o.frames = integer(argc, argv, ++i);
    } else if (a == "--warmup") {
      o.warmup = integer(argc, argv, ++i);
    } else if (a == "--substeps") {
      o.substeps = integer(argc, argv, ++i);
    } else if (a == "--dt") {
      o.dt = number(argc, argv, ++i);
    } else if (a == "--cell-size") {
      o.cell_size = number(argc, argv, ++i);
    } else if (a == "--drop") {
      o.drop = number(argc, argv, ++i);
    } else if (a == "--solver") {
      o.solver = integer(argc, argv, ++i);
    } else if (a == "--edge-compliance") {
      o.edge_compliance = number(argc, argv, ++i);
    } else if (a == "--volume-compliance") {
      o.volume_compliance = number(argc, argv, ++i);
    } else if (a == "--spring-damping") {
      o.spring_damping = number(argc, argv, ++i);
    } else if (a == "--material") {
      o.material = integer(argc, argv, ++i);
    } else if (a == "--youngs-modulus") {
      o.youngs_modulus = number(argc, argv, ++i);
    } else if (a == "--poisson-ratio") {
      o.poisson_ratio = number(argc, argv, ++i);
    } else if (a == "--iterations") {
      o.iterations = integer(argc, argv, ++i);
    } else if (a == "--shuffle") {
      o.shuffle = uint32_t(integer(argc, argv, ++i));
    } else if (a == "--threads") {
      o.threads = integer(argc, argv, ++i);
    } else if (a == "--split-min") {
      o.split_min = integer(argc, argv, ++i);
    } else if (a == "--serve") {
      o.serve = true;
    } else if (a == "--help" || a == "-h") {
      usage("help");
    } else {
      usage(("unknown argument " + a).c_str());
    }
  }
  return o;
}

// Exits with the C API's message when a call failed (negative result).
int32_t check(int32_t result, const char* what) {
  if (result < 0) {
    std::fprintf(stderr, "softbody_bench: %s failed: %s\n", what, sb_last_error());
    std::exit(1);
  }
  return result;
}

// A JSON number, or null for NaN and infinity (a frozen diverged body can report them).
std::string json(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

class Bench {
 public:
  explicit Bench(const Options& o) : o_(o) {
    world_ = check(sb_world_create(), "sb_world_create");
    check(sb_world_set_substeps(world_, o.substeps), "sb_world_set_substeps");
    check(sb_world_set_gravity(world_, 0.0f, -9.81f, 0.0f), "sb_world_set_gravity");
    check(sb_world_set_ground(world_, 1), "sb_world_set_ground");
    check(sb_world_set_threads(world_, o.threads), "sb_world_set_threads");
    if (o.split_min >= 0) sbapi::find_world(world_)->settings.split_min = uint32_t(o.split_min);
    const float size[3] = {float(o.cells[0] * o.cell_size), float(o.cells[1] * o.cell_size),
                           float(o.cells[2] * o.cell_size)};
    body_ = check(sb_body_create_box(world_, o.cells[0], o.cells[1], o.cells[2], size[0], size[1], size[2], 0.0f,
                                     float(o.drop + 0.5 * size[1]), 0.0f),
                  "sb_body_create_box");
    if (o.shuffle) {
      const int32_t nv = check(sb_body_vertex_count(world_, body_), "sb_body_vertex_count");
      const int32_t nt = check(sb_body_tet_count(world_, body_), "sb_body_tet_count");
      const float* xyz = sb_body_positions(world_, body_);
      const uint32_t* ids = sb_body_tets(world_, body_);
      const std::vector<float> positions(xyz, xyz + 3 * size_t(nv));
      std::vector<uint32_t> tets(ids, ids + 4 * size_t(nt));
      shuffle_tets(tets, o.shuffle);
      check(sb_body_destroy(world_, body_), "sb_body_destroy");
      body_ = check(sb_body_create_tets(world_, positions.data(), nv, tets.data(), nt), "sb_body_create_tets");
    }
    check(sb_body_set_param(world_, body_, SB_PARAM_EDGE_COMPLIANCE, float(o.edge_compliance)), "sb_body_set_param");
    check(sb_body_set_param(world_, body_, SB_PARAM_VOLUME_COMPLIANCE, float(o.volume_compliance)),
          "sb_body_set_param");
    check(sb_body_set_param(world_, body_, SB_PARAM_SPRING_DAMPING, float(o.spring_damping)), "sb_body_set_param");
    check(sb_body_set_param(world_, body_, SB_PARAM_DENSITY, 1000.0f), "sb_body_set_param");
    check(sb_body_set_param(world_, body_, SB_PARAM_ITERATIONS, float(o.iterations)), "sb_body_set_param");
    check(sb_body_set_param(world_, body_, SB_PARAM_YOUNGS_MODULUS, float(o.youngs_modulus)), "sb_body_set_param");
    check(sb_body_set_param(world_, body_, SB_PARAM_POISSON_RATIO, float(o.poisson_ratio)), "sb_body_set_param");
    check(sb_body_set_solver(world_, body_, o.solver), "sb_body_set_solver");
    check(sb_body_set_param(world_, body_, SB_PARAM_MATERIAL, float(o.material)), "sb_body_set_param");
    vertices_ = check(sb_body_vertex_count(world_, body_), "sb_body_vertex_count");
    edges_ = check(sb_body_edge_count(world_, body_), "sb_body_edge_count");
    tets_ = check(sb_body_tet_count(world_, body_), "sb_body_tet_count");
  }
  ~Bench() { sb_world_destroy(world_); }

  // Steps n frames untimed (warm-up); stops early if the body diverged.
  void warm_up(int n) {
    for (int f = 0; f < n && !diverged_at_; ++f) step();
  }

  // Times n frames into ms_ / cg_ (cleared first); no samples past a divergence.
  void run(int n) {
    ms_.clear();
    cg_.clear();
    for (int f = 0; f < n && !diverged_at_; ++f) {
      const auto t0 = std::chrono::steady_clock::now();
      const bool ok = step();
      const auto t1 = std::chrono::steady_clock::now();
      if (!ok) break;
      ms_.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      if (o_.solver == SB_SOLVER_IMPLICIT_EULER) {
        sb_body_stats st;  // after the timed region: the stats walk the whole body
        check(sb_body_get_stats(world_, body_, &st), "sb_body_get_stats");
        cg_.push_back(st.cg_iterations);
      } else {
        cg_.push_back(0);
      }
    }
  }

  void print() const {
    sb_body_stats st;
    check(sb_body_get_stats(world_, body_, &st), "sb_body_get_stats");
    const float* x = sb_body_positions(world_, body_);
    double max_y = x[1];
    for (int32_t i = 0; i < vertices_; ++i) max_y = std::fmax(max_y, double(x[3 * i + 1]));
    std::printf("{\"build\":\"native\",\"cells\":[%d,%d,%d],\"vertices\":%d,\"edges\":%d,\"tets\":%d,", o_.cells[0],
                o_.cells[1], o_.cells[2], vertices_, edges_, tets_);
    std::printf("\"solver\":%d,\"edgeCompliance\":%.9g,\"volumeCompliance\":%.9g,\"springDamping\":%.9g,", o_.solver,
                o_.edge_compliance, o_.volume_compliance, o_.spring_damping);
    std::printf("\"threads\":%d,\"substeps\":%d,\"dt\":%.9g,\"warmup\":%d,\"framesStepped\":%d,", o_.threads, o_.substeps, o_.dt, o_.warmup,
                stepped_);
    std::printf("\"minY\":%s,\"maxY\":%s,\"volumeRatio\":%s,\"kineticEnergy\":%s,\"elasticEnergy\":%s,",
                json(st.min_y).c_str(), json(max_y).c_str(), json(st.volume_ratio).c_str(),
                json(st.kinetic_energy).c_str(), json(st.elastic_energy).c_str());
    std::printf("\"tetsHash\":%u,\"positionsHash\":%u,", fnv1a(sb_body_tets(world_, body_), 4 * size_t(tets_)),
                fnv1a(x, 3 * size_t(vertices_)));
    std::printf("\"finite\":%s,\"divergedAtFrame\":%d,\"msPerFrame\":[", st.finite ? "true" : "false", diverged_at_);
    for (size_t i = 0; i < ms_.size(); ++i) std::printf("%s%.6f", i ? "," : "", ms_[i]);
    std::printf("],\"cgIterations\":[");
    for (size_t i = 0; i < cg_.size(); ++i) std::printf("%s%d", i ? "," : "", cg_[i]);
    std::printf("]}\n");
    std::fflush(stdout);
  }

 private:
  // One frame; false (and diverged_at_ set) when the body went non-finite during it.
  bool step() {
    const int32_t r = sb_world_step(world_, float(o_.dt));
    ++stepped_;
    if (r == SB_ERR_DIVERGED) {
      diverged_at_ = stepped_;
      return false;
    }
    check(r, "sb_world_step");
    return true;
  }

  Options o_;
  sb_world world_ = 0;
  sb_body body_ = 0;
  int32_t vertices_ = 0, edges_ = 0, tets_ = 0;
  int stepped_ = 0;
  int diverged_at_ = 0;  // 0 = still finite
  std::vector<double> ms_;
  std::vector<int> cg_;
};

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (o.solver < 0 || o.solver >= SB_SOLVER_COUNT) usage("--solver must be an sb_solver (0..9)");
  Bench bench(o);
  bench.warm_up(o.warmup);
  if (!o.serve) {
    bench.run(o.frames);
    bench.print();
    return 0;
  }
  bench.print();  // ready
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    char* end = nullptr;
    const long n = std::strtol(line.c_str(), &end, 10);
    if (end == line.c_str() || *end != '\0' || n < 0 || n > 1000000) {
      std::fprintf(stderr, "softbody_bench --serve: expected a frame count per line, got \"%s\"\n", line.c_str());
      return 2;
    }
    bench.run(int(n));
    bench.print();
  }
  return 0;
}
