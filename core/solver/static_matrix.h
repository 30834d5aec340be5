// The static solver's Hessian assembled once per Newton iteration as block sparse rows (3 x 3
// blocks, one row per particle), from each element's exact Hessian (static_model.h). Why assemble:
// CG spends nearly all of a static solve in Hessian products, and the matrix-free product redoes
// each tet's F, cof F and cross products every time (~300 flops per tet); the assembled product is
// ~20 blocks of 9 multiply-adds per particle, for 6 tets per particle on a box lattice (measured in
// docs: Converged statics). Its diagonal blocks are the block-Jacobi preconditioner.
#pragma once
#include <cstdint>
#include <vector>

#include "solver/static_model.h"

namespace sb {

struct BlockSparse {
  uint32_t rows = 0;
  std::vector<uint32_t> row_start;   // rows + 1
  std::vector<uint32_t> column;      // per block, sorted within a row
  std::vector<uint32_t> diagonal;    // per row: the index of its diagonal block
  std::vector<double> value;         // 9 per block, row-major, N/m
  std::vector<uint32_t> tet_block;   // 16 per tet: the block of corners (a, b) at 4 a + b
  std::vector<uint32_t> edge_block;  // 4 per spring (when the model has springs)
};

// The pattern: a block for every pair of particles that share a tet or a spring (values 0).
BlockSparse static_matrix_pattern(const ForceModel& m);

// Values at x: the sum of the elements' exact Hessians.
void static_matrix_assemble(const ForceModel& m, const StaticState& x, BlockSparse& K);

// out = K p (3 per particle).
void static_matrix_product(const BlockSparse& K, const double* p, double* out);

}  // namespace sb
