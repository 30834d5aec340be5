// Strain smoothing's cost (solver/strain_smoothing.h): per tet, the Neo-Hookean force evaluation and
// implicit Euler's Jacobian product with plain tets (a = 0) and with the blend (a = 0.7), and the
// static solve of a cantilever with 2 cells through its thickness (wall time and its tip over
// Timoshenko's). Kernel times are thread CPU time (the machine is shared). Prints one JSON line; driven by tests/bench/smoothing_bench.mjs (npm run bench).
//
//   softbody_bench_smoothing [--cells n] [--repeats n]
#include <algorithm>
#include <cmath>
#include <ctime>
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

// Thread CPU time, ns: on a machine shared with other work, wall time mostly measures the waiting.
double cpu_ns() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e9 * double(ts.tv_sec) + double(ts.tv_nsec);
}

struct Kernels {
  double force_ns_per_tet[2], product_ns_per_tet[2];  // plain (a = 0), smoothed (a = 0.7)
};

// The force model of an n^3-cell box (6 tets per cell), its particles moved by ~1 % strain, timed
// with plain tets and with a = 0.7 in alternation (call by call, so both see the same load on a
// shared machine); medians over `repeats` calls each.
Kernels kernels(int n, int repeats) {
  const sb::TetMesh mesh = sb::make_box(n, n, n, 1.0f, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f);
  const uint32_t particles = uint32_t(mesh.positions.size() / 3), tets = uint32_t(mesh.tets.size() / 4);
  std::vector<float> B(9 * size_t(tets)), rest6(tets), volume(tets), mass(particles, 1.0f), inv(particles, 1.0f);
  for (uint32_t t = 0; t < tets; ++t) {
    sb::rest_shape_inverse(mesh.positions.data(), &mesh.tets[4 * t], &B[9 * size_t(t)]);
    rest6[t] = float(sb::tet_volume6(mesh.positions.data(), &mesh.tets[4 * t]));
    volume[t] = rest6[t] / 6.0f;
  }
  const sb::NeoHookean material = sb::neo_hookean_from(1e6f, 0.3f);
  std::vector<double> work(sb::kSmoothingWork * size_t(particles), std::nan(""));
  sb::ForceModel m[2];
  for (int k = 0; k < 2; ++k) {
    m[k].particle_count = particles;
    m[k].mass = mass.data();
    m[k].inv_mass = inv.data();
    m[k].tets = mesh.tets.data();
    m[k].tet_count = tets;
    m[k].tet_rest6 = rest6.data();
    m[k].neo_hookean = &material;
    m[k].tet_inverse_rest = B.data();
    m[k].tet_rest_volume = volume.data();
  }
  m[1].strain_smoothing = 0.7f;
  m[1].smoothing_work = work.data();
  std::vector<float> x = mesh.positions, v(x.size(), 0.0f), f(x.size()), p(x.size()), out(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] *= 1.0f + 0.01f * float((i * 7919) % 13) / 13.0f;
    p[i] = float((i * 104729) % 17) / 17.0f - 0.5f;
  }
  std::vector<double> t[4];
  for (int r = 0; r < repeats; ++r)
    for (int k = 0; k < 2; ++k) {
      // Forces then a product at the same x, as implicit Euler calls them.
      const double t0 = cpu_ns();
      sb::compute_forces(m[k], x.data(), v.data(), f.data());
      const double t1 = cpu_ns();
      std::fill(out.begin(), out.end(), 0.0f);
      const double t2 = cpu_ns();
      sb::force_jacobian_product(m[k], x.data(), p.data(), 1.0f, 0.0f, out.data());
      const double t3 = cpu_ns();
      t[k].push_back(t1 - t0);
      t[2 + k].push_back(t3 - t2);
    }
  auto median = [](std::vector<double>& a) {
    std::sort(a.begin(), a.end());
    return a[a.size() / 2];
  };
  Kernels k;
  for (int i = 0; i < 2; ++i) {
    k.force_ns_per_tet[i] = median(t[i]) / tets;
    k.product_ns_per_tet[i] = median(t[2 + i]) / tets;
  }
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
  const double t0 = cpu_ns();
  const sb::StaticReport r = b.settle_static(gravity);
  const double seconds = (cpu_ns() - t0) * 1e-9;
  double sum = 0;
  int n = 0;
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    if (b.rest_positions()[3 * i] > 1 - 1e-5f) sum += b.rest_positions()[3 * i + 1] - b.positions()[3 * i + 1], ++n;
  return {seconds, sum / n / (g * per_g), r.newton_iterations, r.cg_iterations, b.tet_count()};
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
  const Kernels k = kernels(cells, repeats);
  const Statics s0 = statics(0.0f), s1 = statics(0.7f);
  std::printf("{\"cells\":%d,\"tets\":%d,\"repeats\":%d,"
              "\"plain\":{\"forceNsPerTet\":%.3f,\"productNsPerTet\":%.3f},"
              "\"smoothed\":{\"forceNsPerTet\":%.3f,\"productNsPerTet\":%.3f},"
              "\"staticPlain\":{\"seconds\":%.5f,\"ratio\":%.4f,\"newton\":%d,\"cg\":%ld,\"tets\":%u},"
              "\"staticSmoothed\":{\"seconds\":%.5f,\"ratio\":%.4f,\"newton\":%d,\"cg\":%ld,\"tets\":%u}}\n",
              cells, 6 * cells * cells * cells, repeats, k.force_ns_per_tet[0], k.product_ns_per_tet[0], k.force_ns_per_tet[1],
              k.product_ns_per_tet[1], s0.seconds, s0.ratio, s0.newton, s0.cg, s0.tets, s1.seconds, s1.ratio, s1.newton, s1.cg,
              s1.tets);
  return 0;
}
