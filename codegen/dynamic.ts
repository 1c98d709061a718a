// Message types built at run time from .proto files, for tools that handle messages without
// generated code (hppproto-gen decode/encode). The schema table and ProtoJSON names are the ones
// the code generator embeds; the plain-object readers and record fillers the generator would
// write out are interpreted from the same model instead.
import { defineSchema, FieldType, Label, type SchemaDef } from "../ts/schema.js";
import type { Materializer } from "../ts/message.js";
import { JsonMessageType } from "../ts/json/type.js";
import { MessageView, type ViewClass } from "../ts/view.js";
import { mapKey, type Fill, type RecordWriter } from "../ts/fill.js";
import * as plain from "../ts/plain.js";
import type { Memory } from "../ts/memory.js";
import type { Runtime } from "../ts/runtime.js";
import { loadProtos } from "./load.js";
import { buildModel, encodeTable, isMessage, numberKinds, schemaInfo, type FieldModel, type MessageModel, type OneofModel } from "./model.js";

type Plain = Record<string, unknown>;
type Read = (m: Memory, addr: number, rt: Runtime) => unknown;
type ScalarKind = "i32" | "u32" | "i64" | "u64" | "f32" | "f64" | "bool" | "str" | "bytes";

/** A message type whose readers and fillers are interpreted: decode, encode and JSON as generated types. */
export class DynamicType extends JsonMessageType<Plain, DynamicView> {
  override builder(): never {
    throw new Error(`${this.typeName}: builders need generated code (run hppproto-gen)`);
  }
}

export interface DynamicSchema {
  readonly schema: SchemaDef;
  /** Every message of the loaded files and their imports, by full name (map entries excluded). */
  readonly types: ReadonlyMap<string, DynamicType>;
}

/** Parses .proto files (as hppproto-gen does) and builds a message type for each of their messages. */
export function loadSchema(files: string[], protoPaths: string[] = []): DynamicSchema {
  const { root, importNames } = loadProtos(files, protoPaths);
  const model = buildModel(root, importNames);
  const info = schemaInfo(model);
  const schema = defineSchema(encodeTable(model), info.messages, info.enums);
  const readers: Materializer<Plain>[] = [];
  const fillers: Fill<Plain>[] = [];
  // nested messages are reached by index, so recursive schemas need no ordering
  const readerOf = (mm: MessageModel): Materializer<Plain> => (m, p, rt) => readers[mm.index]!(m, p, rt);
  const fillerOf = (mm: MessageModel): Fill<Plain> => (w, o, p) => fillers[mm.index]!(w, o, p);
  for (const mm of model.messages) {
    readers[mm.index] = messageReader(mm, readerOf);
    fillers[mm.index] = messageFiller(mm, fillerOf);
  }
  const types = new Map<string, DynamicType>();
  for (const mm of model.messages) {
    if (mm.isMapEntry) continue;
    const read = readers[mm.index]!;
    const view = viewClass(mm, read, readerOf);
    types.set(mm.fullName, new DynamicType(mm.fullName, schema, mm.index, mm.recordSize, { view, read, fill: fillers[mm.index]! }));
  }
  return { schema, types };
}

function scalarKind(t: FieldType): ScalarKind {
  const kind = numberKinds[t]?.read as ScalarKind | undefined;
  if (kind !== undefined) return kind;
  return t === FieldType.Bool ? "bool" : t === FieldType.String ? "str" : "bytes";
}

function scalarReader(kind: ScalarKind): (m: Memory, addr: number) => unknown {
  switch (kind) {
    case "i32": return (m, a) => m.i32[a >>> 2];
    case "u32": return (m, a) => m.u32[a >>> 2];
    case "i64": return (m, a) => m.i64[a >>> 3];
    case "u64": return (m, a) => m.u64[a >>> 3];
    case "f32": return (m, a) => m.f32[a >>> 2];
    case "f64": return (m, a) => m.f64[a >>> 3];
    case "bool": return (m, a) => m.u8[a] !== 0;
    case "str": return (m, a) => m.strAt(a);
    case "bytes": return (m, a) => m.bytesAt(a);
  }
}

/** A value slot at addr: a scalar, or a message record (absent ones read as empty messages). */
function valueReader(f: FieldModel, readerOf: (m: MessageModel) => Materializer<Plain>): Read {
  if (isMessage(f)) {
    const read = readerOf(f.message!);
    return (m, a, rt) => read(m, m.u32[a >>> 2]! || rt.zeroRecord, rt);
  }
  const read = scalarReader(scalarKind(f.type));
  return (m, a) => read(m, a);
}

function fieldReader(f: FieldModel, readerOf: (m: MessageModel) => Materializer<Plain>): Read {
  const off = f.offset;
  if (f.label === Label.Map) {
    const [key, value] = f.mapEntry!.fields as [FieldModel, FieldModel];
    const readKey = scalarReader(scalarKind(key.type));
    const readValue = valueReader(value, readerOf);
    return (m, p, rt) => plain.map(m, p + off, (m, e) => String(readKey(m, e + key.offset)), (m, e) => readValue(m, e + value.offset, rt));
  }
  if (f.label === Label.Repeated) {
    if (isMessage(f)) return (m, p, rt) => plain.messages(m, p + off, readerOf(f.message!), rt);
    switch (scalarKind(f.type)) {
      case "i32": return (m, p) => plain.i32s(m, p + off);
      case "u32": return (m, p) => plain.u32s(m, p + off);
      case "f32": return (m, p) => plain.f32s(m, p + off);
      case "i64": return (m, p) => plain.i64s(m, p + off);
      case "u64": return (m, p) => plain.u64s(m, p + off);
      case "f64": return (m, p) => plain.f64s(m, p + off);
      case "bool": return (m, p) => plain.bools(m, p + off);
      case "str": return (m, p) => plain.strings(m, p + off);
      case "bytes": return (m, p) => plain.bytesList(m, p + off);
    }
  }
  if (isMessage(f)) return (m, p, rt) => plain.sub(m, p + off, readerOf(f.message!), rt);
  const read = scalarReader(scalarKind(f.type));
  if (f.label === Label.Explicit) {
    const byte = f.presence >>> 3;
    const mask = 1 << (f.presence & 7);
    return (m, p) => ((m.u8[p + byte]! & mask) !== 0 ? read(m, p + off) : undefined);
  }
  return (m, p) => read(m, p + off);
}

function oneofReader(o: OneofModel, readerOf: (m: MessageModel) => Materializer<Plain>): Read {
  const members = new Map(o.fields.map((f) => [f.number, { prop: f.prop, read: valueReader(f, readerOf) }]));
  return (m, p, rt) => {
    const member = members.get(m.u32[(p + o.caseOffset) >>> 2]!);
    return member === undefined ? undefined : { case: member.prop, value: member.read(m, p + o.valueOffset, rt) };
  };
}

/** The same object shape generated readers build: fields in order, then oneofs, then $unknown if there are any. */
function messageReader(mm: MessageModel, readerOf: (m: MessageModel) => Materializer<Plain>): Materializer<Plain> {
  const entries: [string, Read][] = mm.fields.filter((f) => !f.oneof).map((f) => [f.prop, fieldReader(f, readerOf)]);
  for (const o of mm.oneofs) entries.push([o.prop, oneofReader(o, readerOf)]);
  return (m, p, rt) => {
    const out: Plain = {};
    for (const [prop, read] of entries) out[prop] = read(m, p, rt);
    const unknown = plain.unknown(m, p);
    if (unknown !== undefined) out["$unknown"] = unknown;
    return out;
  };
}

type Write = (w: RecordWriter, addr: number, v: unknown, name: string) => void;

function valueWriter(f: FieldModel, fillerOf: (m: MessageModel) => Fill<Plain>): Write {
  if (isMessage(f)) {
    const fill = fillerOf(f.message!) as Fill<never>;
    const size = f.message!.recordSize;
    return (w, a, v, name) => w.msg(a, v, fill, size, name);
  }
  if (f.type === FieldType.Enum) {
    const enumName = f.enum!.fullName;
    return (w, a, v, name) => w.enumValue(a, v, name, enumName);
  }
  const kind = scalarKind(f.type);
  return (w, a, v, name) => w[kind](a, v, name);
}

type FieldFill = (w: RecordWriter, o: Plain, p: number) => void;

function fieldFiller(f: FieldModel, fillerOf: (m: MessageModel) => Fill<Plain>): FieldFill {
  const { prop, name, offset: off } = f;
  if (f.label === Label.Map) {
    const [key, value] = f.mapEntry!.fields as [FieldModel, FieldModel];
    const keyKind = scalarKind(key.type);
    const writeKey = (w: RecordWriter, e: number, k: string) => {
      if (keyKind === "str") w.str(e + key.offset, k, "");
      else w[keyKind](e + key.offset, mapKey(k, keyKind as "i32" | "u32" | "i64" | "u64" | "bool"), "");
    };
    const writeValue = valueWriter(value, fillerOf);
    const size = f.mapEntry!.recordSize;
    return (w, o, p) => {
      const v = o[prop];
      if (v == null) return;
      w.map(p + off, v, size, (e, k, x) => {
        writeKey(w, e, k);
        if (x != null) writeValue(w, e + value.offset, x, "");
      }, name);
    };
  }
  if (f.label === Label.Repeated) {
    if (isMessage(f)) {
      const fill = fillerOf(f.message!) as Fill<never>;
      const size = f.message!.recordSize;
      return (w, o, p) => {
        const v = o[prop];
        if (v != null) w.msgs(p + off, v, fill, size, name);
      };
    }
    const kind = scalarKind(f.type);
    if (f.type === FieldType.Enum) {
      const write = valueWriter(f, fillerOf);
      return (w, o, p) => {
        const v = o[prop];
        if (v != null) w.each(p + off, v, 4, (a, e) => write(w, a, e, ""), name);
      };
    }
    if (kind === "bool" || kind === "str" || kind === "bytes") {
      const width = kind === "bool" ? 1 : 8;
      return (w, o, p) => {
        const v = o[prop];
        if (v != null) w.each(p + off, v, width, (a, e) => w[kind](a, e, ""), name);
      };
    }
    const numbers = `${kind}s` as const;
    return (w, o, p) => {
      const v = o[prop];
      if (v != null) w[numbers](p + off, v, name);
    };
  }
  const write = valueWriter(f, fillerOf);
  if (f.label === Label.Explicit) {
    const byte = f.presence >>> 3;
    const mask = 1 << (f.presence & 7);
    return (w, o, p) => {
      const v = o[prop];
      if (v == null) return;
      write(w, p + off, v, name);
      w.bit(p + byte, mask);
    };
  }
  return (w, o, p) => {
    const v = o[prop];
    if (v != null) write(w, p + off, v, name);
  };
}

function oneofFiller(o: OneofModel, fillerOf: (m: MessageModel) => Fill<Plain>): FieldFill {
  const members = new Map(o.fields.map((f) => [f.prop, { f, write: valueWriter(f, fillerOf) }]));
  return (w, obj, p) => {
    const c = obj[o.prop] as { case?: unknown; value?: unknown } | null | undefined;
    if (c == null || c.case === undefined) return;
    const member = typeof c.case === "string" ? members.get(c.case) : undefined;
    if (member === undefined) return w.badCase(o.name, c.case);
    w.m.u32[(p + o.caseOffset) >>> 2] = member.f.number;
    member.write(w, p + o.valueOffset, c.value, member.f.name);
  };
}

function messageFiller(mm: MessageModel, fillerOf: (m: MessageModel) => Fill<Plain>): Fill<Plain> {
  const steps = mm.fields.filter((f) => !f.oneof).map((f) => fieldFiller(f, fillerOf));
  for (const o of mm.oneofs) steps.push(oneofFiller(o, fillerOf));
  return (w, o, p) => {
    for (const step of steps) step(w, o, p);
    w.unknown(p, o["$unknown"]);
  };
}

/** A view of a runtime type: each field a getter reading it as the plain object holds it. */
export class DynamicView extends MessageView {
  /** @internal */ declare readonly $read: Materializer<Plain>;

  $toObject(): Plain {
    return this.$read(this.$mem(), this.$ptr, this.$arena.rt);
  }
}

function viewClass(mm: MessageModel, read: Materializer<Plain>, readerOf: (m: MessageModel) => Materializer<Plain>): ViewClass<DynamicView> {
  const cls = class extends DynamicView {};
  Object.defineProperty(cls.prototype, "$read", { value: read });
  const getters: [string, Read][] = mm.fields.filter((f) => !f.oneof).map((f) => [f.prop, fieldReader(f, readerOf)]);
  for (const o of mm.oneofs) getters.push([o.prop, oneofReader(o, readerOf)]);
  for (const [prop, get] of getters) {
    Object.defineProperty(cls.prototype, prop, {
      get(this: DynamicView) {
        return get(this.$mem(), this.$ptr, this.$arena.rt);
      },
      enumerable: true,
    });
  }
  return cls;
}
