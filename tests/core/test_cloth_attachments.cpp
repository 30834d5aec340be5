// Long-range attachments (solver/cloth_attachments.h): a hanging sheet under one XPBD pass stays
// within its rest distance of its pins with them, and runs away past it without.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "shapes/cloth_mesh.h"
#include "solver/soft_body.h"

using namespace sb;

TEST_CASE("Cloth long-range attachments: a sheet hanging from its top edge stretches no further than its material allows") {
  // A 0.5 m square sheet, 0.2 kg/m^2, Y = 1e4 N/m (the default), hanging from its pinned top row,
  // 24 x 28 triangles, one XPBD pass per substep at 10 substeps. As a membrane bar under its own
  // weight its bottom hangs rho g L^2 / (2 Y) = 25 um lower than at rest: each vertex's distance to
  // the pin above it grows by at most rho g L / (2 Y) = 5e-5 of it. One pass carries a pin's pull
  // down a few rows per substep, so the sheet sags far more than that (measured below: the bound is
  // 20x the membrane's stretch, 1e-3). With attachments at stretch 1, no vertex is ever farther from
  // its nearest pin than at rest (to float rounding, 1e-5 relative), so the stretch stays within it.
  const float L = 0.5f, rho = 0.2f, Y = 1e4f;
  const double membrane = rho * 9.81 * L / (2 * Y);
  double worst[2];
  for (int lra = 0; lra < 2; ++lra) {
    BodyParams p;
    p.areal_density = rho;
    p.edge_compliance = 1.0f / Y;
    p.iterations = 1;
    p.damping = 1.0f;
    p.long_range_stretch = lra ? 1.0f : 0.0f;
    SoftBody b(make_cloth_rectangle(24, 28, L, L, 0, 0, 0, true), p);
    for (uint32_t i = 0; i < b.vertex_count(); ++i)
      if (b.rest_positions()[3 * i + 1] > L / 2 - 1e-5f) b.set_pinned(i, true);
    // The attachments measured (built on the first step when on; here also when off, to measure).
    LongRangeAttachments measure;
    std::vector<float> rest_edges(b.edge_count());
    for (uint32_t e = 0; e < b.edge_count(); ++e) {
      const float* a = b.rest_positions() + 3 * b.edges()[2 * e];
      const float* c = b.rest_positions() + 3 * b.edges()[2 * e + 1];
      rest_edges[e] = std::sqrt((a[0] - c[0]) * (a[0] - c[0]) + (a[1] - c[1]) * (a[1] - c[1]) + (a[2] - c[2]) * (a[2] - c[2]));
    }
    std::vector<uint8_t> pinned(b.vertex_count());
    for (uint32_t i = 0; i < b.vertex_count(); ++i) pinned[i] = b.pinned(i);
    build_long_range_attachments(measure, b.vertex_count(), b.edges(), rest_edges.data(), b.edge_count(), pinned.data(),
                                 b.rest_positions(), true);
    REQUIRE(measure.vertex.size() == b.vertex_count() - 25);  // every vertex but the 25 pins of the top row
    StepSettings s;
    s.ground = false;
    worst[lra] = 0;
    for (int f = 0; f < 120; ++f) {
      REQUIRE(b.step(1.0f / 60, s));
      for (size_t k = 0; k < measure.vertex.size(); ++k) {
        const float* x = b.positions() + 3 * measure.vertex[k];
        const float* a = b.positions() + 3 * measure.anchor[k];
        const double d = std::sqrt(double(x[0] - a[0]) * (x[0] - a[0]) + double(x[1] - a[1]) * (x[1] - a[1]) + double(x[2] - a[2]) * (x[2] - a[2]));
        worst[lra] = std::max(worst[lra], d / measure.length[k] - 1);
      }
    }
    if (lra) CHECK(b.long_range_attachments().vertex.size() == measure.vertex.size());
    MESSAGE(std::string(lra ? "with" : "without") << " attachments: the most a vertex got farther from its pin than at rest " << worst[lra]
                                       << " of it (membrane bar " << membrane << ")");
  }
  CHECK(worst[0] > 20 * membrane);
  CHECK(worst[1] < 20 * membrane);
  CHECK(worst[1] < 1e-5);  // never past the rest distance
}
