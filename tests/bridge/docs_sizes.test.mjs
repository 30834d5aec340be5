// The docs' sizes are measured, not typed: docs/benchmarks.md carries the table npm run bench
// writes (tests/bench/size_bench.mjs) between its markers, and no doc (nor the README) states a size
// in kB outside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { BEGIN, BENCHMARKS_MD, END, sizesTable, withSizesTable } from '../bench/size_bench.mjs';

test('benchmarks.md holds the generated size table between its markers', () => {
  const text = readFileSync(BENCHMARKS_MD, 'utf8');
  const inside = text.slice(text.indexOf(BEGIN) + BEGIN.length, text.indexOf(END));
  assert.ok(text.includes(BEGIN) && text.includes(END), 'the markers are there');
  assert.match(inside, /^\nMeasured \d{4}-\d\d-\d\d \d\d:\d\d UTC by `npm run bench`/);
  assert.match(inside, /\| `softbody\.wasm` \(single-threaded\) \| \d+\.\d kB \| \d+\.\d kB \|/);
  // Writing a table replaces only what is between the markers.
  const table = sizesTable({ date: '2026-01-01T00:00:00Z', three: '0.0.0', rows: [{ what: 'x', gzip: 1000, raw: 2000 }] });
  const written = withSizesTable(text, table);
  assert.equal(written.slice(0, text.indexOf(BEGIN)), text.slice(0, text.indexOf(BEGIN)));
  assert.equal(written.slice(written.indexOf(END)), text.slice(text.indexOf(END)));
  assert.ok(written.includes('| x | 1.0 kB | 2.0 kB |'));
});

test('no doc types a size in kB outside the generated table', () => {
  const files = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  for (const file of files) {
    let text = readFileSync(file, 'utf8');
    if (text.includes(BEGIN)) text = text.slice(0, text.indexOf(BEGIN)) + text.slice(text.indexOf(END));
    // A target is a requirement, not a measurement ("a target of 40 kB").
    const typed = text.replace(/target\s+of\s+\d+ kB/g, 'target').split('\n').filter((line) => /\d\s?kB\b/.test(line));
    assert.deepEqual(typed, [], `${file} types sizes; npm run bench writes them into docs/benchmarks.md`);
  }
});
