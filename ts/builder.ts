// Builders: mutable messages living in linear memory. A generated builder class extends the
// message's view class (so everything reads as a view does) with setters that write the record in
// place through a RecordWriter. A builder owns its arena: $clear() resets it and starts a new
// record, so a builder reused in a loop allocates nothing in JS once its sub-builders exist;
// $release() frees it.
import { alignmentShift } from "./align.js";
import { Arena } from "./arena.js";
import { StaleViewError } from "./errors.js";
import { RecordWriter } from "./fill.js";
import { bytesOf, describe, isBinaryInput, type BinaryInput } from "./input.js";
import type { AnyMessageType, BuilderOf, Init, PlainOf, ViewOf } from "./message.js";
import { runtime } from "./runtime.js";
import type { SchemaDef } from "./schema.js";
import { MessageView, type ViewClass } from "./view.js";
import { isView } from "./viewmark.js";
import { builderOf, fillerOf } from "./interpreted/index.js";

/** What every builder carries besides its view state. */
export interface BuilderState {
  /** @internal writes into the builder's arena; shared by its sub-builders */
  $writer: RecordWriter;
  /** @internal sub-builders by slot offset, then by element index: reused across $clear() */
  $children?: Map<number, MessageView[]>;
}
type Builder = MessageView & BuilderState;

/**
 * A new builder of the type: a message in linear memory, in its own arena, to set field by field
 * and encode with type.encode(builder). Empty, or starting from the message in wire bytes, a view or
 * a plain object (unknown fields kept). Reuse it with $clear() (which empties it); free it with
 * $release().
 */
export function builder<M extends AnyMessageType>(type: M, from?: BinaryInput | Init<PlainOf<M>> | ViewOf<M>): BuilderOf<M> {
  const cls = builderOf(type) as ViewClass<BuilderOf<M> & MessageView> | undefined;
  if (cls === undefined) throw new Error(`${type.typeName} was generated without builders (hppproto-gen --facades)`);
  const { schemaDef: def, index, recordSize } = type;
  if (from === undefined) return create(cls, def, index, recordSize);
  if (isView(from)) from = type.encode(from); // its bytes: a record of its own, in the builder's arena
  if (isBinaryInput(from)) {
    const bytes = bytesOf(from, type.typeName, "builder");
    const rt = runtime();
    const handle = rt.schema(def);
    return create(cls, def, index, recordSize, (arena) =>
      arena.decodeInto(bytes, (input, size) => rt.decode(handle, index, arena.ptr, input, size, false, def), alignmentShift(bytes)));
  }
  if (typeof from !== "object" || from === null) throw new TypeError(`builder(${type.typeName}): expected wire bytes, a view or a message object, got ${describe(from)}`);
  const message = from;
  return create(cls, def, index, recordSize, (_arena, writer) => type.record(writer, message, fillerOf(type)));
}

/**
 * A new top-level builder of class cls (message `index` of def) in its own arena: over an empty
 * record of `size` bytes, or the one `start` makes in the arena (a message decoded or filled there).
 */
export function create<B extends MessageView>(cls: ViewClass<B>, def: SchemaDef, index: number, size: number, start?: (arena: Arena, writer: RecordWriter) => number): B {
  // a small first block: most builders hold one small message, and many may be alive at once
  const arena = new Arena({ firstBlock: Math.max(1024, size * 4) });
  const writer = new RecordWriter(runtime(), arena.ptr);
  writer.begin(def, index);
  let rec: number;
  try {
    rec = start === undefined ? writer.allocZeroed(size) : start(arena, writer);
  } catch (e) {
    arena.release();
    throw e;
  }
  const b = new cls(arena, rec) as B & BuilderState;
  b.$writer = writer;
  return b;
}

/** The builder's writer, after checking that its record is still there. */
export function writer(b: MessageView): RecordWriter {
  const self = b as Builder;
  if (self.$gen !== self.$arena.generation) throw new StaleViewError(self.$arena.released ? "released" : "reset", "builder");
  return self.$writer;
}

/** Empties a top-level builder for reuse: its arena is reset and a fresh record started. */
export function clear(b: MessageView, size: number): void {
  const self = b as Builder;
  writer(self);
  self.$arena.reset();
  self.$gen = self.$arena.generation;
  self.$ptr = self.$writer.allocZeroed(size);
}

/** The sub-builder for the record at rec, reusing the one made for this slot and index before. */
function child<B extends MessageView>(parent: Builder, key: number, index: number, cls: ViewClass<B>, rec: number): B {
  const children = (parent.$children ??= new Map());
  let list = children.get(key);
  if (list === undefined) children.set(key, (list = []));
  let b = list[index] as (B & BuilderState) | undefined;
  if (b === undefined) {
    b = new cls(parent.$arena, rec) as B & BuilderState;
    b.$writer = parent.$writer;
    list[index] = b;
  } else {
    b.$ptr = rec;
    b.$gen = parent.$arena.generation;
  }
  return b;
}

/**
 * The builder of a singular message field at offset off, creating its record if absent. mask != 0
 * sets the field's presence bit at byte `bit`.
 */
export function mutable<B extends MessageView>(parent: MessageView, off: number, size: number, cls: ViewClass<B>, bit: number, mask: number): B {
  const w = writer(parent);
  const addr = parent.$ptr + off;
  let rec = w.m.u32[addr >>> 2]!;
  if (rec === 0) {
    rec = w.allocZeroed(size);
    w.m.u32[addr >>> 2] = rec;
    if (mask !== 0) w.bit(parent.$ptr + bit, mask);
  }
  return child(parent as Builder, off, 0, cls, rec);
}

/** Appends a message to the repeated field at offset off and returns its builder. */
export function add<B extends MessageView>(parent: MessageView, off: number, size: number, cls: ViewClass<B>): B {
  const w = writer(parent);
  const addr = parent.$ptr + off;
  const slot = w.push(addr, 4);
  const rec = w.allocZeroed(size);
  w.m.u32[slot >>> 2] = rec;
  return child(parent as Builder, off, w.m.u32[(addr >>> 2) + 1]! - 1, cls, rec);
}
