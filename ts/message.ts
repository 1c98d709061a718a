// What generated code exports per message: decoding to views or plain objects, one message or a
// length-delimited batch, each one call into WASM, and encoding. What else a message type does
// (create, clone, merge, equals, builders, ProtoJSON, reflection) are free functions taking it
// (create.ts, equals.ts, fields.ts, builder.ts, json/, reflect.ts), which bundles leave out unless
// the program calls them.
import { Arena } from "./arena.js";
import { DecodeError, EncodeError, StaleViewError } from "./errors.js";
import type { Fill, RecordWriter } from "./fill.js";
import type { FullRuntime } from "./fullruntime.js";
import { fullRuntime, runtime, UNBOUNDED, type Runtime } from "./runtime.js";
import { convert64, type Int64Forms } from "./int64.js";
import { readsOutLossily, type Int64As, type SchemaDef } from "./schema.js";
import type { Write } from "./json/write.js";
import type { MessageView, ViewClass } from "./view.js";
import { isView } from "./viewmark.js";
import { bytesOf, checkOffset, describe, lengthOf, type BinaryInput } from "./input.js";
import { copyBytes, ownedCopy } from "./copy.js";
import { putVarint32, varintSize } from "./wirebuffer.js";
import type { Encode, PlainEncoder } from "./encoder.js";
import { decodePlain, type Materializer } from "./decodeplain.js";
import { decodeView } from "./decodeview.js";
import { checkObject, runPlain } from "./encodeplain.js";
import { scratchArenas } from "./scratch.js";
import { wantCodec, type Starter } from "./loader.js";

export type { Materializer } from "./decodeplain.js";

/**
 * What encode() accepts: the plain object with every field optional, at every level. Absent
 * (undefined or null) fields are not written.
 */
export type Init<T> = T extends bigint ? bigint | number | string // 64-bit: also an integral number or a decimal string
  : T extends Uint8Array | number | string | boolean ? T
  : T extends readonly (infer E)[] ? readonly Init<E>[]
  : T extends { case: infer C; value: infer X } ? { case: C; value: Init<X> } // a oneof: case stays required
  : T extends object ? { [K in keyof T]?: Init<T[K]> | null }
  : T;

/**
 * The plain object with every field optional, at every level, of the types T holds (what create(type),
 * merge() and toText() take). Absent (undefined or null) fields count as not set.
 */
export type PartialMessage<T> = T extends Uint8Array | bigint | number | string | boolean ? T
  : T extends readonly (infer E)[] ? readonly PartialMessage<E>[]
  : T extends { case: infer C; value: infer X } ? { case: C; value: PartialMessage<X> } // a oneof: case stays required
  : T extends object ? { [K in keyof T]?: PartialMessage<T[K]> | null }
  : T;

type Plain = Record<string, unknown>;

/**
 * @internal Whether decode() reads the bytes with the message's generated decoder of plain objects
 * where it has one, or decodes into records and reads them out. In browsers' engines the first is
 * faster; in Node, whose Buffer turns UTF-8 in linear memory into strings quickly, the records are as
 * fast or faster on the benchmark's messages (the `decodeX` rows against `decode` of `npm run
 * bench` and `npm run bench:browser`). Tests set it to run both.
 */
export const decodePath = { reader: !(typeof process === "object" && typeof process.versions?.node === "string") };

/** forEachDelimited() calls nested deeper than this (each holds an arena) are an error. */
const MAX_NESTED_BATCHES = 32;

/** The facades generated for a message; hppproto-gen --facades leaves some out. */
export interface MessageParts<T, V, B> {
  /** Views: view(), viewDelimited(). */
  view?: ViewClass<V>;
  /** Plain objects out: decode(), decodeDelimited(). */
  read?: Materializer<T>;
  /**
   * Plain objects straight from wire bytes, where the message has a generated decoder of them
   * (reader.ts readerOf): decode() in browsers; `records` decodes what it leaves to them.
   */
  decode?: (input: BinaryInput, records: () => T) => T;
  /** Plain objects in records: builders made from them, and encode() where there is no `encode`. */
  fill?: Fill<Init<T>>;
  /** Plain objects to wire bytes: encode() of a plain object. */
  encode?: Encode<Init<T>>;
  /**
   * Builders: builder(type). They extend the view class, which comes with them. A class, or true
   * for the builder class interpreted over the view class, made on first use (interpreted/): a
   * program that makes no builder carries none of that code.
   */
  builder?: ViewClass<B> | true;
  /** ProtoJSON text of plain objects, generated per message (views and bytes are written by the codec). */
  toJsonString?: Write<T>;
  /**
   * The codec, where only it encodes the type's views and builders without loss or its plain
   * objects (codecstarter.ts): init() loads it once the type is made.
   */
  codec?: Starter;
}

/** A message type of any message (its plain-object, view and builder types erased), for what holds many kinds. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyMessageType = MessageType<any, any, any, any>;

/** The plain-object type of a message type M (read off a declared-only property: inferring it from M's methods goes wrong). */
export type PlainOf<M extends AnyMessageType> = NonNullable<M["$types"]>["plain"];
/** The view type of a message type M. */
export type ViewOf<M extends AnyMessageType> = NonNullable<M["$types"]>["view"];
/** The builder type of a message type M. */
export type BuilderOf<M extends AnyMessageType> = NonNullable<M["$types"]>["builder"];

/**
 * A message type: T its plain objects, V its views, B its builders, F its plain objects with their
 * 64-bit integers in each form (for decode()'s int64 option; generated code gives it for messages
 * that hold 64-bit integers).
 */
export class MessageType<T, V, B extends V = V, F extends Int64Forms<unknown, unknown, unknown> = Int64Forms<T, T, T>> {
  /** @internal */ readonly parts: MessageParts<T, V, B>;
  /** Never set: the plain-object, view and builder types, for PlainOf, ViewOf, BuilderOf and Int64Form. */
  declare readonly $types?: { plain: T; view: V; builder: B; forms: F };
  /** Fully qualified protobuf name. */
  readonly typeName: string;
  /** @internal bytes of this message's record */
  readonly recordSize: number;

  constructor(
    /** @internal */ readonly schemaDef: SchemaDef,
    /** @internal index of the message in its schema */ readonly index: number,
    parts: MessageParts<T, V, B>,
  ) {
    const info = schemaDef.messages[index]!;
    this.typeName = info.name;
    this.recordSize = info.recordSize;
    this.parts = parts;
    if (parts.codec !== undefined) wantCodec(parts.codec);
    schemaDef.types[index] = this; // found by name for Any and JSON
  }

  /** @internal a generated part, or a clear error when the code was generated without it */
  part<K extends keyof MessageParts<T, V, B>>(key: K, facade: string): NonNullable<MessageParts<T, V, B>[K]> {
    const p = this.parts[key];
    if (p === undefined) throw new Error(`${this.typeName} was generated without ${facade} (hppproto-gen --facades)`);
    return p as NonNullable<MessageParts<T, V, B>[K]>;
  }

  /** @internal A plain object of this type (views are read out; a view of another type is a TypeError). */
  plainOf(message: T | V): Plain {
    if (isView(message)) {
      // another type's record would be read with this type's layout
      if (!this.ownView(message)) throw new TypeError(`${this.typeName}: a view of another message type`);
      return this.part("read", "plain objects")(message.$mem(), message.$ptr, runtime()) as Plain;
    }
    if (typeof message !== "object" || message === null) throw new TypeError(`${this.typeName}: expected a message object or a view, got ${describe(message)}`);
    return message as Plain;
  }

  /** @internal The plain object of an empty record: every field at its default. */
  emptyPlain(): T {
    const rt = runtime();
    rt.schema(this.schemaDef); // registers it: the shared zero record is as large as its messages
    return this.part("read", "plain objects")(rt.mem, rt.zeroRecord, rt);
  }

  /**
   * A zero-copy view of the message in `bytes`. Without an arena, the view lives in the runtime's
   * default arena and stays valid until the next view() without an arena; with one, until that
   * arena is reset or released.
   */
  view(input: BinaryInput, arena?: Arena): V {
    return decodeView(this.schemaDef, this.index, this.part("view", "views"), input, arena);
  }

  /**
   * The message as a plain object that owns all its data. `int64` gives every 64-bit integer in
   * that JS form instead of the generated one (the result's type assumes the default bigint).
   */
  // (this order: type inference reads a method's last signature, which names T plainly)
  decode<X extends Int64As>(input: BinaryInput, options: { int64: X }): F[X];
  decode(input: BinaryInput): T;
  decode(input: BinaryInput, options?: { int64?: Int64As }): unknown {
    const read = this.parts.decode;
    let o: unknown;
    if (read !== undefined && decodePath.reader) {
      o = read(input, () => decodePlain(this.schemaDef, this.index, this.part("read", "plain objects"), input));
    } else {
      o = decodePlain(this.schemaDef, this.index, this.part("read", "plain objects"), input);
    }
    if (options?.int64 !== undefined) convert64(this.schemaDef, this.index, o as Plain, options.int64, this.typeName);
    return o;
  }

  /** Views of every message in a buffer of length-delimited messages, decoded in one call. */
  viewDelimited(input: BinaryInput, arena?: Arena): V[] {
    const viewClass = this.part("view", "views");
    const bytes = bytesOf(input, this.typeName, "viewDelimited");
    const rt = runtime();
    const handle = rt.schema(this.schemaDef);
    let ptr: number, count: number;
    if (arena === undefined) {
      arena = scratchArenas(rt).views;
      arena.generation++;
      const size = lengthOf(bytes); // before stage(): see there
      [ptr, count] = rt.decodeDelimited(handle, this.index, arena.ptr, rt.stage(bytes, size, 0, true), size, true, this.schemaDef);
    } else {
      const own = arena;
      [ptr, count] = own.decodeInto(bytes, (input, size) =>
        rt.decodeDelimited(handle, this.index, own.ptr, input, size, false, this.schemaDef));
    }
    const u32 = rt.mem.u32;
    const out = new Array<V>(count);
    for (let i = 0; i < count; i++) out[i] = new viewClass(arena, u32[(ptr >>> 2) + i]!);
    return out;
  }

  /** Plain objects for every message in a buffer of length-delimited messages. */
  decodeDelimited(input: BinaryInput): T[] {
    const read = this.part("read", "plain objects");
    const bytes = bytesOf(input, this.typeName, "decodeDelimited");
    const rt = runtime();
    const handle = rt.schema(this.schemaDef);
    const size = lengthOf(bytes); // before stage(): see there
    // started inside another decode's read-out (a setter on Object.prototype): an arena of its own (see decodePlain)
    const outer = rt.plainBudget;
    const own = outer === UNBOUNDED ? undefined : new Arena();
    try {
      let ptr: number, count: number;
      if (own === undefined) {
        const arena = scratchArenas(rt).plain;
        arena.generation++;
        [ptr, count] = rt.decodeDelimited(handle, this.index, arena.ptr, rt.stage(bytes, size, 0, false), size, true, this.schemaDef);
      } else {
        [ptr, count] = own.decodeInto(bytes, (input, n) => rt.decodeDelimited(handle, this.index, own.ptr, input, n, false, this.schemaDef));
      }
      const m = rt.mem;
      const out = new Array<T>(count);
      rt.readOut(size);
      for (let i = 0; i < count; i++) out[i] = read(m, m.u32[(ptr >>> 2) + i]!, rt);
      return out;
    } finally {
      rt.plainBudget = outer;
      own?.release();
    }
  }

  /**
   * Each message of a buffer of length-delimited messages, as a plain object, passed to `each`
   * in order; returns the count. One call into WASM decodes them all, but each object is made when
   * the loop reaches it, so a batch of 10,000 costs no more per message than 10,000 decode() calls
   * (decodeDelimited() returns them all at once, and V8 then moves their allocation sites to old
   * space for the rest of the process). `each` may decode anything, batches included.
   */
  forEachDelimited(input: BinaryInput, each: (message: T, index: number) => void): number {
    const read = this.part("read", "plain objects");
    const bytes = bytesOf(input, this.typeName, "forEachDelimited");
    const rt = runtime();
    // rt.mem each time: a callback may grow memory (the Memory object stays, its arrays are replaced);
    // the read-out's budget is the batch's, each object charged as it is made
    rt.readOut(lengthOf(bytes));
    let budget = rt.plainBudget; // the batch's, while its objects are made (callbacks run outside it)
    rt.plainBudget = UNBOUNDED;
    return this.batch(rt, bytes, undefined, (_arena, rec, i) => {
      rt.plainBudget = budget;
      let o: T;
      try {
        o = read(rt.mem, rec, rt);
      } finally {
        budget = rt.plainBudget;
        rt.plainBudget = UNBOUNDED;
      }
      each(o, i);
    });
  }

  /**
   * Each message of a buffer of length-delimited messages, as a view, passed to `each` in order;
   * returns the count. Without an arena the views stay valid until the next forEachViewDelimited()
   * without one; with one, until that arena is reset.
   */
  forEachViewDelimited(input: BinaryInput, each: (view: V, index: number) => void, arena?: Arena): number {
    const viewClass = this.part("view", "views");
    const bytes = bytesOf(input, this.typeName, "forEachViewDelimited");
    return this.batch(runtime(), bytes, arena, (into, rec, i) => each(new viewClass(into, rec), i));
  }

  /** Decodes a batch into `own`, or the scratch arena of this nesting level, and visits its records. */
  private batch(rt: Runtime, bytes: Uint8Array, own: Arena | undefined, visit: (arena: Arena, rec: number, index: number) => void): number {
    const handle = rt.schema(this.schemaDef);
    const s = scratchArenas(rt);
    const level = own === undefined ? s.batching : -1;
    if (level >= MAX_NESTED_BATCHES) {
      throw new DecodeError("DEPTH_LIMIT", 0, this.typeName); // more than MAX_NESTED_BATCHES batches inside one another
    }
    const arena = own ?? (s.batches[level] ??= new Arena());
    if (level >= 0) arena.reset(); // views of this level's last batch become stale
    const [ptr, count] = arena.decodeInto(bytes, (input, size) =>
      rt.decodeDelimited(handle, this.index, arena.ptr, input, size, false, this.schemaDef));
    if (level >= 0) s.batching = level + 1;
    const generation = arena.generation;
    try {
      for (let i = 0; i < count; i++) {
        // a callback that reset or released the arena took the records not yet visited with it
        if (arena.generation !== generation) throw new StaleViewError(arena.released ? "released" : "reset", "view");
        visit(arena, rt.mem.u32[(ptr >>> 2) + i]!, i);
      }
    } finally {
      if (level >= 0) s.batching = level;
    }
    return count;
  }

  /** The message's wire bytes. Takes a plain object (fields may be left out) or a view of this type. */
  encode(message: Init<T> | V): Uint8Array {
    const encode = this.parts.encode;
    if (encode !== undefined && this.encodesPlain(message)) {
      const e = this.runPlain(encode, this.plainToEncode(message));
      return ownedCopy(e.buffer, 0, e.length);
    }
    const rt = fullRuntime(this.typeName);
    return rt.takeOutput(rt.encodeMessage(this, message, false));
  }

  /** How many bytes encode() would return. */
  encodedSize(message: Init<T> | V): number {
    const encode = this.parts.encode;
    if (encode !== undefined && this.encodesPlain(message)) return this.runPlain(encode, this.plainToEncode(message)).length;
    return fullRuntime(this.typeName).encodeMessage(this, message, true);
  }

  /**
   * Encodes into `target` (a Uint8Array, ArrayBuffer, SharedArrayBuffer or other ArrayBufferView)
   * at byte `offset` and returns the number of bytes written. When the message does not fit,
   * throws BUFFER_TOO_SMALL and leaves target untouched.
   */
  encodeInto(message: Init<T> | V, target: BinaryInput, offset = 0): number {
    const into = bytesOf(target, this.typeName, "encodeInto");
    const encode = this.parts.encode;
    if (encode !== undefined && this.encodesPlain(message)) {
      const e = this.runPlain(encode, this.plainToEncode(message));
      return this.copyInto(e.buffer, 0, e.length, into, offset);
    }
    const rt = fullRuntime(this.typeName);
    const n = rt.encodeMessage(this, message, false);
    return this.copyInto(rt.mem.u8, rt.output, n, into, offset);
  }

  /** Many messages in one buffer, each preceded by its length (what viewDelimited() reads). */
  encodeDelimited(messages: Iterable<Init<T> | V>): Uint8Array {
    const list = Array.isArray(messages) ? (messages as (Init<T> | V)[]) : [...messages];
    const encode = this.parts.encode;
    if (encode !== undefined && list.every((m) => this.encodesPlain(m))) {
      const plain = list.some(isView) ? list.map((m, i) => this.plainToEncode(m, `[#${i}]`)) : (list as Init<T>[]);
      const e = this.runPlain(encode, undefined, plain);
      return ownedCopy(e.buffer, 0, e.length);
    }
    if (encode !== undefined && this.parts.fill === undefined) return this.eachDelimited(list);
    const rt = fullRuntime(this.typeName);
    return rt.takeOutput(rt.encodeMessages(this, list));
  }

  /**
   * A delimited run of views the codec encodes among plain objects only generated code encodes (no
   * record filler is generated by default): each message encoded on its own, then joined.
   */
  private eachDelimited(list: readonly (Init<T> | V)[]): Uint8Array {
    const parts = list.map((m, i) => {
      try {
        return this.encode(m);
      } catch (e) {
        if (!(e instanceof EncodeError)) throw e;
        const rest = e.path.startsWith(this.typeName) ? e.path.slice(this.typeName.length) : e.path === "" ? "" : `.${e.path}`;
        throw new EncodeError(e.code, `${this.typeName}[#${i}]${rest}`, e.reason);
      }
    });
    let size = 0;
    for (const p of parts) size += varintSize(p.length) + p.length;
    const out = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      at = putVarint32(out, at, p.length);
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  /**
   * @internal `use` of the message's record (a view's own, or the plain object written into the
   * scratch record of an encode) by the codec; `refused` answers without the codec, or when the
   * object cannot be written. The runtime is the type's (a program may hold two copies of hppproto).
   */
  withRecord<R>(message: unknown, use: (rt: FullRuntime, handle: number, rec: number) => R, refused: () => R): R {
    const full = runtime().full;
    return full === undefined ? refused() : full.withRecord(this, message, use, refused);
  }

  /**
   * Whether generated code encodes the message (the type has encode functions): a plain object, or
   * a view or builder when no codec encodes its record (the runtime started without the codec, or
   * with the decode-only one), read out first when the type reads plain objects.
   */
  private encodesPlain(message: Init<T> | V): boolean {
    return !isView(message) || (runtime().full === undefined && this.viewsEncodePlain());
  }

  private readsOutExactly: boolean | undefined;

  /**
   * Whether a view read out encodes to what its record holds: the type reads plain objects, and
   * holds nothing that reads out lossily (readsOutLossily; a map's entries come out in its plain
   * object's order, one per key).
   */
  private viewsEncodePlain(): boolean {
    return (this.readsOutExactly ??= this.parts.read !== undefined && !readsOutLossily(this.schemaDef, this.index));
  }

  /** @internal whether a view is of this type: another type's record would be read with this type's layout */
  ownView(view: MessageView): boolean {
    return this.parts.view !== undefined && view instanceof this.parts.view;
  }

  /** What encoding a view of another type is (at `at` in a delimited run). */
  private otherView(at: string): EncodeError {
    return new EncodeError("INVALID_VALUE", at, `a view of another message type is not a ${this.typeName}`);
  }

  /** A message encodesPlain() took, as a plain object: a view read out (a view of another type fails as the codec's encode fails). */
  private plainToEncode(message: Init<T> | V, at = ""): Init<T> {
    if (!isView(message)) return message as Init<T>;
    if (!this.ownView(message)) throw this.otherView(this.typeName + at);
    return this.part("read", "plain objects")(message.$mem(), message.$ptr, runtime()) as Init<T>;
  }

  /**
   * The plain object (or, given `list`, a length-delimited run of them) encoded by generated code:
   * the encoder of this nesting level, its bytes in its buffer up to its length (for the caller to
   * copy at once: the next encode at this level reuses it).
   */
  private runPlain(encode: Encode<Init<T>>, message: unknown, list?: readonly Init<T>[]): PlainEncoder {
    if (list === undefined) this.checkObject(message);
    else for (const m of list) this.checkObject(m);
    return runPlain(this.schemaDef, this.index, encode, message as Init<T>, list);
  }

  /** A TypeError for what is no message object. */
  private checkObject(message: unknown): asserts message is object {
    checkObject(this.typeName, message, "a message object or a view");
  }

  /** n encoded bytes at source[from] copied into target at offset; BUFFER_TOO_SMALL leaves it untouched. */
  private copyInto(source: Uint8Array, from: number, n: number, into: Uint8Array, offset: number): number {
    checkOffset(offset);
    const room = lengthOf(into);
    if (!(offset <= room && n <= room - offset)) {
      throw new EncodeError("BUFFER_TOO_SMALL", this.typeName, `${n} bytes do not fit at offset ${offset} of a ${room}-byte buffer`);
    }
    copyBytes(source, from, n, into, offset);
    return n;
  }

  /**
   * @internal The record to encode: a view's own, or a plain object written by the writer of the
   * encode's scratch arena with `fill` (the type's own by default); `at` is its place in a delimited run.
   */
  record(writer: RecordWriter, message: Init<T> | V, fill?: Fill<never>, at?: string): number {
    try {
      return this.fillRecord(writer, message, fill);
    } catch (e) {
      if (e instanceof EncodeError) {
        if (at !== undefined) e.prefix(at);
        e.prefix(this.typeName);
      }
      throw e;
    }
  }

  private fillRecord(writer: RecordWriter, message: Init<T> | V, fill?: Fill<never>): number {
    if (isView(message)) {
      if (!this.ownView(message)) throw this.otherView("");
      message.$mem(); // throws if its arena was reset or released
      return message.$ptr;
    }
    this.checkObject(message);
    const f = fill ?? this.part("fill", "plain objects");
    const rec = writer.allocZeroed(this.recordSize);
    writer.begin(this.schemaDef, this.index);
    writer.fill(f as Fill<never>, message, rec);
    return rec;
  }
}
