// The runtime: linear memory, staging buffers, compiled decoders. One per JS realm, started by
// init() with the codec when a module the program loaded wants it (loader.ts), else by the first
// operation that needs one. This class runs without the codec, on the memory and arenas a Heap
// keeps in JS (heap.ts): it decodes with compiled decoders only.
// CodecRuntime (codecruntime.ts) adds the codec's table-driven decoder, and FullRuntime
// (fullruntime.ts) its encoder and ProtoJSON, so that programs without them carry none of that code.
import { codeName, DecodeError } from "./errors.js";
import type { FullRuntime } from "./fullruntime.js";
import {
  LIMITS_ALLOW_PARTIAL, LIMITS_MAX_AMPLIFICATION, LIMITS_MAX_DEPTH, LIMITS_MAX_ELEMENTS, LIMITS_MAX_MESSAGE_SIZE, PATH_ENTRY_FIELD, PATH_ENTRY_INDEX,
  PATH_ENTRY_MESSAGE, PATH_ENTRY_SIZE, STATUS_CODE, STATUS_DETAIL, STATUS_OFFSET, STATUS_PATH, STATUS_PATH_SIZE, STATUS_TRUNCATED,
} from "./abi.js";
import { Heap } from "./heap.js";
import { assertInitialized, budgetCap, limits, MAX_INPUT, partialPending, takePartial, writeLimitsTo, type Limits } from "./limits.js";
import { compiling, decoderState, frameMessage, instantiateCompiled, instantiateWaiting, type CompiledHost, type Decoders } from "./compiled.js";
import { byteOffsetOf, detachedInput } from "./input.js";
import { Memory } from "./memory.js";
import type { SchemaDef } from "./schema.js";

/**
 * What a runtime runs on: the codec's exports, or for a program that does not need the codec, the
 * memory, allocator and arenas a Heap keeps in JS (heap.ts), which has none of the members marked
 * "the codec's".
 */
export interface Exports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(ptr: number): void;
  hp_status(): number;
  hp_limits(): number;
  // the codec's
  _initialize?(): void;
  hp_abi?(): number;
  hp_schema_load?(ptr: number, size: number): number;
  hp_schema_free?(schema: number): void;
  hp_arena_new(limit: number, firstBlock: number): number;
  hp_arena_free(arena: number): void;
  hp_arena_reset(arena: number): void;
  hp_arena_reserved(arena: number): number;
  hp_arena_alloc(arena: number, size: number): number;
  hp_arena_rewind(arena: number, head: number, cur: number): void;
  hp_arena_grow(arena: number, size: number, reserved: number, inputSize: number, at: number): number;
  // the codec's
  hp_decode?(schema: number, message: number, arena: number, ptr: number, size: number, reset: number): number;
  hp_decode_delimited?(
    schema: number, message: number, arena: number, ptr: number, size: number, reset: number, out: number,
  ): number;
  // the codec's, and absent from the decode-only module (hppproto/decode)
  hp_encode?(schema: number, message: number, rec: number): number;
  hp_encoded_size?(schema: number, message: number, rec: number): number;
  hp_encode_delimited?(schema: number, message: number, recs: number, count: number): number;
  hp_output?(): number;
  hp_json_names_load?(schema: number, ptr: number, size: number): number;
  hp_json_names_free?(names: number): void;
  hp_json_decode?(schema: number, names: number, message: number, arena: number, ptr: number, size: number, reset: number): number;
  hp_json_encode?(schema: number, names: number, message: number, rec: number, flags: number, numbers: number): number;
  hp_json_numbers?(): number;
  hp_json_quote?(ptr: number, size: number): number;
  // the codec's
  stackSave?(): number;
  stackRestore?(sp: number): void;
}

export function decodeOnly(typeName?: string): never {
  if (!runtime().hasCodec) throw new Error(codecMissing(typeName === undefined ? "this" : `encoding views and builders of ${typeName}`));
  throw new Error('hppproto: the runtime was started with the decode-only module (init() from "hppproto/decode"), which cannot encode; init() from "hppproto" loads the whole codec');
}

/** Why `what` cannot run: init() started without the codec. */
export function codecMissing(what: string): string {
  return `hppproto: ${what} needs the codec, and init() started without it: no module loaded before init() needed it. ` +
    'Import what needs it (ProtoJSON, runtime schemas, files generated for CODE_SIZE) before init(), or import "hppproto/codec" to load it always';
}

/** The runtime class an entry starts: Runtime (decode-only) or FullRuntime. */
export type RuntimeClass = new (exports: Exports) => Runtime;

/**
 * @internal The plain-object budget outside a decode's read-out (views read out, for one): charges
 * leave it as it is. (A finite one, 1 GiB, ran out after enough read-outs of views over a process's
 * life: nothing resets it between them.)
 */
export const UNBOUNDED = Infinity;

export class Runtime {
  readonly mem: Memory;
  private readonly statusPtr: number;
  private readonly limitsPtr: number;
  /** Each schema's compiled decoders (compiled.ts); null: it has none, or they are still being instantiated. */
  private compiled = new WeakMap<SchemaDef, Decoders | null>();
  private lastCompiledSchema: SchemaDef | undefined;
  private lastCompiled: Decoders | null = null;
  private compiledOn = true;
  private readonly compiledHost: CompiledHost;
  /** Input of decodes into the default view arena: views point into it until the next such decode. */
  private readonly viewStaging = { ptr: 0, size: 0 };
  /** Input of decodes whose results are copied out at once (decode(), decodeDelimited()). */
  protected readonly copyStaging = { ptr: 0, size: 0 };
  protected readonly slotPtr: number; // an ArraySlot the batch decoder (and the JSON writer) write into
  private zeroPtr = 0;
  private zeroSize = 0;
  /** The WASM stack pointer between calls (the codec never calls back into JS code that calls it). */
  private readonly stackBase: number;
  /**
   * Set while a call into the codec runs: still set at the next call, it means the last one never
   * came back (it trapped, and at the end of the JS stack not even its catch block could run), so the
   * WASM stack pointer is where the trap left it.
   */
  protected calling = false;

  constructor(readonly exports: Exports) {
    exports._initialize?.();
    this.stackBase = (exports.stackSave?.() ?? 0) >>> 0;
    this.mem = new Memory(exports.memory);
    this.statusPtr = exports.hp_status() >>> 0;
    this.limitsPtr = exports.hp_limits() >>> 0;
    this.slotPtr = this.malloc(16);
    // the export itself as the import: a call from WASM to WASM
    this.compiledHost = {
      memory: exports.memory, limits: this.limitsPtr, status: this.statusPtr,
      arenaReset: exports.hp_arena_reset, arenaReserved: exports.hp_arena_reserved, arenaGrow: exports.hp_arena_grow, arenaRewind: exports.hp_arena_rewind,
      state: decoderState(), modules: [],
    };
  }

  /**
   * @internal the compiled decoders of schemas defined before the runtime started, instantiated,
   * and those being instantiated in the background, ready (init()'s last step, and what init()
   * awaits again once the runtime runs)
   */
  async instantiateCompiled(): Promise<void> {
    await instantiateWaiting(this.compiledHost, (def, decoders) => this.compiledReady(def, decoders));
    await compiling(this.compiledHost);
  }

  /** @internal def's compiled decoders, or null (none, not yet instantiated, or turned off) */
  compiledDecoders(def: SchemaDef): Decoders | null {
    if (def === this.lastCompiledSchema) return this.lastCompiled;
    let decoders = this.compiled.get(def);
    if (decoders === undefined) {
      decoders = (this.compiledOn && instantiateCompiled(def, this.compiledHost, (d) => this.compiledReady(def, d))) || null;
      this.compiled.set(def, decoders);
    }
    this.lastCompiledSchema = def;
    this.lastCompiled = decoders;
    return decoders;
  }

  /** @internal false: every decode through the codec's tables (for tests comparing the two) */
  set useCompiled(on: boolean) {
    this.compiledOn = on;
    this.compiled = new WeakMap();
    this.lastCompiledSchema = undefined;
  }

  private compiledReady(def: SchemaDef, decoders: Decoders): void {
    if (!this.compiledOn) return;
    this.compiled.set(def, decoders);
    this.lastCompiledSchema = undefined;
  }

  /** @internal this runtime if it can encode (FullRuntime), else undefined (the decode-only runtime, or one without the codec) */
  get full(): FullRuntime | undefined {
    return undefined;
  }

  /** Whether the codec runs under this runtime (false: memory and arenas in JS, heap.ts, and only compiled decoders). */
  get hasCodec(): boolean {
    return false;
  }

  /** @internal the limits copied into the codec's Limits struct, where its decoders and compiled ones read them */
  writeLimits(l: Readonly<Limits>): void {
    const p = this.limitsPtr;
    const u32 = this.mem.u32;
    u32[(p + LIMITS_MAX_DEPTH) >>> 2] = l.maxDepth;
    u32[(p + LIMITS_MAX_MESSAGE_SIZE) >>> 2] = l.maxMessageSize;
    u32[(p + LIMITS_MAX_ELEMENTS) >>> 2] = l.maxElements;
    u32[(p + LIMITS_MAX_AMPLIFICATION) >>> 2] = l.maxAmplification;
  }

  /** @internal what the plain objects being read out may still take (plain.ts charge()); UNBOUNDED outside a decode */
  plainBudget = UNBOUNDED;
  /** @internal the size of the input stage() copied last */
  stagedSize = 0;

  /**
   * @internal starts the read-out of a decode of `inputSize` bytes: the budget of its plain objects,
   * as the arena's (maxAmplification bytes per input byte and 1 MiB); the caller puts back UNBOUNDED.
   */
  readOut(inputSize: number): void {
    this.plainBudget = budgetCap(0, limits.maxAmplification, inputSize);
  }

  /** @internal the plain object `read` makes of the record at rec, decoded from `inputSize` bytes, under that decode's budget */
  readPlain<T>(read: (m: Memory, p: number, rt: Runtime) => T, rec: number, inputSize: number): T {
    this.readOut(inputSize);
    try {
      return read(this.mem, rec, this);
    } finally {
      this.plainBudget = UNBOUNDED;
    }
  }

  /** @internal the codec's allow_partial limit, for the call into WASM about to be made */
  allowPartial(partial: boolean): void {
    this.mem.sync(); // (after a call that grew memory)
    this.mem.u32[(this.limitsPtr + LIMITS_ALLOW_PARTIAL) >>> 2] = partial ? 1 : 0;
  }

  malloc(size: number): number {
    // the export takes a 32-bit size: anything larger would wrap to a small block
    if (!(size >= 0 && size <= 0xffffffff)) throw new DecodeError("OUT_OF_MEMORY", 0, "");
    const p = this.exports.malloc(size) >>> 0;
    this.mem.sync();
    if (p === 0) throw new DecodeError("OUT_OF_MEMORY", 0, "");
    return p;
  }

  /**
   * The schema's handle in the codec (CodecRuntime loads its table on first use), after making the
   * zeroed record as large as its records; 0 here, without the codec.
   */
  schema(def: SchemaDef): number {
    if (def.maxRecordSize > this.zeroSize) this.ensureZeroRecord(def.maxRecordSize);
    return 0;
  }

  /** A zeroed record as large as any registered message: what an absent map value reads as. */
  get zeroRecord(): number {
    return this.zeroPtr;
  }

  private ensureZeroRecord(size: number): void {
    if (size <= this.zeroSize) return;
    // The smaller one is kept, not freed: views of absent map values point at it for their life
    // (freed, another allocation took its memory and they read that). Doubling bounds what is kept
    // to the size of the last one.
    size = Math.max(size, this.zeroSize * 2);
    const p = this.malloc(size);
    this.mem.u8.fill(0, p, p + size);
    this.zeroPtr = p;
    this.zeroSize = size;
  }

  /**
   * Copies bytes into a staging buffer (input for scratch decodes), `shift` bytes past an 8-byte
   * boundary (see align.ts), and returns their address. Views on the default arena point into the
   * `views` buffer, so only the next view decode on that arena (which makes them stale) reuses it;
   * decodes whose results are copied out at once share the other. Input that aliases memory (a
   * view's bytes field) is detached if the staging buffer grows: callers take its length first.
   */
  stage(bytes: Uint8Array, n: number, shift: number, forViews: boolean): number {
    this.stagedSize = n;
    const staging = forViews ? this.viewStaging : this.copyStaging;
    const need = n + shift;
    if (need > MAX_INPUT) throw new DecodeError("MESSAGE_TOO_LARGE", 0, "");
    const m = this.mem;
    m.sync(); // (growth may have come from outside a call into WASM, or its refresh been cut short: see Memory.refresh)
    if (n === 0) {
      const e = detachedInput(bytes, n);
      if (e !== undefined) throw e;
    }
    if (need > staging.size) {
      // input may be an alias of this memory (a view's bytes field holding a message), even of the
      // staging buffer: see Memory.copyIn; the old buffer is freed only after the copy
      const at = byteOffsetOf(bytes);
      this.growStaging(staging, need, (fresh) => m.copyIn(bytes, at, n, fresh + shift));
    } else {
      m.u8.set(bytes, staging.ptr + shift);
    }
    return staging.ptr + shift;
  }

  /** Replaces a staging buffer by a larger one; `fill` copies into the new one before the old is freed. */
  protected growStaging(staging: { ptr: number; size: number }, need: number, fill: (fresh: number) => void): void {
    const size = Math.min(Math.max(need + 8, 4096, staging.size * 2), MAX_INPUT + 8);
    const fresh = this.malloc(size);
    fill(fresh);
    if (staging.ptr) this.exports.free(staging.ptr);
    staging.ptr = fresh;
    staging.size = size;
  }

  decode(schema: number, message: number, arena: number, ptr: number, size: number, reset: boolean, def: SchemaDef): number {
    const compiled = this.compiledDecoders(def)?.[message];
    const partial = partialPending() && takePartial();
    if (partial) this.allowPartial(true);
    this.enter();
    let rec = 0;
    try {
      // a compiled decoder resets the arena when asked, then decodes, fails (1) or leaves the input to the codec (0)
      if (compiled !== undefined) rec = compiled(arena, ptr, size, reset ? 1 : 0) >>> 0;
      if (rec === 0) rec = this.genericDecode(schema, message, arena, ptr, size, reset && compiled === undefined, def, compiled !== undefined);
      this.calling = false;
    } catch (e) {
      throw this.trapped(e, () => new DecodeError("DEPTH_LIMIT", 0, def.messages[message]?.name ?? ""));
    } finally {
      if (partial) this.allowPartial(false);
    }
    this.mem.sync();
    if (rec <= 1) throw this.decodeError(def, message); // records are 8-aligned: 1 is the compiled decoder's error
    return rec;
  }

  /** Decodes a delimited run; returns [address of the record pointers, count]. */
  decodeDelimited(
    schema: number, message: number, arena: number, ptr: number, size: number, reset: boolean, def: SchemaDef,
  ): [number, number] {
    const compiled = this.compiledDecoders(def)?.delimited[message];
    const partial = partialPending() && takePartial();
    if (partial) this.allowPartial(true);
    this.enter();
    let outcome = 0; // as the compiled decoder says it: 2 decoded, 1 failed, 0 left to the codec
    try {
      if (compiled !== undefined) outcome = compiled(arena, ptr, size, reset ? 1 : 0, this.slotPtr);
      if (outcome === 0) outcome = this.genericDecodeDelimited(schema, message, arena, ptr, size, reset && compiled === undefined, def, compiled !== undefined);
      this.calling = false;
    } catch (e) {
      throw this.trapped(e, () => new DecodeError("DEPTH_LIMIT", 0, def.messages[message]?.name ?? ""));
    } finally {
      if (partial) this.allowPartial(false);
    }
    this.mem.sync();
    if (outcome !== 2) throw this.decodeError(def, message);
    const w = this.slotPtr >>> 2;
    return [this.mem.u32[w]! >>> 0, this.mem.u32[w + 1]!];
  }

  /**
   * A decode the compiled decoder (if `compiled`) left to the codec: the record, or 1 for an error
   * in the Status. Without the codec it throws: OUT_OF_MEMORY (the compiled decoder gives up on an
   * array whose storage would pass 4 GiB, more than memory holds), or for a message without a
   * compiled decoder, an error naming what loads the codec.
   */
  protected genericDecode(_schema: number, message: number, _arena: number, _ptr: number, _size: number, _reset: boolean, def: SchemaDef, compiled: boolean): number {
    return this.withoutCodec(def, message, compiled);
  }

  /** A delimited run the compiled decoder left to the codec: 2 (the slot holds the records), or 1 for an error; as genericDecode without it. */
  protected genericDecodeDelimited(_schema: number, message: number, _arena: number, _ptr: number, _size: number, _reset: boolean, def: SchemaDef, compiled: boolean): number {
    return this.withoutCodec(def, message, compiled);
  }

  private withoutCodec(def: SchemaDef, message: number, compiled: boolean): never {
    if (!compiled) {
      const why = def.compiled === undefined ? "its file was generated for CODE_SIZE, or its schema made at run time"
        : this.compiled.get(def) === null ? "its file's compiled decoders are still being compiled in the background: await init() again to wait for them"
        : "its file's module was compiled for another version of hppproto (regenerate it), or has no decoder for it";
      throw new Error(codecMissing(`decoding ${def.messages[message]?.name ?? "this message"} (${why})`));
    }
    throw new DecodeError("OUT_OF_MEMORY", 0, def.messages[message]?.name ?? "");
  }

  /** Before a call that uses the WASM stack: puts back the stack pointer a trap left where it stopped. */
  protected enter(): void {
    if (this.calling) this.exports.stackRestore?.(this.stackBase);
    this.calling = true;
  }

  /**
   * A call that trapped (the engine's stack ran out inside a deeply nested message, or a bug): the
   * WASM stack pointer goes back to where calls start, so the stack the trap left in use is not lost
   * for every later call, and a stack overflow becomes the error `overflow` makes. At the end of the
   * JS stack this block itself may not get to run (any call, the error's constructor included, can
   * run out there): then `calling` is still set and the next call puts the pointer back. Without
   * that, each such trap left 96 bytes and more of the stack in use until a decode ran off its end
   * (found by fuzz/boundary.mjs). Arenas are rewound by their callers.
   */
  protected trapped(e: unknown, overflow: () => Error): unknown {
    this.exports.stackRestore?.(this.stackBase); // if this runs out of stack too, the next enter() does it
    this.calling = false;
    this.mem.sync();
    const stack = e instanceof RangeError || (e instanceof WebAssembly.RuntimeError && /stack|recursion/i.test(e.message));
    return stack ? overflow() : e;
  }

  protected status() {
    const p = this.statusPtr;
    const u32 = this.mem.u32;
    return {
      code: u32[(p + STATUS_CODE) >>> 2]!, offset: u32[(p + STATUS_OFFSET) >>> 2]!, pathSize: u32[(p + STATUS_PATH_SIZE) >>> 2]!,
      truncated: u32[(p + STATUS_TRUNCATED) >>> 2]!, detail: u32[(p + STATUS_DETAIL) >>> 2]!,
    };
  }

  private decodeError(def: SchemaDef, root: number): DecodeError {
    const s = this.status();
    return new DecodeError(codeName(s.code), s.offset, this.statusPath(def, root));
  }

  /** The status's field path, from the root message's name down. */
  protected statusPath(def: SchemaDef, root: number): string {
    const s = this.status();
    const u32 = this.mem.u32;
    const i32 = this.mem.i32;
    let path = def.messages[root]?.name ?? "";
    for (let i = 0; i < s.pathSize; i++) {
      const e = this.statusPtr + STATUS_PATH + i * PATH_ENTRY_SIZE;
      const message = u32[(e + PATH_ENTRY_MESSAGE) >>> 2]!;
      const field = u32[(e + PATH_ENTRY_FIELD) >>> 2]!;
      const index = i32[(e + PATH_ENTRY_INDEX) >>> 2]!;
      if (field === 0) {
        path += `[#${index}]`; // position in a delimited batch
        continue;
      }
      const [owner, at] = frameMessage(this.compiledHost, def, message); // (the module that pushed it)
      const name = owner.messages[at]?.fields.find((f) => f.number === field)?.name ?? String(field);
      path += `.${name}${index >= 0 ? `[${index}]` : ""}`;
    }
    if (s.truncated) path += ".…"; // the innermost frames did not fit
    return path;
  }
}

let current: Runtime | undefined;

/** @internal makes rt the runtime every operation uses (the limits written into it, and on every change); undefined: none yet */
export function setRuntime(rt: Runtime | undefined): void {
  current = rt;
  writeLimitsTo(rt && ((l) => rt.writeLimits(l)));
}

/**
 * @internal the runtime; after init(), without the codec when none started (memory, allocator and
 * arenas in JS, heap.ts), made on first use; throws before init().
 */
export function runtime(): Runtime {
  if (current !== undefined) return current;
  assertInitialized();
  const rt = new Runtime(new Heap().exports());
  setRuntime(rt);
  return rt;
}

/** The initialized runtime for encoding; throws if it is the decode-only one. */
export function fullRuntime(typeName?: string): FullRuntime {
  return runtime().full ?? decodeOnly(typeName);
}

/** @internal whether a runtime runs (init() started the codec, or an operation one without it) */
export function hasRuntime(): boolean {
  return current !== undefined;
}
