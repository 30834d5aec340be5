// Benchmark-only comparison with TetGen (Debian's `tetgen` executable, run as a separate process;
// nothing of TetGen is linked or shipped): for each test surface, TetGen with `-pq1.2` (the
// surface kept as given, then Delaunay refinement until every tet's radius-edge ratio is at most
// 1.2) against our tetrahedralizer at 10 and 20 grid cells. Reported per row: tets, vertices, the
// minimum of *our* quality measure (tet_quality: 6 sqrt(2) V / l_rms^3) over the output, the
// output's volume against the volume the surface encloses, and wall time.
//
// TetGen is handed our cleaned surface (welded, flat and duplicate faces dropped; clean_surface),
// written as an .smesh file: it rejects the raw test soups (seams, zero-area pole faces). Its time
// is the process's wall time (start-up and file reading included: a few ms), ours the
// Tetrahedralizer's from the raw soup (clean-up included). A TetGen run longer than the time limit
// is stopped and reported as such.
//
// Usage: softbody_tetgen_compare [seconds per TetGen run, default 60] [work directory, default /tmp]
// Needs `tetgen` on the PATH (apt-get install tetgen); not part of npm test or npm run bench.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>

#include "../core/bunny_surface.h"
#include "../core/surfaces.h"
#include "meshing/surface_cleanup.h"
#include "meshing/tetrahedralizer.h"

namespace {

using testing_surfaces::Soup;
using Clock = std::chrono::steady_clock;

using testing_surfaces::box;

using testing_surfaces::two_spheres;

using testing_surfaces::bunny_soup;

struct Measure {
  bool ok = false;
  std::string note;
  int64_t tets = 0, vertices = 0;
  double min_quality = 0, volume = 0, ms = 0;
};

// Quality and volume of a tet mesh (positions xyz, 4 ids per tet; either orientation).
void measure_tets(const std::vector<double>& p, const std::vector<int64_t>& tets, Measure& m) {
  m.tets = int64_t(tets.size() / 4);
  m.min_quality = m.tets ? HUGE_VAL : 0;
  m.volume = 0;
  for (size_t t = 0; t < tets.size(); t += 4) {
    const double* x[4];
    for (int k = 0; k < 4; ++k) x[k] = &p[3 * size_t(tets[t + size_t(k)])];
    double q = sb::tet_quality(x[0], x[1], x[2], x[3]);
    if (q < 0) {  // the other orientation
      q = sb::tet_quality(x[1], x[0], x[2], x[3]);
    }
    m.min_quality = std::min(m.min_quality, q);
    double u[3], v[3], w[3];
    for (int k = 0; k < 3; ++k) {
      u[k] = x[1][k] - x[0][k];
      v[k] = x[2][k] - x[0][k];
      w[k] = x[3][k] - x[0][k];
    }
    m.volume += std::fabs(u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
                          u[2] * (v[0] * w[1] - v[1] * w[0])) / 6.0;
  }
}

Measure run_ours(const Soup& s, int resolution) {
  Measure m;
  sb::TetraOptions o;
  o.resolution = resolution;
  const auto start = Clock::now();
  sb::Tetrahedralizer job(s.positions.data(), s.vertex_count(), s.triangles.data(), s.triangle_count(), o);
  sb::TetraStatus status = sb::TetraStatus::Working;
  if (job.problem() == sb::SurfaceProblem::None)
    while ((status = job.run(1 << 30)) == sb::TetraStatus::Working) {
    }
  m.ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  if (status != sb::TetraStatus::Done) {
    m.note = "no tets kept";
    return m;
  }
  const std::vector<double> p(job.positions().begin(), job.positions().end());
  const std::vector<int64_t> t(job.tets().begin(), job.tets().end());
  measure_tets(p, t, m);
  m.vertices = int64_t(p.size() / 3);
  m.ok = true;
  return m;
}

// Reads TetGen's .node / .ele (whitespace separated, '#' comments; first index 0 or 1).
bool read_tetgen(const std::string& base, std::vector<double>& p, std::vector<int64_t>& tets) {
  auto lines = [](const std::string& file, std::vector<std::vector<double>>& rows) {
    std::ifstream in(file);
    if (!in) return false;
    std::string line;
    while (std::getline(in, line)) {
      const size_t hash = line.find('#');
      if (hash != std::string::npos) line.resize(hash);
      std::istringstream ss(line);
      std::vector<double> row;
      double x;
      while (ss >> x) row.push_back(x);
      if (!row.empty()) rows.push_back(row);
    }
    return !rows.empty();
  };
  std::vector<std::vector<double>> node, ele;
  if (!lines(base + ".node", node) || !lines(base + ".ele", ele)) return false;
  const auto first = int64_t(node.size() > 1 ? node[1][0] : 0);
  p.clear();
  for (size_t i = 1; i < node.size(); ++i) p.insert(p.end(), {node[i][1], node[i][2], node[i][3]});
  tets.clear();
  for (size_t i = 1; i < ele.size(); ++i)
    for (int k = 1; k <= 4; ++k) tets.push_back(int64_t(ele[i][size_t(k)]) - first);
  return true;
}

Measure run_tetgen(const sb::Surface& surface, const std::string& dir, const std::string& name, int seconds) {
  Measure m;
  const std::string base = dir + "/sb_tetgen_" + name;
  {
    std::ofstream out(base + ".smesh");
    out.precision(17);
    out << surface.positions.size() / 3 << " 3 0 0\n";
    for (size_t v = 0; v < surface.positions.size(); v += 3)
      out << v / 3 << ' ' << surface.positions[v] << ' ' << surface.positions[v + 1] << ' ' << surface.positions[v + 2] << '\n';
    out << surface.triangles.size() / 3 << " 0\n";
    for (size_t f = 0; f < surface.triangles.size(); f += 3)
      out << "3 " << surface.triangles[f] << ' ' << surface.triangles[f + 1] << ' ' << surface.triangles[f + 2] << '\n';
    out << "0\n0\n";  // no holes, no regions
  }
  std::remove((base + ".1.node").c_str());
  std::remove((base + ".1.ele").c_str());
  const std::string command = "timeout " + std::to_string(seconds) + " tetgen -pq1.2 -Q " + base + ".smesh > " + base +
                              ".log 2>&1";
  const auto start = Clock::now();
  const int rc = std::system(command.c_str());
  m.ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  std::vector<double> p;
  std::vector<int64_t> t;
  if (rc != 0) {
    m.note = WIFEXITED(rc) && WEXITSTATUS(rc) == 124 ? "stopped after " + std::to_string(seconds) + " s"
                                                       : "failed (exit " + std::to_string(WEXITSTATUS(rc)) + ")";
    return m;
  }
  if (!read_tetgen(base + ".1", p, t)) {
    m.note = "no output";
    return m;
  }
  measure_tets(p, t, m);
  m.vertices = int64_t(p.size() / 3);
  m.ok = true;
  return m;
}

void print_row(const char* surface, const char* mesher, const Measure& m, double surface_volume) {
  if (!m.ok) {
    std::printf("| %s | %s | %s |  |  |  | %.0f |\n", surface, mesher, m.note.c_str(), m.ms);
    return;
  }
  std::printf("| %s | %s | %lld | %lld | %.3f | %+.2f %% | %.0f |\n", surface, mesher, (long long)m.tets,
              (long long)m.vertices, m.min_quality, 100.0 * (m.volume / surface_volume - 1), m.ms);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const int seconds = argc > 1 ? std::atoi(argv[1]) : 60;
  const std::string dir = argc > 2 ? argv[2] : "/tmp";
  if (std::system("command -v tetgen > /dev/null 2>&1") != 0) {
    std::fprintf(stderr, "tetgen is not installed (apt-get install tetgen)\n");
    return 2;
  }
  const std::pair<const char*, Soup> shapes[] = {
      {"UV sphere", testing_surfaces::uv_sphere(1.0f, 48, 24)},
      {"torus", testing_surfaces::torus(1.0f, 0.35f, 64, 24)},
      {"torus knot", testing_surfaces::torus_knot(2, 0.25, 256, 16)},
      {"bunny", bunny_soup()},
      {"two spheres", two_spheres()},
      {"rod 100:1:1", box(100, 1, 1)},
      {"plate 100:100:1", box(1, 1, 0.01f)},
      {"plate 1000:1000:1", box(1, 1, 0.001f)},
  };
  std::printf("| surface | mesher | tets | vertices | min quality | volume | ms |\n");
  std::printf("| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
  int index = 0;
  for (const auto& [name, soup] : shapes) {
    sb::Surface surface;
    sb::CleanupReport report;
    int64_t at = -1;
    sb::clean_surface(soup.positions.data(), soup.vertex_count(), soup.triangles.data(), soup.triangle_count(), surface,
                      report, at);
    print_row(name, "TetGen -pq1.2", run_tetgen(surface, dir, std::to_string(index++), seconds), report.volume);
    for (int resolution : {10, 20})
      print_row(name, resolution == 10 ? "ours, 10 cells" : "ours, 20 cells", run_ours(soup, resolution), report.volume);
  }
  return 0;
}
