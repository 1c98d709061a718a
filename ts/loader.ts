// init(): what the modules a program loaded need started. A module that needs the codec registers
// it (codec.ts: wantCodec); compiled decoders register their instantiation (compiled.ts:
// whenInitialized); generated decoders of plain objects need nothing but the limits (limits.ts),
// so a program of those alone starts nothing. A runtime without the codec is made by the first
// operation that needs one (runtime.ts).
import { isInitialized, markInitialized, setLimits, type Limits } from "./limits.js";

export interface InitOptions {
  /** The codec itself, its bytes, or where to fetch it from, when the program needs it (see init()). */
  wasm?: WebAssembly.Module | BufferSource | URL | string;
  limits?: Partial<Limits>;
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

/** What starts a runtime on the codec (instantiate.ts); generated code names the codec's (codecstarter.ts). Not an API. */
export interface Starter {
  start(options: InitOptions): Promise<void>;
  startSync(options: InitSyncOptions): void;
}

let wanted: Starter | undefined;

/**
 * @internal Makes init() start the codec: called when a module that needs it is loaded (codec.ts,
 * imported by them). A runtime already started without it stays so (what needs it then says why).
 */
export function wantCodec(codec: Starter): void {
  wanted ??= codec;
}

let after: (() => Promise<void>) | undefined;

/** @internal what init() awaits once the runtime may run, and again on every later call (compiled decoders instantiating) */
export function whenInitialized(ready: () => Promise<void>): void {
  after = ready;
}

let pending: Promise<void> | undefined;

/**
 * Starts what the program needs, once; later calls resolve once modules loaded since are ready.
 * The codec is loaded when a module of the program needs it (ProtoJSON, runtime schemas, files
 * generated for CODE_SIZE, or "hppproto/codec" imported); otherwise decoders compiled for the
 * program's schemas and the generated encoders run on memory kept in JS, and no codec is fetched
 * or compiled.
 */
export function init(options: InitOptions = {}): Promise<void> {
  return initWith(options, wanted);
}

/** @internal init() starting `codec` (undefined: none) */
export function initWith(options: InitOptions, codec: Starter | undefined): Promise<void> {
  if (isInitialized()) return after?.() ?? Promise.resolve();
  pending ??= (async () => {
    if (options.limits) setLimits(options.limits);
    await codec?.start(options);
    markInitialized();
    await after?.();
  })();
  pending.catch(() => (pending = undefined));
  return pending;
}

export function initSync(options: InitSyncOptions = {}): void {
  initWithSync(options, wanted);
}

/** @internal initSync() starting `codec` (undefined: none) */
export function initWithSync(options: InitSyncOptions, codec: Starter | undefined): void {
  if (isInitialized()) return;
  if (options.limits) setLimits(options.limits);
  codec?.startSync(options);
  markInitialized();
}
