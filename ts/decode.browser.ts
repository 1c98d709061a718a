// "hppproto/decode" for browsers and bundlers: the decode-only module inlined, as codec.browser.ts
// inlines the whole codec.
import { initWith, initWithSync, type Codec, type InitOptions, type InitSyncOptions } from "./loader.js";
import { CodecRuntime } from "./codecruntime.js";
import type { Runtime } from "./runtime.js";
import { wasmBytes, wasmBytesSync } from "./wasm-inline-decode.js";

export * from "./index.js";

const codec: Codec = { source: wasmBytes, sourceSync: wasmBytesSync, Kind: CodecRuntime };

/** Loads the decode-only codec once; later calls return the same runtime. */
export function init(options: InitOptions = {}): Promise<Runtime> {
  return initWith(options, codec);
}

/** Synchronous initialization from the inlined module (or the one given). */
export function initSync(options: InitSyncOptions = {}): Runtime {
  return initWithSync(options, codec);
}
