// What cloth contact gathers (body_contact.h, cloth_contact.h): the work follows the pairs that can
// meet, not the sheet's speed as a whole.
#include <doctest.h>

#include "softbody.h"

TEST_CASE("Cloth contact cost: a sheet falling as a whole has no self candidates, a draped one reports its edge pairs") {
  // A flat 0.5 m sheet, 24 bases across (spacing 21 mm), self thickness 10 mm: inside it, the nearest
  // pairs beyond the rest exclusion (1.25 x 10 mm) are across one triangle, 0.87 x 21 = 18 mm apart,
  // past the 15 mm a pair must come within; only the half triangles ending its rows make nearer ones,
  // kept with the gap they have at rest (cloth_contact.h): measured 126, a few per row end (at most
  // 3 x 2 x 28). Falling freely (no ground), every part moves alike, so nothing comes nearer anything
  // else however fast it falls: the first frame's candidates and edge pairs at every frame up to
  // 1.6 m/s, 27 mm per frame (summing speeds instead of taking relative ones takes in the 18 mm pairs
  // from 0.6 m/s; bounding each vertex's own motion instead of its motion less the sheet's mean held
  // back the border vertices from 1 m/s and the sheet deformed). Then, on a sphere, it folds over
  // itself and reports its edge pairs.
  sb_world w = sb_world_create();
  REQUIRE(w != 0);
  REQUIRE(sb_world_set_ground(w, 0) == SB_OK);
  const sb_body sheet = sb_body_create_cloth_rectangle(w, 24, 28, 0.5f, 0.5f, 0, 3.0f, 0, 0);
  REQUIRE(sheet != 0);
  REQUIRE(sb_body_set_self_collision(w, sheet, 1, 0.01f) == SB_OK);
  sb_world_contact_stats cs;
  REQUIRE(sb_world_step(w, 1.0f / 60) == SB_OK);
  REQUIRE(sb_world_get_contact_stats(w, &cs) == SB_OK);
  const uint32_t first_candidates = cs.candidates, first_pairs = cs.edge_pairs;
  CHECK(first_candidates <= 3 * 2 * 28);
  for (int f = 1; f < 10; ++f) {
    REQUIRE(sb_world_step(w, 1.0f / 60) == SB_OK);
    REQUIRE(sb_world_get_contact_stats(w, &cs) == SB_OK);
    CHECK(cs.candidates == first_candidates);
    CHECK(cs.edge_pairs == first_pairs);
  }
  sb_world_destroy(w);

  w = sb_world_create();
  REQUIRE(sb_collider_create_sphere(w, 0.15f, 0, 0.15f, 0) != 0);
  const sb_body draped = sb_body_create_cloth_rectangle(w, 24, 28, 0.5f, 0.5f, 0, 0.4f, 0, 0);
  REQUIRE(sb_body_set_self_collision(w, draped, 1, 0.01f) == SB_OK);
  uint32_t most_pairs = 0;
  for (int f = 0; f < 60; ++f) {
    REQUIRE(sb_world_step(w, 1.0f / 60) == SB_OK);
    REQUIRE(sb_world_get_contact_stats(w, &cs) == SB_OK);
    most_pairs = cs.edge_pairs > most_pairs ? cs.edge_pairs : most_pairs;
    CHECK(cs.edge_ms <= cs.gather_ms);  // a part of the gathering
    CHECK(cs.bound_ms <= cs.solve_ms);  // a part of the solve
  }
  CHECK(most_pairs > 0);  // the sheet hanging over the sphere folds onto itself
  sb_world_destroy(w);
}
