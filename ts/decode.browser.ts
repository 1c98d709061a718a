// "hppproto/decode" for browsers and bundlers: the decode-only module inlined, as codec.browser.ts
// inlines the whole codec.
import { initWith, initWithSync, type InitOptions, type InitSyncOptions } from "./loader.js";
import { codecStarter } from "./instantiate.js";
import { CodecRuntime } from "./codecruntime.js";
import { wasmBytes, wasmBytesSync } from "./wasm-inline-decode.js";

export * from "./index.js";

const codec = codecStarter(wasmBytes, wasmBytesSync, CodecRuntime);

/** Loads the decode-only codec once; later calls resolve once modules loaded since are ready. */
export function init(options: InitOptions = {}): Promise<void> {
  return initWith(options, codec);
}

/** Synchronous initialization from the inlined module (or the one given). */
export function initSync(options: InitSyncOptions = {}): void {
  initWithSync(options, codec);
}
