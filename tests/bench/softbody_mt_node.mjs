// Loads the multi-threaded wasm build (build-wasm/softbody-mt.mjs, -pthread) under node.
//
// The build is made for browsers and workers (-sENVIRONMENT=web,worker): its pthread pool makes
// Web Workers, `new Worker(new URL('softbody-mt.worker.js', import.meta.url))`, talks to them
// through onmessage/postMessage, and its worker script expects a Web Worker's globals (self,
// postMessage, onmessage). Node 20 has no global Worker, and worker_threads' Worker is an
// EventEmitter, so this hands the module a small Web-Worker-like wrapper whose thread first sets
// those globals (this file, run as the worker's entry) and then loads the build's worker script.
import { isMainThread, parentPort, Worker as NodeWorker, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';

if (!isMainThread && workerData?.softbodyPthread) {
  // Worker side: Web Worker globals, then the build's worker script. Messages that arrive before
  // the script has set onmessage are kept and handed over in order.
  const early = [];
  globalThis.self = globalThis;
  globalThis.postMessage = (message, transfer) => parentPort.postMessage(message, transfer);
  parentPort.on('message', (data) => (globalThis.onmessage ? globalThis.onmessage({ data }) : early.push(data)));
  await import(workerData.softbodyPthread);
  while (early.length) globalThis.onmessage({ data: early.shift() });
}

class WebLikeWorker {
  constructor(url) {
    this.worker = new NodeWorker(new URL(import.meta.url), { workerData: { softbodyPthread: String(url) } });
    this.worker.on('message', (data) => {
      if (data?.cmd === 'loaded') this.worker.unref(); // a loaded, idle pool worker does not keep node alive
      this.onmessage?.({ data });
    });
    this.worker.on('error', (error) => this.onerror?.(error));
  }
  postMessage(message, transfer) {
    this.worker.postMessage(message, transfer);
  }
  terminate() {
    return this.worker.terminate();
  }
}

// The module factory's options for loadSoftbody: { factory, wasmBinary }.
export async function softbodyMtOptions(dir = new URL('../../build-wasm/', import.meta.url)) {
  if (typeof globalThis.Worker === 'undefined') globalThis.Worker = WebLikeWorker;
  const { default: factory } = await import(new URL('softbody-mt.mjs', dir));
  return { factory, wasmBinary: readFileSync(new URL('softbody-mt.wasm', dir)) };
}
