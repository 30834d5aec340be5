// npm run build: the npm package and the static site, into dist/.
//
//   dist/index.js        the bridge and <soft-body> (registers the element on import in a browser)
//   dist/bridge.js       the bridge alone (no three.js, no DOM)
//   dist/tetra_worker.js the tetrahedralization worker the element starts for sample scenes and src
//   dist/softbody.wasm   the physics, found by the code through new URL('./softbody.wasm', import.meta.url)
//   dist/wasm-mt/        the multi-threaded build (glue, .wasm, pthread worker script), loaded instead
//                        when the page is cross-origin isolated (docs "Threads in the browser")
//   dist/*.d.ts          types
//   dist/site/           the demo, comparison, article and iframe pages, relative paths (any folder)
//
// Library mode of Vite would inline the .wasm (and the worker) as base64 into the JavaScript, and a
// bundler using the package would never see them as files. So the two URLs are kept out of Vite's
// hands while it builds (a placeholder), and written back as plain new URL('./x', import.meta.url)
// literals once the chunks are laid out: the page's bundler (Vite, webpack, ...) then copies the
// .wasm and bundles the worker like any asset of its own, and without a bundler the browser finds
// them next to the module.
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WEB = join(ROOT, 'web');
const SRC = join(WEB, 'src');
const DIST = join(ROOT, 'dist');
const PLACEHOLDER = '__softbodyPackageAsset';
const THREADED_GLUE = "const THREADED_GLUE = 'wasm-mt/softbody-mt.mjs';";
const THREADED_DIR = join(WEB, 'public', 'wasm-mt');
const THREADED_FILES = ['softbody-mt.mjs', 'softbody-mt.wasm', 'softbody-mt.worker.js'];

// The URLs to keep for the page's bundler: file -> [the expression in the source, the file it names].
const ASSET_URLS = {
  [join(SRC, 'wasm_module.js')]: ["new URL('./wasm/softbody.wasm', import.meta.url)", 'softbody.wasm'],
  [join(SRC, 'import', 'tetra_client.js')]: ["new URL('./tetra_worker.js', import.meta.url)", 'tetra_worker.js'],
};

function packageAssets() {
  return {
    name: 'softbody-package-assets',
    enforce: 'pre',
    transform(code, id) {
      const entry = ASSET_URLS[id.split('?')[0]];
      if (!entry) return null;
      const [expression, file] = entry;
      // A source that no longer has the expression would silently ship an inlined copy: refuse.
      if (!code.includes(expression)) throw new Error(`${id} no longer contains ${expression}; update scripts/build_package.mjs`);
      let out = code.replace(expression, `${PLACEHOLDER}(${JSON.stringify(file)})`);
      // The threaded glue: beside the package's files, not relative to the page as in the site.
      if (id.split('?')[0] === join(SRC, 'wasm_module.js')) {
        if (!out.includes(THREADED_GLUE)) throw new Error(`${id} no longer contains ${THREADED_GLUE}; update scripts/build_package.mjs`);
        out = out.replace(THREADED_GLUE, `const THREADED_GLUE = ${PLACEHOLDER}Beside("wasm-mt/softbody-mt.mjs");`);
      }
      return { code: out, map: null };
    },
    renderChunk(code, chunk) {
      if (!code.includes(PLACEHOLDER)) return null;
      const from = dirname(chunk.fileName);
      const beside = (file) => {
        const path = relative(from, file) || file;
        return JSON.stringify(path.startsWith('.') ? path : `./${path}`);
      };
      // Beside: a URL no bundler resolves (the path is a parameter, not a literal): a bundler would
      // copy the glue alone, without the .wasm and the worker script it loads from its own folder.
      // Bundled, the URL then names a missing file and the page falls back to one thread, unless the
      // app copied wasm-mt/ and said where (useThreadedBuild, docs).
      const out = code
        .replace(new RegExp(`${PLACEHOLDER}Beside\\("([^"]+)"\\)`, 'g'), (_, file) => `((path) => new URL(path, import.meta.url).href)(${beside(file)})`)
        .replace(new RegExp(`${PLACEHOLDER}\\("([^"]+)"\\)`, 'g'), (_, file) => `new URL(${beside(file)}, import.meta.url)`);
      return { code: out, map: null };
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'softbody.wasm', source: readFileSync(join(SRC, 'wasm', 'softbody.wasm')) });
      for (const file of THREADED_FILES) {
        const path = join(THREADED_DIR, file);
        if (!existsSync(path)) throw new Error(`${path} is missing: run bash scripts/setup.sh start (it builds the multi-threaded module)`);
        this.emitFile({ type: 'asset', fileName: `wasm-mt/${file}`, source: readFileSync(path) });
      }
    },
  };
}

export async function buildPackage({ outDir = DIST, site = true, logLevel = 'warn' } = {}) {
  rmSync(outDir, { recursive: true, force: true });
  await build({
    configFile: false,
    root: WEB,
    logLevel,
    plugins: [packageAssets()],
    build: {
      outDir,
      emptyOutDir: true,
      copyPublicDir: false,
      lib: {
        entry: {
          index: join(SRC, 'package', 'index.js'),
          bridge: join(SRC, 'package', 'bridge.js'),
          tetra_worker: join(SRC, 'import', 'tetra_worker.js'),
        },
        formats: ['es'],
      },
      // three.js is the page's (a peer dependency): one copy however many libraries use it.
      rollupOptions: { external: [/^three($|\/)/] },
    },
  });
  for (const name of ['index.d.ts', 'bridge.d.ts']) copyFileSync(join(SRC, 'package', name), join(outDir, name));
  if (site) {
    // The pages, built as web/vite.config.js says (relative paths: they work from any folder).
    await build({ root: WEB, configFile: join(WEB, 'vite.config.js'), logLevel, build: { outDir: join(outDir, 'site'), emptyOutDir: true } });
  }
  return outDir;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = await buildPackage();
  console.log(`built ${relative(process.cwd(), out) || out}/ (package) and ${relative(process.cwd(), join(out, 'site'))}/ (static site)`);
}
