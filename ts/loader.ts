// Starts the runtime: without the codec when nothing the program loaded needs it (compiled decoders
// and generated encoders on memory kept in JS, heap.ts), else with it. The codec comes from whoever
// needs it (codec.ts: in Node its file in the package folder, in bundles its bytes inlined) or
// from the caller (its module, bytes or URL).
import { Heap } from "./heap.js";
import { Runtime, setRuntime, hasRuntime, runtime, type Exports, type Limits, type RuntimeClass } from "./runtime.js";

export interface InitOptions {
  /** The codec itself, its bytes, or where to fetch it from, when the program needs it (see init()). */
  wasm?: WebAssembly.Module | BufferSource | URL | string;
  limits?: Partial<Limits>;
}

// Relative to the compiled file, dist/ts/loader.js. The base is a variable on purpose: bundlers
// treat `new URL("literal", import.meta.url)` as an asset to emit (and webpack any other first
// argument as a "critical dependency"), but bundles take the browser variants, which never fetch it.
const here = import.meta.url;
/** The modules the package ships: the codec, and the codec without its encoder (hppproto/decode). */
export type PackagedModule = "hppproto.wasm" | "hppproto-decode.wasm";
const packagedUrl = (file: PackagedModule) => new URL("../../wasm/dist/" + file, here);

function imports(memoryGrew: () => void): WebAssembly.Imports {
  return {
    env: { emscripten_notify_memory_growth: memoryGrew },
    wasi_snapshot_preview1: {
      proc_exit: (code: number) => {
        throw new Error(`hppproto: the WASM module aborted (exit ${code})`);
      },
    },
  };
}

type NodeFs = { readFileSync(path: URL): Uint8Array; promises: { readFile(path: URL): Promise<Uint8Array> } };

/** Node's fs, through process.getBuiltinModule (Node 20.16+): no import for bundlers to follow. */
function nodeFs(): NodeFs | undefined {
  const p = typeof process === "object" ? (process as { getBuiltinModule?: (id: string) => unknown }) : undefined;
  return p?.getBuiltinModule?.("node:fs") as NodeFs | undefined;
}

function readPackagedSync(file: PackagedModule): Uint8Array {
  const fs = nodeFs();
  if (!fs) throw new Error("hppproto: initSync() needs the module or its bytes here: initSync({ wasm })");
  return fs.readFileSync(packagedUrl(file));
}

async function loadBytes(source: URL | string): Promise<ArrayBuffer | Uint8Array> {
  const url = typeof source === "string" ? new URL(source, here) : source;
  const fs = url.protocol === "file:" ? nodeFs() : undefined;
  if (fs) return fs.promises.readFile(url);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`hppproto: could not fetch ${url} (${res.status})`);
  return res.arrayBuffer();
}

/**
 * The codec a program needs, as the module that needs it hands it over (codec.ts: in Node its file
 * in the package, for browsers its bytes inlined), with the runtime class it starts.
 */
export interface Codec {
  source(): Promise<WebAssembly.Module | BufferSource | URL>;
  sourceSync(): WebAssembly.Module | BufferSource;
  Kind: RuntimeClass;
}

/** The codec of the package's file `file` (the whole one or the decode-only one), starting `Kind`. */
export const packagedCodec = (file: PackagedModule, Kind: RuntimeClass): Codec => ({
  source: async () => packagedUrl(file), sourceSync: () => readPackagedSync(file), Kind,
});

let wanted: Codec | undefined;

/**
 * Makes init() load the codec: called when a module that needs it is loaded (codec.ts, imported by
 * them). A runtime already started without it stays so (what needs it then says why).
 */
export function wantCodec(codec: Codec): void {
  wanted ??= codec;
}

function start(instance: WebAssembly.Instance, limits: Partial<Limits> | undefined, Kind: RuntimeClass): Runtime {
  const rt = new Kind(instance.exports as unknown as Exports);
  return started(rt, limits);
}

/** A runtime without the codec: memory, allocator and arenas in JS, decoding with compiled decoders only. */
function startWithoutCodec(limits: Partial<Limits> | undefined): Runtime {
  return started(new Runtime(new Heap().exports()), limits);
}

function started(rt: Runtime, limits: Partial<Limits> | undefined): Runtime {
  if (limits) rt.setLimits(limits);
  setRuntime(rt);
  return rt;
}

let pending: Promise<Runtime> | undefined;

/**
 * Starts the runtime once; later calls return the same runtime. The codec is loaded when a module
 * of the program needs it (ProtoJSON, runtime schemas, files generated for CODE_SIZE, or
 * "hppproto/codec" imported); otherwise decoders compiled for the program's schemas and the
 * generated encoders run on memory kept in JS, and no codec is fetched or compiled.
 */
export function init(options: InitOptions = {}): Promise<Runtime> {
  return initWith(options, wanted);
}

/** The codec instantiated from the module, bytes or URL given, else from its source, and a runtime of its class started on it. */
async function startWithCodec(options: InitOptions, codec: Codec): Promise<Runtime> {
  let rt: Runtime | undefined;
  const imp = imports(() => rt?.mem.sync());
  const src = options.wasm ?? (await codec.source());
  let instance: WebAssembly.Instance;
  if (typeof src === "string" || src instanceof URL) {
    instance = (await WebAssembly.instantiate((await loadBytes(src)) as ArrayBuffer, imp)).instance;
  } else if (ArrayBuffer.isView(src) || src instanceof ArrayBuffer) {
    instance = (await WebAssembly.instantiate(src as ArrayBuffer, imp)).instance;
  } else {
    instance = await WebAssembly.instantiate(src as WebAssembly.Module, imp);
  }
  return (rt = start(instance, options.limits, codec.Kind));
}

/** init() with `codec` (undefined: none). */
export function initWith(options: InitOptions, codec: Codec | undefined): Promise<Runtime> {
  if (hasRuntime()) {
    // (once running: the decoders of modules loaded since, compiled in the background, ready)
    const rt = runtime();
    return rt.instantiateCompiled().then(() => rt);
  }
  pending ??= (async () => {
    const rt = codec === undefined ? startWithoutCodec(options.limits) : await startWithCodec(options, codec);
    await rt.instantiateCompiled();
    return rt;
  })();
  pending.catch(() => (pending = undefined));
  return pending;
}

/**
 * Synchronous initialization (workers; browsers allow small modules on the main thread): in Node
 * the codec, when needed, is read from the package when not given.
 */
export interface InitSyncOptions {
  /** The codec itself or its bytes, when the program needs it. */
  wasm?: WebAssembly.Module | BufferSource;
  limits?: Partial<Limits>;
}

export function initSync(options: InitSyncOptions = {}): Runtime {
  return initWithSync(options, wanted);
}

/** initSync() with `codec` (undefined: none). */
export function initWithSync(options: InitSyncOptions, codec: Codec | undefined): Runtime {
  if (hasRuntime()) return runtime();
  if (codec === undefined) return startWithoutCodec(options.limits);
  let rt: Runtime | undefined;
  const src = options.wasm ?? codec.sourceSync();
  const mod = ArrayBuffer.isView(src) || src instanceof ArrayBuffer ? new WebAssembly.Module(src as ArrayBuffer) : (src as WebAssembly.Module);
  rt = start(new WebAssembly.Instance(mod, imports(() => rt?.mem.sync())), options.limits, codec.Kind);
  return rt;
}
