// The pages: the demo (index.html), the integrator comparison (compare.html), the chrome-less
// figure for iframes (embed.html) and the tutorial (article.html). Vite builds only
// index.html unless told about the others. (The browser tests start Vite without this file; the dev
// server serves every page in web/ anyway.)
import { fileURLToPath } from 'node:url';
import { docsPlugin } from './docs_plugin.js';
import { texPlugin } from './tex_plugin.js';

// Cross-origin isolation: with these headers a page may share memory with workers, so the pages
// load the multi-threaded physics build (web/src/wasm_module.js). A static host must send the same
// two headers for that (README "Threads in the browser"); without them the pages use one thread.
const ISOLATION_HEADERS = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default ({ command }) => ({
  // Where the pages' "copy embed code" points a pasted <script type="module">: the build's own
  // softbody.js entry (below); the dev server, which has no such file, serves the source module.
  define: command === 'build' ? { __SOFTBODY_ELEMENT__: JSON.stringify('./softbody.js') } : {},
  server: { headers: ISOLATION_HEADERS },
  preview: { headers: ISOLATION_HEADERS },
  // Relative asset paths: the built site works from any folder (a blog's sub-folder, GitHub
  // Pages), not only from the server's root.
  base: './',
  // The article's equations: TeX in the HTML, MathML in what the browser gets (tex_plugin.js); the
  // docs as pages at docs/ (docs_plugin.js).
  plugins: [texPlugin(), docsPlugin()],
  // The bunny sample's npm package is CommonJS; the dev server serves only ES modules, so it is
  // pre-bundled (converted) at start-up. The browser tests' server does the same (harness.mjs).
  optimizeDeps: { include: ['bunny'] },
  // The tetrahedralization worker is an ES module (it imports the wasm bridge).
  worker: { format: 'es' },
  build: {
    rollupOptions: {
      input: {
        demo: fileURLToPath(new URL('./index.html', import.meta.url)),
        compare: fileURLToPath(new URL('./compare.html', import.meta.url)),
        embed: fileURLToPath(new URL('./embed.html', import.meta.url)),
        article: fileURLToPath(new URL('./article.html', import.meta.url)),
        // The element on its own, at a fixed address (softbody.js): what "copy embed code" points
        // a pasted <script type="module"> at. three.js is bundled in, so no import map is needed.
        softbody: fileURLToPath(new URL('./src/embed/index.js', import.meta.url)),
      },
      output: { entryFileNames: (chunk) => (chunk.name === 'softbody' ? 'softbody.js' : 'assets/[name]-[hash].js') },
    },
  },
});
