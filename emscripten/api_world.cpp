// C API: worlds, errors, stepping.
#include <cmath>

#include "api_state.h"

using namespace sbapi;

extern "C" {

const char* sb_last_error(void) { return sbapi::message(); }
int32_t sb_last_error_code(void) { return sbapi::code(); }

const char* sb_error_name(int32_t code) {
  switch (code) {
    case SB_OK: return "SB_OK";
    case SB_ERR_INVALID_WORLD: return "SB_ERR_INVALID_WORLD";
    case SB_ERR_INVALID_BODY: return "SB_ERR_INVALID_BODY";
    case SB_ERR_NULL_POINTER: return "SB_ERR_NULL_POINTER";
    case SB_ERR_BAD_COUNT: return "SB_ERR_BAD_COUNT";
    case SB_ERR_INDEX_OUT_OF_RANGE: return "SB_ERR_INDEX_OUT_OF_RANGE";
    case SB_ERR_NOT_FINITE: return "SB_ERR_NOT_FINITE";
    case SB_ERR_DEGENERATE_TET: return "SB_ERR_DEGENERATE_TET";
    case SB_ERR_INVERTED_TET: return "SB_ERR_INVERTED_TET";
    case SB_ERR_UNUSED_VERTEX: return "SB_ERR_UNUSED_VERTEX";
    case SB_ERR_OUT_OF_RANGE: return "SB_ERR_OUT_OF_RANGE";
    case SB_ERR_UNKNOWN_PARAM: return "SB_ERR_UNKNOWN_PARAM";
    case SB_ERR_LIMIT: return "SB_ERR_LIMIT";
    case SB_ERR_DIVERGED: return "SB_ERR_DIVERGED";
    case SB_ERR_NOT_GRABBING: return "SB_ERR_NOT_GRABBING";
    case SB_ERR_UNKNOWN_SOLVER: return "SB_ERR_UNKNOWN_SOLVER";
    case SB_ERR_NEEDS_COMPLIANCE: return "SB_ERR_NEEDS_COMPLIANCE";
    case SB_ERR_EMPTY_MESH: return "SB_ERR_EMPTY_MESH";
    case SB_ERR_FLAT_MESH: return "SB_ERR_FLAT_MESH";
    case SB_ERR_NO_INSIDE_TETS: return "SB_ERR_NO_INSIDE_TETS";
    case SB_ERR_TOO_LARGE: return "SB_ERR_TOO_LARGE";
    case SB_ERR_INVALID_TETRA: return "SB_ERR_INVALID_TETRA";
    case SB_ERR_NOT_READY: return "SB_ERR_NOT_READY";
    case SB_ERR_INVALID_COLLIDER: return "SB_ERR_INVALID_COLLIDER";
    case SB_ERR_MATERIAL_SOLVER: return "SB_ERR_MATERIAL_SOLVER";
    case SB_ERR_DEGENERATE_TRIANGLE: return "SB_ERR_DEGENERATE_TRIANGLE";
    case SB_ERR_NON_MANIFOLD: return "SB_ERR_NON_MANIFOLD";
    case SB_ERR_NOT_CLOTH: return "SB_ERR_NOT_CLOTH";
    default: return "SB_ERR_UNKNOWN_CODE";
  }
}

sb_world sb_world_create(void) {
  clear_error();
  return add_world();
}

int32_t sb_world_destroy(sb_world world) {
  clear_error();
  return remove_world(world) ? SB_OK : sb_last_error_code();
}

int32_t sb_world_set_gravity(sb_world world, float x, float y, float z) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (!check_range(x, -SB_MAX_GRAVITY, SB_MAX_GRAVITY, "gravity x (m/s^2)") ||
      !check_range(y, -SB_MAX_GRAVITY, SB_MAX_GRAVITY, "gravity y (m/s^2)") ||
      !check_range(z, -SB_MAX_GRAVITY, SB_MAX_GRAVITY, "gravity z (m/s^2)"))
    return sb_last_error_code();
  w->settings.gravity[0] = x;
  w->settings.gravity[1] = y;
  w->settings.gravity[2] = z;
  w->wake_all();
  return SB_OK;
}

int32_t sb_world_set_wind(sb_world world, float x, float y, float z, float gust, float gust_period) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (!check_range(x, -SB_MAX_WIND, SB_MAX_WIND, "wind x (m/s)") || !check_range(y, -SB_MAX_WIND, SB_MAX_WIND, "wind y (m/s)") ||
      !check_range(z, -SB_MAX_WIND, SB_MAX_WIND, "wind z (m/s)") || !check_range(gust, 0.0f, 1.0f, "gust") ||
      !check_range(gust_period, 0.1f, 100.0f, "gust period (s)"))
    return sb_last_error_code();
  w->settings.wind[0] = x;
  w->settings.wind[1] = y;
  w->settings.wind[2] = z;
  w->settings.wind_gust = gust;
  w->settings.wind_gust_period = gust_period;
  w->wake_all();
  return SB_OK;
}

int32_t sb_world_set_substeps(sb_world world, int32_t substeps) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (substeps < SB_MIN_SUBSTEPS || substeps > SB_MAX_SUBSTEPS)
    return fail(SB_ERR_OUT_OF_RANGE, "substeps must be in [%d, %d], got %d", SB_MIN_SUBSTEPS, SB_MAX_SUBSTEPS,
                substeps);
  if (check_xpbd_range(*w, w->last_dt(), substeps, "substeps") != SB_OK) return sb_last_error_code();
  w->settings.substeps = substeps;
  return SB_OK;
}

int32_t sb_world_get_substeps(sb_world world) {
  clear_error();
  sb::World* w = find_world(world);
  return w ? w->settings.substeps : sb_last_error_code();
}

int32_t sb_world_set_ground(sb_world world, int32_t enabled) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (enabled != 0 && enabled != 1) return fail(SB_ERR_OUT_OF_RANGE, "ground must be 0 or 1, got %d", enabled);
  w->settings.ground = enabled == 1;
  w->wake_all();
  return SB_OK;
}

int32_t sb_world_set_sleep(sb_world world, float speed, float seconds) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (!check_range(speed, 0.0f, SB_MAX_SLEEP_SPEED, "sleep speed (m/s)") ||
      !check_range(seconds, SB_MIN_SLEEP_SECONDS, SB_MAX_SLEEP_SECONDS, "sleep time (s)"))
    return sb_last_error_code();
  w->settings.sleep_speed = speed;
  w->settings.sleep_seconds = seconds;
  w->wake_all();  // quiet times start again under the new rule
  return SB_OK;
}

int32_t sb_max_threads(void) {
  if (!sb::WorkerPool::available()) return 1;
#ifdef SB_WASM_THREAD_POOL_SIZE
  // Emscripten starts pthreads synchronously only from its pre-started pool: one more would wait for
  // a worker to load, which needs the main thread's event loop that the step is blocking.
  return SB_WASM_THREAD_POOL_SIZE + 1 < SB_MAX_THREADS ? SB_WASM_THREAD_POOL_SIZE + 1 : SB_MAX_THREADS;
#else
  return SB_MAX_THREADS;
#endif
}

int32_t sb_world_set_threads(sb_world world, int32_t threads) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  const int32_t most = sb_max_threads();
  if (threads < 1 || threads > most) {
    if (most == 1)
      return fail(SB_ERR_OUT_OF_RANGE, "threads must be 1 in this build, which has no threads (got %d); the -mt build "
                  "runs more", threads);
    return fail(SB_ERR_OUT_OF_RANGE, "threads must be in [1, %d], got %d", most, threads);
  }
  if (!w->set_threads(threads)) return fail(SB_ERR_LIMIT, "the system refused to start %d threads", threads);
  return SB_OK;
}

int32_t sb_world_get_threads(sb_world world) {
  clear_error();
  sb::World* w = find_world(world);
  return w ? w->threads() : sb_last_error_code();
}

int32_t sb_world_body_count(sb_world world) {
  clear_error();
  sb::World* w = find_world(world);
  return w ? int32_t(w->body_count()) : sb_last_error_code();
}

int32_t sb_world_step(sb_world world, float dt) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (!check_finite(dt, "dt (s)")) return sb_last_error_code();
  // A minimum, not just dt > 0: at 1e-30 s the substep's h^2 underflows to 0 and a resting XPBD body's
  // alpha / h^2 becomes 0 / 0, which used to be reported as a divergence ("lower the time step").
  if (!(dt >= SB_MIN_DT) || dt > SB_MAX_DT)
    return fail(SB_ERR_OUT_OF_RANGE, "dt must be in [%g, %g] s, got %g", double(SB_MIN_DT), double(SB_MAX_DT),
                double(dt));
  // Checked every step (O(1) per body): dt is only known here, and plastic flow changes rest shapes.
  if (check_xpbd_range(*w, dt, w->settings.substeps, "the step (nothing moved)") != SB_OK) return sb_last_error_code();
  sb::BodyHandle first;
  const int diverged = w->step(dt, &first);
  if (diverged > 0)
    return fail(SB_ERR_DIVERGED,
                "%d body(ies) diverged (non-finite, or stretched past 100 times their size) at t = %.3f s "
                "(first: body %d); frozen at the last sane shape until reset. Lower the time step or raise compliance.",
                diverged, w->time(), encode_body(first));
  return SB_OK;
}

int32_t sb_world_get_contact_stats(sb_world world, sb_world_contact_stats* out) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (!out) return fail(SB_ERR_NULL_POINTER, "out is NULL");
  const sb::World::ContactReport& r = w->contact_report();
  out->candidates = r.candidates;
  out->contacts = r.contacts;
  out->gather_ms = float(r.gather_ms);
  out->solve_ms = float(r.solve_ms);
  out->broad_ms = float(r.broad_ms);
  out->collider_candidates = r.colliders.particles;
  out->collider_faces = r.colliders.faces;
  out->collider_tested = r.colliders.tested;
  out->collider_gather_ms = float(r.colliders.gather_ms);
  out->collider_solve_ms = float(r.colliders.solve_ms);
  out->edge_pairs = r.edge_pairs;
  out->edge_ms = float(r.edge_ms);
  out->bound_ms = float(r.bound_ms);
  return SB_OK;
}

double sb_world_time(sb_world world) {
  clear_error();
  sb::World* w = find_world(world);
  return w ? w->time() : NAN;
}

}  // extern "C"
