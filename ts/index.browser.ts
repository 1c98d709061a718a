// The entry bundlers pick for browsers (the "browser" export condition): the same runtime, with the
// WASM module inlined, so a bundle needs no loader configuration and no file copied next to it.
// Pass `wasm` to init() to fetch it instead (from a CDN, or for streaming compilation).
import { FullRuntime } from "./fullruntime.js";
import { initInlined, initInlinedSync, type InitOptions, type InitSyncOptions } from "./loader.js";
import type { Runtime } from "./runtime.js";
import { wasmBytes, wasmBytesSync } from "./wasm-inline.js";

export * from "./index.js";

/** Loads the codec once; later calls return the same runtime. */
export function init(options: InitOptions = {}): Promise<Runtime> {
  return initInlined(options, wasmBytes, FullRuntime);
}

/** Synchronous initialization from the inlined module (or the one given). */
export function initSync(options: InitSyncOptions = {}): Runtime {
  return initInlinedSync(options, wasmBytesSync, FullRuntime);
}
