// The entry bundlers pick for browsers (the "browser" export condition): the same runtime, with the
// WASM module inlined, so a bundle needs no loader configuration and no file copied next to it.
// Pass `wasm` to init() to fetch it instead (from a CDN, or for streaming compilation).
import { init as initFrom, initSync as initSyncFrom, type InitOptions, type InitSyncOptions } from "./loader.js";
import { hasRuntime, runtime, type Runtime } from "./runtime.js";
import { wasmBytes, wasmBytesSync } from "./wasm-inline.js";

export * from "./index.js";

/** Loads the codec once; later calls return the same runtime. */
export async function init(options: InitOptions = {}): Promise<Runtime> {
  if (hasRuntime()) return runtime(); // before inflating the inlined module again
  return initFrom({ ...options, wasm: options.wasm ?? (await wasmBytes()) });
}

/** Synchronous initialization from the inlined module (or the one given). */
export function initSync(options: InitSyncOptions = {}): Runtime {
  if (hasRuntime()) return runtime();
  return initSyncFrom({ ...options, wasm: options.wasm ?? wasmBytesSync() });
}
