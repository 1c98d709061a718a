// The codec's module, instantiated and started as the runtime: from its file in the package (Node;
// unbundled in browsers, fetched from next to the package's modules), from bytes inlined into a
// bundle (codec.browser.ts), or from the module, bytes or URL the caller gives init().
import type { InitOptions, InitSyncOptions, Starter } from "./loader.js";
import { setRuntime, type Exports, type Runtime, type RuntimeClass } from "./runtime.js";

// Relative to the compiled file, dist/ts/instantiate.js. The base is a variable on purpose: bundlers
// treat `new URL("literal", import.meta.url)` as an asset to emit (and webpack any other first
// argument as a "critical dependency"), but bundles take the browser variants, which never fetch it.
const here = import.meta.url;
/** The modules the package ships: the codec, and the codec without its encoder (hppproto/decode). */
export type PackagedModule = "hppproto.wasm" | "hppproto-decode.wasm";
const packagedUrl = (file: PackagedModule) => new URL("../../wasm/dist/" + file, here);

function imports(memoryGrew: () => void): WebAssembly.Imports {
  return {
    env: {
      emscripten_notify_memory_growth: () => {
        // never throws into the C++ allocator growing memory (a JS stack that ran out would leave
        // it half done); cut short, the next Memory.sync() refreshes again
        try {
          memoryGrew();
        } catch {
          // (see above)
        }
      },
    },
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

/** A runtime of class Kind on the codec's instance, made the runtime. */
function start(instance: WebAssembly.Instance, Kind: RuntimeClass, rt: { current?: Runtime }): void {
  rt.current = new Kind(instance.exports as unknown as Exports);
  setRuntime(rt.current);
}

/**
 * What starts the codec: the module, bytes or URL given to init(), else `source()` (sync:
 * `sourceSync()`), instantiated, with a runtime of class Kind on it.
 */
export function codecStarter(
  source: () => Promise<WebAssembly.Module | BufferSource | URL>, sourceSync: () => WebAssembly.Module | BufferSource, Kind: RuntimeClass,
): Starter {
  return {
    async start(options: InitOptions) {
      const rt: { current?: Runtime } = {};
      const imp = imports(() => rt.current?.mem.sync());
      const src = options.wasm ?? (await source());
      let instance: WebAssembly.Instance;
      if (typeof src === "string" || src instanceof URL) {
        instance = (await WebAssembly.instantiate((await loadBytes(src)) as ArrayBuffer, imp)).instance;
      } else if (ArrayBuffer.isView(src) || src instanceof ArrayBuffer) {
        instance = (await WebAssembly.instantiate(src as ArrayBuffer, imp)).instance;
      } else {
        instance = await WebAssembly.instantiate(src as WebAssembly.Module, imp);
      }
      start(instance, Kind, rt);
    },
    startSync(options: InitSyncOptions) {
      const rt: { current?: Runtime } = {};
      const src = options.wasm ?? sourceSync();
      const mod = ArrayBuffer.isView(src) || src instanceof ArrayBuffer ? new WebAssembly.Module(src as ArrayBuffer) : (src as WebAssembly.Module);
      start(new WebAssembly.Instance(mod, imports(() => rt.current?.mem.sync())), Kind, rt);
    },
  };
}

/** The codec of the package's file `file` (the whole one or the decode-only one), starting `Kind`. */
export const packagedCodec = (file: PackagedModule, Kind: RuntimeClass): Starter =>
  codecStarter(async () => packagedUrl(file), () => readPackagedSync(file), Kind);
