// View, list and builder classes interpreted from the schema: each field an accessor on the
// class's prototype, built once per field. They read and write the records generated classes do,
// and give the same values (sub-message views, typed arrays, lists, maps, oneof cases).
import * as builder from "../builder.js";
import type { Fill } from "../fill.js";
import { ARRAY_SLOT_SIZE } from "../abi.js";
import { valueSize } from "../layout.js";
import type { Materializer } from "../message.js";
import type { Memory } from "../memory.js";
import { bytesView } from "../plain.js";
import { FieldType, Label, numberKind, type FieldInfo, type SchemaDef } from "../schema.js";
import { MessageList, MessageView, type ListClass, type ViewClass } from "../view.js";
import { fieldWriter, oneofWriter } from "./plain.js";
import { defaultOf } from "../defaults.js";
import { fieldPath, isMessage, scalarReader } from "./values.js";

/** What a schema's interpreted classes are made from: found by message index, built on first use. */
export interface ClassSource {
  readonly def: SchemaDef;
  view(index: number): ViewClass<MessageView>;
  list(index: number): ListClass<MessageView>;
  builder(index: number): ViewClass<MessageView>;
  reader(index: number): Materializer<unknown>;
  filler(index: number): Fill<never>;
}

type Getter = (this: MessageView) => unknown;

/** MessageView's protected readers, which generated subclasses call and these accessors call alike. */
interface Readers {
  $msg(off: number, cls: ViewClass<MessageView>): MessageView | undefined;
  $plain(read: Materializer<unknown>): unknown;
  $i32s(off: number): Int32Array; $u32s(off: number): Uint32Array; $f32s(off: number): Float32Array;
  $f64s(off: number): Float64Array; $i64s(off: number): BigInt64Array; $u64s(off: number): BigUint64Array;
  $bools(off: number): boolean[]; $strings(off: number): unknown; $bytesList(off: number): unknown;
  $map(off: number, key: (m: Memory, e: number) => unknown, value: (m: Memory, e: number) => unknown): unknown;
}
const r = (v: MessageView) => v as unknown as Readers;

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Builder method names, per field: add<Prop> for repeated fields, mutable<Prop> for singular
 * messages, with "$" appended while a name is taken (by a field, a oneof or another method).
 */
export function builderMethodNames(fields: readonly { prop: string; method: "add" | "mutable" | undefined }[], taken: Iterable<string>): (string | undefined)[] {
  const used = new Set(taken);
  return fields.map(({ prop, method }) => {
    if (method === undefined) return undefined;
    let name = method + cap(prop);
    while (used.has(name)) name += "$";
    used.add(name);
    return name;
  });
}

/** A value of f at addr as a view holds it: sub-messages as views, bytes aliasing memory. */
function viewValue(src: ClassSource, message: number, f: FieldInfo): (m: Memory, a: number, view: MessageView) => unknown {
  if (isMessage(f)) {
    const ref = f.ref;
    return (m, a, view) => new (src.view(ref))(view.$arena, m.u32[a >>> 2]! || view.$arena.rt.zeroRecord);
  }
  if (f.type === FieldType.Bytes) return (m, a) => bytesView(m, a);
  const read = scalarReader(f, fieldPath(src.def, message, f));
  return (m, a) => read(m, a);
}

function fieldGetter(src: ClassSource, message: number, f: FieldInfo): Getter {
  const off = f.offset;
  switch (f.label) {
    case Label.Map: {
      const [key, value] = src.def.messages[f.ref]!.fields as [FieldInfo, FieldInfo];
      const readKey = scalarReader(key, `${fieldPath(src.def, message, f)} (map key)`), koff = key.offset;
      const readValue = viewValue(src, message, value), voff = value.offset;
      return function (this: MessageView) {
        return r(this).$map(off, (m, e) => readKey(m, e + koff), (m, e) => readValue(m, e + voff, this));
      };
    }
    case Label.Repeated: {
      if (isMessage(f)) {
        const ref = f.ref;
        return function (this: MessageView) { return new (src.list(ref))(this, this.$mem(), this.$ptr + off); };
      }
      switch (f.type) {
        case FieldType.String: return function (this: MessageView) { return r(this).$strings(off); };
        case FieldType.Bytes: return function (this: MessageView) { return r(this).$bytesList(off); };
        case FieldType.Bool: return function (this: MessageView) { return r(this).$bools(off); };
      }
      switch (numberKind(f.type)!) {
        case "i32": return function (this: MessageView) { return r(this).$i32s(off); };
        case "u32": return function (this: MessageView) { return r(this).$u32s(off); };
        case "f32": return function (this: MessageView) { return r(this).$f32s(off); };
        case "f64": return function (this: MessageView) { return r(this).$f64s(off); };
        case "i64": return function (this: MessageView) { return r(this).$i64s(off); };
        case "u64": return function (this: MessageView) { return r(this).$u64s(off); };
      }
    }
  }
  if (isMessage(f)) {
    const ref = f.ref;
    return function (this: MessageView) { return r(this).$msg(off, src.view(ref)); };
  }
  const read = viewValue(src, message, f);
  const declared = f.label === Label.Explicit ? defaultOf(f) : undefined;
  if (declared === undefined) return function (this: MessageView) { return read(this.$mem(), this.$ptr + off, this); };
  const byte = f.presence >>> 3, mask = 1 << (f.presence & 7);
  const fresh = f.type === FieldType.Bytes; // a new array per read, as generated code gives
  return function (this: MessageView) {
    const m = this.$mem();
    return (m.u8[this.$ptr + byte]! & mask) !== 0 ? read(m, this.$ptr + off, this) : fresh ? defaultOf(f) : declared;
  };
}

function oneofGetter(src: ClassSource, message: number, o: SchemaDef["messages"][number]["oneofs"][number]): Getter {
  const members = new Map(o.fields.map((f) => [f.number, { prop: f.prop, off: f.offset, read: viewValue(src, message, f) }]));
  const caseOffset = o.caseOffset;
  return function (this: MessageView) {
    const m = this.$mem();
    const member = members.get(m.u32[(this.$ptr + caseOffset) >>> 2]!);
    return member === undefined ? undefined : { case: member.prop, value: member.read(m, this.$ptr + member.off, this) };
  };
}

const accessor = (get: Getter, set?: (this: MessageView, v: unknown) => void): PropertyDescriptor => ({ get, set, configurable: true, enumerable: false });

/** The view class of a message: a getter per field and oneof, $has(), $toObject(). */
export function viewClass(src: ClassSource, index: number): ViewClass<MessageView> {
  const info = src.def.messages[index]!;
  const cls = class extends MessageView {};
  Object.defineProperty(cls, "name", { value: `${info.name.slice(info.name.lastIndexOf(".") + 1)}View` });
  const proto = cls.prototype as unknown as Record<string, unknown>;
  for (const f of info.fields) if (f.oneof < 0) Object.defineProperty(proto, f.prop, accessor(fieldGetter(src, index, f)));
  for (const o of info.oneofs) Object.defineProperty(proto, o.prop, accessor(oneofGetter(src, index, o)));
  const bits = new Map(info.fields.filter((f) => f.label === Label.Explicit).map((f) => [f.prop, f.presence]));
  proto["$has"] = function (this: MessageView, field: string): boolean {
    const bit = bits.get(field);
    if (bit === undefined) throw new Error(`${info.name} has no field ${JSON.stringify(field)} with explicit presence`);
    return ((this.$mem().u8[this.$ptr + (bit >>> 3)]! >>> (bit & 7)) & 1) !== 0;
  };
  proto["$toObject"] = function (this: MessageView) {
    return r(this).$plain(src.reader(index));
  };
  return cls;
}

/** The list class of repeated fields of a message type. */
export function listClass(src: ClassSource, index: number): ListClass<MessageView> {
  return class extends MessageList<MessageView> {
    get(i: number): MessageView {
      const o = this.owner;
      if ((i >>> 0) !== i || i >= this.length || o.$gen !== o.$arena.generation) this.$invalid(i);
      return new (src.view(index))(o.$arena, o.$m.u32[(this.data >>> 2) + i]!);
    }
  };
}

/** What a builder class is made from besides its view class: the builders and fillers of other messages, by index. */
export interface BuilderParts {
  builder(index: number): ViewClass<MessageView>;
  filler(index: number): Fill<never>;
}

/**
 * A builder's setter runs between enter() and leave(), failed() between them if it throws. `slot`
 * gives the (offset, length) ranges of the record that the setter writes before it can fail (a
 * field's slot filled element by element, a message's pointer set before its fields): failed()
 * puts them back, so that a failed set leaves the field as it was (it left a count of elements
 * never written, whose storage held what the arena's memory held before). Meanwhile the builder's
 * arena cannot be reset or released: a getter of the value could otherwise free the memory the
 * setter writes into. Setters nest (a getter may set another builder), so what is saved is a stack,
 * and nothing is allocated per call (npm run bench:allocations).
 */
let saved = new Uint8Array(1024);
let savedTop = 0;
const savedRecs: number[] = [];

function enter(b: MessageView, slot: readonly number[]): number {
  b.$arena.writing++;
  const at = savedTop;
  if (slot.length === 0) return at;
  let need = 0;
  for (let i = 1; i < slot.length; i += 2) need += slot[i]!;
  if (at + need > saved.length) {
    const grown = new Uint8Array(Math.max(saved.length * 2, at + need));
    grown.set(saved);
    saved = grown;
  }
  const u8 = b.$m.u8, rec = b.$ptr;
  let to = at;
  for (let i = 0; i < slot.length; i += 2) {
    for (let from = rec + slot[i]!, end = from + slot[i + 1]!; from < end; from++) saved[to++] = u8[from]!;
  }
  savedRecs.push(rec);
  savedTop = to;
  return at;
}

function failed(b: MessageView, slot: readonly number[], at: number): void {
  if (slot.length === 0 || b.$gen !== b.$arena.generation) return;
  const u8 = b.$m.u8, rec = savedRecs[savedRecs.length - 1]!; // (memory may have grown: its array again)
  let from = at;
  for (let i = 0; i < slot.length; i += 2) {
    for (let to = rec + slot[i]!, end = to + slot[i + 1]!; to < end; to++) u8[to] = saved[from++]!;
  }
}

function leave(b: MessageView, slot: readonly number[], at: number): void {
  b.$arena.writing--;
  if (slot.length === 0) return;
  savedTop = at;
  savedRecs.pop();
}

const NOTHING: readonly number[] = [];

/**
 * The builder class of message `index`: a view class (the interpreted one, or generated code's)
 * with setters, add/mutable methods, $clear() and $release().
 */
export function builderClass(def: SchemaDef, index: number, base: ViewClass<MessageView>, parts: BuilderParts): ViewClass<MessageView> {
  const info = def.messages[index]!;
  const cls = class extends base {};
  Object.defineProperty(cls, "name", { value: `${info.name.slice(info.name.lastIndexOf(".") + 1)}Builder` });
  const proto = cls.prototype as unknown as Record<string, unknown>;
  const viewProto = base.prototype;
  const getter = (prop: string) => Object.getOwnPropertyDescriptor(viewProto, prop)!.get as Getter;
  const own = info.fields.filter((f) => f.oneof < 0);
  const methods = builderMethodNames(
    own.map((f) => ({ prop: f.prop, method: f.label === Label.Repeated ? "add" : f.label !== Label.Map && isMessage(f) ? "mutable" : undefined })),
    [...own.map((f) => f.prop), ...info.oneofs.map((o) => o.prop)],
  );
  own.forEach((f, i) => {
    const write = fieldWriter(def, f, (ref) => parts.filler(ref));
    const off = f.offset;
    let set: (this: MessageView, v: unknown) => void;
    if (f.label === Label.Map || f.label === Label.Repeated) {
      const empty = f.label === Label.Map ? {} : [];
      const slot = [off, ARRAY_SLOT_SIZE]; // a map is an array of entries too
      set = function (v) {
        const at = enter(this, slot);
        try {
          write(builder.writer(this), this.$ptr, v ?? empty);
        } catch (e) {
          failed(this, slot, at);
          throw e;
        } finally {
          leave(this, slot, at);
        }
      };
    } else {
      const width = valueSize(f.type);
      const [byte, mask] = f.label === Label.Explicit ? [f.presence >>> 3, 1 << (f.presence & 7)] : [0, 0];
      // a message is filled after its pointer and presence bit are set: what a failure puts back
      const slot = isMessage(f) ? (mask !== 0 ? [off, width, byte, 1] : [off, width]) : NOTHING;
      set = function (v) {
        const at = enter(this, slot);
        try {
          const w = builder.writer(this);
          if (v != null) return write(w, this.$ptr, v);
          w.zero(this.$ptr + off, width);
          if (mask !== 0) w.unbit(this.$ptr + byte, mask);
        } catch (e) {
          failed(this, slot, at);
          throw e;
        } finally {
          leave(this, slot, at);
        }
      };
    }
    Object.defineProperty(proto, f.prop, accessor(getter(f.prop), set));
    const method = methods[i];
    if (method === undefined) return;
    if (isMessage(f)) {
      const ref = f.ref, size = def.messages[ref]!.recordSize;
      const sub = () => parts.builder(ref);
      if (f.label === Label.Repeated) {
        const slot = [off, ARRAY_SLOT_SIZE]; // (add() counts the element before allocating its record, which can fail)
        proto[method] = function (this: MessageView) {
          const at = enter(this, slot);
          try {
            return builder.add(this, off, size, sub());
          } catch (e) {
            failed(this, slot, at);
            throw e;
          } finally {
            leave(this, slot, at);
          }
        };
      }
      else proto[method] = function (this: MessageView) { return builder.mutable(this, off, size, sub(), f.presence >>> 3, 1 << (f.presence & 7)); };
    } else {
      const element: FieldInfo = { ...f, label: Label.Implicit, offset: 0 }; // one value, written where push() puts it
      const writeOne = fieldWriter(def, element, (ref) => parts.filler(ref));
      const width = valueSize(f.type);
      const slot = [off, ARRAY_SLOT_SIZE]; // push() counts the element before writeOne checks it
      proto[method] = function (this: MessageView, v: unknown) {
        const at = enter(this, slot);
        try {
          const w = builder.writer(this);
          writeOne(w, w.push(this.$ptr + off, width), v);
        } catch (e) {
          failed(this, slot, at);
          throw e;
        } finally {
          leave(this, slot, at);
        }
      };
    }
  });
  for (const o of info.oneofs) {
    const write = oneofWriter(def, o, (ref) => parts.filler(ref));
    const width = Math.max(...o.fields.map((f) => valueSize(f.type)));
    const slot = [o.caseOffset, 4, o.valueOffset, width];
    Object.defineProperty(proto, o.prop, accessor(getter(o.prop), function (this: MessageView, v: unknown) {
      const at = enter(this, slot);
      try {
        const w = builder.writer(this);
        w.zero(this.$ptr + o.caseOffset, 4);
        w.zero(this.$ptr + o.valueOffset, width);
        if (v != null) write(w, this.$ptr, v);
      } catch (e) {
        failed(this, slot, at);
        throw e;
      } finally {
        leave(this, slot, at);
      }
    }));
  }
  proto["$clear"] = function (this: MessageView) { builder.clear(this, info.recordSize); };
  proto["$release"] = function (this: MessageView) { this.$arena.release(); };
  return cls;
}
