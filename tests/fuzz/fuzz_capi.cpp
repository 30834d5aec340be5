// libFuzzer harness: the C API as a program of calls with arbitrary arguments, live and stale handles.
// Checked after every call (any violation aborts, so libFuzzer saves the input):
// - a call that fails returns a negative code equal to sb_last_error_code(), with a message, and
//   changes nothing observable (every live world's settings, thread count, time and bodies, every body's positions
//   bit for bit, parameters, solver, counts and visual; every job's progress), as test_capi.cpp checks
//   by hand; SB_ERR_DIVERGED from a step and SB_ERR_NO_INSIDE_TETS from a run are results, not refusals;
// - a call that succeeds leaves SB_OK as the last error code;
// - after a step, a body whose stats say finite = 1 has finite positions (and a frozen body too:
//   it shows its last finite shape), and so has its visual surface; a visual just set is finite too;
// - pointer getters return NULL only with an error, or with SB_OK and a count of 0;
// - a static solve (sb_body_solve_static) that succeeds returns at most 60 Newton iterations at the full
//   load and 60 per load step after it (checked loosely: 60 x 64), leaves
//   the body finite and at rest and changes nothing else (the snapshot without that body's positions);
//   one with a tolerance outside [1e-10, 1e-2] or on a body with gas pressure fails.
// Sizes are kept small (boxes of a few cells, short surfaces) so a program runs in milliseconds.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "softbody.h"

namespace {

[[noreturn]] void violation(const char* what, int32_t op, int32_t code) {
  std::fprintf(stderr, "contract violation after op %d (code %d, \"%s\"): %s\n", op, code, sb_last_error(), what);
  std::abort();
}

struct BodyRef {
  sb_world world;
  sb_body body;
};

struct ColliderRef {
  sb_world world;
  sb_collider collider;
};

struct State {
  std::vector<sb_world> worlds;
  std::vector<BodyRef> bodies;
  std::vector<ColliderRef> colliders;
  std::vector<sb_tetra> jobs;
  std::vector<int32_t> stale;  // destroyed handles of any kind, to try again
};

// Everything a failed call must leave as it was. moved: a body whose positions are left out (a
// successful static solve moves them, and must change nothing else).
std::vector<uint32_t> snapshot(const State& s, const BodyRef* moved = nullptr) {
  std::vector<uint32_t> out;
  auto put_float = [&](float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    out.push_back(bits);
  };
  auto put_double = [&](double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    out.push_back(uint32_t(bits));
    out.push_back(uint32_t(bits >> 32));
  };
  for (sb_world w : s.worlds) {
    out.push_back(uint32_t(sb_world_body_count(w)));
    out.push_back(uint32_t(sb_world_collider_count(w)));
    out.push_back(uint32_t(sb_world_get_substeps(w)));
    out.push_back(uint32_t(sb_world_get_threads(w)));
    put_double(sb_world_time(w));
  }
  for (const BodyRef& b : s.bodies) {
    const int32_t n = sb_body_vertex_count(b.world, b.body);
    out.push_back(uint32_t(n));
    const float* p = sb_body_positions(b.world, b.body);
    const bool skip_positions = moved && moved->world == b.world && moved->body == b.body;
    for (int32_t i = 0; p && !skip_positions && i < 3 * n; ++i) put_float(p[i]);
    for (int32_t k = 0; k < SB_PARAM_COUNT; ++k) put_float(sb_body_get_param(b.world, b.body, k));
    out.push_back(uint32_t(sb_body_get_solver(b.world, b.body)));
    out.push_back(uint32_t(sb_body_visual_vertex_count(b.world, b.body)));
    sb_body_stats st;
    if (sb_body_get_stats(b.world, b.body, &st) == SB_OK) {
      out.push_back(uint32_t(st.grabbed_vertex));
      out.push_back(uint32_t(st.finite));
    }
    uint32_t group = 0, mask = 0;
    if (sb_body_get_collision_filter(b.world, b.body, &group, &mask) == SB_OK) {
      out.push_back(group);
      out.push_back(mask);
    }
    for (int32_t i = 0; i < std::min(n, 64); ++i) {
      float mass = 0.0f, stiffness = 0.0f;
      if (sb_body_get_vertex_scales(b.world, b.body, i, &mass, &stiffness) == SB_OK) {
        put_float(mass);
        put_float(stiffness);
      }
    }
    int32_t self_on = 0;
    float self_thickness = 0.0f;
    if (sb_body_get_self_collision(b.world, b.body, &self_on, &self_thickness) == SB_OK) {
      out.push_back(uint32_t(self_on));
      put_float(self_thickness);
    }
  }
  for (const ColliderRef& c : s.colliders)
    for (int32_t k = 0; k < SB_COLLIDER_PARAM_COUNT; ++k) put_float(sb_collider_get_param(c.world, c.collider, k));
  for (sb_tetra j : s.jobs) put_float(sb_tetra_progress(j));
  return out;
}

// Op 40's set-up, made before its snapshot: a body the static solver accepts (compliances > 0, or
// Neo-Hookean under VBD, and a pinned vertex in every part) would otherwise need three or four exact
// calls first. These calls are the ordinary ops' (set_param, pin, set_solver); their results are
// not checked here.
void prepare_static(fuzz::Input& in, sb_world w, sb_body b) {
  const uint8_t k = in.byte();
  if (k < 64) return;
  sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, std::pow(10.0f, -float(in.in(2, 8))));
  sb_body_set_param(w, b, SB_PARAM_VOLUME_COMPLIANCE, std::pow(10.0f, -float(in.in(0, 5))));
  const int32_t n = sb_body_vertex_count(w, b);
  if ((k & 1) && n > 0)
    for (int32_t pins = in.in(1, 4); pins-- > 0 && pins < 8;) sb_body_pin(w, b, in.in(0, n - 1), 1);
  if (k & 2) {  // Neo-Hookean needs VBD or a force-based solver (XPBD and PBD refuse it)
    sb_body_set_solver(w, b, in.byte() < 128 ? SB_SOLVER_VBD : in.in(2, SB_SOLVER_COUNT - 1));
    sb_body_set_param(w, b, SB_PARAM_MATERIAL, SB_MATERIAL_NEO_HOOKEAN);
    sb_body_set_param(w, b, SB_PARAM_YOUNGS_MODULUS, std::pow(10.0f, float(in.in(3, 9))));
    sb_body_set_param(w, b, SB_PARAM_POISSON_RATIO, 0.05f * float(in.in(0, 9)));
  } else if (k & 4) {
    sb_body_set_solver(w, b, in.in(0, SB_SOLVER_COUNT - 1));
  }
}

// The visual surface's positions are finite (none without a visual is fine). The check's own calls
// clear the last error, so it restores nothing: callers use it where the result is already known.
void check_visual_finite(sb_world w, sb_body b, const char* what, int32_t op, int32_t r) {
  const int32_t n = sb_body_visual_vertex_count(w, b);
  const float* p = n > 0 ? sb_body_visual_positions(w, b) : nullptr;
  for (int32_t i = 0; p && i < 3 * n; ++i)
    if (!std::isfinite(p[i])) violation(what, op, r);
}

// A handle of the wanted kind: live, stale, or arbitrary.
int32_t pick(fuzz::Input& in, const std::vector<int32_t>& live, const State& s) {
  const uint8_t b = in.byte();
  if (b < 192 && !live.empty()) return live[b % live.size()];
  if (b < 240 && !s.stale.empty()) return s.stale[b % s.stale.size()];
  return b < 248 ? int32_t(b & 3) - 1 : in.i32();
}

}  // namespace

// For SOFTBODY_FUZZ_VERBOSE=1 (reading a reproducer): the calls, by op number.
const char* const kOpNames[] = {"world_create", "world_destroy", "set_gravity", "set_substeps", "set_ground", "step",
                                "create_box", "create_ball", "create_rope", "create_jelly", "create_pressure_ball",
                                "create_tets", "body_destroy", "reset", "set_param", "get_param", "pin", "set_solver",
                                "squash", "press", "get_stats", "nearest_vertex", "grab_begin", "grab_move", "grab_end",
                                "write_position", "set_visual", "set_visual_bound", "pointer_getter", "tetra_create",
                                "tetra_run", "tetra_destroy", "body_from_tetra", "tetra_stats", "collider_create",
                                "collider_set_pose", "collider_param", "collider_destroy", "collision_filter / self_collision",
                                "set_threads", "solve_static", "cloth_create", "wind / sleep", "array_getter",
                                "collider_solid / friction", "tetra_bound", "contact_stats / convergence / error_name"};
constexpr int32_t kOpCount = 47;
static_assert(sizeof kOpNames / sizeof kOpNames[0] == kOpCount, "one name per op");

// Static solves that reach the solver, per program: a pinned 5-cell ball takes up to ~1.3 s under
// the sanitizers (60 Newton iterations at most, each a CG to its forcing term), so 48 of them would
// pass libFuzzer's 20 s timeout without any bug. Past the budget the op asks with a tolerance the API
// must refuse (cheap, and still a contract check).
constexpr int32_t kStaticSolveBudget = 4;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool verbose = std::getenv("SOFTBODY_FUZZ_VERBOSE") != nullptr;
  fuzz::Input in(data, size);
  State s;
  std::vector<float> floats;
  std::vector<uint32_t> ints;
  int32_t static_solves = 0;
  for (int32_t op_index = 0; op_index < 48 && !in.empty(); ++op_index) {
    const int32_t op = in.byte() % kOpCount;
    // World and body handles for this op (the body's world may differ from w: a wrong pair).
    const sb_world w = pick(in, s.worlds, s);
    std::vector<int32_t> body_handles;
    for (const BodyRef& r : s.bodies) body_handles.push_back(r.body);
    const sb_body b = pick(in, body_handles, s);
    const sb_tetra job = pick(in, s.jobs, s);
    std::vector<int32_t> collider_handles;
    for (const ColliderRef& c : s.colliders) collider_handles.push_back(c.collider);
    const sb_collider col = pick(in, collider_handles, s);
    if (op == 40) prepare_static(in, w, b);
    const std::vector<uint32_t> before = snapshot(s);
    const auto op_start = std::chrono::steady_clock::now();
    if (verbose) std::fprintf(stderr, "op %d: %s (w %d, b %d, job %d) ...\n", op_index, kOpNames[op], w, b, job);
    bool results_may_change_state = false;  // a failure that is a result (divergence), not a refusal
    // An op that calls more of the API after its call under test (reads to check it) records the
    // error state right after that call here, since the later calls clear it.
    int32_t code_of_call = INT32_MIN;
    std::string message_of_call;
    bool wrote_buffer = false;              // the program wrote into a shared buffer (allowed)
    int32_t r = SB_OK;
    const void* pointer = &r;  // non-null unless a pointer getter returned NULL
    int32_t pointer_count = -1;
    auto fill_floats = [&](int64_t n, float scale) {  // at most 64: counts may be any int32
      floats.assign(size_t(std::max<int64_t>(0, std::min<int64_t>(n, 64))), 0.0f);
      for (float& f : floats) f = in.real(scale);
    };
    auto fill_ints = [&](int64_t n, int32_t below) {
      ints.assign(size_t(std::max<int64_t>(0, std::min<int64_t>(n, 64))), 0u);
      for (uint32_t& v : ints) v = in.byte() < 240 ? uint32_t(in.in(0, std::max(0, below - 1))) : in.u32();
    };
    switch (op) {
      case 0: {
        r = sb_world_create();
        if (r > 0) s.worlds.push_back(r);
        break;
      }
      case 1:
        r = sb_world_destroy(w);
        if (r == SB_OK) {
          s.stale.push_back(w);
          for (size_t i = s.bodies.size(); i-- > 0;)
            if (s.bodies[i].world == w) {
              s.stale.push_back(s.bodies[i].body);
              s.bodies.erase(s.bodies.begin() + long(i));
            }
          for (size_t i = s.colliders.size(); i-- > 0;)
            if (s.colliders[i].world == w) {
              s.stale.push_back(s.colliders[i].collider);
              s.colliders.erase(s.colliders.begin() + long(i));
            }
          s.worlds.erase(std::find(s.worlds.begin(), s.worlds.end(), w));
        }
        break;
      case 2: r = sb_world_set_gravity(w, in.real(10), in.real(10), in.real(10)); break;
      case 3: r = sb_world_set_substeps(w, in.in(0, 24)); break;
      case 4: r = sb_world_set_ground(w, in.in(-1, 2)); break;
      case 5: {
        const uint8_t k = in.byte();
        const float dt = k < 128 ? 1.0f / 60.0f : k < 192 ? in.real(0.01f) : in.real();
        r = sb_world_step(w, dt);
        code_of_call = sb_last_error_code();
        message_of_call = sb_last_error();
        results_may_change_state = r == SB_ERR_DIVERGED;
        // finite = 1 means finite positions, and a frozen body shows its last finite shape.
        for (const BodyRef& ref : s.bodies) {
          if (ref.world != w || (r != SB_OK && r != SB_ERR_DIVERGED)) continue;
          const float* p = sb_body_positions(ref.world, ref.body);
          const int32_t n = sb_body_vertex_count(ref.world, ref.body);
          for (int32_t i = 0; i < 3 * n; ++i)
            if (!std::isfinite(p[i])) violation("non-finite position after a step", op, r);
          check_visual_finite(ref.world, ref.body, "non-finite visual position after a step", op, r);
        }
        break;
      }
      case 6: case 7: case 8: case 9: case 10: case 11: {
        // Counts: any int32 now and then (the refusals), but a valid count above `cheap` is cut to it:
        // a 64-cell pressure ball takes 1.3 s natively and over 20 s under the sanitizers.
        auto count = [&](int32_t lo, int32_t hi, int32_t cheap, int32_t max_valid) {
          const int32_t v = in.in(lo, hi);
          return v > cheap && v <= max_valid ? cheap : v;
        };
        int32_t made = 0;
        if (op == 6) made = sb_body_create_box(w, count(0, 3, 3, 128), count(1, 3, 3, 128), count(1, 3, 3, 128), in.real(),
                                               in.real(), in.real(), in.real(), in.real(), in.real());
        if (op == 7) made = sb_body_create_ball(w, in.real(), count(1, 5, 5, 64), in.real(), in.real(), in.real());
        if (op == 8) made = sb_body_create_rope(w, count(0, 16, 16, 10000), in.real(), in.real(), in.real(), in.real());
        if (op == 9) made = sb_body_create_jelly(w, count(0, 3, 3, 64), in.real(), in.real(), in.real(), in.real());
        if (op == 10) made = sb_body_create_pressure_ball(w, in.real(), count(1, 5, 5, 64), in.real(), in.real(), in.real());
        if (op == 11) {
          const int32_t nv = in.in(0, 8), nt = in.in(0, 4);
          fill_floats(int64_t(3) * nv, 1.0f);
          fill_ints(int64_t(4) * nt, nv);
          const int32_t nv_arg = in.byte() < 240 ? nv : in.in(-1, 10);
          const int32_t nt_arg = in.byte() < 240 ? nt : in.in(-1, 6);
          // Counts beyond the arrays would read past them: only NULL-pointer cases may lie.
          const bool fits = nv_arg <= int64_t(floats.size() / 3) && nt_arg <= int64_t(ints.size() / 4);
          if (fits) made = sb_body_create_tets(w, floats.empty() ? nullptr : floats.data(), nv_arg,
                                               ints.empty() ? nullptr : ints.data(), nt_arg);
          else made = sb_body_create_tets(w, nullptr, nv_arg, nullptr, nt_arg);
        }
        r = made;
        if (made > 0) s.bodies.push_back({w, made});
        break;
      }
      case 12:
        r = sb_body_destroy(w, b);
        if (r == SB_OK) {
          s.stale.push_back(b);
          for (size_t i = 0; i < s.bodies.size(); ++i)
            if (s.bodies[i].world == w && s.bodies[i].body == b) {
              s.bodies.erase(s.bodies.begin() + long(i));
              break;
            }
        }
        break;
      case 13: r = sb_body_reset(w, b); break;
      case 14: r = sb_body_set_param(w, b, in.in(-1, SB_PARAM_COUNT), in.real()); break;
      case 15: {
        const float v = sb_body_get_param(w, b, in.in(-1, SB_PARAM_COUNT));
        r = std::isnan(v) ? sb_last_error_code() : SB_OK;
        break;
      }
      case 16: r = sb_body_pin(w, b, in.in(-1, 30), in.in(-1, 2)); break;
      case 17: r = sb_body_set_solver(w, b, in.in(-1, SB_SOLVER_COUNT)); break;
      case 18: r = sb_body_squash(w, b, in.real()); break;
      case 19: r = sb_body_press(w, b, in.real(), in.real()); break;
      case 20: {
        sb_body_stats st;
        r = sb_body_get_stats(w, b, in.byte() < 250 ? &st : nullptr);
        break;
      }
      case 21: r = sb_body_nearest_vertex(w, b, in.real(), in.real(), in.real()); break;
      case 22: r = sb_body_grab_begin(w, b, in.in(-1, 30), in.real(), in.real(), in.real()); break;
      case 23: r = sb_body_grab_move(w, b, in.real(), in.real(), in.real()); break;
      case 24: r = sb_body_grab_end(w, b, in.real(10), in.real(10), in.real(10)); break;
      case 25: {  // a careless caller writes into the shared position buffer (allowed; a step copes)
        float* p = sb_body_positions(w, b);
        const int32_t n = sb_body_vertex_count(w, b);
        if (p && n > 0) {
          p[uint32_t(in.in(0, 3 * n - 1)) % uint32_t(3 * n)] = in.real(100);
          wrote_buffer = true;
        }
        r = p ? SB_OK : sb_last_error_code();
        break;
      }
      case 26: {
        const int32_t nv = in.in(0, 24), nf = in.in(0, 16);
        // Small triangles, sometimes far from the body (the binding's far path). Large ones are split to
        // the tets' spacing, up to 262,144 vertices: legitimate, but seconds under the sanitizers.
        // Sized like the body (its bounding box), so the split stays near the given vertex count.
        // The box between the 10th and 90th percentile of the positions on each axis: a vertex thrown
        // far by write_position must not make the visual (and its split to the tets' spacing) huge.
        float extent = 0.5f;
        if (const float* p = sb_body_positions(w, b)) {
          const int32_t n = sb_body_vertex_count(w, b);
          float across = 0.0f;
          std::vector<float> axis(size_t(std::max(0, n)));
          for (int k = 0; k < 3 && n > 0; ++k) {
            for (int32_t i = 0; i < n; ++i) axis[size_t(i)] = p[3 * i + k];
            std::sort(axis.begin(), axis.end(), [](float a, float b) { return a < b || (a == a && b != b); });
            across = std::max(across, axis[size_t(n * 9 / 10)] - axis[size_t(n / 10)]);
          }
          if (across > 0 && std::isfinite(across)) extent = 0.25f * across;
        }
        const float offset = in.byte() < 200 ? 0.0f : in.real(1e4f);
        fill_floats(int64_t(3) * nv, extent);
        for (float& f : floats) {
          // Values the C API accepts but that make long edges (1e6 from a 1 m body: 262,144 vertices)
          // are pulled in; NaN, infinity and 1e20 stay, to be refused.
          if (std::isfinite(f) && std::fabs(f) > 8 * extent && std::fabs(f) < 1e7f * extent) f = std::copysign(8 * extent, f);
          f += offset;
        }
        fill_ints(int64_t(3) * nf, nv);
        if (verbose) {
          std::fprintf(stderr, "  set_visual: %d vertices, %d triangles, extent %g, offset %g\n", nv, nf, double(extent),
                       double(offset));
          for (size_t i = 0; i + 2 < floats.size(); i += 3)
            std::fprintf(stderr, "  v %g %g %g\n", double(floats[i]), double(floats[i + 1]), double(floats[i + 2]));
        }
        if (int64_t(floats.size()) == int64_t(3) * nv && int64_t(ints.size()) == int64_t(3) * nf)
          r = sb_body_set_visual(w, b, floats.empty() ? nullptr : floats.data(), nv, ints.empty() ? nullptr : ints.data(), nf);
        else
          r = sb_body_set_visual(w, b, nullptr, nv, nullptr, nf);
        if (r >= 0) check_visual_finite(w, b, "non-finite visual position after set_visual", op, r);
        break;
      }
      case 27: {
        const int32_t nv = in.in(0, 8), nf = in.in(0, 4);
        fill_floats(int64_t(4) * nv, 0.5f);
        std::vector<uint32_t> bound(size_t(std::max(0, std::min(nv, 16))) * 4);
        for (uint32_t& v : bound) v = uint32_t(in.in(0, 12));
        fill_ints(int64_t(3) * nf, nv);
        if (in.byte() < 128)  // mostly sensible weights: (1, 0, 0, 0)
          for (size_t i = 0; i < floats.size(); ++i) floats[i] = i % 4 == 0 ? 1.0f : 0.0f;
        if (int64_t(floats.size()) == int64_t(4) * nv && int64_t(ints.size()) == int64_t(3) * nf)
          r = sb_body_set_visual_bound(w, b, nv, ints.empty() ? nullptr : ints.data(), nf,
                                       bound.empty() ? nullptr : bound.data(), floats.empty() ? nullptr : floats.data(),
                                       in.in(-1, 9));
        else
          r = sb_body_set_visual_bound(w, b, nv, nullptr, nf, nullptr, nullptr, 0);
        // Weights like (3e38, -3e38, 1, 0) sum to 1 in rounding and drew the vertex at -inf (issue 26).
        if (r >= 0) check_visual_finite(w, b, "non-finite visual position after set_visual_bound", op, r);
        break;
      }
      case 28: {  // pointer getters: NULL only with an error, or with SB_OK and a count of 0
        const uint8_t which = in.byte() % 8;
        switch (which) {
          case 0: pointer = sb_body_positions(w, b); pointer_count = sb_body_vertex_count(w, b); break;
          case 1: pointer = sb_body_triangles(w, b); pointer_count = sb_body_triangle_count(w, b); break;
          case 2: pointer = sb_body_tets(w, b); pointer_count = sb_body_tet_count(w, b); break;
          case 3: pointer = sb_body_edges(w, b); pointer_count = sb_body_edge_count(w, b); break;
          case 4: pointer = sb_body_visual_positions(w, b); pointer_count = sb_body_visual_vertex_count(w, b); break;
          case 5: pointer = sb_body_visual_triangles(w, b); pointer_count = sb_body_visual_triangle_count(w, b); break;
          case 6: pointer = sb_tetra_positions(job); pointer_count = sb_tetra_vertex_count(job); break;
          default: pointer = sb_tetra_tets(job); pointer_count = sb_tetra_tet_count(job); break;
        }
        // Re-ask for the error of the getter itself (the count call cleared it).
        if (!pointer) {
          switch (which) {
            case 0: sb_body_positions(w, b); break;
            case 1: sb_body_triangles(w, b); break;
            case 2: sb_body_tets(w, b); break;
            case 3: sb_body_edges(w, b); break;
            case 4: sb_body_visual_positions(w, b); break;
            case 5: sb_body_visual_triangles(w, b); break;
            case 6: sb_tetra_positions(job); break;
            default: sb_tetra_tets(job); break;
          }
          r = sb_last_error_code();
          if (r == SB_OK && pointer_count != 0) violation("NULL pointer with SB_OK and a non-zero count", op, r);
          if (r != SB_OK && pointer_count > 0) violation("NULL pointer with an error but a count", op, r);
        }
        break;
      }
      case 29: {
        const int32_t nv = in.in(0, 16), nf = in.in(0, 20);
        fill_floats(int64_t(3) * nv, in.byte() < 220 ? 1.0f : 1e5f);
        fill_ints(int64_t(3) * nf, nv);
        if (int64_t(floats.size()) == int64_t(3) * nv && int64_t(ints.size()) == int64_t(3) * nf)
          r = sb_tetra_create(floats.empty() ? nullptr : floats.data(), nv, ints.empty() ? nullptr : ints.data(), nf,
                              in.in(-1, 6), in.real(0.05f), in.in(-1, 2));
        else
          r = sb_tetra_create(nullptr, nv, nullptr, nf, 4, 0.0f, 1);
        if (r > 0) s.jobs.push_back(r);
        break;
      }
      case 30:
        r = sb_tetra_run(job, in.in(-1, 100000));
        results_may_change_state = r == SB_ERR_NO_INSIDE_TETS;
        break;
      case 31:
        r = sb_tetra_destroy(job);
        if (r == SB_OK) {
          s.stale.push_back(job);
          s.jobs.erase(std::find(s.jobs.begin(), s.jobs.end(), job));
        }
        break;
      case 32: {  // a finished job's tets make a body
        const int32_t nv = sb_tetra_vertex_count(job), nt = sb_tetra_tet_count(job);
        const float* p = sb_tetra_positions(job);
        const uint32_t* t = sb_tetra_tets(job);
        if (nv > 0 && nt > 0 && p && t) {
          r = sb_body_create_tets(w, p, nv, t, nt);
          if (r > 0) s.bodies.push_back({w, r});
        } else {
          r = nv < 0 ? nv : sb_last_error_code();
        }
        break;
      }
      case 33: {
        sb_tetra_stats st;
        r = sb_tetra_get_stats(job, in.byte() < 250 ? &st : nullptr);
        break;
      }
      case 34: {  // a collider of any shape, with arbitrary sizes and places
        const float scale = in.byte() < 220 ? 2.0f : 1e7f;
        switch (in.in(0, 5)) {
          case 0: r = sb_collider_create_plane(w, in.real(scale), in.real(scale), in.real(scale), in.real(), in.real(), in.real()); break;
          case 1: r = sb_collider_create_sphere(w, in.real(scale), in.real(scale), in.real(scale), in.real(scale)); break;
          case 2:
            r = sb_collider_create_box(w, in.real(scale), in.real(scale), in.real(scale), in.real(scale), in.real(scale),
                                       in.real(scale));
            break;
          case 3:
            r = sb_collider_create_capsule(w, in.real(scale), in.real(scale), in.real(scale), in.real(scale), in.real(scale));
            break;
          default: {
            const int32_t nv = in.in(0, 16), nf = in.in(0, 20);
            fill_floats(int64_t(3) * nv, scale);
            fill_ints(int64_t(3) * nf, nv);
            if (int64_t(floats.size()) == int64_t(3) * nv && int64_t(ints.size()) == int64_t(3) * nf)
              r = sb_collider_create_mesh(w, floats.empty() ? nullptr : floats.data(), nv, ints.empty() ? nullptr : ints.data(),
                                          nf, in.real(0.1f), in.real(scale), in.real(scale), in.real(scale));
            else
              r = sb_collider_create_mesh(w, nullptr, nv, nullptr, nf, 0.01f, 0, 0, 0);
          }
        }
        if (r > 0) s.colliders.push_back({w, r});
        break;
      }
      case 35:
        r = sb_collider_set_pose(w, col, in.real(4), in.real(4), in.real(4), in.real(), in.real(), in.real(), in.real(),
                                 in.in(-1, 2));
        break;
      case 36:
        if (in.byte() < 128) {
          r = sb_collider_set_param(w, col, in.in(-1, SB_COLLIDER_PARAM_COUNT), in.real());
        } else {
          const float value = sb_collider_get_param(w, col, in.in(-1, SB_COLLIDER_PARAM_COUNT));
          r = std::isnan(value) ? sb_last_error_code() : SB_OK;
          if (std::isnan(value) && r >= 0) violation("NaN from a getter without an error", op, r);
        }
        break;
      case 37:
        r = sb_collider_destroy(w, col);
        if (r == SB_OK) {
          s.stale.push_back(col);
          for (size_t i = s.colliders.size(); i-- > 0;)
            if (s.colliders[i].collider == col && s.colliders[i].world == w) s.colliders.erase(s.colliders.begin() + long(i));
        }
        break;
      case 39: {  // threads: 0 .. 70 (the range's edges and past them; any int32 1 time in 16) or the most allowed
        const uint8_t k = in.byte();
        r = sb_world_set_threads(w, k < 200 ? in.in(0, 70) : sb_max_threads());
        break;
      }
      case 40: {  // the static solve: tolerances in range, at its edges, past them, NaN and infinity
        static const float kEdges[] = {1e-10f, 1e-2f, 9.9e-11f, 1.01e-2f, 0.0f, -1e-8f, NAN, INFINITY, 1.0f};
        const uint8_t k = in.byte();
        float tolerance = k < 160 ? std::pow(10.0f, -float(in.in(2, 10))) : k < 224 ? kEdges[k % 9] : in.real(1e-2f);
        if (static_solves >= kStaticSolveBudget) tolerance = 1.0f;
        const bool valid_tolerance = tolerance >= 1e-10f && tolerance <= 1e-2f;  // false for NaN
        const float pressure = sb_body_get_param(w, b, SB_PARAM_PRESSURE);       // NaN for a bad handle
        if (valid_tolerance) ++static_solves;
        const BodyRef solved{w, b};
        const std::vector<uint32_t> before_others = snapshot(s, &solved);
        r = sb_body_solve_static(w, b, tolerance);
        code_of_call = sb_last_error_code();
        message_of_call = sb_last_error();
        if (r >= 0) {
          if (!valid_tolerance) violation("a static solve accepted a tolerance outside [1e-10, 1e-2]", op, r);
          if (pressure > 0.0f) violation("a static solve accepted a body with gas pressure", op, r);
          // 60 at the full load, then 60 at most per load step (static_solver.h); 63 load steps would
          // mean the stepping ran away (it halves a failed step down to 1/1024 of the load).
          if (r > 60 * 64) violation("more Newton iterations than the solver allows", op, r);
          const float* p = sb_body_positions(w, b);
          const int32_t n = sb_body_vertex_count(w, b);
          for (int32_t i = 0; i < 3 * n; ++i)
            if (!std::isfinite(p[i])) violation("non-finite position after a static solve", op, r);
          sb_body_stats st;
          if (sb_body_get_stats(w, b, &st) != SB_OK || st.kinetic_energy != 0.0)
            violation("a static solve left the body moving", op, r);
          if (snapshot(s, &solved) != before_others)
            violation("a static solve changed more than the body's positions", op, r);
        }
        break;
      }
      case 41: {  // cloth: a rectangle, a disc, or a sheet from arbitrary triangles (small: cheap)
        const uint8_t which = in.byte();
        int32_t made = 0;
        if (which < 100) {
          const int32_t cu = in.byte() < 240 ? in.in(1, 8) : in.in(-2, 1100), cv = in.byte() < 240 ? in.in(1, 8) : in.in(-2, 1100);
          // A valid count above 8 is cut to 8: a 1024 x 1024 sheet is legitimate but seconds under the sanitizers.
          made = sb_body_create_cloth_rectangle(w, cu > 8 && cu <= 1024 ? 8 : cu, cv > 8 && cv <= 1024 ? 8 : cv, in.real(2),
                                                in.real(2), in.real(), in.real(), in.real(), in.in(-1, 2));
        } else if (which < 160) {
          const int32_t rings = in.byte() < 240 ? in.in(1, 5) : in.in(-2, 600);
          made = sb_body_create_cloth_disc(w, in.real(2), rings > 5 && rings <= 512 ? 5 : rings, in.real(), in.real(),
                                           in.real(), in.in(-1, 2));
        } else {
          const int32_t nv = in.in(0, 12), nt = in.in(0, 12);
          fill_floats(int64_t(3) * nv, 1.0f);
          fill_ints(int64_t(3) * nt, nv);
          if (int64_t(floats.size()) == int64_t(3) * nv && int64_t(ints.size()) == int64_t(3) * nt)
            made = sb_body_create_cloth(w, floats.empty() ? nullptr : floats.data(), nv, ints.empty() ? nullptr : ints.data(), nt);
          else
            made = sb_body_create_cloth(w, nullptr, nv, nullptr, nt);
        }
        r = made;
        if (made > 0) s.bodies.push_back({w, made});
        break;
      }
      case 42:
        if (in.byte() < 128)
          r = sb_world_set_wind(w, in.real(20), in.real(20), in.real(20), in.real(), in.real(2));
        else
          r = sb_world_set_sleep(w, in.byte() < 200 ? 0.01f * float(in.byte() % 120) : in.real(), in.byte() < 200 ? 0.1f * float(in.byte()) : in.real(100));
        break;
      case 43: {  // the other pointer getters: NULL only with an error, or with SB_OK and a count of 0
        const uint8_t which = in.byte() % 11;
        const int32_t kind = in.in(-1, 2);
        auto get = [&]() -> const void* {
          switch (which) {
            case 0: return sb_body_velocities(w, b);
            case 1: return sb_body_inverse_masses(w, b);
            case 2: return sb_body_edge_rest_lengths(w, b);
            case 3: return sb_body_tet_6_rest_volumes(w, b);
            case 4: return sb_body_inverse_rest_shapes(w, b);
            case 5: return sb_body_normals(w, b);
            case 6: return sb_body_visual_normals(w, b);
            case 7: return sb_body_visual_bound_vertices(w, b);
            case 8: return sb_body_visual_weights(w, b);
            case 9: return sb_body_batch_starts(w, b, kind);
            default: return sb_body_batch_order(w, b, kind);
          }
        };
        pointer = get();
        const int32_t code_of_get = sb_last_error_code();
        switch (which) {
          case 0: case 1: case 5: pointer_count = sb_body_vertex_count(w, b); break;
          case 2: pointer_count = sb_body_edge_count(w, b); break;
          case 3: case 4: pointer_count = sb_body_tet_count(w, b); break;
          case 6: case 7: case 8: pointer_count = sb_body_visual_vertex_count(w, b); break;
          case 9: pointer_count = sb_body_batch_count(w, b, kind) + 1; break;
          default: pointer_count = sb_body_batch_count(w, b, kind) == 0 ? 0 : (kind == SB_BATCH_EDGES ? sb_body_edge_count(w, b) : sb_body_tet_count(w, b)); break;
        }
        if (!pointer) {
          get();  // its own error again (the counts cleared it)
          r = sb_last_error_code();
          if (r == SB_OK && pointer_count != 0) violation("NULL pointer with SB_OK and a non-zero count", op, r);
          if (r != SB_OK && pointer_count > 0 && which != 5 && which < 9)
            violation("NULL pointer with an error but a count", op, r);  // normals: a tet body has vertices but no normals
        } else if (code_of_get != SB_OK) {
          violation("a pointer with an error", op, code_of_get);
        }
        break;
      }
      case 44:
        if (in.byte() < 128) {
          r = sb_collider_mesh_is_solid(w, col);
          if (r > 1) violation("mesh_is_solid neither 0, 1 nor an error", op, r);
        } else {
          r = sb_collider_set_friction(w, col, in.byte() < 200 ? 0.05f * float(in.byte() % 220) : in.real(100));
        }
        break;
      case 45: {  // a job's tet bound and thin-parts choice (before its first run, or refused after)
        const uint8_t which = in.byte();
        if (which < 80) {
          r = sb_tetra_set_max_tets(job, in.byte() < 200 ? in.in(0, 5000) : in.i32());
        } else if (which < 160) {
          r = sb_tetra_set_thin_parts(job, in.in(-1, 4));
        } else {
          r = sb_tetra_estimate_tets(job);
          if (r == 0) violation("an estimate of 0 tets", op, r);
        }
        break;
      }
      case 46: {
        const uint8_t which = in.byte();
        if (which < 100) {
          sb_world_contact_stats st;
          r = sb_world_get_contact_stats(w, in.byte() < 250 ? &st : nullptr);
        } else if (which < 200) {
          sb_convergence c;
          r = sb_body_get_convergence(w, b, in.byte() < 250 ? &c : nullptr);
        } else {
          const char* name = sb_error_name(in.in(-30, 2));
          if (!name || std::strlen(name) < 2) violation("an error without a name", op, 0);
          r = SB_OK;
          code_of_call = SB_OK;  // a pure lookup: it leaves the last error as it was
          message_of_call = "";
        }
        break;
      }
      case 38:
      default: {
        const uint8_t which = in.byte();
        if (which < 120) {
          r = sb_body_set_collision_filter(w, b, in.u32(), in.byte() < 128 ? 0xffffffffu : in.u32());
        } else if (which < 150) {
          r = sb_body_set_self_collision(w, b, in.byte() < 200 ? 1 : int32_t(in.byte()) - 1, in.byte() < 200 ? 0.002f * float(in.byte()) : in.real(0.1f));
        } else if (which < 160) {
          int32_t on = 0;
          float thickness = 0.0f;
          r = sb_body_get_self_collision(w, b, in.byte() < 250 ? &on : nullptr, &thickness);
        } else if (which < 200) {  // vertex groups: arbitrary lists and scales
          const int32_t n = sb_body_vertex_count(w, b);
          fill_ints(in.in(-1, 8), n > 0 ? n : 4);
          // The list's own length, or a count the API must refuse before reading (it cannot know a
          // buffer's size, so a count past the list would be the harness's overflow, not the API's).
          const int32_t bad_counts[] = {0, -1, SB_MAX_VERTEX_GROUP + 1, INT32_MIN};
          const int32_t count = in.byte() < 240 ? int32_t(ints.size()) : bad_counts[in.byte() % 4];
          const float mass = in.byte() < 200 ? 0.01f * float(1 + in.byte()) : in.real();
          const float stiffness = in.byte() < 200 ? 0.05f * float(1 + in.byte()) : in.real();
          r = sb_body_set_vertex_scales(w, b, in.byte() < 250 ? ints.data() : nullptr, count, mass, stiffness);
        } else if (which < 215) {
          float mass = 0.0f, stiffness = 0.0f;
          r = sb_body_get_vertex_scales(w, b, in.in(-1, 30), in.byte() < 250 ? &mass : nullptr, &stiffness);
        } else {
          uint32_t group = 0, mask = 0;
          r = sb_body_get_collision_filter(w, b, in.byte() < 250 ? &group : nullptr, &mask);
        }
        break;
      }
    }
    const int32_t code = code_of_call != INT32_MIN ? code_of_call : sb_last_error_code();
    const std::string message = code_of_call != INT32_MIN ? message_of_call : std::string(sb_last_error());
    if (verbose)
      std::fprintf(stderr, "op %d: %s -> %d %s (%.1f ms)\n", op_index, kOpNames[op], r, r < 0 ? message.c_str() : "",
                   std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - op_start).count());
    if (r < 0) {
      if (code != r) violation("returned code differs from sb_last_error_code()", op, r);
      if (message.size() < 10) violation("failure without a message", op, r);
      if (!results_may_change_state && !wrote_buffer && snapshot(s) != before)
        violation("a failed call changed the state", op, r);
    } else if (code != SB_OK && op != 28 && op != 43 && op != 15) {
      violation("success left an error code", op, code);
    }
    (void)pointer;
  }
  // Leave nothing behind for the next input (handles and generations persist, as in a long-lived page).
  for (sb_world w : s.worlds) sb_world_destroy(w);
  for (sb_tetra j : s.jobs) sb_tetra_destroy(j);
  return 0;
}
