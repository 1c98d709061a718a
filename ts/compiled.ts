// Decoders compiled for one .proto file's messages (codegen/wasm/decoder.ts): a small WASM module
// that hppproto-gen writes into the file's schema (base64) and the runtime instantiates against the
// codec's memory and its arenas, linked to the modules of the files it refers to (whose parse
// functions it calls for their messages). Each decodes, or fails with the codec's error, building
// the records the codec builds (test/compiled.test.ts).
import { awaitingInstantiation as waiting, FieldFlag, type SchemaDef } from "./schema.js";
import { whenInitialized } from "./loader.js";
import { runtime } from "./runtime.js";
import { COMPILED_IMPORTS, CORE_IMPORT, DECODER_STATE, DELIMITED_EXPORT, FRAME_MODULE_SHIFT, LAYOUT_EXPORT, layoutHash, LINK_PREFIX } from "./compiledabi.js";

const MAX_MODULES = (1 << (32 - FRAME_MODULE_SHIFT)) - 1;

/** One message's decoder: (arena, data, size, reset) -> its record, 1 for an error (the codec's Status set), or 0 for the codec. */
export type CompiledDecoder = (arena: number, data: number, size: number, reset: number) => number;

/** A length-delimited run's decoder: (arena, data, size, reset, out) -> 2 (the array slot out holds the records), 1 for an error, or 0 for the codec. */
export type DelimitedDecoder = (arena: number, data: number, size: number, reset: number, out: number) => number;

/** A schema's decoders by message index (messages of files generated for CODE_SIZE have none), and those of delimited runs. */
export interface Decoders extends ReadonlyArray<CompiledDecoder | undefined> {
  readonly delimited: readonly (DelimitedDecoder | undefined)[];
}

/** What the runtime gives a compiled module. */
export interface CompiledHost {
  memory: WebAssembly.Memory;
  limits: number;
  status: number;
  arenaReset: (arena: number) => void;
  /** The bytes an arena holds. */
  arenaReserved: (arena: number) => number;
  /** (arena, size, reserved at the decode's start, input size, offset) -> the next block's allocation, or 0 with the Status set. */
  arenaGrow: (arena: number, size: number, reserved: number, inputSize: number, at: number) => number;
  /** (arena, head, cur): everything allocated since dropped. */
  arenaRewind: (arena: number, head: number, cur: number) => void;
  /** DECODER_STATE's globals (decoderState()), shared by every module instantiated for this host. */
  state: Readonly<Record<(typeof DECODER_STATE)[number], WebAssembly.Global>>;
  /** The schemas of the modules instantiated for this host, by their number less 1 (FRAME_MODULE_SHIFT). */
  readonly modules: SchemaDef[];
  /** The core module's exports (the helpers every module imports), once instantiated for this host. */
  core?: WebAssembly.Exports;
}

/** The schema and message index a path frame's message word names, for a decode of `def`. */
export function frameMessage(host: CompiledHost, def: SchemaDef, word: number): readonly [SchemaDef, number] {
  const id = word >>> FRAME_MODULE_SHIFT;
  return [id === 0 ? def : host.modules[id - 1] ?? def, word & ((1 << FRAME_MODULE_SHIFT) - 1)];
}

/** A fresh set of DECODER_STATE's globals, for a host. */
export function decoderState(): CompiledHost["state"] {
  return Object.fromEntries(DECODER_STATE.map((name) => [name, new WebAssembly.Global({ value: "i32", mutable: true }, 0)])) as CompiledHost["state"];
}

/** What a compiled module is instantiated with: the host's, and the instances of its linked files' modules. */
export function compiledImports(host: CompiledHost, def: SchemaDef, links: readonly (WebAssembly.Instance | null)[] = []): WebAssembly.Imports | undefined {
  const names = COMPILED_IMPORTS;
  const address = (value: number) => new WebAssembly.Global({ value: "i32" }, value);
  if (host.modules.length >= MAX_MODULES) return undefined; // more modules than path frames can tell apart: those decode through the codec
  const id = host.modules.push(def);
  const fromHost = {
    [names.memory]: host.memory, [names.limits]: address(host.limits), [names.status]: address(host.status),
    [names.arenaReset]: host.arenaReset, [names.arenaReserved]: host.arenaReserved, [names.arenaGrow]: host.arenaGrow, [names.arenaRewind]: host.arenaRewind,
    ...host.state,
  };
  // the core (generated code hands it over with its module: programs without compiled decoders
  // carry none): 2.5 KB, under what browsers compile synchronously on their main thread
  if (host.core === undefined && def.core !== undefined) {
    host.core = new WebAssembly.Instance(new WebAssembly.Module(bytesOf(def.core)), { [names.module]: fromHost }).exports;
  }
  const imports: WebAssembly.Imports = { [names.module]: { ...fromHost, [names.moduleId]: address(id) }, [CORE_IMPORT]: host.core ?? {} };
  // (a link without a module, or with one not used, gives nothing: a module importing from it fails to link)
  links.forEach((link, i) => (imports[`${LINK_PREFIX}${i}`] = link?.exports ?? {}));
  return imports;
}

/** The instance's decoders by message index (an instance checked for def's layouts). */
function decoders(instance: WebAssembly.Instance, def: SchemaDef): Decoders {
  const exports = instance.exports as Record<string, CompiledDecoder & DelimitedDecoder>;
  return Object.assign(def.messages.map((_, i) => exports[i]), { delimited: def.messages.map((_, i) => exports[`${DELIMITED_EXPORT}${i}`]) });
}

function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  const chars = atob(base64);
  const out = new Uint8Array(chars.length);
  for (let i = 0; i < chars.length; i++) out[i] = chars.charCodeAt(i);
  return out;
}

/** Each host's instances by schema: null for a schema whose module is missing, or was compiled for other layouts. */
const instances = new WeakMap<CompiledHost, Map<SchemaDef, WebAssembly.Instance | null>>();
/** Each host's instantiations in progress. */
const pending = new WeakMap<CompiledHost, Map<SchemaDef, Promise<WebAssembly.Instance | null>>>();

const cacheOf = <T>(map: WeakMap<CompiledHost, Map<SchemaDef, T>>, host: CompiledHost): Map<SchemaDef, T> => {
  let m = map.get(host);
  if (m === undefined) map.set(host, (m = new Map()));
  return m;
};

/**
 * The module instantiated, if its layouts are def's, else null: a module for other layouts (a
 * runtime upgraded without regenerating), or linked to modules that do not export what it imports
 * (files generated apart from each other with other versions), is never used nor linked to.
 */
function checked(instantiate: () => WebAssembly.Instance, def: SchemaDef): WebAssembly.Instance | null {
  try {
    return ofLayouts(instantiate(), def);
  } catch (e) {
    return unlinked(e);
  }
}

/** null for an instantiation that failed to link (see checked()); anything else thrown again. */
function unlinked(e: unknown): null {
  if (e instanceof WebAssembly.LinkError) return null;
  throw e;
}

/** Whether every module a compiled module imports from is there (a schema with other links than its module's is not). */
const linkable = (module: WebAssembly.Module, imports: WebAssembly.Imports): boolean =>
  WebAssembly.Module.imports(module).every((i) => imports[i.module] !== undefined);

const ofLayouts = (instance: WebAssembly.Instance, def: SchemaDef): WebAssembly.Instance | null =>
  (instance.exports[LAYOUT_EXPORT] as WebAssembly.Global | undefined)?.value === schemaHash(def) ? instance : null;

/** layoutHash() of a schema, as the generator computed it for the module. */
const schemaHash = (def: SchemaDef): number =>
  layoutHash(def.messages, (f) => (f.flags & FieldFlag.ClosedEnum ? def.enums[f.ref]!.values.map(([n]) => n) : undefined));

/**
 * def's module instantiated synchronously with those of its links (null: it is missing, for other
 * layouts, or imports from a link that has none), or undefined where the engine refuses to compile
 * it here.
 */
function instanceSync(def: SchemaDef, host: CompiledHost): WebAssembly.Instance | null | undefined {
  const cache = cacheOf(instances, host);
  const known = cache.get(def);
  if (known !== undefined) return known;
  if (def.compiled === undefined) return null;
  const links: (WebAssembly.Instance | null)[] = [];
  for (const link of def.links) {
    const instance = instanceSync(link, host);
    if (instance === undefined) return undefined;
    links.push(instance);
  }
  let module: WebAssembly.Module;
  try {
    module = new WebAssembly.Module(bytesOf(def.compiled));
  } catch (e) {
    if (e instanceof RangeError) return undefined; // browsers refuse modules over 4 KB on their main thread
    throw e;
  }
  const imports = compiledImports(host, def, links);
  const instance = imports === undefined || !linkable(module, imports) ? null : checked(() => new WebAssembly.Instance(module, imports), def);
  cache.set(def, instance);
  return instance;
}

/** instanceSync(), in the background: its links first. */
function instanceAsync(def: SchemaDef, host: CompiledHost): Promise<WebAssembly.Instance | null> {
  const known = cacheOf(instances, host).get(def);
  if (known !== undefined) return Promise.resolve(known);
  const inProgress = cacheOf(pending, host);
  let p = inProgress.get(def);
  if (p === undefined) {
    p = (async () => {
      if (def.compiled === undefined) return null;
      const links = await Promise.all(def.links.map((link) => instanceAsync(link, host)));
      const imports = compiledImports(host, def, links);
      const module = await WebAssembly.compile(bytesOf(def.compiled));
      if (imports === undefined || !linkable(module, imports)) return null;
      return WebAssembly.instantiate(module, imports).then((instance) => ofLayouts(instance, def), unlinked);
    })();
    inProgress.set(def, p);
    void p.then((instance) => {
      cacheOf(instances, host).set(def, instance);
      inProgress.delete(def);
    }, () => inProgress.delete(def));
  }
  return p;
}

const none = (): Decoders => Object.assign([], { delimited: [] });

/**
 * def's decoders, instantiated synchronously where the engine allows it; undefined if def has no
 * compiled module. Browsers refuse to compile modules over 4 KB synchronously on their main
 * thread: there the module is instantiated in the background and `ready` receives its decoders,
 * while decodes until then use the codec (without it they fail, saying so: init() again waits).
 */
export function instantiateCompiled(def: SchemaDef, host: CompiledHost, ready: (d: Decoders) => void): Decoders | undefined {
  if (def.compiled === undefined) return undefined;
  waiting.delete(def);
  const instance = instanceSync(def, host);
  if (instance !== undefined) return instance === null ? none() : decoders(instance, def);
  void instanceAsync(def, host).then((i) => ready(i === null ? none() : decoders(i, def)));
  return undefined;
}

/** Once every instantiation in the background for this host has ended. */
export function compiling(host: CompiledHost): Promise<unknown> {
  return Promise.allSettled([...cacheOf(pending, host).values()]);
}

/**
 * Called by generated code: def with the decoders compiled for its file (a WASM module, base64),
 * which import their helpers from `core` (the runtime's COMPILED_CORE) and call those of the linked
 * files (their generated code names them, so that a bundle keeps them). Its own declaration, named
 * only by what decodes: a program that only encodes carries no decoders.
 */
export function compiledDecoders(def: SchemaDef, module: string, core: string, _linked?: readonly SchemaDef[]): SchemaDef {
  def.compiled = module;
  def.core = core;
  waiting.add(def); // init() instantiates them, or the first decode once it has run
  whenInitialized(instantiateAll);
  return def;
}

const instantiateAll = () => runtime().instantiateCompiled();

/** Every waiting schema's decoders, instantiated in the background (init()'s last step). */
export async function instantiateWaiting(host: CompiledHost, ready: (def: SchemaDef, d: Decoders) => void): Promise<void> {
  const defs = [...waiting];
  waiting.clear();
  await Promise.all(defs.map(async (def) => {
    const instance = await instanceAsync(def, host);
    ready(def, instance === null ? none() : decoders(instance, def));
  }));
}
