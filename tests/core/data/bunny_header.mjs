// Writes the Stanford bunny of the `bunny` npm package as a C++ header for the doctest suites
// (native and wasm builds both compile it in; the wasm tests have no file system).
// Usage: node tests/core/data/bunny_header.mjs <out.h>
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const bunny = require('bunny');
const positions = bunny.positions.flat();
const cells = bunny.cells.flat();
const out = process.argv[2];
if (!out) throw new Error('usage: node bunny_header.mjs <out.h>');
writeFileSync(
  out,
  `// Generated from the bunny npm package (public domain) by tests/core/data/bunny_header.mjs.
#pragma once
#include <cstdint>
namespace bunny {
constexpr int kVertexCount = ${positions.length / 3};
constexpr int kTriangleCount = ${cells.length / 3};
constexpr float kPositions[] = {${positions.map((x) => `${x}f`).join(',')}};
constexpr uint32_t kTriangles[] = {${cells.join(',')}};
}  // namespace bunny
`,
);
