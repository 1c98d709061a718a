// "hppproto/decode": the runtime started with the decode-only module, the codec without its
// encoder (about a quarter smaller), for programs that need the codec (runtime schemas, files
// generated for CODE_SIZE) and only decode and read. Everything else is "hppproto"'s; encoding what
// only the codec encodes (views of such files) throws, saying which module it has.
import { initWith, initWithSync, type InitOptions, type InitSyncOptions } from "./loader.js";
import { packagedCodec } from "./instantiate.js";
import { CodecRuntime } from "./codecruntime.js";

export * from "./index.js";

const codec = packagedCodec("hppproto-decode.wasm", CodecRuntime);

/** Loads the decode-only codec once; later calls resolve once modules loaded since are ready. */
export function init(options: InitOptions = {}): Promise<void> {
  return initWith(options, codec);
}

/** Synchronous initialization with the decode-only codec (in Node read from the package when not given). */
export function initSync(options: InitSyncOptions = {}): void {
  initWithSync(options, codec);
}
