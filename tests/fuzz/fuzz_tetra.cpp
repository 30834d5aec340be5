// libFuzzer harness: the tetrahedralizer on arbitrary surfaces. Whatever the surface, sb_tetra_create
// either refuses it with a code and a message or makes a job; a job runs to the end (or reports
// SB_ERR_NO_INSIDE_TETS); and a finished job's tets must be accepted by sb_body_create_tets and step
// for a second (at least 2 frames for big outputs) without an error or a non-finite position. Any
// violation aborts.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz_input.h"
#include "softbody.h"

namespace {

[[noreturn]] void violation(const char* what, int32_t code) {
  std::fprintf(stderr, "tetrahedralizer contract violation (code %d, \"%s\"): %s\n", code, sb_last_error(), what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  // Header: sizes, settings and the coordinate scale; then coordinates and triangle corners.
  const int32_t nv = 4 + in.byte() % 60;
  const int32_t nf = 1 + in.byte() % 120;
  const int32_t resolution = in.byte() % 9;  // 0..8: cheap enough for thousands of runs a minute
  const float min_quality = float(in.byte() % 64) / 256.0f;
  const int32_t thin = in.byte() & 1;
  static const float kScales[] = {1.0f, 1e-4f, 1e3f, 1e-20f, 1e5f, 0.01f, 1.0f, 1.0f};
  const float scale = kScales[in.byte() % 8];
  std::vector<float> xyz(3 * size_t(nv));
  for (float& f : xyz) f = in.real(scale);
  std::vector<uint32_t> tris(3 * size_t(nf));
  for (uint32_t& t : tris) t = in.byte() % uint32_t(nv);

  // SOFTBODY_FUZZ_VERBOSE=1: print the decoded input and what became of it (for reproducers).
  static const bool verbose = std::getenv("SOFTBODY_FUZZ_VERBOSE") != nullptr;
  if (verbose) {
    std::fprintf(stderr, "surface: %d vertices, %d triangles, resolution %d, min quality %g, thin %d\n", nv, nf,
                 resolution, double(min_quality), thin);
    for (int32_t i = 0; i < nv; ++i)
      std::fprintf(stderr, "  v %d: %.9g %.9g %.9g\n", i, double(xyz[3 * i]), double(xyz[3 * i + 1]), double(xyz[3 * i + 2]));
    for (int32_t i = 0; i < nf; ++i) std::fprintf(stderr, "  f %u %u %u\n", tris[3 * i], tris[3 * i + 1], tris[3 * i + 2]);
  }
  const sb_tetra job = sb_tetra_create(xyz.data(), nv, tris.data(), nf, resolution, min_quality, thin);
  if (job < 0) {
    if (sb_last_error_code() != job || std::strlen(sb_last_error()) < 10) violation("refusal without its code and message", job);
    return 0;
  }
  int32_t r = 0;
  for (int i = 0; i < 10000 && r == 0; ++i) r = sb_tetra_run(job, 20000);
  if (r == 0) violation("did not finish within 2e8 work units", r);
  if (r < 0) {
    if (r != SB_ERR_NO_INSIDE_TETS) violation("sb_tetra_run failed with an unexpected code", r);
    sb_tetra_destroy(job);
    return 0;
  }
  const int32_t out_v = sb_tetra_vertex_count(job), out_t = sb_tetra_tet_count(job);
  if (verbose) {
    std::fprintf(stderr, "tets: %d vertices, %d tets\n", out_v, out_t);
    const float* p = sb_tetra_positions(job);
    const uint32_t* t = sb_tetra_tets(job);
    for (int32_t i = 0; i < out_v; ++i)
      std::fprintf(stderr, "  p %d: %.9g %.9g %.9g\n", i, double(p[3 * i]), double(p[3 * i + 1]), double(p[3 * i + 2]));
    for (int32_t i = 0; i < out_t; ++i)
      std::fprintf(stderr, "  t %u %u %u %u\n", t[4 * i], t[4 * i + 1], t[4 * i + 2], t[4 * i + 3]);
  }
  if (out_v < 4 || out_t < 1) violation("finished with no tets", out_t);
  const sb_world w = sb_world_create();
  if (w <= 0) violation("no world", w);
  const sb_body b = sb_body_create_tets(w, sb_tetra_positions(job), out_v, sb_tetra_tets(job), out_t);
  if (b < 0) violation("sb_body_create_tets refused a finished job's tets", b);
  // A second of simulation, or for large outputs (thin parts are sampled by their thickness, so a
  // tiny surface can give tens of thousands of tets) at least 2 frames: what makes a body diverge
  // (a degenerate tet) shows in its first steps, and ASan makes each step of a big body slow.
  const int frames = std::max(2, std::min(60, 40000 / std::max(out_t, 1)));
  for (int i = 0; i < frames; ++i) {
    const int32_t s = sb_world_step(w, 1.0f / 60.0f);
    if (s != SB_OK) violation("the body made from the tets failed to step", s);
  }
  sb_body_stats st;
  if (sb_body_get_stats(w, b, &st) != SB_OK || st.finite != 1) violation("stats not finite", 0);
  const float* p = sb_body_positions(w, b);
  for (int32_t i = 0; i < 3 * out_v; ++i)
    if (!std::isfinite(p[i])) violation("non-finite position", 0);
  sb_world_destroy(w);
  sb_tetra_destroy(job);
  return 0;
}
