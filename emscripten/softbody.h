/* softbody C API: flat functions over integer handles, compiled to WebAssembly and natively alike.
 *
 * Conventions
 * - Handles are positive int32 values; 0 is never a valid handle. A destroyed handle stays invalid
 *   (slots carry a generation), so a stale handle gets SB_ERR_INVALID_WORLD/BODY, never another object.
 * - Every function returning int32_t returns a value >= 0 on success (SB_OK, a handle, a count or an
 *   index) and a negative sb_error on failure. Pointer getters return NULL and float getters NaN on
 *   failure. After any failure sb_last_error() holds a readable message; a failed call changes nothing.
 * - Bulk data is shared, not copied: positions are float32 xyz in wasm memory, updated in place by
 *   sb_world_step. Pointers stay valid until the body is destroyed (JS views must still be rebuilt
 *   when wasm memory grows).
 * - Units: m, kg, s, N. Ranges are inclusive unless written with ( or ).
 */
#ifndef SOFTBODY_H
#define SOFTBODY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t sb_world;
typedef int32_t sb_body;
typedef int32_t sb_tetra; /* a tetrahedralization job */
typedef int32_t sb_collider; /* an obstacle in a world */

typedef enum sb_error {
  SB_OK = 0,
  SB_ERR_INVALID_WORLD = -1,       /* 0, unknown or destroyed world handle */
  SB_ERR_INVALID_BODY = -2,        /* 0, unknown or destroyed body handle */
  SB_ERR_NULL_POINTER = -3,        /* a required array pointer is NULL */
  SB_ERR_BAD_COUNT = -4,           /* a count is <= 0 or above its limit */
  SB_ERR_INDEX_OUT_OF_RANGE = -5,  /* a vertex index is >= the vertex count */
  SB_ERR_NOT_FINITE = -6,          /* a coordinate or parameter is NaN or infinite */
  SB_ERR_DEGENERATE_TET = -7,      /* a tet is flat or repeats a vertex */
  SB_ERR_INVERTED_TET = -8,        /* a tet has negative volume (mirrored vertex order) */
  SB_ERR_UNUSED_VERTEX = -9,       /* a vertex belongs to no tet, so it would have no mass */
  SB_ERR_OUT_OF_RANGE = -10,       /* a parameter is outside its documented range */
  SB_ERR_UNKNOWN_PARAM = -11,      /* not an sb_param value */
  SB_ERR_LIMIT = -12,              /* too many worlds or bodies alive */
  SB_ERR_DIVERGED = -13,           /* a body's state went non-finite or blew up; it is frozen until reset */
  SB_ERR_NOT_GRABBING = -14,       /* grab_move/grab_end without grab_begin */
  SB_ERR_UNKNOWN_SOLVER = -15,     /* not an sb_solver value */
  SB_ERR_NEEDS_COMPLIANCE = -16,   /* force-based solvers need compliance > 0 (finite stiffness 1/compliance) */
  SB_ERR_EMPTY_MESH = -17,         /* a surface with no usable triangle: every face repeats a vertex or has zero area */
  SB_ERR_FLAT_MESH = -18,          /* a surface that encloses no volume (all points in one plane, or zero volume) */
  SB_ERR_NO_INSIDE_TETS = -19,     /* tetrahedralization kept no tet inside the surface */
  SB_ERR_TOO_LARGE = -20,          /* input above SB_TETRA_MAX_* */
  SB_ERR_INVALID_TETRA = -21,      /* 0, unknown or destroyed tetrahedralization handle */
  SB_ERR_NOT_READY = -22,          /* tetrahedralization results asked for before sb_tetra_run finished */
  SB_ERR_INVALID_COLLIDER = -23,   /* 0, unknown or destroyed collider handle */
  SB_ERR_MATERIAL_SOLVER = -24,    /* the Neo-Hookean material under PBD, or under XPBD beyond its stiffness
                                      number (SB_XPBD_NEO_HOOKEAN_MAX_STIFFNESS: more substeps, or VBD);
                                      SB_PARAM_STRAIN_SMOOTHING > 0 under XPBD, VBD or PBD */
  SB_ERR_DEGENERATE_TRIANGLE = -25, /* a cloth triangle repeats a vertex, has (near) zero area or an edge
                                       below SB_MIN_TRIANGLE_EDGE */
  SB_ERR_NON_MANIFOLD = -26,       /* a cloth edge is shared by more than two triangles, or two triangles
                                      run along their shared edge the same way (inconsistent winding) */
  SB_ERR_NOT_CLOTH = -27           /* a cloth-only call on a body that is not cloth, or the static
                                      solver on cloth */
} sb_error;

/* XPBD with SB_MATERIAL_NEO_HOOKEAN: the largest stiffness number per substep (sb_body_stats) it is
 * allowed at; calls that would exceed it (the material, E, nu, density, the solver, vertex scales,
 * unpinning, fewer substeps, a larger dt in sb_world_step) fail with SB_ERR_MATERIAL_SOLVER naming the
 * substeps that would work. */
#define SB_XPBD_NEO_HOOKEAN_MAX_STIFFNESS 500.0f

/* Limits. */
#define SB_MAX_WORLDS 64
#define SB_MAX_BODIES_PER_WORLD 4096
#define SB_MAX_VERTICES 1048576 /* per body */
#define SB_MAX_TETS 4194304     /* per body */
#define SB_MAX_CLOTH_TRIANGLES 4194304 /* per cloth body */
#define SB_MIN_TRIANGLE_EDGE 1.0e-5f   /* m: a cloth triangle's longest edge (SB_ERR_DEGENERATE_TRIANGLE below) */
#define SB_MIN_SUBSTEPS 1
#define SB_MAX_SUBSTEPS 200
#define SB_MIN_DT 1.0e-6f         /* s, per sb_world_step call: keeps (dt / substeps)^2 a normal float,
                                     so alpha / h^2 never becomes 0 / 0 */
#define SB_MAX_DT 1.0f            /* s, per sb_world_step call */
#define SB_MAX_GRAVITY 1000.0f    /* m/s^2, per component */
#define SB_MAX_WIND 100.0f        /* m/s, per component */
#define SB_MAX_SLEEP_SPEED 1.0f   /* m/s, sb_world_set_sleep */
#define SB_MIN_SLEEP_SECONDS 0.05f /* s */
#define SB_MAX_SLEEP_SECONDS 60.0f /* s */
#define SB_MAX_COORDINATE 1.0e4f  /* m, for shape centres and grab targets */
#define SB_MAX_SPEED 1.0e3f       /* m/s, per component of a release velocity */
#define SB_TETRA_MAX_VERTICES 1000000  /* surface vertices given to sb_tetra_create */
#define SB_TETRA_MAX_TRIANGLES 2000000 /* surface triangles given to sb_tetra_create */
#define SB_TETRA_MAX_RESOLUTION 64     /* interior grid cells along the longest side */
#define SB_TETRA_MAX_JOBS 16           /* tetrahedralizations alive at once */
#define SB_TETRA_MAX_SURFACE_SAMPLES 150000 /* points placed on a surface, thin and curved parts included */
#define SB_TETRA_MAX_COORDINATE 1.0e6f /* m, |x|, |y|, |z| of surface vertices */
#define SB_MAX_VISUAL_VERTICES 4000000 /* per body, for sb_body_set_visual */
#define SB_MAX_VISUAL_DISTANCE 1.0e6   /* visual vertices lie within this x the tets' bounding-box diagonal
                                          of that box (sb_body_set_visual: SB_ERR_OUT_OF_RANGE beyond) */
#define SB_MAX_VISUAL_SCALE 4.0      /* a visual surface's bounding-box diagonal is at most this x the tets':
                                          beyond, it is in another unit (SB_ERR_OUT_OF_RANGE, naming the scale) */
#define SB_MAX_VISUAL_WEIGHT 1.0e3   /* skinning weights lie in [-this, 1 + this] (sb_body_set_visual refuses
                                          vertices that would need more, sb_body_set_visual_bound such weights) */
#define SB_MAX_VISUAL_TESTS 16777216 /* vertex-tet tests one sb_body_set_visual may make (2^24, a few s at
                                          worst; a surface on its tets needs 13-26 per vertex): SB_ERR_LIMIT */
#define SB_MIN_TET_EDGE 1.0e-6f        /* m: a tet's longest edge; smaller ones give masses and volume
                                          gradients that underflow float32 (SB_ERR_DEGENERATE_TET) */
#define SB_TETRA_MIN_SIZE 1.0e-3f      /* m: the longest side of a surface's bounding box for sb_tetra_create */

/* Per-body parameters for sb_body_set_param / sb_body_get_param: default, range, unit. */
typedef enum sb_param {
  SB_PARAM_EDGE_COMPLIANCE = 0,   /* 0,     [0, 10]    m/N     1/stiffness of each edge spring */
  SB_PARAM_VOLUME_COMPLIANCE = 1, /* 0,     [0, 10]    m^5/N   1/stiffness of C = 6(V - V0) per tet */
  SB_PARAM_DENSITY = 2,           /* 1000,  [1, 1e5]   kg/m^3  sets the vertex masses */
  SB_PARAM_DAMPING = 3,           /* 0,     [0, 1000]  1/s     velocity decays as exp(-damping t) */
  SB_PARAM_RESTITUTION = 4,       /* 0.2,   [0, 1]     -       ground bounce */
  SB_PARAM_FRICTION = 5,          /* 0.5,   [0, 10]    -       Coulomb coefficient on the ground */
  SB_PARAM_GRAB_COMPLIANCE = 6,   /* 0,     [0, 10]    m/N     0 = grabbed vertices follow exactly */
  SB_PARAM_GRAB_RADIUS = 7,       /* 0,     [0, 10]    m       vertices this close to the grabbed one
                                                                are held with it, keeping their offsets */
  SB_PARAM_SPRING_DAMPING = 8,    /* 0,     [0, 1e4]   N s/m   c of f = -c dl/dt along each edge (XPBD:
                                                                constraint damping, Neo-Hookean a dashpot
                                                                constraint per edge; VBD: a Rayleigh term
                                                                in each block; the same physics) */
  SB_PARAM_PBD_STIFFNESS = 9,     /* 1,     [0, 1]     -       PBD only: fraction of each correction */
  SB_PARAM_PRESSURE = 10,         /* 0,     [0, 1e7]   J       nRT of a gas inside the surface: p = nRT / V
                                                                pushes every face out (pressure balls) */
  SB_PARAM_ITERATIONS = 11,       /* 1,     1..100     -       XPBD/PBD passes or VBD sweeps per substep
                                                                (whole numbers); see sb_body_stats.residual */
  SB_PARAM_MATERIAL = 12,         /* 0,     0 or 1     -       sb_material: what the tets are made of */
  SB_PARAM_YOUNGS_MODULUS = 13,   /* 1e5,   [1, 1e12]  Pa      E of SB_MATERIAL_NEO_HOOKEAN (gelatin ~1e4,
                                                                soft silicone ~1e5, rubber 1e6-1e7) */
  SB_PARAM_POISSON_RATIO = 14,    /* 0.45,  [0, 0.499] -       nu of SB_MATERIAL_NEO_HOOKEAN (0.5, fully
                                                                incompressible, has no finite stiffness) */
  SB_PARAM_PLASTIC_YIELD = 15,    /* 0.1,   [0, 10]    -       plasticity: the equivalent (von Mises) Green
                                                                strain past which a tet's rest shape flows
                                                                (a uniaxial stretch by e is about e) */
  SB_PARAM_PLASTIC_CREEP = 16,    /* 0,     [0, 1000]  1/s     how fast the rest shape follows the excess
                                                                strain (0 = elastic; >= 1/dt takes it all each
                                                                frame); bodies with tets only, rest volume kept */
  /* Cloth bodies only (sb_body_create_cloth*); for them SB_PARAM_EDGE_COMPLIANCE is the sheet's
   * in-plane compliance 1/Y (m/N, default 1e-4: Y = 1e4 N/m), spread over the edges by triangle area
   * so the sheet's stiffness does not depend on the mesh, and SB_PARAM_DENSITY is unused. */
  SB_PARAM_AREAL_DENSITY = 17,    /* 0.2,   [1e-4, 1e3] kg/m^2 vertex mass = this x a third of its triangles' area */
  SB_PARAM_BENDING_STIFFNESS = 18, /* 1e-5, [0, 1e3]   N m     D of the bending energy 1/2 D kappa^2 per m^2
                                      (plate: E t^3 / (12 (1 - nu^2)); cotton ~1e-5, card ~1e-2) */
  SB_PARAM_THICKNESS = 19,        /* 0.002, [0, 0.1]   m       the sheet keeps half of it from the ground
                                     (and half of it plus SB body contact's gap from other bodies) */
  /* Convergence by target (XPBD with SB_MATERIAL_NEO_HOOKEAN, and VBD; sb_body_get_convergence): passes
   * or sweeps run each substep until the stiffness reached is at least the target, or the budget is
   * spent. 0 = no target: SB_PARAM_ITERATIONS passes. Other solvers and the simple material under
   * XPBD keep SB_PARAM_ITERATIONS (the target is kept and applies after a switch). */
  SB_PARAM_STIFFNESS_TARGET = 20, /* 0,     0 or [0.01, 0.999] - fraction of the material's stiffness a substep
                                                                must reach (docs/solvers.md: 0.95 = the body
                                                                sags at most ~1/0.95 of the static answer) */
  SB_PARAM_MAX_ITERATIONS = 21,   /* 16,    1..100     -       the budget: passes or sweeps per substep at
                                                                most while a target is set (whole numbers) */
  SB_PARAM_LONG_RANGE_STRETCH = 22, /* 0,   [0, 10]      -       long-range attachments: 0 = off; else no free
                                      vertex gets farther from its nearest pinned vertex than this x its rest
                                      distance along the sheet (1 = no stretch past it; 1.1 = 10 % slack) */
  SB_PARAM_DRAG_COEFFICIENT = 23, /* 0,    [0, 10]      -       C_d of each triangle's drag 1/2 rho (A c) s^2 along
                                      the relative wind (c: the sine of its angle to the sheet); flat plate ~1.2 */
  SB_PARAM_LIFT_COEFFICIENT = 24, /* 0,    [0, 10]      -       C_l of the lift 1/2 rho A c s^2 across it */
  /* 25 is reserved (unknown until it is given a meaning). */
  SB_PARAM_TEAR_STRAIN = 26,      /* 0,    0 or [0.01, 10] -    cloth tearing: an edge stretched past this strain
                                      (l - l0) / l0 breaks at the frame's end and the sheet cracks across it
                                      (the body's vertices and triangles change: sb_body_topology_version);
                                      0 = never */
  SB_PARAM_STRAIN_SMOOTHING = 27, /* 0,    [0, 1]       -       SB_MATERIAL_NEO_HOOKEAN under a force-based solver
                                     (and sb_body_solve_static): the share of the energy taken by node-smoothed
                                     strain, against linear tets' stiffness in bending (docs/physics.md).
                                     0.7 takes a cantilever with 2 tets' cells through its thickness from 0.60
                                     to 0.96 of beam theory; 0 = plain tets. Refused (SB_ERR_MATERIAL_SOLVER)
                                     under XPBD, VBD and PBD, and with the simple material (SB_ERR_OUT_OF_RANGE) */
  SB_PARAM_COUNT = 28
} sb_param;

/* SB_PARAM_MATERIAL values. SIMPLE: a spring per edge (SB_PARAM_EDGE_COMPLIANCE) and a volume term per
 * tet (SB_PARAM_VOLUME_COMPLIANCE): stiffness per constraint, so it depends on the mesh. NEO_HOOKEAN:
 * stable Neo-Hookean tets from Young's modulus and Poisson's ratio, the same body at any resolution.
 * It needs tets (not ropes, jellies or pressure balls). XPBD runs it with one block constraint per tet
 * (its deformation gradient, solved exactly per tet; docs) up to a stiffness number per substep
 * (SB_XPBD_NEO_HOOKEAN_MAX_STIFFNESS), VBD and the force-based integrators at any stiffness; PBD has
 * no compliance and refuses it (SB_ERR_MATERIAL_SOLVER), both ways. */
typedef enum sb_material {
  SB_MATERIAL_SIMPLE = 0,
  SB_MATERIAL_NEO_HOOKEAN = 1
} sb_material;

/* How a body is advanced. XPBD and PBD are position based; the others integrate the forces of the
 * same model (springs k = 1/edge compliance, volume terms kV = 1/volume compliance, spring damping,
 * gravity), so all simulate the same physics. Default SB_SOLVER_XPBD. */
typedef enum sb_solver {
  SB_SOLVER_XPBD = 0,
  SB_SOLVER_PBD = 1,                 /* stiffness from SB_PARAM_PBD_STIFFNESS, depends on substeps */
  SB_SOLVER_EXPLICIT_EULER = 2,
  SB_SOLVER_SEMI_IMPLICIT_EULER = 3, /* symplectic Euler */
  SB_SOLVER_VERLET = 4,              /* position (Stoermer) Verlet */
  SB_SOLVER_MIDPOINT = 5,            /* explicit midpoint, RK2 */
  SB_SOLVER_HEUN = 6,
  SB_SOLVER_RK4 = 7,
  SB_SOLVER_IMPLICIT_EULER = 8,      /* one Newton step, matrix-free CG: tol 1e-5, at most 200 iterations */
  SB_SOLVER_VBD = 9,                 /* Vertex Block Descent: implicit Euler's energy minimised vertex by vertex,
                                        SB_PARAM_ITERATIONS sweeps per substep; position based (contacts and
                                        grab as XPBD), needs compliance > 0 like the force-based solvers */
  SB_SOLVER_COUNT = 10
} sb_solver;

/* Energies are doubles: they are summed in double, and a state that is still finite (say an edge of
 * 1e30 m) can hold more than a float's 3.4e38 J. Layout (104 bytes; web/src/softbody.js reads these
 * offsets): 3 doubles, 10 floats, 5 int32, 3 floats, 1 int32, 4 bytes of padding. */
typedef struct sb_body_stats {
  double kinetic_energy;   /* J */
  double elastic_energy;   /* J, springs + volume terms at k = 1/compliance (0 for compliance 0) */
  double potential_energy; /* J, gravity, relative to y = 0 */
  float volume_ratio;      /* current / rest volume */
  float mass;              /* kg */
  float min_y;             /* m, lowest vertex */
  float max_edge_strain;   /* max |l - l0| / l0 */
  float center[3];         /* m, centre of mass */
  float momentum[3];       /* kg m/s */
  int32_t finite;          /* 1, or 0 once the state diverged: went non-finite, or blew up (its bounding box
                              past 100 times its rest diagonal); frozen at its last sane shape (finite,
                              no tet inverted) until reset */
  int32_t grabbed_vertex;  /* -1 when nothing is held */
  int32_t solver;          /* sb_solver */
  int32_t cg_iterations;   /* implicit Euler: iterations of the last linear solve, else 0 */
  int32_t contacts;        /* XPBD/PBD: particles in contact with the ground, colliders or other bodies
                              in the last substep */
  float max_penetration;   /* m, deepest contact corrected during the last step (ground, colliders,
                              other bodies); 0 when nothing touched */
  float residual;          /* XPBD: largest |C + alpha~ lambda| after the last substep's passes, relative
                              (edges over their rest length, volumes over 6 V0; Neo-Hookean: each tet's
                              |P(F) + Lambda / (h^2 V0)| over lambda + mu, a strain):
                              0 = each substep solved; ~1e-3 and above = visibly softer than the
                              material, more SB_PARAM_ITERATIONS or substeps needed. VBD: the last
                              sweep's relative force imbalance (sum |net force| / sum of the forces
                              acting): ~3e-3 is rounding, 1e-2 and above far from solved. 0 for other
                              solvers */
  float stiffness_number;  /* XPBD with SB_MATERIAL_NEO_HOOKEAN: the largest tet's stiffness x h^2 / mass of
                              the last substep, (lambda + mu) h^2 V0 sum_i |b_i|^2 / m_i (docs "Materials
                              in pascals"); it runs robustly up to SB_XPBD_NEO_HOOKEAN_MAX_STIFFNESS, and
                              every call that would exceed it is refused. 0 otherwise */
  int32_t inverted_tets;   /* tets whose signed volume is <= 0 now (inside out or flat); 0 for a body at
                              rest in any sane state */
  int32_t asleep;          /* 1 while the body sleeps (sb_world_set_sleep): not stepped, velocities 0 */
} sb_body_stats;

/* What a tetrahedralization did (sb_tetra_get_stats). Counts are of the final mesh unless named. */
typedef struct sb_tetra_stats {
  int32_t input_vertices;
  int32_t input_triangles;
  int32_t welded_vertices;   /* surface vertices left after welding near-duplicates */
  int32_t dropped_triangles; /* zero-area and duplicate faces removed */
  int32_t flipped_triangles; /* faces turned to agree with their neighbours (and the outward side) */
  int32_t open_edges;        /* edges with one face after clean-up: > 0 means holes (a warning, not an error) */
  int32_t surface_points;    /* points placed on the surface */
  int32_t interior_points;   /* grid points inside, at least half a cell from the surface (see also
                                medial_points) */
  int32_t uninserted_points; /* points Delaunay could not insert (duplicates); counted, never lost silently */
  int32_t delaunay_tets;     /* tets of the Delaunay mesh before keeping the inside ones */
  int32_t slivers_removed;   /* inside tets below the quality threshold */
  int32_t vertices;          /* of the result */
  int32_t tets;              /* of the result */
  int32_t parts;             /* connected parts (tets sharing faces), after fragments were removed */
  float min_quality;         /* of the result, 1 = regular tet (see sb_tetra_create) */
  float mean_quality;
  float volume;              /* m^3, sum of the result's tets */
  float surface_volume;      /* m^3 of the solid the cleaned surface encloses (winding number over 1/2:
                                space inside overlapping pieces counted once) */
  float milliseconds;        /* wall time spent in sb_tetra_create and sb_tetra_run */
  int32_t fragment_tets;     /* tets removed with parts below 1 % of the largest part (loose bits that
                                hang on by an edge or a vertex) */
  int32_t cavities;          /* closed pieces nested in an odd number of others: kept hollow (faced inward) */
  int32_t repaired_needles;  /* flat faces closing T-junctions, removed by flipping their long edge */
  float thin_thickness;      /* m: estimated thickness of the thinnest parts (area-weighted 10th percentile
                                of the distance through the solid from each face), measured only when the
                                tets hold under 95 % of the surface's volume and thin_samples_needed > 0;
                                else 0 */
  int32_t cells_for_thin;    /* always 0 now: thin parts are sampled by their thickness at any resolution
                                (see thin_samples_needed); kept so the struct's layout does not change */
  /* Improvement of the inside tets before the min quality cut (poor = quality below 0.15): */
  int32_t peeled_slivers;    /* flat tets of four surface points lying on the boundary, removed */
  int32_t refinement_points; /* points inserted at circumcentres of poor tets (at most 30 % more points) */
  int32_t smoothed_vertices; /* moves of interior points that raised the worst quality around them */
  int32_t quality_histogram[10]; /* tets of the result with quality in [i/10, (i+1)/10) (1 in bin 9) */
  /* Wall time per stage, ms: */
  float cleanup_ms;          /* weld, drop, orient (in sb_tetra_create) */
  float sampling_ms;         /* surface samples and interior grid points */
  float delaunay_ms;         /* Delaunay insertion */
  float inside_ms;           /* winding number of every Delaunay tet */
  float improve_ms;          /* peeling, refinement, smoothing */
  float finish_ms;           /* quality cut, parts, compaction */
  int32_t thin_samples_needed; /* > 0 when parts thinner than a cell would need more surface samples (two
                                  across their thickness) than sample_budget: they were sampled
                                  coarser, and this is about how many they wanted */
  int32_t medial_points;     /* points placed on the medial surface of parts under two grid cells thick
                                (where grid points do not fit), halfway between their sides */
  int32_t sample_budget;     /* surface samples this job could place: 10,000 + 16 x those of half-cell
                                spacing, at most SB_TETRA_MAX_SURFACE_SAMPLES (a finer grid raises it) */
  int32_t thin_samples_coarsest; /* with thin_samples_needed > 0: the samples the thin parts need at the
                                    coarsest spacing that still keeps their two sides apart (a budget this
                                    large, if within SB_TETRA_MAX_SURFACE_SAMPLES, may mesh them); else 0 */
  int32_t estimated_tets;    /* the estimate made before sampling (sb_tetra_estimate_tets, or the first
                                sb_tetra_run), 0 until made */
  int32_t max_tets;          /* the bound set with sb_tetra_set_max_tets, 0 for none */
  float thinnest;            /* m: the thinnest part the sampling measured (a face's distance through
                                the solid to its opposite side), if under a grid cell (such parts are
                                sampled by their thickness at any resolution); else 0 */
  float cell_size;           /* m: the interior grid's spacing (the longest side over the resolution):
                                parts at least this thick are sampled as a solid is, not by their thickness */
  /* The thin-parts choice (sb_tetra_set_thin_parts), when it acted because the estimate was over max_tets: */
  int32_t thin_parts;        /* the choice set: SB_TETRA_THIN_SAMPLE, _THICKEN, _COARSEN or _DROP */
  int32_t estimated_tets_as_sampled; /* the estimate with thin parts sampled by their thickness (0: the
                                        choice did not act) */
  int32_t choice_floor_tets; /* the lowest estimate the choice reaches (thickened to a grid cell, or sampled
                                at 10x their thickness): above max_tets, the job was refused */
  float thickened_to;        /* m: the thickness thin sheets were offset outward to (0: none) */
  float thickened_volume;    /* m^3 the offset added to the solid (surface_volume includes it) */
  float coarsened_spacing;   /* m: the spacing thin parts were sampled at, coarser than two across (0: none) */
  int32_t dropped_faces;     /* SB_TETRA_THIN_DROP: faces removed (parts thinner than dropped_below) */
  float dropped_below;       /* m: parts thinner than this were dropped (0: none) */
  float dropped_volume;      /* m^3 the dropped parts held (surface_volume excludes it) */
  int32_t bound_retries;     /* meshings redone because a result came out over max_tets (each held lower) */
  int32_t over_bound_tets;   /* the tets of the last result over max_tets (0: none was); with SB_ERR_TOO_LARGE
                                from sb_tetra_run and this > 0, the result itself was over and no retry fitted */
} sb_tetra_stats;

/* Errors */
const char* sb_last_error(void);      /* "" after a successful call */
int32_t sb_last_error_code(void);     /* SB_OK or the code of the last failure */
const char* sb_error_name(int32_t code); /* "SB_ERR_..." */

/* World */
sb_world sb_world_create(void);
int32_t sb_world_destroy(sb_world world);
int32_t sb_world_set_gravity(sb_world world, float x, float y, float z); /* default (0, -9.81, 0) */
/* The air's velocity (m/s, each component in [-SB_MAX_WIND, SB_MAX_WIND]; default 0), felt by cloth
 * with SB_PARAM_DRAG_COEFFICIENT or SB_PARAM_LIFT_COEFFICIENT set; gust in [0, 1]: each frame's wind is
 * wind x (1 + gust sin(2 pi t / gust_period)), gust_period in [0.1, 100] s. */
int32_t sb_world_set_wind(sb_world world, float x, float y, float z, float gust, float gust_period);
int32_t sb_world_set_substeps(sb_world world, int32_t substeps);       /* default 10 */
int32_t sb_world_set_ground(sb_world world, int32_t enabled);          /* plane y = 0, default 1 */
/* Sleep: a body whose root-mean-square vertex speed stays below speed (m/s, in [0, SB_MAX_SLEEP_SPEED];
 * 0, the default, turns sleep off) for seconds (in [SB_MIN_SLEEP_SECONDS, SB_MAX_SLEEP_SECONDS]), with
 * nothing grabbing or pressing it, falls asleep together with every body that may touch it (an island:
 * bodies whose swept bounds meet, transitively) once all of them have been so: its velocities go to
 * 0 and it is not stepped, costing nothing, and others meet it as an immovable obstacle. The island
 * wakes when a body in it has not been quiet (a body thrown at it wakes it in the frame its bounds
 * reach the island, before any contact), and a body wakes whenever a call changes it (parameters,
 * pins, solver, grab, press, squash, reset, static solve, collision settings); changing gravity,
 * wind, the ground, sleep or any collider, or removing a body, wakes every body. sb_body_stats.asleep
 * says which sleep. Force-based solvers' bodies never sleep. */
int32_t sb_world_set_sleep(sb_world world, float speed, float seconds);
int32_t sb_world_get_substeps(sb_world world);
int32_t sb_world_body_count(sb_world world);
/* Threads that step the world's bodies, the calling thread included: n in [1, sb_max_threads()],
 * default 1. The XPBD/PBD passes split each large colour of constraints across them (the other
 * solvers run on the calling thread); positions are the same to the bit for any n. The workers start
 * here (n = 1 stops them), spin briefly between steps and then sleep. SB_ERR_OUT_OF_RANGE for n
 * outside the range, which is [1, 1] in a build without threads (softbody.wasm: load the -mt build
 * in a crossOriginIsolated page for more); SB_ERR_LIMIT when the system refuses a thread. */
#define SB_MAX_THREADS 64
int32_t sb_world_set_threads(sb_world world, int32_t threads);
int32_t sb_world_get_threads(sb_world world);
/* The largest thread count this build accepts: 1 without threads, SB_MAX_THREADS natively, the
 * pthread pool's size + 1 in the -mt wasm build. */
int32_t sb_max_threads(void);
/* Advances every body by dt in [SB_MIN_DT, SB_MAX_DT] seconds. Returns SB_ERR_DIVERGED (naming the body)
 * when a body went non-finite or blew up (its bounding box past 100 times its rest diagonal) during this
 * call; it is frozen at its last sane shape, the other bodies still stepped. */
int32_t sb_world_step(sb_world world, float dt);

/* Colliders: rigid obstacles every body of the world collides with (besides the ground), solved in
 * each substep like the ground (position level for XPBD/PBD, velocity level for the force-based
 * solvers) with Coulomb friction and restitution measured against the collider's moving surface.
 * XPBD/PBD detect contacts continuously (a particle's path over a substep, relative to the collider,
 * is traced), so fast bodies and fast colliders do not pass through thin ones. At most
 * SB_MAX_COLLIDERS_PER_WORLD alive. Sizes in (0, 1000] m (a capsule's half length in [0, 1000]),
 * positions within +-1e6 m. Each returns the collider's handle or a negative sb_error. */
#define SB_MAX_COLLIDERS_PER_WORLD 256
/* The half-space below the plane through (px, py, pz) with normal (nx, ny, nz) (any length > 0). */
sb_collider sb_collider_create_plane(sb_world world, float px, float py, float pz, float nx, float ny, float nz);
sb_collider sb_collider_create_sphere(sb_world world, float radius, float cx, float cy, float cz);
/* A box of half extents hx, hy, hz about its centre, axis-aligned until posed. */
sb_collider sb_collider_create_box(sb_world world, float hx, float hy, float hz, float cx, float cy, float cz);
/* A capsule: the points within `radius` of a segment of half length `half_length` along y. */
sb_collider sb_collider_create_capsule(sb_world world, float radius, float half_length, float cx, float cy, float cz);
/* A triangle mesh (any surface: a bowl, stairs, a funnel), vertices in the collider's frame (m),
 * placed at (cx, cy, cz). It is welded and oriented like sb_tetra_create's input. A closed mesh is a
 * solid; an open one (a sheet, a bowl) is a two-sided shell `thickness` m thick ((0, 1000] m; ignored
 * when closed). Distances are exact (nearest point over a BVH). A particle already deeper inside a mesh
 * than it moves in a substep (a mesh placed over a body) is not pushed out. At most
 * SB_MAX_COLLIDER_VERTICES and SB_MAX_COLLIDER_TRIANGLES; copied. */
#define SB_MAX_COLLIDER_VERTICES 1000000
#define SB_MAX_COLLIDER_TRIANGLES 1000000
sb_collider sb_collider_create_mesh(sb_world world, const float* xyz, int32_t vertex_count, const uint32_t* triangles,
                                    int32_t triangle_count, float thickness, float cx, float cy, float cz);
/* 1 when a mesh collider is a closed solid, 0 when it is a shell (SB_ERR_OUT_OF_RANGE for other shapes). */
int32_t sb_collider_mesh_is_solid(sb_world world, sb_collider collider);
/* Moves a collider: position (m) and rotation as a quaternion (x, y, z, w; normalized here, length
 * in [0.5, 2]). The next sb_world_step sweeps it there from where it was, so a body it pushes is
 * pushed, carried or thrown; teleport = 1 puts it there at once. */
int32_t sb_collider_set_pose(sb_world world, sb_collider collider, float px, float py, float pz, float qx, float qy,
                             float qz, float qw, int32_t teleport);
int32_t sb_collider_set_friction(sb_world world, sb_collider collider, float friction); /* [0, 10], default 0.5 */
/* Collider parameters for sb_collider_set_param / sb_collider_get_param: default, range. */
typedef enum sb_collider_param {
  SB_COLLIDER_PARAM_FRICTION = 0,    /* 0.5, [0, 10]  Coulomb coefficient against the collider's surface */
  SB_COLLIDER_PARAM_RESTITUTION = 1, /* 0.2, [0, 1]   normal speed after / before, relative to the surface;
                                        approaches slower than 2|g|h come to rest (as on the ground) */
  SB_COLLIDER_PARAM_COUNT = 2
} sb_collider_param;
int32_t sb_collider_set_param(sb_world world, sb_collider collider, int32_t param, float value);
float sb_collider_get_param(sb_world world, sb_collider collider, int32_t param); /* NaN on failure */
int32_t sb_collider_destroy(sb_world world, sb_collider collider);
int32_t sb_world_collider_count(sb_world world);
double sb_world_time(sb_world world); /* simulated seconds, NaN for a bad handle */
/* Contact over the last sb_world_step, for the benchmark and the page's readout: between bodies (and
 * of bodies with themselves; 0 when no body could touch another or itself), what the per-frame
 * gathering found and what the substeps solved, with the wall time of each; then the same for the
 * colliders, summed over the bodies (0 without colliders); then cloth's edge-edge pairs and their
 * costs (0 without cloth). 52 bytes. */
typedef struct sb_world_contact_stats {
  uint32_t candidates; /* vertex-triangle pairs gathered for the frame (broad phase, hash, swept boxes) */
  uint32_t contacts;   /* vertex contacts solved, summed over the frame's substeps */
  float gather_ms;     /* ms of wall time gathering the candidates, once per frame */
  float solve_ms;      /* ms of wall time solving them, over all substeps */
  float broad_ms;      /* ms of gather_ms spent pairing the bodies (sweep and prune of their bounds) */
  uint32_t collider_candidates; /* (vertex, mesh collider) pairs given candidate faces for the frame */
  uint32_t collider_faces;      /* faces listed over those pairs */
  uint32_t collider_tested;     /* vertex substeps tested against a collider (not skipped as clear) */
  float collider_gather_ms;     /* ms of wall time finding the colliders' candidates, once per frame */
  float collider_solve_ms;      /* ms of wall time of the collider contacts, over all substeps */
  uint32_t edge_pairs;          /* cloth: edge-edge pairs gathered for the frame */
  float edge_ms;                /* ms of gather_ms spent gathering them */
  float bound_ms;               /* ms of solve_ms spent bounding the cloth pairs' motion, over all substeps */
} sb_world_contact_stats;
int32_t sb_world_get_contact_stats(sb_world world, sb_world_contact_stats* out);

/* Bodies. Creation copies the input; tets must be positively oriented:
 * ((x1-x0) x (x2-x0)) . (x3-x0) > 0. */
sb_body sb_body_create_tets(sb_world world, const float* xyz, int32_t vertex_count, const uint32_t* tets,
                            int32_t tet_count);
/* nx, ny, nz cells in [1, 128] (6 tets each, at most SB_MAX_TETS); sizes in (0, 1000] m. */
sb_body sb_body_create_box(sb_world world, int32_t nx, int32_t ny, int32_t nz, float size_x, float size_y,
                           float size_z, float center_x, float center_y, float center_z);
/* radius in (0, 1000] m, cells across the diameter in [2, 64] (rounded up to even). */
sb_body sb_body_create_ball(sb_world world, float radius, int32_t cells, float center_x, float center_y,
                            float center_z);
/* Scenes without tets, simulated through springs only (every solver works on them):
 * a rope of `segments` in [1, 10000] springs from the anchor along +x, radius 0.02 m, anchor pinned; */
sb_body sb_body_create_rope(sb_world world, int32_t segments, float length, float anchor_x, float anchor_y,
                            float anchor_z);
/* a jelly cube: cells^3 lattice (cells in [1, 64]) with springs on cell edges, face and body diagonals; */
sb_body sb_body_create_jelly(sb_world world, int32_t cells, float size, float center_x, float center_y,
                             float center_z);
/* a pressure ball: surface springs only (cells as for the ball), inflated by SB_PARAM_PRESSURE. */
sb_body sb_body_create_pressure_ball(sb_world world, float radius, int32_t cells, float center_x, float center_y,
                                     float center_z);
/* Cloth: a sheet of triangles (counter-clockwise seen from its front), simulated under XPBD with a
 * stretch spring per edge and isometric bending per interior edge (docs/physics.md "Cloth"); mass from
 * SB_PARAM_AREAL_DENSITY. The mesh must be manifold and consistently wound (open or closed), every
 * vertex on a triangle, no zero-area triangle. Cloth touches the ground (at half SB_PARAM_THICKNESS)
 * and colliders; not other bodies nor itself yet (collision mask 0). vertex_count in [3,
 * SB_MAX_VERTICES], triangle_count in [1, SB_MAX_CLOTH_TRIANGLES]. */
sb_body sb_body_create_cloth(sb_world world, const float* xyz, int32_t vertex_count, const uint32_t* triangles,
                             int32_t triangle_count);
/* A size_u x size_v rectangle of near-equilateral triangles: cells_u in [1, 1024] triangle bases along
 * u (x), cells_v in [1, 1024] rows along v; sizes in [1e-3, 1000] m. vertical 1: in the xy plane facing
 * +z (v along y); 0: in the xz plane facing +y (v along -z). */
sb_body sb_body_create_cloth_rectangle(sb_world world, int32_t cells_u, int32_t cells_v, float size_u, float size_v,
                                       float center_x, float center_y, float center_z, int32_t vertical);
/* A disc of `rings` in [1, 512] rings of near-equilateral triangles, radius in [1e-3, 1000] m, facing
 * +y (vertical 0) or +z (vertical 1). */
sb_body sb_body_create_cloth_disc(sb_world world, float radius, int32_t rings, float center_x, float center_y,
                                  float center_z, int32_t vertical);
int32_t sb_body_is_cloth(sb_world world, sb_body body); /* 1 or 0; negative sb_error for a bad handle */
/* Cloth: unit vertex normals (area-weighted over the triangles), 3 per vertex, updated by every step,
 * reset and squash; the pointer lives as long as the body (zero-copy like positions). NULL with
 * SB_ERR_NOT_CLOTH for other bodies. */
const float* sb_body_normals(sb_world world, sb_body body);
/* Counts the changes of a body's vertices and triangles: 0 at creation, +1 for each frame in which a
 * cloth body tore (SB_PARAM_TEAR_STRAIN) and for the sb_body_reset that mends it. When it changes, the
 * body's counts (vertices, triangles, edges) have changed and the pointers to its positions,
 * triangles, normals and edges have moved: take them again. Tearing adds vertices, at most up to
 * twice the body's vertex count at creation; the vertices there at creation keep their index. */
int32_t sb_body_topology_version(sb_world world, sb_body body);
int32_t sb_body_destroy(sb_world world, sb_body body);
int32_t sb_body_reset(sb_world world, sb_body body); /* creation state, clears divergence and grabs */

int32_t sb_body_set_param(sb_world world, sb_body body, int32_t param, float value);
float sb_body_get_param(sb_world world, sb_body body, int32_t param);

/* What the last sb_world_step's passes did about the body's stiffness target (SB_PARAM_STIFFNESS_TARGET).
 * Stiffness reached s = 1 - sum_i |r_i| / sum_i max(|f_i|, m_i |g|) over the free vertices, with f_i
 * the body's internal force and r_i = f_i - m_i (x_i - y_i) / h^2 what the passes left unbalanced of
 * implicit Euler's step (y: the inertial prediction): a body settled at s sags about 1/s of the
 * static answer (docs/solvers.md, measured). */
typedef enum sb_convergence_status {
  SB_CONVERGENCE_NOT_MEASURED = 0, /* the simple material under XPBD, PBD, force-based solvers, no step yet */
  SB_CONVERGENCE_FIXED = 1,        /* no target: SB_PARAM_ITERATIONS passes ran; s measured after the last substep */
  SB_CONVERGENCE_MET = 2,          /* every substep reached the target within the budget */
  SB_CONVERGENCE_BUDGET_SPENT = 3  /* at least one substep spent SB_PARAM_MAX_ITERATIONS short of it */
} sb_convergence_status;
typedef struct sb_convergence {
  float stiffness_reached; /* s, 0..1: the lowest over the last frame's measured substeps (1 when not measured) */
  int32_t status;          /* sb_convergence_status */
  int32_t passes;          /* XPBD passes or VBD sweeps the last frame ran, over all its substeps */
  int32_t substeps;        /* substeps of the last frame */
} sb_convergence;
int32_t sb_body_get_convergence(sb_world world, sb_body body, sb_convergence* out);
int32_t sb_body_pin(sb_world world, sb_body body, int32_t vertex, int32_t pinned); /* pinned: 0 or 1 */
/* Vertex groups: sets the mass and stiffness multipliers of `count` listed vertices (indices < the
 * vertex count; count in [1, SB_MAX_VERTEX_GROUP]). mass_scale multiplies each vertex's mass;
 * stiffness_scale the stiffness of every edge and tet it belongs to, under every solver and material
 * (a constraint takes the mean of its vertices' scales). Both in [SB_MIN_VERTEX_SCALE,
 * SB_MAX_VERTEX_SCALE]; 1 and 1 undo it. Kept across reset, like pins. On failure nothing changes. */
#define SB_MAX_VERTEX_GROUP 16777216
#define SB_MIN_VERTEX_SCALE 1.0e-3f
#define SB_MAX_VERTEX_SCALE 1.0e3f
int32_t sb_body_set_vertex_scales(sb_world world, sb_body body, const uint32_t* vertices, int32_t count,
                                  float mass_scale, float stiffness_scale);
/* One vertex's multipliers, written to *mass_scale and *stiffness_scale (either may be NULL). */
int32_t sb_body_get_vertex_scales(sb_world world, sb_body body, int32_t vertex, float* mass_scale,
                                  float* stiffness_scale);
/* Contact between bodies (XPBD/PBD bodies of one world, solved in every substep: each surface vertex
 * against the other body's surface triangles, keeping a 5 mm gap, with friction sqrt(mu_a mu_b)).
 * Two bodies touch when (group_a & mask_b) and (group_b & mask_a) are both nonzero. Default group 1,
 * mask 0xffffffff (everything touches); mask 0 turns body contact off for this body. Any bits are valid. */
int32_t sb_body_set_collision_filter(sb_world world, sb_body body, uint32_t group, uint32_t mask);
int32_t sb_body_get_collision_filter(sb_world world, sb_body body, uint32_t* group, uint32_t* mask);
/* Self-collision (XPBD/PBD; off by default): the body's surface vertices against its own surface
 * triangles that were farther than 2 x thickness from them in the rest shape, keeping `thickness` m
 * apart. enabled: 0 or 1; thickness in [0.0005, 0.5] m, best about 0.4-1 x the surface's vertex
 * spacing (smaller lets two edges pass between each other's vertices). Costs a hash of the body's
 * surface per frame. */
int32_t sb_body_set_self_collision(sb_world world, sb_body body, int32_t enabled, float thickness);
int32_t sb_body_get_self_collision(sb_world world, sb_body body, int32_t* enabled, float* thickness);
/* Switches the solver, keeping positions and velocities. Force-based solvers need edge (and, with
 * tets, volume) compliance > 0: SB_ERR_NEEDS_COMPLIANCE otherwise, and setting a compliance to 0
 * while one is active fails the same way. */
int32_t sb_body_set_solver(sb_world world, sb_body body, int32_t solver);
int32_t sb_body_get_solver(sb_world world, sb_body body);
/* Presses the body to factor in [0.05, 1] of its height (about its lowest vertex), widening it by
 * 1/sqrt(factor) so the volume is kept, and stops all motion. The elastic edges spring it back. */
int32_t sb_body_squash(sb_world world, sb_body body, float factor);
/* Squashes like sb_body_squash, then holds the body under a frictionless plate (a ceiling y <= plate
 * height, solved in every substep like the ground) that starts at the squashed top and rises at
 * constant speed back to the top before the squash over release_seconds in [0, 10] of simulated time,
 * then disappears: the body springs back without being thrown up. release_seconds = 0 is squash.
 * sb_body_reset, sb_body_squash, another press and sb_body_grab_begin remove the plate. */
int32_t sb_body_press(sb_world world, sb_body body, float factor, float release_seconds);
/* Moves the body to its static equilibrium under the world's gravity, its pinned vertices held, and
 * stops it: Newton's method on the same energy every solver integrates (docs "Converged statics"),
 * whatever the body's solver. tolerance in [1e-10, 1e-2]: the unbalanced force left, as a share of the
 * body's weight (2-norms; 1e-8 is a good default). The ground, colliders and other bodies play no part.
 * Returns the Newton iterations used (>= 0). Refused, nothing changed: SB_ERR_DIVERGED for a frozen
 * body; SB_ERR_NEEDS_COMPLIANCE for the simple material with a compliance of 0 (infinitely stiff);
 * SB_ERR_OUT_OF_RANGE for a body with gas pressure, with nothing to balance (gravity 0 or every vertex
 * pinned), with a part that no pinned vertex holds (it would fall: no equilibrium; checked before any
 * iteration), or when Newton did not reach the tolerance (the message gives the residual reached). */
int32_t sb_body_solve_static(sb_world world, sb_body body, float tolerance);

float* sb_body_positions(sb_world world, sb_body body); /* vertex_count * 3 floats, m */
int32_t sb_body_vertex_count(sb_world world, sb_body body);
/* Triangles and tets of a body that has none (the rope has neither; jelly and pressure ball have no
 * tets) are NULL with the count 0 and no error (sb_last_error_code() == SB_OK); a bad handle gives
 * NULL with an error. */
const uint32_t* sb_body_triangles(sb_world world, sb_body body); /* outward boundary, 3 per triangle */
int32_t sb_body_triangle_count(sb_world world, sb_body body);
const uint32_t* sb_body_tets(sb_world world, sb_body body); /* 4 per tet, in solver order */
int32_t sb_body_tet_count(sb_world world, sb_body body);
const uint32_t* sb_body_edges(sb_world world, sb_body body); /* 2 per edge, in solver order */
int32_t sb_body_edge_count(sb_world world, sb_body body);
int32_t sb_body_get_stats(sb_world world, sb_body body, sb_body_stats* out);

/* What a second implementation of the solver (the WebGPU backend, web/src/gpu/) reads to run the
 * same model: zero-copy views, valid until the body is destroyed (re-read the pointers after memory
 * grows). A body without tets gives NULL with SB_OK for the tet arrays, as sb_body_tets. */
const float* sb_body_velocities(sb_world world, sb_body body);        /* vertex_count * 3 floats, m/s */
const float* sb_body_inverse_masses(sb_world world, sb_body body);    /* 1 per vertex, 1/kg; 0 = pinned */
const float* sb_body_edge_rest_lengths(sb_world world, sb_body body); /* 1 per edge (sb_body_edges order), m */
const float* sb_body_tet_6_rest_volumes(sb_world world, sb_body body); /* 6 V0 per tet (sb_body_tets order), m^3 */
/* Neo-Hookean's rest data: B = Dm^-1 per tet (9 floats, row-major, 1/m), Dm = [x1-x0, x2-x0, x3-x0].
 * Made on the first call for a body that has not needed it (simple material, no plastic flow): 36
 * bytes per tet, so memory may grow. */
const float* sb_body_inverse_rest_shapes(sb_world world, sb_body body);
/* The XPBD solve order cut into batches of constraints that share no vertex (kind SB_BATCH_EDGES or
 * SB_BATCH_TETS): solving batch after batch, each batch's constraints at once, gives the serial
 * solve's result (core/solver/parallel_batches.h). Built on first call. count: the number of
 * batches (>= 0, or a negative sb_error); starts: count + 1 offsets into order; order: positions in
 * sb_body_edges / sb_body_tets order, batch by batch. Bad kind: SB_ERR_OUT_OF_RANGE. */
#define SB_BATCH_EDGES 0
#define SB_BATCH_TETS 1
int32_t sb_body_batch_count(sb_world world, sb_body body, int32_t kind);
const uint32_t* sb_body_batch_starts(sb_world world, sb_body body, int32_t kind);
const uint32_t* sb_body_batch_order(sb_world world, sb_body body, int32_t kind);

/* Skinning: a high-resolution render surface that follows the tets. Each visual vertex is bound to the
 * tet containing it at the body's creation shape (or the nearest tet, for vertices slightly outside)
 * with barycentric weights; every sb_world_step (and reset, squash) rewrites the visual positions and
 * area-weighted vertex normals in place. Replaces any earlier visual. Returns the number of vertices
 * that lay outside every tet (>= 0). Triangles may be NULL with triangle_count 0 (no normals then).
 * A surface coarser than the tets is subdivided first (edges longer than the tets' mean edge are
 * split at their midpoints, up to 262,144 vertices), so it bends with them: the visual then has more
 * vertices and triangles than given (read the counts back); the given vertices come first.
 * Refused (SB_ERR_OUT_OF_RANGE): a surface more than SB_MAX_VISUAL_SCALE x the tets' size (the message
 * names the scale), or a vertex whose weights would leave [-SB_MAX_VISUAL_WEIGHT, 1 + SB_MAX_VISUAL_WEIGHT];
 * SB_ERR_LIMIT past SB_MAX_VISUAL_TESTS. A refused call keeps the earlier visual. */
int32_t sb_body_set_visual(sb_world world, sb_body body, const float* xyz, int32_t vertex_count,
                           const uint32_t* triangles, int32_t triangle_count);
float* sb_body_visual_positions(sb_world world, sb_body body); /* visual_vertex_count * 3 floats, m */
float* sb_body_visual_normals(sb_world world, sb_body body);   /* unit, 3 per vertex */
int32_t sb_body_visual_vertex_count(sb_world world, sb_body body); /* 0 without a visual */
const uint32_t* sb_body_visual_triangles(sb_world world, sb_body body);
int32_t sb_body_visual_triangle_count(sb_world world, sb_body body);
/* The binding behind the skinned surface: 4 particle ids and 4 weights (summing to 1) per visual
 * vertex, visual = sum w_i x_i. NULL without a visual. */
const uint32_t* sb_body_visual_bound_vertices(sb_world world, sb_body body);
const float* sb_body_visual_weights(sb_world world, sb_body body);
/* Like sb_body_set_visual, but with a binding computed elsewhere (read from a body made of the same
 * tets, e.g. in a worker), so this only copies: no search, no subdivision. bound_vertices: 4 particle
 * ids < the body's vertex count per visual vertex; weights: 4 finite weights per visual vertex, each in
 * [-SB_MAX_VISUAL_WEIGHT, 1 + SB_MAX_VISUAL_WEIGHT], whose sum is 1 within 1e-6 x (1 + the sum of their
 * magnitudes); triangles index the vertex_count visual vertices. outside_count (>= 0, <= vertex_count) is
 * stored for the record. SB_ERR_NOT_FINITE if the skinned positions at the body's current shape would
 * not be finite. Returns SB_OK; a refused call keeps the earlier visual. */
int32_t sb_body_set_visual_bound(sb_world world, sb_body body, int32_t vertex_count, const uint32_t* triangles,
                                 int32_t triangle_count, const uint32_t* bound_vertices, const float* weights,
                                 int32_t outside_count);

/* Grabbing: returns the nearest vertex to a point, then drive it to targets each frame. */
int32_t sb_body_nearest_vertex(sb_world world, sb_body body, float x, float y, float z);
int32_t sb_body_grab_begin(sb_world world, sb_body body, int32_t vertex, float x, float y, float z);
int32_t sb_body_grab_move(sb_world world, sb_body body, float x, float y, float z);
/* Releases with the pointer's velocity (m/s) so the body can be thrown. */
int32_t sb_body_grab_end(sb_world world, sb_body body, float vx, float vy, float vz);

/* Tetrahedralization: a triangle surface (any soup: seams, holes, several parts) becomes tets.
 * Clean-up (weld within 1e-6 of the bounding-box diagonal, drop zero-area and duplicate faces, orient
 * consistently and outward), inside/outside by the generalized winding number (> 0.5 is inside),
 * points on the surface (thinned to about half a cell when thin_surface is 1) plus grid points inside,
 * incremental Delaunay with exact predicates, inside tets kept, slivers removed.
 * resolution: grid cells along the longest side in [0, SB_TETRA_MAX_RESOLUTION]; 0 = no interior points.
 * min_quality in [0, 1): tets with quality below it are removed. Quality = 6 sqrt(2) V / l_rms^3
 * (1 for a regular tet, 0 for a flat one; l_rms is the root mean square of the six edge lengths).
 * Create checks the input and cleans it (errors here: NULL, counts, NOT_FINITE, INDEX_OUT_OF_RANGE,
 * TOO_LARGE, EMPTY_MESH, FLAT_MESH); the work happens in sb_tetra_run, in slices, so a caller can show
 * progress and stop. The input is copied. */
sb_tetra sb_tetra_create(const float* xyz, int32_t vertex_count, const uint32_t* triangles, int32_t triangle_count,
                         int32_t resolution, float min_quality, int32_t thin_surface);
/* Does at most `work` units (about one point insertion or one winding-number query each, >= 1).
 * Returns 1 when finished, 0 when there is more to do, or an error (SB_ERR_NO_INSIDE_TETS). */
int32_t sb_tetra_run(sb_tetra job, int32_t work);
float sb_tetra_progress(sb_tetra job); /* [0, 1], NaN for a bad handle */
int32_t sb_tetra_destroy(sb_tetra job);
/* Results, after sb_tetra_run returned 1 (SB_ERR_NOT_READY before). Tets are positively oriented and
 * every vertex is used, so they go straight into sb_body_create_tets. Pointers live until destroy. */
int32_t sb_tetra_vertex_count(sb_tetra job);
const float* sb_tetra_positions(sb_tetra job); /* xyz, m */
int32_t sb_tetra_tet_count(sb_tetra job);
const uint32_t* sb_tetra_tets(sb_tetra job);
int32_t sb_tetra_get_stats(sb_tetra job, sb_tetra_stats* out); /* works at any stage */
/* About how many tets the job will give (>= 1), before it runs: from the surface samples its spacing
 * asks for (thin parts sampled by their thickness), the grid points inside and the medial points.
 * Measured within -42 % / +38 % of the result on the tests' shapes. The first call measures the
 * surface's thickness (what the first sb_tetra_run would do anyway; a few to a few hundred ms). */
int32_t sb_tetra_estimate_tets(sb_tetra job);
/* A bound on the job's tets, before its first sb_tetra_run (SB_ERR_NOT_READY after): if the estimate
 * is above it, sb_tetra_run returns SB_ERR_TOO_LARGE at once, naming the estimate and what drives it
 * (thin parts, the resolution), and nothing is sampled. 0 (the default) for no bound. */
int32_t sb_tetra_set_max_tets(sb_tetra job, int32_t max_tets);
/* What to do, before the first sb_tetra_run, when thin parts (sampled by their thickness) would take the
 * estimate above max_tets; nothing changes when it is within (or max_tets is 0):
 *   SB_TETRA_THIN_SAMPLE (default): refuse (SB_ERR_TOO_LARGE);
 *   SB_TETRA_THIN_THICKEN: offset the thin sheets outward along their normals to the thinnest thickness
 *     whose samples (two across) fit max_tets, at most a grid cell and 15 %: a change of the geometry,
 *     reported in the stats (thickened_to, thickened_volume);
 *   SB_TETRA_THIN_COARSEN: sample the thin parts at the finest spacing that fits, fewer than two samples
 *     across, down to 10x their thickness (coarsened_spacing);
 *   SB_TETRA_THIN_DROP: remove the parts thinner than the thinnest whose samples (two across) fit
 *     max_tets, at most a grid cell (dropped_below, dropped_faces, dropped_volume); where they joined
 *     the rest the solid is closed flat. Refused (SB_ERR_TOO_LARGE) when every part is that thin.
 * The bound holds on the result: a meshing that comes out over max_tets (the estimate's error) is
 * redone with the estimate held lower (up to 3 times, bound_retries) under _THICKEN, _COARSEN and
 * _DROP; under _SAMPLE, or when the choice can go no further, sb_tetra_run returns SB_ERR_TOO_LARGE
 * naming the result's tets (over_bound_tets). A body over max_tets is never returned.
 * When the choice cannot fit max_tets either, sb_tetra_run returns SB_ERR_TOO_LARGE saying why
 * (choice_floor_tets). Needs thin_surface (SB_ERR_OUT_OF_RANGE otherwise). */
#define SB_TETRA_THIN_SAMPLE 0
#define SB_TETRA_THIN_THICKEN 1
#define SB_TETRA_THIN_COARSEN 2
#define SB_TETRA_THIN_DROP 3
int32_t sb_tetra_set_thin_parts(sb_tetra job, int32_t choice);

#ifdef __cplusplus
}
#endif

#endif /* SOFTBODY_H */
