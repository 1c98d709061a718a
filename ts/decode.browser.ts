// "hppproto/decode" for browsers and bundlers: the decode-only module inlined, as ts/index.browser.ts
// inlines the whole codec.
import { initInlined, initInlinedSync, type InitOptions, type InitSyncOptions } from "./loader.js";
import { Runtime } from "./runtime.js";
import { wasmBytes, wasmBytesSync } from "./wasm-inline-decode.js";

export * from "./index.js";

/** Loads the decode-only codec once; later calls return the same runtime. */
export function init(options: InitOptions = {}): Promise<Runtime> {
  return initInlined(options, wasmBytes, Runtime);
}

/** Synchronous initialization from the inlined module (or the one given). */
export function initSync(options: InitSyncOptions = {}): Runtime {
  return initInlinedSync(options, wasmBytesSync, Runtime);
}
