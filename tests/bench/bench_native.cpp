// Native benchmark of the softbody C API: one box lattice resting on the ground, timed per frame.
//
//   softbody_bench --cells NX NY NZ [--frames N] [--warmup W] [--substeps S] [--dt SECONDS]
//                  [--cell-size METRES] [--drop METRES]
//
// The box has NX x NY x NZ cubic cells of --cell-size (6 tets each) and starts --drop above the
// ground plane y = 0, so it has landed by the end of the warm-up. Compliance is zero (edges and
// volumes), density 1000 kg/m^3, gravity -9.81. Prints one JSON object on stdout: the mesh counts,
// the settings and one wall-clock sample per frame (std::chrono::steady_clock, ms), plus the body
// state after the last frame so the caller can check it rests on the ground with its volume kept.
// tests/bench/bench.mjs runs it as a child process, one batch per call; errors go to stderr.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

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
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "softbody_bench: %s\n"
               "usage: softbody_bench --cells NX NY NZ [--frames N] [--warmup W] [--substeps S]\n"
               "                      [--dt SECONDS] [--cell-size METRES] [--drop METRES]\n",
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

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);

  const sb_world world = check(sb_world_create(), "sb_world_create");
  check(sb_world_set_substeps(world, o.substeps), "sb_world_set_substeps");
  check(sb_world_set_gravity(world, 0.0f, -9.81f, 0.0f), "sb_world_set_gravity");
  check(sb_world_set_ground(world, 1), "sb_world_set_ground");

  const float size[3] = {float(o.cells[0] * o.cell_size), float(o.cells[1] * o.cell_size),
                         float(o.cells[2] * o.cell_size)};
  const sb_body body = check(sb_body_create_box(world, o.cells[0], o.cells[1], o.cells[2], size[0], size[1], size[2],
                                                0.0f, float(o.drop + 0.5 * size[1]), 0.0f),
                             "sb_body_create_box");
  check(sb_body_set_param(world, body, SB_PARAM_EDGE_COMPLIANCE, 0.0f), "sb_body_set_param");
  check(sb_body_set_param(world, body, SB_PARAM_VOLUME_COMPLIANCE, 0.0f), "sb_body_set_param");
  check(sb_body_set_param(world, body, SB_PARAM_DENSITY, 1000.0f), "sb_body_set_param");

  const int32_t vertices = check(sb_body_vertex_count(world, body), "sb_body_vertex_count");
  const int32_t edges = check(sb_body_edge_count(world, body), "sb_body_edge_count");
  const int32_t tets = check(sb_body_tet_count(world, body), "sb_body_tet_count");

  const float dt = float(o.dt);
  for (int f = 0; f < o.warmup; ++f) check(sb_world_step(world, dt), "sb_world_step (warm-up)");

  std::vector<double> ms(size_t(o.frames));
  for (int f = 0; f < o.frames; ++f) {
    const auto t0 = std::chrono::steady_clock::now();
    const int32_t r = sb_world_step(world, dt);
    const auto t1 = std::chrono::steady_clock::now();
    check(r, "sb_world_step");
    ms[size_t(f)] = std::chrono::duration<double, std::milli>(t1 - t0).count();
  }

  sb_body_stats st;
  check(sb_body_get_stats(world, body, &st), "sb_body_get_stats");
  check(sb_world_destroy(world), "sb_world_destroy");

  std::printf("{\"build\":\"native\",\"cells\":[%d,%d,%d],\"vertices\":%d,\"edges\":%d,\"tets\":%d,", o.cells[0],
              o.cells[1], o.cells[2], vertices, edges, tets);
  std::printf("\"substeps\":%d,\"dt\":%.9g,\"warmup\":%d,\"minY\":%.9g,\"volumeRatio\":%.9g,\"finite\":%s,\"msPerFrame\":[",
              o.substeps, o.dt, o.warmup, double(st.min_y), double(st.volume_ratio), st.finite ? "true" : "false");
  for (size_t i = 0; i < ms.size(); ++i) std::printf("%s%.6f", i ? "," : "", ms[i]);
  std::printf("]}\n");
  return 0;
}
