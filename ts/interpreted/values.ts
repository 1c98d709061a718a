// One value of a field, read from or written to its slot, as closures built once per field from
// the schema: what generated code writes out inline (codegen/emit/plain.ts and fill.ts).
import type { Fill, RecordWriter } from "../fill.js";
import type { Memory } from "../memory.js";
import { safeNumber } from "../plain.js";
import type { Runtime } from "../runtime.js";
import { FieldType, isInt64, numberKind, type FieldInfo, type SchemaDef } from "../schema.js";

export type Read = (m: Memory, addr: number, rt: Runtime) => unknown;
export type Write = (w: RecordWriter, addr: number, v: unknown, name: string) => void;

export const isMessage = (f: FieldInfo) => f.type === FieldType.Message || f.type === FieldType.Group;

/** Where errors about a field point: "pkg.Msg.field". */
export const fieldPath = (def: SchemaDef, message: number, f: FieldInfo) => `${def.messages[message]!.name}.${f.name}`;

/**
 * A scalar value at addr as plain objects hold it (64-bit integers in the field's form); `raw`
 * keeps 64-bit integers as bigint. Messages are not scalars: see message readers.
 */
export function scalarReader(f: FieldInfo, path: string, raw = false): (m: Memory, addr: number) => unknown {
  switch (f.type) {
    case FieldType.String: return (m, a) => m.strAt(a);
    case FieldType.Bytes: return (m, a) => m.bytesAt(a);
    case FieldType.Bool: return (m, a) => m.u8[a] !== 0;
  }
  switch (numberKind(f.type)) {
    case "i32": return (m, a) => m.i32[a >>> 2];
    case "u32": return (m, a) => m.u32[a >>> 2];
    case "f32": return (m, a) => m.f32[a >>> 2];
    case "f64": return (m, a) => m.f64[a >>> 3];
    case "i64": return int64Reader((m, a) => m.i64[a >>> 3]!, raw ? "bigint" : f.int64, path);
    case "u64": return int64Reader((m, a) => m.u64[a >>> 3]!, raw ? "bigint" : f.int64, path);
  }
  throw new Error(`hppproto: field ${path} has no scalar type`);
}

function int64Reader(read: (m: Memory, a: number) => bigint, form: FieldInfo["int64"], path: string) {
  switch (form) {
    case "string": return (m: Memory, a: number) => String(read(m, a));
    case "number": return (m: Memory, a: number) => safeNumber(read(m, a), path);
    default: return read;
  }
}

/** The zero of a scalar field's type, in the form plain objects hold it (a fresh array for bytes). */
export function zeroOf(f: FieldInfo): unknown {
  switch (f.type) {
    case FieldType.String: return "";
    case FieldType.Bytes: return new Uint8Array(0);
    case FieldType.Bool: return false;
  }
  if (isInt64(f.type)) return f.int64 === "bigint" ? 0n : f.int64 === "string" ? "0" : 0;
  return 0;
}

/**
 * Whether an implicit-presence value is its type's zero, which is not written: "", no bytes, false,
 * 0 (an integer's -0 too; a double's or float's -0 is a value of its own, as protobuf writes it).
 */
export function isZero(type: FieldType, v: unknown): boolean {
  switch (type) {
    case FieldType.String: return v === "";
    case FieldType.Bytes: return (v as Uint8Array).length === 0;
    case FieldType.Bool: return v === false;
    case FieldType.Double: case FieldType.Float: return Object.is(v, 0);
  }
  return isInt64(type) ? isZero64(v) : v === 0;
}

/** A 64-bit integer's zero, in any of its JS forms (bigint, or string or number under --int64). */
export const isZero64 = (v: unknown): boolean => (typeof v === "bigint" ? v === 0n : typeof v === "string" ? v === "0" : v === 0);

/** The map key of plain objects (always a string) from an entry record at e. */
export function mapKeyReader(key: FieldInfo): (m: Memory, e: number) => string {
  const off = key.offset;
  if (key.type === FieldType.String) return (m, e) => m.strAt(e + off);
  const read = scalarReader(key, "", true);
  return (m, e) => String(read(m, e + off));
}

/** Writes one value of f's type (not a map or list) into the slot at addr. */
export function valueWriter(def: SchemaDef, f: FieldInfo, fillerOf: (index: number) => Fill<never>): Write {
  if (isMessage(f)) {
    const fill = fillerOf(f.ref), index = f.ref;
    return (w, a, v, name) => w.msg(a, v, fill, def, index, name);
  }
  switch (f.type) {
    case FieldType.String: return (w, a, v, name) => w.str(a, v, name);
    case FieldType.Bytes: return (w, a, v, name) => w.bytes(a, v, name);
    case FieldType.Bool: return (w, a, v, name) => w.bool(a, v, name);
    case FieldType.Enum: {
      const index = f.ref;
      return (w, a, v, name) => w.enumValue(a, v, name, index);
    }
  }
  switch (numberKind(f.type)!) {
    case "i32": return (w, a, v, name) => w.i32(a, v, name);
    case "u32": return (w, a, v, name) => w.u32(a, v, name);
    case "f32": return (w, a, v, name) => w.f32(a, v, name);
    case "f64": return (w, a, v, name) => w.f64(a, v, name);
    case "i64": return (w, a, v, name) => w.i64(a, v, name);
    case "u64": return (w, a, v, name) => w.u64(a, v, name);
  }
}
