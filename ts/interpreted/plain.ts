// Plain objects from records and records from plain objects, interpreted from the schema: the
// same objects generated readers build (fields in order, then oneofs, then $unknown when there
// are unknown fields) and the same checks generated fillers make.
import { hasDefault } from "../defaults.js";
import { plainWeight } from "../layout.js";
import { type Fill, type RecordWriter } from "../fill.js";
import { mapKey } from "../checks.js";
import type { Materializer } from "../message.js";
import type { Memory } from "../memory.js";
import * as plain from "../plain.js";
import type { Runtime } from "../runtime.js";
import { FieldType, isInt64, Label, numberKind, type FieldInfo, type OneofInfo, type SchemaDef } from "../schema.js";
import { fieldPath, isMessage, mapKeyReader, scalarReader, valueWriter, type Read } from "./values.js";

type Plain = Record<string, unknown>;
type FieldRead = (m: Memory, p: number, rt: Runtime) => unknown;
type FieldFill = (w: RecordWriter, o: Plain, p: number) => void;

/** One value of f (a message, or a scalar as plain objects hold it) at addr. */
function valueReader(f: FieldInfo, path: string, readerOf: (index: number) => Materializer<Plain>): Read {
  if (isMessage(f)) {
    const read = readerOf(f.ref);
    return (m, a, rt) => read(m, m.u32[a >>> 2]! || rt.zeroRecord, rt);
  }
  const read = scalarReader(f, path);
  return (m, a) => read(m, a);
}

function fieldReader(def: SchemaDef, message: number, f: FieldInfo, readerOf: (index: number) => Materializer<Plain>): FieldRead {
  const off = f.offset, path = fieldPath(def, message, f);
  switch (f.label) {
    case Label.Map: {
      const [key, value] = def.messages[f.ref]!.fields as [FieldInfo, FieldInfo];
      const readKey = mapKeyReader(key);
      const readValue = valueReader(value, `${path} (map value)`, readerOf), voff = value.offset;
      return (m, p, rt) => plain.map(m, p + off, readKey, (m, e) => readValue(m, e + voff, rt));
    }
    case Label.Repeated: {
      if (isMessage(f)) {
        const read = readerOf(f.ref);
        return (m, p, rt) => plain.messages(m, p + off, read, rt);
      }
      switch (f.type) {
        case FieldType.String: return (m, p) => plain.strings(m, p + off);
        case FieldType.Bytes: return (m, p) => plain.bytesList(m, p + off);
        case FieldType.Bool: return (m, p) => plain.bools(m, p + off);
      }
      const kind = numberKind(f.type)!;
      if (isInt64(f.type) && f.int64 !== "bigint") {
        const heap = (m: Memory) => (kind === "i64" ? m.i64 : m.u64);
        return f.int64 === "string" ? (m, p) => plain.int64Strings(m, p + off, heap(m)) : (m, p) => plain.int64Numbers(m, p + off, heap(m), path);
      }
      switch (kind) {
        case "i32": return (m, p) => plain.i32s(m, p + off);
        case "u32": return (m, p) => plain.u32s(m, p + off);
        case "f32": return (m, p) => plain.f32s(m, p + off);
        case "f64": return (m, p) => plain.f64s(m, p + off);
        case "i64": return (m, p) => plain.i64s(m, p + off);
        case "u64": return (m, p) => plain.u64s(m, p + off);
      }
    }
  }
  if (isMessage(f)) {
    const read = readerOf(f.ref);
    return (m, p, rt) => plain.sub(m, p + off, read, rt);
  }
  const read = scalarReader(f, path);
  if (f.label === Label.Explicit) {
    const byte = f.presence >>> 3, mask = 1 << (f.presence & 7);
    return (m, p) => ((m.u8[p + byte]! & mask) !== 0 ? read(m, p + off) : undefined);
  }
  return (m, p) => read(m, p + off);
}

function oneofReader(def: SchemaDef, message: number, o: OneofInfo, readerOf: (index: number) => Materializer<Plain>): FieldRead {
  const members = new Map(o.fields.map((f) => [f.number, { prop: f.prop, read: valueReader(f, fieldPath(def, message, f), readerOf), off: f.offset }]));
  return (m, p, rt) => {
    const member = members.get(m.u32[(p + o.caseOffset) >>> 2]!);
    return member === undefined ? undefined : { case: member.prop, value: member.read(m, p + member.off, rt) };
  };
}

export function messageReader(def: SchemaDef, index: number, readerOf: (index: number) => Materializer<Plain>): Materializer<Plain> {
  const info = def.messages[index]!;
  // each property, its reader, and whether it has a declared default (never a oneof)
  const entries: [string, FieldRead, boolean][] = info.fields.filter((f) => f.oneof < 0).map((f) => [f.prop, fieldReader(def, index, f, readerOf), hasDefault(f)]);
  for (const o of info.oneofs) entries.push([o.prop, oneofReader(def, index, o, readerOf), false]);
  const props = entries.map(([prop]) => prop), reads = entries.map(([, read]) => read);
  const weight = plainWeight(info.fields.map((f) => ({ type: f.type, label: f.label, inOneof: f.oneof >= 0 })), info.oneofs.length);
  if (entries.some(([, , defaulted]) => defaulted)) return defaultsReader(def, index, props, reads, entries.map(([, , defaulted]) => defaulted), weight);
  // Every object starts as a copy of one with all the properties (a "__proto__" one as an own
  // property), so that reading fills properties in place: adding them one by one through a
  // computed key is slow in V8 (a generic store per property, about 10x generated code's decode).
  const template: Plain = {};
  for (const prop of props) Object.defineProperty(template, prop, { value: undefined, enumerable: true, writable: true, configurable: true });
  return (m, p, rt) => {
    plain.charge(rt, weight);
    const out: Plain = { ...template };
    for (let i = 0; i < props.length; i++) out[props[i]!] = reads[i]!(m, p, rt);
    if (plain.hasUnknown(m, p)) out["$unknown"] = plain.unknown(m, p);
    return out;
  };
}

/**
 * The reader of a message with declared defaults: objects on the prototype holding them, as
 * generated readers make them (withDefaults), an unset field with a default left out. (Its
 * properties are stored one by one: a copied template cannot have the prototype.)
 */
function defaultsReader(def: SchemaDef, index: number, props: string[], reads: FieldRead[], defaulted: boolean[], weight: number): Materializer<Plain> {
  const Make = plain.withDefaults(def, index, function (this: Plain, m: Memory, p: number, rt: Runtime) {
    for (let i = 0; i < props.length; i++) {
      const v = reads[i]!(m, p, rt);
      if (v !== undefined || !defaulted[i]) this[props[i]!] = v;
    }
    if (plain.hasUnknown(m, p)) this["$unknown"] = plain.unknown(m, p);
  });
  return (m, p, rt) => {
    plain.charge(rt, weight);
    return new Make(m, p, rt);
  };
}

/** Writes field f (not a oneof member) from v, known not to be null; p is the record. */
export function fieldWriter(def: SchemaDef, f: FieldInfo, fillerOf: (index: number) => Fill<never>): (w: RecordWriter, p: number, v: unknown) => void {
  const { name, offset: off } = f;
  switch (f.label) {
    case Label.Map: {
      const entry = def.messages[f.ref]!;
      const [key, value] = entry.fields as [FieldInfo, FieldInfo];
      const koff = key.offset, voff = value.offset, size = entry.recordSize;
      const writeKey = valueWriter(def, key, fillerOf), writeValue = valueWriter(def, value, fillerOf);
      const kind = key.type === FieldType.Bool ? "bool" : numberKind(key.type);
      const keyOf = kind === undefined || kind === "f32" || kind === "f64" ? (k: string) => k : (k: string) => mapKey(k, kind);
      return (w, p, v) => w.map(p + off, v, size, (e, k, x) => {
        writeKey(w, e + koff, keyOf(k), "");
        if (x != null) writeValue(w, e + voff, x, "");
      }, name);
    }
    case Label.Repeated: {
      if (isMessage(f)) {
        const fill = fillerOf(f.ref), index = f.ref;
        return (w, p, v) => w.msgs(p + off, v, fill, def, index, name);
      }
      const kind = numberKind(f.type);
      if (kind === undefined || f.type === FieldType.Enum) {
        const write = valueWriter(def, f, fillerOf), width = f.type === FieldType.Bool ? 1 : f.type === FieldType.Enum ? 4 : 8;
        return (w, p, v) => w.each(p + off, v, width, (a, e) => write(w, a, e, ""), name);
      }
      switch (kind) {
        case "i32": return (w, p, v) => w.i32s(p + off, v, name);
        case "u32": return (w, p, v) => w.u32s(p + off, v, name);
        case "f32": return (w, p, v) => w.f32s(p + off, v, name);
        case "f64": return (w, p, v) => w.f64s(p + off, v, name);
        case "i64": return (w, p, v) => w.i64s(p + off, v, name);
        case "u64": return (w, p, v) => w.u64s(p + off, v, name);
      }
    }
  }
  const write = valueWriter(def, f, fillerOf);
  if (f.label === Label.Explicit) {
    const byte = f.presence >>> 3, mask = 1 << (f.presence & 7);
    return (w, p, v) => {
      write(w, p + off, v, name);
      w.bit(p + byte, mask);
    };
  }
  return (w, p, v) => write(w, p + off, v, name);
}

/** Writes a oneof's case object (not null) into the record at p. */
export function oneofWriter(def: SchemaDef, o: OneofInfo, fillerOf: (index: number) => Fill<never>): (w: RecordWriter, p: number, c: unknown) => void {
  const members = new Map(o.fields.map((f) => [f.prop, { number: f.number, name: f.name, off: f.offset, write: valueWriter(def, f, fillerOf) }]));
  return (w, p, c) => {
    const which = (c as { case?: unknown }).case;
    if (which === undefined) return;
    const member = typeof which === "string" ? members.get(which) : undefined;
    if (member === undefined) return w.badCase(o.name, which);
    w.m.u32[(p + o.caseOffset) >>> 2] = member.number;
    member.write(w, p + member.off, (c as { value?: unknown }).value, member.name);
  };
}

export function messageFiller(def: SchemaDef, index: number, fillerOf: (index: number) => Fill<never>): Fill<Plain> {
  const info = def.messages[index]!;
  const steps: FieldFill[] = info.fields.filter((f) => f.oneof < 0).map((f) => {
    const write = fieldWriter(def, f, fillerOf), prop = f.prop;
    // a default the object inherits is not set, not written, and not read (as generated fillers)
    if (hasDefault(f)) {
      return (w, o, p) => {
        if (!Object.hasOwn(o, prop)) return;
        const v = o[prop];
        if (v != null) write(w, p, v);
      };
    }
    return (w, o, p) => {
      const v = o[prop];
      if (v != null) write(w, p, v);
    };
  });
  for (const o of info.oneofs) {
    const write = oneofWriter(def, o, fillerOf), prop = o.prop;
    steps.push((w, obj, p) => {
      const c = obj[prop];
      if (c != null) write(w, p, c);
    });
  }
  return (w, o, p) => {
    for (const step of steps) step(w, o, p);
  };
}
