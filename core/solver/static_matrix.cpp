#include "solver/static_matrix.h"

#include <algorithm>

namespace sb {

namespace {

uint64_t key(uint32_t row, uint32_t col) { return (uint64_t(row) << 32) | col; }

uint32_t find_block(const BlockSparse& K, uint32_t row, uint32_t col) {
  const auto begin = K.column.begin() + K.row_start[row], end = K.column.begin() + K.row_start[row + 1];
  return uint32_t(std::lower_bound(begin, end, col) - K.column.begin());
}

// Adds the (a, b) corner block of a dense element matrix (n corners, row-major 3n x 3n) to block k.
void add_block(BlockSparse& K, uint32_t k, const double* H, int n, int a, int b) {
  double* out = &K.value[9 * size_t(k)];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out[3 * i + j] += H[size_t(3 * n) * size_t(3 * a + i) + size_t(3 * b + j)];
}

}  // namespace

BlockSparse static_matrix_pattern(const ForceModel& m) {
  BlockSparse K;
  K.rows = m.particle_count;
  const bool springs = m.edge_stiffness > 0.0f;
  std::vector<uint64_t> keys;
  keys.reserve(16 * size_t(m.tet_count) + (springs ? 4 * size_t(m.edge_count) : 0) + m.particle_count);
  for (uint32_t i = 0; i < m.particle_count; ++i) keys.push_back(key(i, i));
  for (uint32_t t = 0; t < m.tet_count; ++t)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) keys.push_back(key(m.tets[4 * t + a], m.tets[4 * t + b]));
  if (springs)
    for (uint32_t s = 0; s < m.edge_count; ++s)
      for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 2; ++b) keys.push_back(key(m.edges[2 * s + a], m.edges[2 * s + b]));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  K.row_start.assign(size_t(K.rows) + 1, 0);
  K.column.resize(keys.size());
  for (size_t k = 0; k < keys.size(); ++k) {
    ++K.row_start[(keys[k] >> 32) + 1];
    K.column[k] = uint32_t(keys[k]);
  }
  for (uint32_t r = 0; r < K.rows; ++r) K.row_start[r + 1] += K.row_start[r];
  K.diagonal.resize(K.rows);
  for (uint32_t r = 0; r < K.rows; ++r) K.diagonal[r] = find_block(K, r, r);
  K.tet_block.resize(16 * size_t(m.tet_count));
  for (uint32_t t = 0; t < m.tet_count; ++t)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) K.tet_block[16 * size_t(t) + 4 * a + b] = find_block(K, m.tets[4 * t + a], m.tets[4 * t + b]);
  if (springs) {
    K.edge_block.resize(4 * size_t(m.edge_count));
    for (uint32_t s = 0; s < m.edge_count; ++s)
      for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 2; ++b) K.edge_block[4 * size_t(s) + 2 * a + b] = find_block(K, m.edges[2 * s + a], m.edges[2 * s + b]);
  }
  K.value.assign(9 * K.column.size(), 0.0);
  return K;
}

void static_matrix_assemble(const ForceModel& m, const StaticState& x, BlockSparse& K) {
  std::fill(K.value.begin(), K.value.end(), 0.0);
  double H[144];
  if (m.neo_hookean || m.volume_stiffness > 0.0f)
    for (uint32_t t = 0; t < m.tet_count; ++t) {
      static_tet_hessian(m, x, t, H);
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) add_block(K, K.tet_block[16 * size_t(t) + 4 * a + b], H, 4, a, b);
    }
  if (!K.edge_block.empty())
    for (uint32_t s = 0; s < m.edge_count; ++s) {
      static_edge_hessian(m, x, s, H);
      for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 2; ++b) add_block(K, K.edge_block[4 * size_t(s) + 2 * a + b], H, 2, a, b);
    }
}

void static_matrix_product(const BlockSparse& K, const double* p, double* out) {
  for (uint32_t r = 0; r < K.rows; ++r) {
    double y0 = 0.0, y1 = 0.0, y2 = 0.0;
    for (uint32_t k = K.row_start[r]; k < K.row_start[r + 1]; ++k) {
      const double* b = &K.value[9 * size_t(k)];
      const double* v = &p[3 * size_t(K.column[k])];
      y0 += b[0] * v[0] + b[1] * v[1] + b[2] * v[2];
      y1 += b[3] * v[0] + b[4] * v[1] + b[5] * v[2];
      y2 += b[6] * v[0] + b[7] * v[1] + b[8] * v[2];
    }
    out[3 * size_t(r)] = y0;
    out[3 * size_t(r) + 1] = y1;
    out[3 * size_t(r) + 2] = y2;
  }
}

}  // namespace sb
