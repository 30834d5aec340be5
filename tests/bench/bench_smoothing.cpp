// Strain smoothing's cost (solver/strain_smoothing.h): per tet, the Neo-Hookean force evaluation and
// implicit Euler's Jacobian product with plain tets (a = 0) and with the blend (a = 0.7), and the
// static solve of a cantilever with 2 cells through its thickness (wall time and its tip over
// Timoshenko's). Prints one JSON line; driven by tests/bench/smoothing_bench.mjs (npm run bench).
//
//   softbody_bench_smoothing [--cells n] [--repeats n]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "materials/neo_hookean.h"
#include "shapes/shapes.h"
#include "shapes/tet_mesh.h"
#include "solver/soft_body.h"
#include "solver/spring_forces.h"
#include "solver/strain_smoothing.h"

namespace {

using Clock = std::chrono::steady_clock;

// Median of `repeats` timings of f, ns.
template <class F>
double median_ns(int repeats, F&& f) {
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = Clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct Kernels {
  double force_ns_per_tet, product_ns_per_tet;
};

// The force model of an n^3-cell box (6 tets per cell), its particles jittered by ~1 % strain.
Kernels kernels(int n, int repeats, float a) {
  const sb::TetMesh mesh = sb::make_box(n, n, n, 1.0f, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f);
  const uint32_t particles = uint32_t(mesh.positions.size() / 3), tets = uint32_t(mesh.tets.size() / 4);
  std::vector<float> B(9 * size_t(tets)), rest6(tets), volume(tets), mass(particles, 1.0f), inv(particles, 1.0f);
  for (uint32_t t = 0; t < tets; ++t) {
    sb::rest_shape_inverse(mesh.positions.data(), &mesh.tets[4 * t], &B[9 * size_t(t)]);
    rest6[t] = float(sb::tet_volume6(mesh.positions.data(), &mesh.tets[4 * t]));
    volume[t] = rest6[t] / 6.0f;
  }
  const sb::NeoHookean material = sb::neo_hookean_from(1e6f, 0.3f);
  std::vector<double> work(sb::kSmoothingWork * size_t(particles));
  sb::ForceModel m;
  m.particle_count = particles;
  m.mass = mass.data();
  m.inv_mass = inv.data();
  m.tets = mesh.tets.data();
  m.tet_count = tets;
  m.tet_rest6 = rest6.data();
  m.neo_hookean = &material;
  m.tet_inverse_rest = B.data();
  m.tet_rest_volume = volume.data();
  m.strain_smoothing = a;
  m.smoothing_work = work.data();
  std::vector<float> x = mesh.positions, v(x.size(), 0.0f), f(x.size()), p(x.size()), out(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] *= 1.0f + 0.01f * float((i * 7919) % 13) / 13.0f;
    p[i] = float((i * 104729) % 17) / 17.0f - 0.5f;
  }
  Kernels k;
  k.force_ns_per_tet = median_ns(repeats, [&] { sb::compute_forces(m, x.data(), v.data(), f.data()); }) / tets;
  k.product_ns_per_tet = median_ns(repeats, [&] {
                           std::fill(out.begin(), out.end(), 0.0f);
                           sb::force_jacobian_product(m, x.data(), p.data(), 1.0f, 0.0f, out.data());
                         }) / tets;
  return k;
}

struct Statics {
  double seconds, ratio;
  int newton;
  long cg;
  uint32_t tets;
};

// The 1 m x 0.1 m x 0.1 m cantilever, 20 x 2 x 2 cells, E = 1 MPa, nu = 0.3, under the gravity that
// makes Timoshenko's tip 1 % of L.
Statics statics(float a) {
  sb::BodyParams p;
  p.material = sb::Material::NeoHookean;
  p.youngs_modulus = 1e6f;
  p.poisson_ratio = 0.3f;
  p.strain_smoothing = a;
  sb::SoftBody b(sb::make_box(20, 2, 2, 1.0f, 0.1f, 0.1f, 0.5f, 1.0f, 0.0f), p);
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    if (b.rest_positions()[3 * i] < 1e-5f) b.set_pinned(i, true);
  const double E = 1e6, nu = 0.3, h = 0.1, A = h * h, I = h * h * h * h / 12, G = E / (2 * (1 + nu));
  const double kappa = 10 * (1 + nu) / (12 + 11 * nu), w1 = 1000.0 * A;  // weight per m per m/s^2
  const double per_g = w1 / (8 * E * I) + w1 / (2 * kappa * G * A);  // tip sag per m/s^2 (L = 1 m), m
  const double g = 0.01 / per_g;
  const float gravity[3] = {0.0f, float(-g), 0.0f};
  const sb::StaticReport r = b.settle_static(gravity);
  double sum = 0;
  int n = 0;
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    if (b.rest_positions()[3 * i] > 1 - 1e-5f) sum += b.rest_positions()[3 * i + 1] - b.positions()[3 * i + 1], ++n;
  return {r.seconds, sum / n / (g * per_g), r.newton_iterations, r.cg_iterations, b.tet_count()};
}

}  // namespace

int main(int argc, char** argv) {
  int cells = 24, repeats = 21;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--cells") cells = std::atoi(argv[i + 1]);
    else if (a == "--repeats") repeats = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "softbody_bench_smoothing: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  const Kernels k0 = kernels(cells, repeats, 0.0f), k1 = kernels(cells, repeats, 0.7f);
  const Statics s0 = statics(0.0f), s1 = statics(0.7f);
  std::printf("{\"cells\":%d,\"tets\":%d,\"repeats\":%d,"
              "\"plain\":{\"forceNsPerTet\":%.3f,\"productNsPerTet\":%.3f},"
              "\"smoothed\":{\"forceNsPerTet\":%.3f,\"productNsPerTet\":%.3f},"
              "\"staticPlain\":{\"seconds\":%.5f,\"ratio\":%.4f,\"newton\":%d,\"cg\":%ld,\"tets\":%u},"
              "\"staticSmoothed\":{\"seconds\":%.5f,\"ratio\":%.4f,\"newton\":%d,\"cg\":%ld,\"tets\":%u}}\n",
              cells, 6 * cells * cells * cells, repeats, k0.force_ns_per_tet, k0.product_ns_per_tet, k1.force_ns_per_tet,
              k1.product_ns_per_tet, s0.seconds, s0.ratio, s0.newton, s0.cg, s0.tets, s1.seconds, s1.ratio, s1.newton, s1.cg,
              s1.tets);
  return 0;
}
