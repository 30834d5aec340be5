// C API: bodies. Every entry point validates everything first and only then touches the world.
#include <algorithm>
#include <cmath>
#include <vector>
#include <cstddef>

#include "shapes/shapes.h"
#include "api_state.h"

using namespace sbapi;

namespace {

int32_t add_mesh(sb::World* w, const sb::TetMesh& mesh) {
  if (w->body_count() >= SB_MAX_BODIES_PER_WORLD)
    return fail(SB_ERR_LIMIT, "world already holds %d bodies (SB_MAX_BODIES_PER_WORLD)", SB_MAX_BODIES_PER_WORLD);
  if (!w->can_add_body())
    return fail(SB_ERR_LIMIT, "every body handle of this world has been used (%u slots x %u bodies each); create a new world",
                sb::World::kMaxSlots, sb::World::kMaxGeneration);
  return encode_body(w->add_body(mesh, sb::BodyParams{}));
}

// squash/press refused: the body's positions would not be finite after it.
int32_t not_finite_squash(sb_body body) {
  return fail(SB_ERR_NOT_FINITE,
              "body %d: squashing its positions gives values that are not finite (NaN or huge values written "
              "into its position buffer?); nothing changed",
              body);
}

int32_t mesh_error(const sb::MeshCheck& c) {
  const long long i = c.index;
  switch (c.problem) {
    case sb::MeshProblem::None: return SB_OK;
    case sb::MeshProblem::NonFiniteVertex:
      return fail(SB_ERR_NOT_FINITE, "vertex %lld has a NaN or infinite coordinate", i);
    case sb::MeshProblem::IndexOutOfRange:
      return fail(SB_ERR_INDEX_OUT_OF_RANGE, "tet %lld refers to a vertex index >= vertex_count", i);
    case sb::MeshProblem::RepeatedIndex:
      return fail(SB_ERR_DEGENERATE_TET, "tet %lld uses the same vertex twice", i);
    case sb::MeshProblem::DegenerateTet:
      return fail(SB_ERR_DEGENERATE_TET, "tet %lld is flat (|6V| <= %g x longest edge^3)", i,
                  sb::kDegenerateRelVolume);
    case sb::MeshProblem::TinyTet:
      return fail(SB_ERR_DEGENERATE_TET, "tet %lld is too small: its longest edge is below %g m (SB_MIN_TET_EDGE)", i,
                  double(SB_MIN_TET_EDGE));
    case sb::MeshProblem::InvertedTet:
      return fail(SB_ERR_INVERTED_TET,
                  "tet %lld has negative volume: order its vertices so ((x1-x0) x (x2-x0)) . (x3-x0) > 0", i);
    case sb::MeshProblem::UnusedVertex:
      return fail(SB_ERR_UNUSED_VERTEX, "vertex %lld belongs to no tet and would have no mass", i);
  }
  return fail(SB_ERR_OUT_OF_RANGE, "unknown mesh problem");
}

bool check_point(float x, float y, float z, const char* what) {
  return check_range(x, -SB_MAX_COORDINATE, SB_MAX_COORDINATE, what) &&
         check_range(y, -SB_MAX_COORDINATE, SB_MAX_COORDINATE, what) &&
         check_range(z, -SB_MAX_COORDINATE, SB_MAX_COORDINATE, what);
}

struct ParamInfo {
  const char* name;
  float lo, hi;
  float sb::BodyParams::*field;
};
const ParamInfo kParams[SB_PARAM_COUNT] = {
    {"edge compliance (m/N)", 0.0f, 10.0f, &sb::BodyParams::edge_compliance},
    {"volume compliance (m^5/N)", 0.0f, 10.0f, &sb::BodyParams::volume_compliance},
    {"density (kg/m^3)", 1.0f, 1e5f, &sb::BodyParams::density},
    {"damping (1/s)", 0.0f, 1000.0f, &sb::BodyParams::damping},
    {"restitution", 0.0f, 1.0f, &sb::BodyParams::restitution},
    {"friction", 0.0f, 10.0f, &sb::BodyParams::friction},
    {"grab compliance (m/N)", 0.0f, 10.0f, &sb::BodyParams::grab_compliance},
    {"grab radius (m)", 0.0f, 10.0f, &sb::BodyParams::grab_radius},
    {"spring damping (N s/m)", 0.0f, 1e4f, &sb::BodyParams::spring_damping},
    {"PBD stiffness", 0.0f, 1.0f, &sb::BodyParams::pbd_stiffness},
    {"pressure nRT (J)", 0.0f, 1e7f, &sb::BodyParams::pressure},
    {"iterations", 1.0f, 100.0f, nullptr},  // whole passes per substep, handled by set_param/get_param
    {"material", 0.0f, 1.0f, nullptr},      // sb_material, handled by set_param/get_param
    {"Young's modulus (Pa)", 1.0f, 1e12f, &sb::BodyParams::youngs_modulus},
    {"Poisson's ratio", 0.0f, 0.499f, &sb::BodyParams::poisson_ratio},
    {"plastic yield strain", 0.0f, 10.0f, &sb::BodyParams::plastic_yield},
    {"plastic creep rate (1/s)", 0.0f, 1000.0f, &sb::BodyParams::plastic_creep},
    {"areal density (kg/m^2)", 1e-4f, 1e3f, &sb::BodyParams::areal_density},
    {"bending stiffness (N m)", 0.0f, 1e3f, &sb::BodyParams::bending_stiffness},
    {"thickness (m)", 0.0f, 0.1f, &sb::BodyParams::thickness},
    {"stiffness target", 0.0f, 0.999f, &sb::BodyParams::stiffness_target},
    {"max iterations", 1.0f, 100.0f, nullptr},  // whole passes per substep, handled by set_param/get_param
    {"long-range stretch", 0.0f, 10.0f, &sb::BodyParams::long_range_stretch},
    {"drag coefficient", 0.0f, 10.0f, &sb::BodyParams::drag_coefficient},
    {"lift coefficient", 0.0f, 10.0f, &sb::BodyParams::lift_coefficient},
    {nullptr, 0.0f, 0.0f, nullptr},  // 25: reserved
    {"tear strain", 0.0f, 10.0f, &sb::BodyParams::tear_strain},
    {"strain smoothing", 0.0f, 1.0f, &sb::BodyParams::strain_smoothing},
};

// The Neo-Hookean material runs under every solver but PBD (which has no compliance, so no material);
// under XPBD within a stiffness number per substep (check_xpbd_range).
bool material_solver_ok(sb::Solver s) { return s != sb::Solver::Pbd; }

// Strain smoothing (core/solver/strain_smoothing.h) is in the force-based solvers' and the static
// solver's energy; XPBD, VBD and PBD solve per tet or per vertex and do not have it.
bool smoothing_solver_ok(sb::Solver s) { return sb::is_force_based(s); }

bool check_param(int32_t param) {
  if (param >= 0 && param < SB_PARAM_COUNT && kParams[param].name) return true;
  fail(SB_ERR_UNKNOWN_PARAM, "param %d is not an sb_param (0..%d)", param, SB_PARAM_COUNT - 1);
  return false;
}

bool check_vertex(const sb::SoftBody* b, int32_t vertex) {
  if (vertex >= 0 && uint32_t(vertex) < b->vertex_count()) return true;
  fail(SB_ERR_INDEX_OUT_OF_RANGE, "vertex %d is out of range [0, %u)", vertex, b->vertex_count());
  return false;
}

}  // namespace

extern "C" {

sb_body sb_body_create_tets(sb_world world, const float* xyz, int32_t vertex_count, const uint32_t* tets,
                            int32_t tet_count) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (!xyz || !tets) return fail(SB_ERR_NULL_POINTER, "%s is NULL", !xyz ? "xyz" : "tets");
  if (vertex_count < 4 || vertex_count > SB_MAX_VERTICES)
    return fail(SB_ERR_BAD_COUNT, "vertex_count must be in [4, %d], got %d", SB_MAX_VERTICES, vertex_count);
  if (tet_count < 1 || tet_count > SB_MAX_TETS)
    return fail(SB_ERR_BAD_COUNT, "tet_count must be in [1, %d], got %d", SB_MAX_TETS, tet_count);
  const sb::MeshCheck check = sb::check_tet_mesh(xyz, vertex_count, tets, tet_count);
  if (check.problem != sb::MeshProblem::None) return mesh_error(check);
  sb::TetMesh mesh;
  mesh.positions.assign(xyz, xyz + 3 * size_t(vertex_count));
  mesh.tets.assign(tets, tets + 4 * size_t(tet_count));
  return add_mesh(w, mesh);
}

sb_body sb_body_create_box(sb_world world, int32_t nx, int32_t ny, int32_t nz, float size_x, float size_y,
                           float size_z, float center_x, float center_y, float center_z) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  for (int32_t n : {nx, ny, nz})
    if (n < 1 || n > 128) return fail(SB_ERR_BAD_COUNT, "box cells per side must be in [1, 128], got %d", n);
  if (6LL * nx * ny * nz > SB_MAX_TETS)
    return fail(SB_ERR_BAD_COUNT, "box of %dx%dx%d cells has %lld tets, more than %d", nx, ny, nz,
                6LL * nx * ny * nz, SB_MAX_TETS);
  if (!check_range(size_x, 1e-4f, 1000.0f, "box size x (m)") || !check_range(size_y, 1e-4f, 1000.0f, "box size y (m)") ||
      !check_range(size_z, 1e-4f, 1000.0f, "box size z (m)") || !check_point(center_x, center_y, center_z, "box centre (m)"))
    return sb_last_error_code();
  return add_mesh(w, sb::make_box(nx, ny, nz, size_x, size_y, size_z, center_x, center_y, center_z));
}

sb_body sb_body_create_ball(sb_world world, float radius, int32_t cells, float center_x, float center_y,
                            float center_z) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (cells < 2 || cells > 64) return fail(SB_ERR_BAD_COUNT, "ball cells must be in [2, 64], got %d", cells);
  if (!check_range(radius, 1e-4f, 1000.0f, "ball radius (m)") || !check_point(center_x, center_y, center_z, "ball centre (m)"))
    return sb_last_error_code();
  return add_mesh(w, sb::make_ball(radius, cells, center_x, center_y, center_z));
}

sb_body sb_body_create_rope(sb_world world, int32_t segments, float length, float anchor_x, float anchor_y,
                            float anchor_z) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (segments < 1 || segments > 10000)
    return fail(SB_ERR_BAD_COUNT, "rope segments must be in [1, 10000], got %d", segments);
  if (!check_range(length, 1e-3f, 1000.0f, "rope length (m)") || !check_point(anchor_x, anchor_y, anchor_z, "rope anchor (m)"))
    return sb_last_error_code();
  const int32_t handle = add_mesh(w, sb::make_rope(segments, length, 0.02f, anchor_x, anchor_y, anchor_z));
  if (handle > 0) w->body(decode_body(handle))->set_pinned(0, true);
  return handle;
}

sb_body sb_body_create_jelly(sb_world world, int32_t cells, float size, float center_x, float center_y,
                             float center_z) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (cells < 1 || cells > 64) return fail(SB_ERR_BAD_COUNT, "jelly cells must be in [1, 64], got %d", cells);
  if (!check_range(size, 1e-4f, 1000.0f, "jelly size (m)") || !check_point(center_x, center_y, center_z, "jelly centre (m)"))
    return sb_last_error_code();
  return add_mesh(w, sb::make_jelly(cells, size, center_x, center_y, center_z));
}

sb_body sb_body_create_pressure_ball(sb_world world, float radius, int32_t cells, float center_x, float center_y,
                                     float center_z) {
  clear_error();
  sb::World* w = find_world(world);
  if (!w) return sb_last_error_code();
  if (cells < 2 || cells > 64) return fail(SB_ERR_BAD_COUNT, "pressure ball cells must be in [2, 64], got %d", cells);
  if (!check_range(radius, 1e-4f, 1000.0f, "pressure ball radius (m)") ||
      !check_point(center_x, center_y, center_z, "pressure ball centre (m)"))
    return sb_last_error_code();
  return add_mesh(w, sb::make_pressure_ball(radius, cells, center_x, center_y, center_z));
}

int32_t sb_body_destroy(sb_world world, sb_body body) {
  clear_error();
  sb::World* w = nullptr;
  if (!find_body(world, body, &w)) return sb_last_error_code();
  w->remove_body(decode_body(body));
  return SB_OK;
}

int32_t sb_body_reset(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  if (!b) return sb_last_error_code();
  b->reset();
  return SB_OK;
}

int32_t sb_body_set_param(sb_world world, sb_body body, int32_t param, float value) {
  clear_error();
  sb::World* w = nullptr;
  sb::SoftBody* b = find_body(world, body, &w);
  if (!b || !check_param(param)) return sb_last_error_code();
  const ParamInfo& info = kParams[param];
  if (param == SB_PARAM_POISSON_RATIO && value >= 0.5f && std::isfinite(value))
    return fail(SB_ERR_OUT_OF_RANGE, "Poisson's ratio %g: 0.5 is a perfectly incompressible material (infinite "
                "bulk stiffness) and above it none exists; use 0.49 for a nearly incompressible one like rubber "
                "(range [0, 0.499])", double(value));
  if (!check_range(value, info.lo, info.hi, info.name)) return sb_last_error_code();
  const sb::BodyParams old = b->params();
  sb::BodyParams p = old;
  if (param == SB_PARAM_STIFFNESS_TARGET && value > 0.0f && value < 0.01f)
    return fail(SB_ERR_OUT_OF_RANGE, "stiffness target %g: 0 turns the target off, otherwise it is a fraction of the "
                "material's stiffness in [0.01, 0.999] (0.95: the body sags at most about 1/0.95 of the static answer)",
                double(value));
  // Below 1 % strain an edge would break under its own sag: a sheet that tears where it hangs.
  if (param == SB_PARAM_TEAR_STRAIN && value > 0.0f && value < 0.01f)
    return fail(SB_ERR_OUT_OF_RANGE, "tear strain %g: 0 turns tearing off, otherwise it is the strain (l - l0) / l0 "
                "an edge breaks at, in [0.01, 10] (0.3: 30 %% longer than at rest)", double(value));
  if (param == SB_PARAM_ITERATIONS || param == SB_PARAM_MATERIAL || param == SB_PARAM_MAX_ITERATIONS) {
    if (value != std::floor(value))
      return fail(SB_ERR_OUT_OF_RANGE, "%s must be a whole number, got %g", info.name, double(value));
    if (param == SB_PARAM_ITERATIONS) p.iterations = int32_t(value);
    else if (param == SB_PARAM_MAX_ITERATIONS) p.max_iterations = int32_t(value);
    else {
      const bool nh = value == float(SB_MATERIAL_NEO_HOOKEAN);
      if (nh && b->tet_count() == 0)
        return fail(SB_ERR_OUT_OF_RANGE, "the Neo-Hookean material acts on tets and this body has none (a rope, "
                    "jelly or pressure ball is springs only); it keeps SB_MATERIAL_SIMPLE");
      if (!nh && b->params().strain_smoothing > 0.0f)
        return fail(SB_ERR_OUT_OF_RANGE, "strain smoothing acts on the Neo-Hookean material only; set "
                    "SB_PARAM_STRAIN_SMOOTHING to 0 first (the body keeps SB_MATERIAL_NEO_HOOKEAN)");
      if (nh && !material_solver_ok(b->solver()))
        return fail(SB_ERR_MATERIAL_SOLVER, "the Neo-Hookean material needs XPBD, VBD or a force-based solver, not "
                    "PBD (PBD has no compliance, so no material); switch the solver first");
      p.material = nh ? sb::Material::NeoHookean : sb::Material::Simple;
    }
  } else {
    if (param == SB_PARAM_STRAIN_SMOOTHING && value > 0.0f) {
      if (old.material != sb::Material::NeoHookean)
        return fail(SB_ERR_OUT_OF_RANGE, "strain smoothing averages the Neo-Hookean material's deformation "
                    "gradients (the simple material has none); set SB_PARAM_MATERIAL to SB_MATERIAL_NEO_HOOKEAN "
                    "first; it stays 0");
      if (!smoothing_solver_ok(b->solver()))
        return fail(SB_ERR_MATERIAL_SOLVER, "strain smoothing runs under the force-based solvers (and "
                    "sb_body_solve_static), not XPBD, VBD or PBD (they solve per tet or per vertex); switch the "
                    "solver first (implicit Euler: SB_SOLVER_IMPLICIT_EULER); it stays 0");
    }
    if (param == SB_PARAM_PLASTIC_CREEP && value > 0.0f && b->tet_count() == 0)
      return fail(SB_ERR_OUT_OF_RANGE, "plasticity flows the rest shapes of tets and this body has none (a rope, "
                  "jelly or pressure ball is springs only); its creep rate stays 0");
    p.*info.field = value;
  }
  if (!b->set_params(p)) {
    if (param == SB_PARAM_MATERIAL)
      return fail(SB_ERR_NEEDS_COMPLIANCE, "the simple material needs edge and volume compliance > 0 under a "
                  "force-based solver or VBD (stiffness = 1/compliance); set them first");
    return fail(SB_ERR_NEEDS_COMPLIANCE, "%s cannot be 0 under a force-based solver or VBD (stiffness = 1/compliance); "
                "switch to XPBD or PBD first", info.name);
  }
  // The material, E, nu and density all move XPBD's Neo-Hookean stiffness number: undone past its limit.
  if (check_xpbd_body(*w, body, *b, info.name) != SB_OK) {
    const int32_t code = sb_last_error_code();
    b->set_params(old);
    return code;
  }
  return SB_OK;
}

float sb_body_get_param(sb_world world, sb_body body, int32_t param) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  if (!b || !check_param(param)) return NAN;
  if (param == SB_PARAM_ITERATIONS) return float(b->params().iterations);
  if (param == SB_PARAM_MAX_ITERATIONS) return float(b->params().max_iterations);
  if (param == SB_PARAM_MATERIAL) return float(b->params().material);
  return b->params().*kParams[param].field;
}

int32_t sb_body_pin(sb_world world, sb_body body, int32_t vertex, int32_t pinned) {
  clear_error();
  sb::World* w = nullptr;
  sb::SoftBody* b = find_body(world, body, &w);
  if (!b || !check_vertex(b, vertex)) return sb_last_error_code();
  if (pinned != 0 && pinned != 1) return fail(SB_ERR_OUT_OF_RANGE, "pinned must be 0 or 1, got %d", pinned);
  const bool was = b->pinned(uint32_t(vertex));
  b->set_pinned(uint32_t(vertex), pinned == 1);
  if (check_xpbd_body(*w, body, *b, "unpinning") != SB_OK) {  // a freed vertex can raise the stiffness number
    const int32_t code = sb_last_error_code();
    b->set_pinned(uint32_t(vertex), was);
    return code;
  }
  return SB_OK;
}

int32_t sb_body_set_vertex_scales(sb_world world, sb_body body, const uint32_t* vertices, int32_t count,
                                  float mass_scale, float stiffness_scale) {
  clear_error();
  sb::World* w = nullptr;
  sb::SoftBody* b = find_body(world, body, &w);
  if (!b) return sb_last_error_code();
  if (count < 1 || count > SB_MAX_VERTEX_GROUP)
    return fail(SB_ERR_BAD_COUNT, "a vertex group has 1 to %d vertices, got %d", SB_MAX_VERTEX_GROUP, count);
  if (!vertices) return fail(SB_ERR_NULL_POINTER, "vertices is NULL");
  if (!check_range(mass_scale, SB_MIN_VERTEX_SCALE, SB_MAX_VERTEX_SCALE, "mass scale") ||
      !check_range(stiffness_scale, SB_MIN_VERTEX_SCALE, SB_MAX_VERTEX_SCALE, "stiffness scale"))
    return sb_last_error_code();
  // Every index first: a bad one changes nothing.
  for (int32_t k = 0; k < count; ++k)
    if (vertices[k] >= b->vertex_count())
      return fail(SB_ERR_INDEX_OUT_OF_RANGE, "vertices[%d] = %u is out of range [0, %u)", k, vertices[k], b->vertex_count());
  // Lighter vertices raise XPBD's Neo-Hookean stiffness number: the old scales come back past its limit.
  std::vector<float> old_mass(static_cast<size_t>(count)), old_stiffness(static_cast<size_t>(count));
  for (int32_t k = 0; k < count; ++k) {
    old_mass[k] = b->vertex_mass_scale(vertices[k]);
    old_stiffness[k] = b->vertex_stiffness_scale(vertices[k]);
  }
  b->set_vertex_scales(vertices, uint32_t(count), mass_scale, stiffness_scale);
  if (check_xpbd_body(*w, body, *b, "the vertex scales") != SB_OK) {
    const int32_t code = sb_last_error_code();
    // In reverse, so a vertex listed twice gets the scale it had before the call.
    std::reverse(old_mass.begin(), old_mass.end());
    std::reverse(old_stiffness.begin(), old_stiffness.end());
    std::vector<uint32_t> listed(vertices, vertices + count);
    std::reverse(listed.begin(), listed.end());
    b->set_vertex_scales_each(listed.data(), uint32_t(count), old_mass.data(), old_stiffness.data());
    return code;
  }
  return SB_OK;
}

int32_t sb_body_get_vertex_scales(sb_world world, sb_body body, int32_t vertex, float* mass_scale,
                                  float* stiffness_scale) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  if (!b || !check_vertex(b, vertex)) return sb_last_error_code();
  if (mass_scale) *mass_scale = b->vertex_mass_scale(uint32_t(vertex));
  if (stiffness_scale) *stiffness_scale = b->vertex_stiffness_scale(uint32_t(vertex));
  return SB_OK;
}

int32_t sb_body_set_solver(sb_world world, sb_body body, int32_t solver) {
  clear_error();
  sb::World* w = nullptr;
  sb::SoftBody* b = find_body(world, body, &w);
  if (!b) return sb_last_error_code();
  if (solver < 0 || solver >= sb::kSolverCount)
    return fail(SB_ERR_UNKNOWN_SOLVER, "solver %d is not an sb_solver (0..%d)", solver, sb::kSolverCount - 1);
  if (b->params().strain_smoothing > 0.0f && !smoothing_solver_ok(sb::Solver(solver)))
    return fail(SB_ERR_MATERIAL_SOLVER, "body %d has strain smoothing %g, which runs under the force-based solvers "
                "only (XPBD, VBD and PBD solve per tet or per vertex); set SB_PARAM_STRAIN_SMOOTHING to 0 first; "
                "it keeps its solver", body, double(b->params().strain_smoothing));
  if (b->params().material == sb::Material::NeoHookean && !material_solver_ok(sb::Solver(solver)))
    return fail(SB_ERR_MATERIAL_SOLVER, "PBD cannot run the Neo-Hookean material (it has no compliance, so no "
                "material): set SB_PARAM_MATERIAL to SB_MATERIAL_SIMPLE first, or use XPBD or VBD");
  // XPBD's Neo-Hookean limit, checked before switching where it can be (the switch itself restarts
  // a force-based solver's history, so undoing it would not give back the same state); after it
  // too, since grabbed vertices are kinematic only under force-based solvers.
  if (solver == SB_SOLVER_XPBD && b->solver() != sb::Solver::Xpbd &&
      check_xpbd_body(*w, body, *b, "the solver", /*assume_xpbd=*/true) != SB_OK)
    return sb_last_error_code();
  const sb::Solver old = b->solver();
  if (!b->set_solver(sb::Solver(solver)))
    return fail(SB_ERR_NEEDS_COMPLIANCE,
                "force-based solvers and VBD need edge and volume compliance > 0 (stiffness = 1/compliance); set them first");
  if (check_xpbd_body(*w, body, *b, "the solver") != SB_OK) {
    const int32_t code = sb_last_error_code();
    b->set_solver(old);
    return code;
  }
  return SB_OK;
}

int32_t sb_body_get_solver(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  return b ? int32_t(b->solver()) : sb_last_error_code();
}

int32_t sb_body_squash(sb_world world, sb_body body, float factor) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  if (!b || !check_range(factor, 0.05f, 1.0f, "squash factor")) return sb_last_error_code();
  if (!b->squash(factor)) return not_finite_squash(body);
  return SB_OK;
}

int32_t sb_body_press(sb_world world, sb_body body, float factor, float release_seconds) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  if (!b || !check_range(factor, 0.05f, 1.0f, "press factor") ||
      !check_range(release_seconds, 0.0f, 10.0f, "press release time (s)"))
    return sb_last_error_code();
  if (!b->press(factor, release_seconds)) return not_finite_squash(body);
  return SB_OK;
}

int32_t sb_body_solve_static(sb_world world, sb_body body, float tolerance) {
  clear_error();
  sb::World* w = nullptr;
  sb::SoftBody* b = find_body(world, body, &w);
  if (!b || !check_range(tolerance, 1e-10f, 1e-2f, "static tolerance (unbalanced force / weight)")) return sb_last_error_code();
  if (b->is_cloth())
    return fail(SB_ERR_NOT_CLOTH, "body %d is cloth: the static solver has no bending energy yet; step it with "
                "damping instead", body);
  if (b->diverged()) return fail(SB_ERR_DIVERGED, "body %d is frozen after a divergence; sb_body_reset it first", body);
  const sb::BodyParams& p = b->params();
  if (p.pressure > 0.0f)
    return fail(SB_ERR_OUT_OF_RANGE, "body %d has gas pressure (%g J): the static solver balances elastic forces and gravity "
                "only; set SB_PARAM_PRESSURE to 0", body, double(p.pressure));
  if (!b->neo_hookean() && (p.edge_compliance == 0.0f || (b->tet_count() > 0 && p.volume_compliance == 0.0f)))
    return fail(SB_ERR_NEEDS_COMPLIANCE, "body %d: the simple material needs edge and volume compliance > 0 for a static "
                "solve (stiffness = 1/compliance); nothing changed", body);
  sb::StaticSettings settings;
  settings.tolerance = tolerance;
  const sb::StaticReport r = b->settle_static(w->settings.gravity, settings);
  switch (r.status) {
    case sb::StaticStatus::Converged: return r.newton_iterations;
    case sb::StaticStatus::NoLoad:
      return fail(SB_ERR_OUT_OF_RANGE, "body %d: nothing to balance (gravity is 0 or every vertex is pinned); nothing changed", body);
    case sb::StaticStatus::Unheld:
      return fail(SB_ERR_OUT_OF_RANGE, "body %d: a part of it has no pinned vertex, so under gravity it has no equilibrium (it "
                  "would fall); pin a vertex of every part first; nothing changed", body);
    case sb::StaticStatus::Unsupported:
      return fail(SB_ERR_OUT_OF_RANGE, "body %d: no energy the static solver can minimise; nothing changed", body);
    case sb::StaticStatus::NotConverged: break;
  }
  return fail(SB_ERR_OUT_OF_RANGE, "body %d: the static solve reached an unbalanced force of %g of the weight, not %g, in %d "
              "Newton iterations (a load too large for the mesh?); nothing changed", body, r.relative_residual,
              double(tolerance), r.newton_iterations);
}

float* sb_body_positions(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  return b ? b->positions() : nullptr;
}

int32_t sb_body_vertex_count(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  return b ? int32_t(b->vertex_count()) : sb_last_error_code();
}

const uint32_t* sb_body_triangles(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  // NULL with SB_OK for a body without triangles (a rope): an empty vector's data() is unspecified.
  return b && b->surface_triangle_count() > 0 ? b->surface_triangles() : nullptr;
}

int32_t sb_body_triangle_count(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  return b ? int32_t(b->surface_triangle_count()) : sb_last_error_code();
}

const uint32_t* sb_body_tets(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  return b && b->tet_count() > 0 ? b->tets() : nullptr;  // NULL with SB_OK: no tets (rope, jelly, pressure ball)
}

int32_t sb_body_tet_count(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  return b ? int32_t(b->tet_count()) : sb_last_error_code();
}

const uint32_t* sb_body_edges(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  return b ? b->edges() : nullptr;
}

int32_t sb_body_edge_count(sb_world world, sb_body body) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  return b ? int32_t(b->edge_count()) : sb_last_error_code();
}

// The offsets web/src/softbody.js reads (Body.stats).
static_assert(sizeof(sb_body_stats) == 104, "sb_body_stats is 104 bytes");
static_assert(offsetof(sb_body_stats, kinetic_energy) == 0 && offsetof(sb_body_stats, volume_ratio) == 24 &&
                  offsetof(sb_body_stats, finite) == 64 && offsetof(sb_body_stats, contacts) == 80 &&
                  offsetof(sb_body_stats, residual) == 88 && offsetof(sb_body_stats, stiffness_number) == 92 &&
                  offsetof(sb_body_stats, asleep) == 100,
              "sb_body_stats: 3 doubles, 10 floats, 5 int32, 3 floats, as web/src/softbody.js reads them");
static_assert(SB_XPBD_NEO_HOOKEAN_MAX_STIFFNESS == float(sb::kXpbdNeoHookeanMaxStiffness), "one limit");

int32_t sb_body_get_stats(sb_world world, sb_body body, sb_body_stats* out) {
  clear_error();
  sb::World* w = nullptr;
  sb::SoftBody* b = find_body(world, body, &w);
  if (!b) return sb_last_error_code();
  if (!out) return fail(SB_ERR_NULL_POINTER, "out is NULL");
  const sb::BodyStats s = b->stats(w->settings.gravity);
  out->volume_ratio = float(s.volume_ratio);
  out->kinetic_energy = s.kinetic_energy;
  out->mass = float(s.mass);
  out->min_y = float(s.min_y);
  out->max_edge_strain = float(s.max_edge_strain);
  for (int k = 0; k < 3; ++k) {
    out->center[k] = float(s.center[k]);
    out->momentum[k] = float(s.momentum[k]);
  }
  out->finite = s.finite ? 1 : 0;
  out->grabbed_vertex = b->grabbed_vertex();
  out->elastic_energy = s.elastic_energy;
  out->potential_energy = s.potential_energy;
  out->solver = int32_t(b->solver());
  out->cg_iterations = b->solver() == sb::Solver::ImplicitEuler ? b->last_cg().iterations : 0;
  out->contacts = int32_t(s.contacts);
  out->max_penetration = float(s.max_penetration);
  out->residual = float(s.residual);
  out->stiffness_number = float(s.stiffness_number);
  out->inverted_tets = int32_t(s.inverted_tets);
  out->asleep = s.asleep ? 1 : 0;
  return SB_OK;
}

static_assert(sizeof(sb_convergence) == 16 && offsetof(sb_convergence, status) == 4, "as web/src/convergence.js reads it");
static_assert(int32_t(sb::ConvergenceStatus::BudgetSpent) == SB_CONVERGENCE_BUDGET_SPENT &&
                  int32_t(sb::ConvergenceStatus::Fixed) == SB_CONVERGENCE_FIXED, "one status list");

int32_t sb_body_get_convergence(sb_world world, sb_body body, sb_convergence* out) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  if (!b) return sb_last_error_code();
  if (!out) return fail(SB_ERR_NULL_POINTER, "out is NULL");
  const sb::ConvergenceReport& c = b->convergence();
  out->stiffness_reached = float(c.stiffness_reached);
  out->status = int32_t(c.status);
  out->passes = c.passes;
  out->substeps = c.substeps;
  return SB_OK;
}

int32_t sb_body_set_collision_filter(sb_world world, sb_body body, uint32_t group, uint32_t mask) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  if (!b) return sb_last_error_code();
  b->set_collision_filter(group, mask);
  return SB_OK;
}

int32_t sb_body_get_collision_filter(sb_world world, sb_body body, uint32_t* group, uint32_t* mask) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  if (!b) return sb_last_error_code();
  if (!group || !mask) return fail(SB_ERR_NULL_POINTER, "%s is NULL", !group ? "group" : "mask");
  *group = b->collision_group();
  *mask = b->collision_mask();
  return SB_OK;
}

int32_t sb_body_set_self_collision(sb_world world, sb_body body, int32_t enabled, float thickness) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  if (!b) return sb_last_error_code();
  if (enabled != 0 && enabled != 1) return fail(SB_ERR_OUT_OF_RANGE, "enabled must be 0 or 1, got %d", enabled);
  if (!check_range(thickness, 0.0005f, 0.5f, "self-collision thickness (m)")) return sb_last_error_code();
  b->set_self_collision(enabled == 1, thickness);
  return SB_OK;
}

int32_t sb_body_get_self_collision(sb_world world, sb_body body, int32_t* enabled, float* thickness) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  if (!b) return sb_last_error_code();
  if (!enabled || !thickness) return fail(SB_ERR_NULL_POINTER, "%s is NULL", !enabled ? "enabled" : "thickness");
  *enabled = b->self_collision() ? 1 : 0;
  *thickness = b->self_thickness();
  return SB_OK;
}

int32_t sb_body_nearest_vertex(sb_world world, sb_body body, float x, float y, float z) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  if (!b || !check_point(x, y, z, "point (m)")) return sb_last_error_code();
  const float p[3] = {x, y, z};
  return int32_t(b->nearest_vertex(p));
}

int32_t sb_body_grab_begin(sb_world world, sb_body body, int32_t vertex, float x, float y, float z) {
  clear_error();
  sb::World* w = nullptr;
  sb::SoftBody* b = find_body(world, body, &w);
  if (!b || !check_vertex(b, vertex) || !check_point(x, y, z, "grab target (m)")) return sb_last_error_code();
  if (b->diverged()) return fail(SB_ERR_DIVERGED, "body %d diverged; reset it before grabbing", body);
  float target[3] = {x, y, z};
  w->clamp_target(target);
  b->grab_begin(uint32_t(vertex), target);
  return SB_OK;
}

int32_t sb_body_grab_move(sb_world world, sb_body body, float x, float y, float z) {
  clear_error();
  sb::World* w = nullptr;
  sb::SoftBody* b = find_body(world, body, &w);
  if (!b || !check_point(x, y, z, "grab target (m)")) return sb_last_error_code();
  if (b->grabbed_vertex() < 0) return fail(SB_ERR_NOT_GRABBING, "body %d is not grabbed; call sb_body_grab_begin", body);
  float target[3] = {x, y, z};
  w->clamp_target(target);
  b->grab_move(target);
  return SB_OK;
}

int32_t sb_body_grab_end(sb_world world, sb_body body, float vx, float vy, float vz) {
  clear_error();
  sb::SoftBody* b = find_body(world, body);
  if (!b) return sb_last_error_code();
  if (!check_range(vx, -SB_MAX_SPEED, SB_MAX_SPEED, "release velocity x (m/s)") ||
      !check_range(vy, -SB_MAX_SPEED, SB_MAX_SPEED, "release velocity y (m/s)") ||
      !check_range(vz, -SB_MAX_SPEED, SB_MAX_SPEED, "release velocity z (m/s)"))
    return sb_last_error_code();
  if (b->grabbed_vertex() < 0) return fail(SB_ERR_NOT_GRABBING, "body %d is not grabbed", body);
  const float v[3] = {vx, vy, vz};
  b->grab_end(v);
  return SB_OK;
}

}  // extern "C"
