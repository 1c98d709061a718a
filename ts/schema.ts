// Schemas: what generated code declares (a compact list of enums, messages and fields, see
// SchemaSource), and what the runtime makes of it: each message's fields with their names and
// record layout (ts/layout.ts decides it), and the binary table the codec reads
// (cpp/include/hppproto/schema.hpp documents its format).
import { layoutRecord, wasm32, type SlotSizes } from "./layout.js";
import type { Memory } from "./memory.js";

/** Schemas with a compiled module (compiled.ts), defined before the runtime started: init() instantiates them. */
export const awaitingInstantiation = new Set<SchemaDef>();

/** descriptor.proto's FieldDescriptorProto.Type numbers. */
export enum FieldType {
  Double = 1, Float = 2, Int64 = 3, Uint64 = 4, Int32 = 5, Fixed64 = 6, Fixed32 = 7, Bool = 8,
  String = 9, Group = 10, Message = 11, Bytes = 12, Uint32 = 13, Enum = 14, Sfixed32 = 15,
  Sfixed64 = 16, Sint32 = 17, Sint64 = 18,
}

export enum Label { Implicit = 0, Explicit = 1, Oneof = 2, Repeated = 3, Map = 4 }

export enum FieldFlag { Packed = 1, ValidateUtf8 = 2, Required = 4, ClosedEnum = 8 }

/** How plain objects and views hold a 64-bit integer field. */
export type Int64As = "bigint" | "string" | "number";
/** The int64 forms by their number in a SchemaSource. */
export const int64Forms: readonly Int64As[] = ["bigint", "string", "number"];

/**
 * A schema as generated code declares it: one flat array, read front to back.
 *   int64 form (0 bigint, 1 string, 2 number), enum count, enums, message count, messages
 *   enum:    full name, closed (0/1), value count, then name, number per value
 *   message: full name, flags (1 message set, 2 map entry, 4 reserved names, 8 extension holder),
 *            [reserved name count, names,] oneof count, then name and property ("" when it is the
 *            name's) per oneof, field count, fields by ascending number
 *   field:   number, code (see SourceBits), name, then as the code says: json name, property,
 *            message or enum index, oneof index, default
 *   then the enums and messages of other files this file's fields refer to, directly or through
 *   each other: a count, then per enum a link (index among defineSchema's links), its index there
 *   and its full name (checked: a module generated before that file changed fails clearly); the
 *   same for messages. They follow the file's own: an index past its own enums or
 *   messages is one of them, in this order.
 * Json names and properties are written only where they are not the ones the name gives.
 */
export type SchemaSource = readonly (string | number | boolean)[];

/** The code word of a field in a SchemaSource: type | label << LabelShift | flags << FlagsShift | these. */
export const SourceBits = { LabelShift: 5, FlagsShift: 8, JsonName: 1 << 12, Prop: 1 << 13, Default: 1 << 14, Int64Shift: 15 } as const;
/** A message's flags in a SchemaSource. */
export const SourceFlags = { MessageSet: 1, MapEntry: 2, Reserved: 4, ExtensionHolder: 8 } as const;
/** Bytes as a SchemaSource holds them (bytes defaults, custom options): one char per byte. */
export function bytesOfChars(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Bytes as a SchemaSource holds them: one char per byte (bytesOfChars' inverse). */
export function charsOfBytes(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 4096) s += String.fromCharCode(...bytes.subarray(i, i + 4096)); // in chunks: no argument-count limit
  return s;
}

/** What a custom options entry of a SchemaSource belongs to. */
export const OptionsOf = { Message: 0, Field: 1, Oneof: 2, Enum: 3, EnumValue: 4 } as const;
export type OptionsOf = (typeof OptionsOf)[keyof typeof OptionsOf];

/** Custom options: the extension fields of a declaration's XxxOptions, as wire bytes (read with getOption). */
export interface WithOptions {
  readonly options?: Uint8Array;
}

export interface FieldInfo extends WithOptions {
  readonly number: number;
  /** The .proto name (error paths, ProtoJSON with useProtoNames). */
  readonly name: string;
  readonly jsonName: string;
  /** The property of plain objects and views. */
  readonly prop: string;
  readonly type: FieldType;
  readonly label: Label;
  /** FieldFlag bits. */
  readonly flags: number;
  /** The slot's offset in the record. */
  readonly offset: number;
  /** Label.Explicit: the hasbit position; Label.Oneof: the case slot's offset. */
  readonly presence: number;
  /** The message (map entry for maps) or enum index; -1 for other types. */
  readonly ref: number;
  /** The index of its oneof among the message's, or -1. */
  readonly oneof: number;
  /** 64-bit integer types: how plain objects and views hold them. */
  readonly int64: Int64As;
  /** The declared default of a field with explicit presence where it is not zero, as declared. */
  readonly defaultValue: string | number | boolean | undefined;
}

export interface OneofInfo extends WithOptions {
  readonly name: string;
  readonly prop: string;
  readonly caseOffset: number;
  readonly valueOffset: number;
  readonly fields: readonly FieldInfo[];
}

export interface MessageInfo extends WithOptions {
  /** Fully qualified name, e.g. "pkg.Person". */
  readonly name: string;
  /** The fields, by ascending number. */
  readonly fields: readonly FieldInfo[];
  readonly oneofs: readonly OneofInfo[];
  readonly recordSize: number;
  readonly mapEntry: boolean;
  /** proto2 message_set_wire_format: its extensions are written as message set items. */
  readonly messageSet: boolean;
  /** Field names the message reserves (the text format skips them). */
  readonly reserved: readonly string[];
  /**
   * The extensions one file declares of a message of another file, as the fields of a message of
   * their own named after it: what reads and writes their values in the extendee's unknown fields
   * (extension.ts). Never a field's type, nor found by name.
   */
  readonly extensionHolder: boolean;
}

export interface EnumInfo extends WithOptions {
  readonly name: string;
  readonly closed: boolean;
  /** [number, name] pairs in declaration order. */
  readonly values: readonly (readonly [number, string])[];
  /** Custom options of values, by declaration index. */
  readonly valueOptions?: readonly (Uint8Array | undefined)[];
}

export interface SchemaDef {
  /** The binary table the codec reads, once a runtime with the codec built it (table.ts). */
  table?: Uint8Array;
  readonly messages: readonly MessageInfo[];
  readonly enums: readonly EnumInfo[];
  /** The largest record size in the table. */
  readonly maxRecordSize: number;
  /** @internal message types of this schema by index, as their modules load (for Any and JSON). */
  readonly types: unknown[];
  /** @internal the file's compiled decoders (compiled.ts): a WASM module, base64; attached by compiledDecoders() */
  compiled?: string;
  /** @internal the core module compiled decoders import their helpers from (ts/compiledcore.js), base64 */
  core?: string;
  /** @internal the schemas of the files this one's messages refer to (the generated modules it imports) */
  readonly links: readonly SchemaDef[];
  /** @internal where each linked message came from, by index (undefined for the file's own) */
  readonly origins: readonly (readonly [SchemaDef, number] | undefined)[];
}

/**
 * The message type of message `index` of def, wherever it was generated: its own, or that of the
 * file it links to (undefined while that module has not defined it).
 */
export function typeAt(def: SchemaDef, index: number): unknown {
  const own = def.types[index];
  if (own !== undefined) return own;
  const origin = def.origins[index];
  return origin === undefined ? undefined : typeAt(origin[0], origin[1]);
}

/** The messages of the generated modules loaded so far, by name: where one is found without a registry. */
const generated = new Map<string, readonly [SchemaDef, number]>();
const generatedSchemas = new WeakSet<SchemaDef>();

/**
 * The message a type name names (an Any's type): [schema, index] in def, else, for generated code,
 * in the schemas of the generated modules loaded so far (as one generation run's code finds its
 * other files' messages; a runtime schema is one of its own), or undefined.
 */
export function findMessage(def: SchemaDef, name: string): readonly [SchemaDef, number] | undefined {
  const index = def.messages.findIndex((m) => m.name === name && !m.extensionHolder);
  if (index >= 0) return [def, index];
  return generatedSchemas.has(def) ? generated.get(name) : undefined;
}

/**
 * Called by generated code: its file's schema (defineSchema's), its messages then found by name
 * (findMessage).
 */
export function defineFileSchema(source: SchemaSource, links?: readonly SchemaDef[]): SchemaDef {
  const def = defineSchema(source, undefined, links);
  generatedSchemas.add(def);
  def.messages.forEach((m, i) => {
    if (def.origins[i] === undefined && !m.extensionHolder && !m.mapEntry && !generated.has(m.name)) generated.set(m.name, [def, i]);
  });
  return def;
}

/**
 * Whether message `index` or one it holds has a field whose record does not read out to a plain
 * object that encodes back to the same bytes: a string whose UTF-8 is not validated (proto2's, or
 * utf8_validation = NONE: its bytes need not be text), a float (a signalling NaN reads out quiet),
 * a 64-bit integer read as a number (past 2^53). Only the codec encodes such a message's views and
 * builders without loss. The generator decides the same for the files it writes
 * (codegen/emit/encode.ts readsOutLossily).
 */
export function readsOutLossily(def: SchemaDef, index: number, seen = new Set<number>()): boolean {
  if (seen.has(index)) return false;
  seen.add(index);
  return def.messages[index]!.fields.some((f) =>
    (f.type === FieldType.String && (f.flags & FieldFlag.ValidateUtf8) === 0) || f.type === FieldType.Float || (isInt64(f.type) && f.int64 === "number") ||
    ((f.type === FieldType.Message || f.type === FieldType.Group) && f.ref >= 0 && readsOutLossily(def, f.ref, seen)));
}

/** lowerCamelCase as protoc derives json_name: drop underscores, upper-case the letter after one. */
export function camelCase(name: string): string {
  let out = "";
  let upper = false;
  for (const c of name) {
    if (c === "_") {
      upper = true;
    } else {
      out += upper ? c.toUpperCase() : c;
      upper = false;
    }
  }
  return out;
}

/**
 * Property names that would break objects (prototype access, thenables, coercion): every property
 * of Object.prototype, then and toJSON. A fixed list, as generator and runtime must agree on it.
 */
const reservedProperty = new Set([
  "__proto__", "constructor", "toString", "toJSON", "valueOf", "hasOwnProperty", "isPrototypeOf",
  "propertyIsEnumerable", "toLocaleString", "then", "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__",
]);

/** A name as a property of generated objects: with a "$" suffix when it is one of the reserved ones. */
export const safeProperty = (name: string): string => (reservedProperty.has(name) ? name + "$" : name);

/** The property a field of this .proto name gets, before names taken by other fields are avoided. */
export function propertyName(protoName: string): string {
  return safeProperty(camelCase(protoName) || "_");
}

/** How a numeric field's values sit in a record: the typed array that reads them. */
export type NumberKind = "i32" | "u32" | "f32" | "f64" | "i64" | "u64";

/** The number kind of a numeric field type (enums are int32s); undefined for bool, strings, bytes, messages. */
export function numberKind(t: FieldType): NumberKind | undefined {
  switch (t) {
    case FieldType.Int32: case FieldType.Sint32: case FieldType.Sfixed32: case FieldType.Enum: return "i32";
    case FieldType.Uint32: case FieldType.Fixed32: return "u32";
    case FieldType.Float: return "f32";
    case FieldType.Double: return "f64";
    case FieldType.Int64: case FieldType.Sint64: case FieldType.Sfixed64: return "i64";
    case FieldType.Uint64: case FieldType.Fixed64: return "u64";
    default: return undefined;
  }
}

/**
 * Whether a field is an extension held as a field of the message it extends: its name is its full
 * name in brackets, its JSON key (codegen/model.ts). Unset, an empty repeated one included, it is
 * left out of ProtoJSON even with emitDefaults, as protobuf leaves unset extensions out.
 */
export const isExtension = (f: { readonly name: string }): boolean => f.name.startsWith("[");

/** Whether values of this type are 64-bit integers (held as bigint, or as --int64 / jstype say). */
export function isInt64(t: FieldType): boolean {
  const k = numberKind(t);
  return k === "i64" || k === "u64";
}
/** Whether a field's SchemaSource entry carries a message or enum index. */
export const hasRef = (type: FieldType, label: Label) =>
  label === Label.Map || type === FieldType.Message || type === FieldType.Group || type === FieldType.Enum;

/**
 * The schema a SchemaSource declares, its records laid out for wasm32
 * (or, for the C++ tests, other slot sizes). `compiled` is the module of decoders hppproto-gen
 * compiled for it (compiled.ts); `links` are the schemas of other files its source refers to, whose
 * messages it takes as they are laid out there, so that records of a message are the same in every
 * file's schema that holds it.
 */
export function defineSchema(source: SchemaSource, compiled?: string, links: readonly SchemaDef[] = [], sizes: SlotSizes = wasm32): SchemaDef {
  let at = 0;
  const next = () => source[at++]!;
  const num = () => next() as number;
  const str = () => next() as string;
  const int64Default = int64Forms[num()]!;
  const enums: EnumInfo[] = [];
  for (let e = num(); e > 0; e--) {
    const name = str(), closed = num() === 1;
    const values: (readonly [number, string])[] = [];
    for (let v = num(); v > 0; v--) {
      const valueName = str();
      values.push([num(), valueName]);
    }
    enums.push({ name, closed, values });
  }
  const messages: MessageInfo[] = [];
  for (let m = num(); m > 0; m--) {
    const name = str(), flags = num();
    const reserved: string[] = [];
    if (flags & SourceFlags.Reserved) for (let r = num(); r > 0; r--) reserved.push(str());
    const oneofNames: [string, string][] = [];
    for (let o = num(); o > 0; o--) {
      const oneofName = str();
      oneofNames.push([oneofName, str() || propertyName(oneofName)]);
    }
    const rows: Omit<FieldInfo, "offset" | "presence">[] = [];
    for (let f = num(); f > 0; f--) {
      const number = num(), code = num(), fieldName = str();
      const type = (code & 31) as FieldType, label = ((code >>> SourceBits.LabelShift) & 7) as Label;
      const jsonName = code & SourceBits.JsonName ? str() : camelCase(fieldName);
      const prop = code & SourceBits.Prop ? str() : propertyName(fieldName);
      const ref = hasRef(type, label) ? num() : -1;
      const oneof = label === Label.Oneof ? num() : -1;
      const defaultValue = code & SourceBits.Default ? (next() as string | number | boolean) : undefined;
      const jsType = (code >>> SourceBits.Int64Shift) & 3; // the field's jstype: 0 none, else an int64Forms index
      const int64 = isInt64(type) && jsType !== 0 ? int64Forms[jsType]! : int64Default;
      rows.push({ number, name: fieldName, jsonName, prop, type, label, flags: (code >>> SourceBits.FlagsShift) & 15, ref, oneof, int64, defaultValue });
    }
    const layout = layoutRecord(rows, oneofNames.length, sizes);
    const fields: FieldInfo[] = rows.map((r, i) => ({ ...r, offset: layout.offsets[i]!, presence: layout.presence[i]! }));
    const oneofs = oneofNames.map(([oneofName, prop], o): OneofInfo => ({
      name: oneofName, prop, ...layout.oneofs[o]!, fields: fields.filter((f) => f.oneof === o),
    }));
    messages.push({
      name, fields, oneofs, recordSize: layout.recordSize, mapEntry: (flags & SourceFlags.MapEntry) !== 0, messageSet: (flags & SourceFlags.MessageSet) !== 0,
      reserved, extensionHolder: (flags & SourceFlags.ExtensionHolder) !== 0,
    });
  }
  const origins: (readonly [SchemaDef, number] | undefined)[] = messages.map(() => undefined);
  if (at < source.length) linkExternals(num, str, links, enums, messages, origins);
  if (at < source.length) {
    for (let n = num(); n > 0; n--) {
      const kind = num() as OptionsOf, index = num(), inner = num(), bytes = bytesOfChars(str());
      const lacking = () => new Error("hppproto: schema source has options for a declaration it lacks");
      if (kind === OptionsOf.EnumValue) {
        // values are [number, name] pairs: their options stand beside them
        const e = enums[index] as { values: unknown[]; valueOptions?: (Uint8Array | undefined)[] } | undefined;
        if (e === undefined || inner >= e.values.length) throw lacking();
        (e.valueOptions ??= [])[inner] = bytes;
        continue;
      }
      const owner = kind === OptionsOf.Message ? messages[index] : kind === OptionsOf.Field ? messages[index]?.fields[inner]
        : kind === OptionsOf.Oneof ? messages[index]?.oneofs[inner] : enums[index];
      if (owner === undefined) throw lacking();
      (owner as { options?: Uint8Array }).options = bytes;
    }
  }
  if (at !== source.length) throw new Error(`hppproto: schema source has ${source.length - at} values left over`);
  const def: SchemaDef = { messages, enums, maxRecordSize: messages.reduce((max, m) => Math.max(max, m.recordSize), 8), types: [], compiled, links, origins };
  if (compiled !== undefined) awaitingInstantiation.add(def);
  return def;
}

/**
 * Appends the enums and messages of linked schemas a source lists (see SchemaSource) to its own:
 * as they are there, laid out there, their references renumbered by name into this schema, which
 * holds everything they refer to (the generator lists it all).
 */
function linkExternals(num: () => number, str: () => string, links: readonly SchemaDef[], enums: EnumInfo[], messages: MessageInfo[], origins: (readonly [SchemaDef, number] | undefined)[]): void {
  const linked = (what: string) => {
    const link = links[num()], index = num(), name = str();
    const found = link === undefined ? undefined : what === "enum" ? link.enums[index] : link.messages[index];
    if (link === undefined || found === undefined || found.name !== name) {
      throw new Error(`hppproto: the ${what} ${name} is not where this module's schema links to it: the module of its .proto file was generated from another version of it (regenerate both)`);
    }
    return [link, index, found] as const;
  };
  const external: [SchemaDef, MessageInfo][] = [];
  for (let n = num(); n > 0; n--) enums.push(linked("enum")[2] as EnumInfo);
  for (let n = num(); n > 0; n--) {
    const [link, index, info] = linked("message");
    external.push([link, info as MessageInfo]);
    origins.push(link.origins[index] ?? [link, index]);
  }
  const enumAt = new Map(enums.map((e, i) => [e.name, i]));
  const messageAt = new Map<string, number>();
  messages.forEach((m, i) => m.extensionHolder || messageAt.set(m.name, i));
  external.forEach(([, m], i) => messageAt.set(m.name, messages.length + i));
  for (const [link, m] of external) {
    const renumber = (f: FieldInfo): FieldInfo => {
      if (f.ref < 0) return f;
      const isEnum = f.type === FieldType.Enum && f.label !== Label.Map;
      const name = isEnum ? link.enums[f.ref]!.name : link.messages[f.ref]!.name;
      const ref = isEnum ? enumAt.get(name) : messageAt.get(name);
      if (ref === undefined) throw new Error(`hppproto: schema source lacks ${name}, which ${m.name} refers to (regenerate the modules of every .proto file with one version of hppproto)`);
      return ref === f.ref ? f : { ...f, ref };
    };
    const fields = m.fields.map(renumber);
    const oneofs = m.oneofs.map((o) => ({ ...o, fields: o.fields.map((f) => fields[m.fields.indexOf(f)]!) }));
    messages.push({ ...m, fields, oneofs });
  }
}

