// Custom options: the extension fields of a declaration's XxxOptions message, kept as their wire
// bytes (every XxxOptions reserves field numbers 1000 and up for them). protoc hands them over
// inside the descriptors' bytes, which protobufjs's descriptor decoding drops (attachCustomOptions
// walks those bytes again); for .proto files protobufjs parsed, encodeCustomOptions writes what it
// parsed as protoc would. Reflection reads them with the option's Extension (ts/options.ts).
import protobuf from "protobufjs";

const FIRST_EXTENSION = 1000;

type Kind = "file" | "message" | "field" | "oneof" | "enum" | "enumValue" | "service" | "method";
/** descriptor.proto's nesting: the field holding a declaration's options, and the fields holding the declarations inside it. */
const shapes: Record<Kind, { options: number; children?: Record<number, [property: string, kind: Kind]> }> = {
  file: { options: 8, children: { 4: ["messageType", "message"], 5: ["enumType", "enum"], 6: ["service", "service"], 7: ["extension", "field"] } },
  message: { options: 7, children: { 2: ["field", "field"], 3: ["nestedType", "message"], 4: ["enumType", "enum"], 6: ["extension", "field"], 8: ["oneofDecl", "oneof"] } },
  field: { options: 8 },
  oneof: { options: 2 },
  enum: { options: 3, children: { 2: ["value", "enumValue"] } },
  enumValue: { options: 3 },
  service: { options: 3, children: { 2: ["method", "method"] } },
  method: { options: 4 },
};

type Declaration = { options?: { custom?: Uint8Array } } & Record<string, unknown>;

/**
 * Sets `options.custom` on every declaration of `file` (a FileDescriptorProto as protobufjs's
 * toObject gave it) whose options in `bytes` (the same descriptor's wire bytes) have extension fields.
 */
export function attachCustomOptions(bytes: Uint8Array, file: object): void {
  attach(bytes, "file", file as Declaration);
}

function attach(bytes: Uint8Array, kind: Kind, target: Declaration): void {
  const shape = shapes[kind];
  const seen = new Map<number, number>();
  const r = protobuf.Reader.create(bytes);
  while (r.pos < r.len) {
    const tag = r.uint32();
    const number = tag >>> 3;
    const child = shape.children?.[number];
    if ((tag & 7) !== 2 || (number !== shape.options && child === undefined)) {
      r.skipType(tag & 7);
    } else if (number === shape.options) {
      const custom = extensionFields(r.bytes());
      if (custom.length > 0) target.options = { ...target.options, custom };
    } else {
      const i = seen.get(number) ?? 0;
      seen.set(number, i + 1);
      attach(r.bytes(), child![1], (target[child![0]] as Declaration[])[i]!);
    }
  }
}

/** The fields numbered from 1000 up, in the order written. */
function extensionFields(options: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  const r = protobuf.Reader.create(options);
  while (r.pos < r.len) {
    const start = r.pos;
    const tag = r.uint32();
    r.skipType(tag & 7);
    if (tag >>> 3 >= FIRST_EXTENSION) parts.push(options.subarray(start, r.pos));
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}

/**
 * The custom options protobufjs parsed for a declaration (`option (name) = value;`, `[(name).path = value]`,
 * aggregates `{ a: 1 }`), as the wire bytes of its options' extension fields. `scope` resolves the
 * options' names as protoc does, from the declaration outwards.
 */
export function encodeCustomOptions(parsed: readonly Record<string, unknown>[] | null | undefined, scope: protobuf.ReflectionObject): Uint8Array | undefined {
  const w = protobuf.Writer.create();
  let any = false;
  for (const option of parsed ?? []) {
    for (const [key, value] of Object.entries(option)) {
      if (!key.startsWith("(")) continue; // descriptor.proto's own options: described field by field
      writeField(w, extensionNamed(key, scope), value, scope);
      any = true;
    }
  }
  return any ? w.finish() : undefined;
}

/**
 * Enum values keep their options flattened (`{"(name).path": value}`): the same, nested again.
 */
export function nestedOptions(flat: Record<string, unknown> | undefined): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const [key, value] of Object.entries(flat ?? {})) {
    const path = key.match(/\([^)]*\)|[^.]+/g) ?? [key];
    let nested: unknown = value;
    for (let i = path.length - 1; i > 0; i--) nested = { [path[i]!]: nested };
    out.push({ [path[0]!]: nested });
  }
  return out;
}

/** The extension field `(name)` names, looked up from scope outwards (a leading "." makes it absolute). */
function extensionNamed(key: string, scope: protobuf.ReflectionObject): protobuf.Field {
  const name = key.slice(1, -1);
  // protobufjs's lookup goes on to the enclosing namespaces itself
  const at = (scope instanceof protobuf.Namespace ? scope : scope.parent) as protobuf.Namespace | null;
  const found = at?.lookup(name, [protobuf.Field]) ?? null;
  if (!(found instanceof protobuf.Field) || found.extend === undefined) {
    throw new Error(`${scope.fullName.slice(1)}: option (${name}) is not an extension this file can see`);
  }
  found.resolve();
  return found;
}

const wireTypes = protobuf.types.basic as Record<string, number>;

/** Writes `value` (an array for repeated fields) as field `f`. */
function writeField(w: protobuf.Writer, f: protobuf.Field, value: unknown, scope: protobuf.ReflectionObject): void {
  if (Array.isArray(value)) {
    for (const v of value) writeField(w, f, v, scope);
    return;
  }
  const type = f.resolvedType;
  if (f instanceof protobuf.MapField) {
    const entry = value as { key?: unknown; value?: unknown };
    const e = protobuf.Writer.create();
    writeScalar(e, 1, f.keyType, entry.key);
    if (type instanceof protobuf.Type) writeMessage(e, 2, type, entry.value, false, scope);
    else if (type instanceof protobuf.Enum) e.uint32(2 << 3).int32(enumNumber(type, entry.value));
    else writeScalar(e, 2, f.type, entry.value);
    w.uint32((f.id << 3) | 2).bytes(e.finish());
  } else if (type instanceof protobuf.Type) writeMessage(w, f.id, type, value, f.delimited, scope);
  else if (type instanceof protobuf.Enum) w.uint32(f.id << 3).int32(enumNumber(type, value));
  else writeScalar(w, f.id, f.type, value);
}

function writeMessage(w: protobuf.Writer, id: number, type: protobuf.Type, value: unknown, delimited: boolean, scope: protobuf.ReflectionObject): void {
  const body = protobuf.Writer.create();
  for (const [key, v] of Object.entries((value ?? {}) as Record<string, unknown>)) {
    const field = key.startsWith("(") ? extensionNamed(key, scope) : fieldNamed(type, key);
    writeField(body, field, v, scope);
  }
  if (delimited) w.uint32((id << 3) | 3).raw(body.finish()).uint32((id << 3) | 4);
  else w.uint32((id << 3) | 2).bytes(body.finish());
}

/** A field of an aggregate by its .proto name (a group's by its lower-cased type name, as protoc takes it). */
function fieldNamed(type: protobuf.Type, key: string): protobuf.Field {
  const f = type.fields[key] ?? type.fieldsArray.find((x) => x.name.toLowerCase() === key.toLowerCase());
  if (f === undefined) throw new Error(`${type.fullName.slice(1)} has no field ${key}`);
  f.resolve();
  return f;
}

function enumNumber(e: protobuf.Enum, value: unknown): number {
  if (typeof value === "number") return value;
  const n = e.values[String(value)];
  if (n === undefined) throw new Error(`${e.fullName.slice(1)} has no value ${String(value)}`);
  return n;
}

function writeScalar(w: protobuf.Writer, id: number, type: string, value: unknown): void {
  w.uint32((id << 3) | wireTypes[type]!);
  if (type === "bytes") {
    // a .proto string literal, escapes already read: one byte per char, UTF-8 beyond Latin-1
    const s = String(value);
    w.bytes([...s].every((c) => c.charCodeAt(0) < 0x100) ? Uint8Array.from(s, (c) => c.charCodeAt(0)) : new TextEncoder().encode(s));
  } else if (type === "string") w.string(String(value));
  else if (type === "bool") w.bool(value === true || value === "true");
  else (w as unknown as Record<string, (v: unknown) => void>)[type]!.call(w, value);
}
