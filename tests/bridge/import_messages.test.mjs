// What the page says about imports (web/src/import/import_messages.js): one sentence per C API
// code, the file's name in front, the open-surface warning, the readout's summary. No wasm.
import assert from 'node:assert/strict';
import test from 'node:test';

import { ImportError, ImportErrorKind } from '../../web/src/import/import_error.js';
import { describeImportError, meshSummary, openSurfaceWarning, tetFileSummary } from '../../web/src/import/import_messages.js';
import { ErrorCode, SoftbodyError } from '../../web/src/softbody.js';

test('C API codes become sentences, with the C text kept for details', () => {
  const cases = [
    [ErrorCode.EMPTY_MESH, /no usable triangle/],
    [ErrorCode.FLAT_MESH, /encloses no volume/],
    [ErrorCode.NO_INSIDE_TETS, /no tet ended up inside the surface\. Is it closed\?/],
    [ErrorCode.TOO_LARGE, /at most 1,000,000 vertices and 2,000,000 triangles/],
    [ErrorCode.NOT_FINITE, /not finite numbers/],
    [ErrorCode.INDEX_OUT_OF_RANGE, /refers to a vertex the mesh does not have/],
  ];
  for (const [code, sentence] of cases) {
    const shown = describeImportError(new SoftbodyError(code, 'SB_ERR_X', 'SB_ERR_X: detail from C'), 'cat.obj');
    assert.match(shown.message, /^Could not import cat\.obj: /);
    assert.match(shown.message, sentence);
    assert.match(shown.message, /\(SB_ERR_X: detail from C\)$/);
  }
  assert.equal(describeImportError(new SoftbodyError(ErrorCode.DIVERGED, 'SB_ERR_DIVERGED', 'SB_ERR_DIVERGED: boom'), 'a').message, 'Could not import a: SB_ERR_DIVERGED: boom');
});

test('file errors keep their file name; others get the request name', () => {
  assert.equal(describeImportError(new ImportError('x.stl', 'not an STL file', ImportErrorKind.UNPARSABLE), 'x.stl').message, 'Could not import x.stl: not an STL file');
  assert.equal(describeImportError(new ImportError(null, '2 meshes were given', ImportErrorKind.TOO_MANY), 'a + b').message, 'Could not import a + b: 2 meshes were given');
  assert.equal(describeImportError(new Error('the tetrahedralization worker failed'), 'bunny').message, 'Could not import bunny: the tetrahedralization worker failed');
});

test('open surfaces warn; summaries count in words', () => {
  assert.equal(openSurfaceWarning({ openEdges: 0 }, 'a.obj'), null);
  assert.match(openSurfaceWarning({ openEdges: 1 }, 'a.obj'), /^a\.obj is not a closed surface \(1 open edge\)/);
  assert.match(openSurfaceWarning({ openEdges: 1200 }, 'a.obj'), /\(1,200 open edges\)/);
  const stats = { vertices: 1, tets: 2075, slivers: 1, minQuality: 0.0207, meanQuality: 0.5795, milliseconds: 236.9 };
  assert.equal(meshSummary(stats), '1 vertex · 2,075 tets · 1 sliver removed · quality min 0.02, mean 0.58 · 237 ms');
  const mesh = { positions: new Float32Array(12), tets: new Uint32Array(4), flipped: 1, unusedVertices: 2 };
  assert.equal(tetFileSummary(mesh), '4 vertices · 1 tet · 1 tet re-oriented · 2 unused vertices dropped');
});
