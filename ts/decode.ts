// "hppproto/decode": the runtime started with the decode-only module, the codec without its
// encoder (about a quarter smaller), for programs that only decode and read. Everything else is
// "hppproto"'s; encoding with this runtime throws, saying which module it has.
import { initPackaged, initPackagedSync, type InitOptions, type InitSyncOptions } from "./loader.js";
import { Runtime } from "./runtime.js";

export * from "./index.js";

/** Loads the decode-only codec once; later calls return the same runtime. */
export function init(options: InitOptions = {}): Promise<Runtime> {
  return initPackaged(options, "hppproto-decode.wasm", Runtime);
}

/** Synchronous initialization with the decode-only codec (in Node read from the package when not given). */
export function initSync(options: InitSyncOptions = {}): Runtime {
  return initPackagedSync(options, "hppproto-decode.wasm", Runtime);
}
