// The element's types (web/src/package/index.d.ts): the attribute part is what
// scripts/element_types.mjs generates from the attribute table (no drift), and every js/ts example
// in docs/embedding.md compiles under `tsc --noEmit --strict` against them, as an author's
// TypeScript project would see the package. No browser: tsc only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INDEX_D_TS, elementTypes } from '../../scripts/element_types.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

test('index.d.ts holds the element types generated from the attribute table', () => {
  assert.ok(readFileSync(INDEX_D_TS, 'utf8').includes(elementTypes()), 'run node scripts/element_types.mjs --write');
});

// Misuse the types must refuse (each line after @ts-expect-error has to be an error).
const MISUSE = `import type { SoftBodyElement } from 'softbody';
export function misuse(fig: SoftBodyElement) {
  // @ts-expect-error: not a scene
  fig.scene = 'pile';
  // @ts-expect-error: not a solver in either spelling
  fig.solver = 'leapfrog';
  // @ts-expect-error: a number, not text
  fig.youngsModulus = 'stiff';
  // @ts-expect-error: not an attribute
  fig.setParam('youngs-modulu', 1);
  // @ts-expect-error: material is simple or neo-hookean
  fig.material = 'rubber';
  // @ts-expect-error: no slider for scene
  fig.controls = ['scene'];
}
`;

test('every js and ts example of docs/embedding.md compiles under tsc --strict', () => {
  const docs = readFileSync(join(ROOT, 'docs', 'embedding.md'), 'utf8');
  const examples = [...docs.matchAll(/^ *```(js|ts)\n([\s\S]*?)^ *```$/gm)].map((m) => m[2].replace(/^ {2}/gm, ''));
  assert.ok(examples.length >= 3, `found ${examples.length} examples`);
  const dir = mkdtempSync(join(tmpdir(), 'softbody-types-'));
  try {
    const files = examples.map((code, i) => {
      const name = `example${i}.ts`;
      writeFileSync(join(dir, name), `${code}\nexport {};\n`); // a module each, like a file of its own
      return name;
    });
    writeFileSync(join(dir, 'misuse.ts'), MISUSE);
    files.push('misuse.ts');
    const pkg = join(ROOT, 'web', 'src', 'package');
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler', lib: ['es2022', 'dom'], types: [],
        // What an installed package's "exports" give: the package's own .d.ts files.
        paths: { softbody: [join(pkg, 'index.d.ts')], 'softbody/bridge': [join(pkg, 'bridge.d.ts')] },
      },
      files,
    }));
    try {
      execFileSync(process.execPath, [TSC, '-p', dir], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      const listing = examples.map((code, i) => `--- example${i}.ts\n${code}`).join('\n');
      assert.fail(`tsc --strict on the documented examples:\n${error.stdout}${error.stderr}\n${listing}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
