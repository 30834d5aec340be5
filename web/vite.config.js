// Two pages: the demo (index.html) and the integrator comparison (compare.html). Vite builds only
// index.html unless told about the others. (The browser tests start Vite without this file; the dev
// server serves every page in web/ anyway.)
import { fileURLToPath } from 'node:url';

export default {
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
      },
    },
  },
};
