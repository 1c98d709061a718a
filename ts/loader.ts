// Finds, compiles and instantiates the WASM module. In Node it is read from the package folder; the
// unbundled modules in browsers fetch it from next to this file (a CDN). Bundles use the browser
// entry (index.browser.ts), which passes the inlined module. A caller may pass the module, its bytes
// or its URL.
import { FullRuntime } from "./fullruntime.js";
import { Runtime, setRuntime, hasRuntime, runtime, type Exports, type Limits, type RuntimeClass } from "./runtime.js";

export interface InitOptions {
  /** The module itself, its bytes, or where to fetch it from. */
  wasm?: WebAssembly.Module | BufferSource | URL | string;
  limits?: Partial<Limits>;
}

// Relative to the compiled file, dist/ts/loader.js. The base is a variable on purpose: bundlers
// treat `new URL("literal", import.meta.url)` as an asset to emit (and webpack any other first
// argument as a "critical dependency"), but bundles use the browser entry, which never fetches it.
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

function start(instance: WebAssembly.Instance, limits: Partial<Limits> | undefined, Kind: RuntimeClass): Runtime {
  const rt = new Kind(instance.exports as unknown as Exports);
  if (limits) rt.setLimits(limits);
  setRuntime(rt);
  return rt;
}

let pending: Promise<Runtime> | undefined;

/** Loads the codec once; later calls return the same runtime. */
export function init(options: InitOptions = {}): Promise<Runtime> {
  return initPackaged(options, "hppproto.wasm", FullRuntime);
}

/**
 * init() with one of the packaged modules as the default, starting a runtime of class `Kind`:
 * FullRuntime for the whole codec, Runtime for the decode-only entries (whose programs then carry
 * no encoding code).
 */
export function initPackaged(options: InitOptions, file: PackagedModule, Kind: RuntimeClass): Promise<Runtime> {
  if (hasRuntime()) return Promise.resolve(runtime());
  pending ??= (async () => {
    let rt: Runtime | undefined;
    const imp = imports(() => rt?.mem.sync());
    const src = options.wasm ?? packagedUrl(file);
    let instance: WebAssembly.Instance;
    if (typeof src === "string" || src instanceof URL) {
      instance = (await WebAssembly.instantiate((await loadBytes(src)) as ArrayBuffer, imp)).instance;
    } else if (ArrayBuffer.isView(src) || src instanceof ArrayBuffer) {
      instance = (await WebAssembly.instantiate(src as ArrayBuffer, imp)).instance;
    } else {
      instance = await WebAssembly.instantiate(src as WebAssembly.Module, imp);
    }
    rt = start(instance, options.limits, Kind);
    await rt.instantiateCompiled();
    return rt;
  })();
  pending.catch(() => (pending = undefined));
  return pending;
}

/**
 * Synchronous initialization from the module or its bytes (workers; browsers allow small modules on
 * the main thread). In Node the bytes are read from the package when not given.
 */
export interface InitSyncOptions {
  /** The module itself or its bytes. */
  wasm?: WebAssembly.Module | BufferSource;
  limits?: Partial<Limits>;
}

export function initSync(options: InitSyncOptions = {}): Runtime {
  return initPackagedSync(options, "hppproto.wasm", FullRuntime);
}

/** initSync() with one of the packaged modules as the default (`Kind` as for initPackaged). */
export function initPackagedSync(options: InitSyncOptions, file: PackagedModule, Kind: RuntimeClass): Runtime {
  if (hasRuntime()) return runtime();
  let rt: Runtime | undefined;
  const src = options.wasm ?? readPackagedSync(file);
  const mod = ArrayBuffer.isView(src) || src instanceof ArrayBuffer ? new WebAssembly.Module(src as ArrayBuffer) : (src as WebAssembly.Module);
  rt = start(new WebAssembly.Instance(mod, imports(() => rt?.mem.sync())), options.limits, Kind);
  return rt;
}

/** init() with an inlined module as the default (the browser entries, ts/*.browser.ts). */
export async function initInlined(options: InitOptions, bytes: () => Promise<Uint8Array>, Kind: RuntimeClass): Promise<Runtime> {
  if (hasRuntime()) return runtime(); // before inflating the inlined module again
  return initPackaged({ ...options, wasm: options.wasm ?? (await bytes()) }, "hppproto.wasm", Kind);
}

/** initSync() with an inlined module as the default. */
export function initInlinedSync(options: InitSyncOptions, bytes: () => Uint8Array, Kind: RuntimeClass): Runtime {
  if (hasRuntime()) return runtime();
  return initPackagedSync({ ...options, wasm: options.wasm ?? bytes() }, "hppproto.wasm", Kind);
}
