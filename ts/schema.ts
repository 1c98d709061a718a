// Schema tables as generated code holds them, and the constants of their binary format
// (cpp/include/hppproto/schema.hpp documents the layout).

export const TABLE_MAGIC = 0x54505048; // "HPPT"
export const TABLE_VERSION = 2;
export const NO_AUX = 0xffffffff;

/** descriptor.proto's FieldDescriptorProto.Type numbers. */
export enum FieldType {
  Double = 1, Float = 2, Int64 = 3, Uint64 = 4, Int32 = 5, Fixed64 = 6, Fixed32 = 7, Bool = 8,
  String = 9, Group = 10, Message = 11, Bytes = 12, Uint32 = 13, Enum = 14, Sfixed32 = 15,
  Sfixed64 = 16, Sint32 = 17, Sint64 = 18,
}

export enum Label { Implicit = 0, Explicit = 1, Oneof = 2, Repeated = 3, Map = 4 }

export enum FieldFlag { Packed = 1, ValidateUtf8 = 2, Required = 4, ClosedEnum = 8 }

/** A field as ProtoJSON sees it: [number, name, jsonName, prop, type, label, message or enum index (-1), oneof prop]. */
export type JsonField = readonly [number, string, string, string, FieldType, Label, number, string?];

export interface MessageInfo {
  /** Fully qualified name, e.g. "pkg.Person". */
  readonly name: string;
  /** Field names by number, for error paths. */
  readonly fields: Readonly<Record<number, string>>;
  /** The fields, by number, for ProtoJSON. */
  readonly json?: readonly JsonField[];
}

export interface EnumInfo {
  readonly name: string;
  /** [number, name] pairs in declaration order. */
  readonly values: readonly (readonly [number, string])[];
}

export interface SchemaDef {
  readonly table: Uint8Array;
  readonly messages: readonly MessageInfo[];
  readonly enums: readonly EnumInfo[];
  /** The largest record_size in the table. */
  readonly maxRecordSize: number;
  /** @internal message types of this schema by index, as their modules load (for Any and JSON). */
  readonly types: unknown[];
}

function fromBase64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Called by generated code: a table (base64) and the names of its messages and fields. */
export function defineSchema(table: string | Uint8Array, messages: readonly MessageInfo[], enums: readonly EnumInfo[] = []): SchemaDef {
  const bytes = typeof table === "string" ? fromBase64(table) : table;
  return { table: bytes, messages, enums, maxRecordSize: maxRecordSize(bytes), types: [] };
}

function maxRecordSize(t: Uint8Array): number {
  const dv = new DataView(t.buffer, t.byteOffset, t.byteLength);
  const word = (i: number) => (i * 4 + 4 <= t.byteLength ? dv.getUint32(i * 4, true) : 0);
  let w = 2;
  const enumCount = word(w++);
  const messageCount = word(w++);
  for (let e = 0; e < enumCount; e++) w += 1 + word(w);
  let max = 8;
  for (let m = 0; m < messageCount && w * 4 < t.byteLength; m++) {
    max = Math.max(max, word(w)); // record_size, flags, field_count, then 5 words per field
    w += 3 + 5 * word(w + 2);
  }
  return max;
}
