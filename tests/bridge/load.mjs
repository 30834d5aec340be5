// Loads the bridge in node: the module is built for web+worker, so it gets the wasm bytes directly.
import { readFileSync } from 'node:fs';
import { loadSoftbody } from '../../web/src/softbody.js';

export function load() {
  const wasmBinary = readFileSync(new URL('../../web/src/wasm/softbody.wasm', import.meta.url));
  return loadSoftbody({ wasmBinary });
}
