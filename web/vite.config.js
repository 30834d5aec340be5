// Two pages: the demo (index.html) and the integrator comparison (compare.html). Vite builds only
// index.html unless told about the others. (The browser tests start Vite without this file; the dev
// server serves every page in web/ anyway.)
import { fileURLToPath } from 'node:url';

export default {
  build: {
    rollupOptions: {
      input: {
        demo: fileURLToPath(new URL('./index.html', import.meta.url)),
        compare: fileURLToPath(new URL('./compare.html', import.meta.url)),
      },
    },
  },
};
