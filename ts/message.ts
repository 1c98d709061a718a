// What generated code exports per message: decoding to views or plain objects, one message or a
// length-delimited batch, each one call into WASM.
import { Arena } from "./arena.js";
import type { Memory } from "./memory.js";
import { runtime, type Runtime } from "./runtime.js";
import type { SchemaDef } from "./schema.js";
import type { ViewClass } from "./view.js";

/** Builds a plain object from the record at ptr. */
export type Materializer<T> = (m: Memory, ptr: number, rt: Runtime) => T;

/** Arenas the runtime keeps for calls without one: reset by the next such call. */
const scratch = new WeakMap<Runtime, { views: Arena; plain: Arena }>();

function scratchArenas(rt: Runtime) {
  let s = scratch.get(rt);
  if (s === undefined) {
    s = { views: new Arena(), plain: new Arena() };
    scratch.set(rt, s);
  }
  return s;
}

export class MessageType<T, V> {
  constructor(
    /** Fully qualified protobuf name. */
    readonly typeName: string,
    private readonly schemaDef: SchemaDef,
    private readonly index: number,
    private readonly viewClass: ViewClass<V>,
    private readonly materialize: Materializer<T>,
  ) {}

  /**
   * A zero-copy view of the message in `bytes`. Without an arena, the view lives in the runtime's
   * default arena and stays valid until the next view() without an arena; with one, until that
   * arena is reset or released.
   */
  view(bytes: Uint8Array, arena?: Arena): V {
    const rt = runtime();
    const handle = rt.schema(this.schemaDef);
    if (arena === undefined) {
      arena = scratchArenas(rt).views;
      arena.generation++; // the call resets the arena, even when it then fails
      const rec = rt.decode(handle, this.index, arena.ptr, rt.stage(bytes), bytes.length, true, this.schemaDef);
      return new this.viewClass(arena, rec);
    }
    const rec = arena.decodeInto(bytes, (input) => rt.decode(handle, this.index, arena.ptr, input, bytes.length, false, this.schemaDef));
    return new this.viewClass(arena, rec);
  }

  /** The message as a plain object that owns all its data. */
  decode(bytes: Uint8Array): T {
    const rt = runtime();
    const handle = rt.schema(this.schemaDef);
    const arena = scratchArenas(rt).plain;
    arena.generation++;
    const rec = rt.decode(handle, this.index, arena.ptr, rt.stage(bytes), bytes.length, true, this.schemaDef);
    return this.materialize(rt.mem, rec, rt);
  }

  /** Views of every message in a buffer of length-delimited messages, decoded in one call. */
  viewDelimited(bytes: Uint8Array, arena?: Arena): V[] {
    const rt = runtime();
    const handle = rt.schema(this.schemaDef);
    let ptr: number, count: number;
    if (arena === undefined) {
      arena = scratchArenas(rt).views;
      arena.generation++;
      [ptr, count] = rt.decodeDelimited(handle, this.index, arena.ptr, rt.stage(bytes), bytes.length, true, this.schemaDef);
    } else {
      const own = arena;
      [ptr, count] = own.decodeInto(bytes, (input) =>
        rt.decodeDelimited(handle, this.index, own.ptr, input, bytes.length, false, this.schemaDef));
    }
    const u32 = rt.mem.u32;
    const out = new Array<V>(count);
    for (let i = 0; i < count; i++) out[i] = new this.viewClass(arena, u32[(ptr >>> 2) + i]!);
    return out;
  }

  /** Plain objects for every message in a buffer of length-delimited messages. */
  decodeDelimited(bytes: Uint8Array): T[] {
    const rt = runtime();
    const handle = rt.schema(this.schemaDef);
    const arena = scratchArenas(rt).plain;
    arena.generation++;
    const [ptr, count] = rt.decodeDelimited(handle, this.index, arena.ptr, rt.stage(bytes), bytes.length, true, this.schemaDef);
    const m = rt.mem;
    const out = new Array<T>(count);
    for (let i = 0; i < count; i++) out[i] = this.materialize(m, m.u32[(ptr >>> 2) + i]!, rt);
    return out;
  }
}
