// Custom options: the extension fields of a declaration's XxxOptions message, kept as their wire
// bytes (every XxxOptions reserves field numbers 1000 and up for them). protoc hands them over
// inside the descriptors' bytes, which protobufjs's descriptor decoding drops (attachCustomOptions
// walks those bytes again); for .proto files protobufjs parsed, encodeCustomOptions writes what it
// parsed as protoc would. Reflection reads them with the option's Extension (ts/options.ts).
import protobuf from "protobufjs";
import { concatBytes } from "../ts/copy.js";
import { bytesOfChars } from "../ts/schema.js";
import { at, escape, fromSource, ProtoLoadError, searchFor, type Reader } from "./located.js";
import { declaringFile, realName, sourceOf } from "./parse.js";
import { integer, integerLiteral, tokensOf } from "./scan.js";
import { excerpt } from "../ts/excerpt.js";

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
  return concatBytes(parts);
}

/**
 * The custom options protobufjs parsed for a declaration (`option (name) = value;`, `[(name).path = value]`,
 * aggregates `{ a: 1 }`), as the wire bytes of its options' extension fields. Names resolve as
 * protoc resolves them, from the declaration outwards; what protoc rejects (an unknown option, a
 * path into a scalar, a value of the wrong type) is an error placed in the declaring file.
 */
export function encodeCustomOptions(parsed: readonly Record<string, unknown>[] | null | undefined, scope: protobuf.ReflectionObject): Uint8Array | undefined {
  const w = protobuf.Writer.create();
  let any = false;
  for (const option of parsed ?? []) {
    for (const [key, value] of Object.entries(option)) {
      if (!key.startsWith("(")) continue; // descriptor.proto's own options: described field by field
      const writer = new OptionWriter(scope, key);
      writer.field(w, writer.extension(key), value);
      any = true;
    }
  }
  return any ? w.finish() : undefined;
}

/**
 * A file's custom options (`option (name) = value;` outside every declaration). protobufjs keeps
 * them on the package's namespace, merged over every file of the package, so the file's own
 * statements are parsed again alone; names resolve from its package outwards.
 */
export function fileCustomOptions(file: string, pkg: protobuf.Namespace): Uint8Array | undefined {
  // a stand-in declaration of the file: in it for errors and 64-bit literals, in the package for names
  const scope = new protobuf.Namespace("file");
  scope.filename = file;
  scope.parent = pkg;
  // each statement alone: protoc writes `(a) = {...}` and `(a).b = 1` as two occurrences, which
  // protobufjs would merge into one
  const parts = topLevelOptions(sourceOf(file)).map((statement) => {
    const alone = protobuf.parse(`syntax = "proto2";\n${statement}`, new protobuf.Root(), { keepCase: true }).root;
    return encodeCustomOptions(alone.parsedOptions as Record<string, unknown>[] | undefined, scope)!;
  });
  return parts.length > 0 ? concatBytes(parts) : undefined;
}

/** The custom `option (...) ...;` statements at the top level of a .proto text (comments already blanked). */
function topLevelOptions(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '"' || c === "'") {
      for (i++; i < source.length && source[i] !== c; i++) if (source[i] === "\\") i++;
    } else if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === ";" && depth === 0 && start >= 0) {
      out.push(source.slice(start, i + 1));
      start = -1;
    } else if (depth === 0 && start < 0 && c === "o" && /^option\b/.test(source.slice(i, i + 7)) && (i === 0 || /[\s;}]/.test(source[i - 1]!))) start = i;
  }
  return out.filter((o) => /^option\s*\(/.test(o)); // descriptor.proto's own options are read elsewhere
}

/**
 * A file's integer literals by the value protobufjs parsed them into (the first of those that round
 * alike): all of them, and by option name those after each `(name)` up to the next option's name or
 * the end of its statement. Read once per file, in one pass.
 */
const integerLiterals: Reader<{ byOption: Map<string, Map<number, bigint>>; all: Map<number, bigint> }> = (_text, file) => {
  const { tokens } = tokensOf(sourceOf(file));
  const byOption = new Map<string, Map<number, bigint>>();
  const all = new Map<number, bigint>();
  let own: Map<number, bigint> | undefined; // the literals of the option being read
  const add = (to: Map<number, bigint>, literal: bigint) => {
    if (!to.has(Number(literal))) to.set(Number(literal), literal);
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === "(") {
      let j = i + 1;
      while (j < tokens.length && (tokens[j] === "." || /^[A-Za-z_]/.test(tokens[j]!))) j++;
      if (tokens[j] !== ")" || j === i + 1) continue;
      const name = tokens.slice(i + 1, j).join("").replace(/^\./, "");
      if (!byOption.has(name)) byOption.set(name, new Map());
      own = byOption.get(name);
      i = j;
    } else if (t === ";" || t === "]") own = undefined;
    else if (integer.test(t)) {
      const literal = integerLiteral(tokens[i - 1] === "-" ? `-${t}` : t);
      add(all, literal);
      if (own) add(own, literal);
    }
  }
  return { byOption, all };
};

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

const wireTypes = protobuf.types.basic as Record<string, number>;
const integers = new Set(["int32", "uint32", "sint32", "fixed32", "sfixed32", "int64", "uint64", "sint64", "fixed64", "sfixed64"]);

/** Writes one option (`(name)` and everything set inside it), its errors placed at its name. */
class OptionWriter {
  constructor(private readonly scope: protobuf.ReflectionObject, private readonly option: string) {}

  /** The error placed as protoc places it: at the option's name, or (`atValue`) at the value it is set to. */
  private error(message: string, atValue = false): ProtoLoadError {
    const file = declaringFile(this.scope);
    const name = this.namePattern;
    return file === undefined ? new ProtoLoadError(message) : at(file, searchFor(atValue ? `(?<=${name}[^=;\\]]*=\\s*)\\S` : name), message);
  }

  /**
   * A 64-bit integer as written: protobufjs parses literals into JS numbers, which round beyond
   * 2^53, so such a value is looked up among the integer literals of the declaring file.
   */
  private exact(value: number): bigint {
    const file = declaringFile(this.scope);
    const literals = Number.isSafeInteger(value) || file === undefined ? undefined : fromSource(file, integerLiterals);
    // this option's literals first (values that round alike stay apart), then the file's
    return literals?.byOption.get(this.option.slice(1, -1).replace(/^\./, ""))?.get(value) ?? literals?.all.get(value) ?? BigInt(value);
  }

  /** `(name)` as a pattern (a leading "." optional). */
  private get namePattern(): string {
    return `\\(\\s*${escape(this.option.slice(1, -1)).replace(/^\\\./, "\\.?")}\\s*\\)`;
  }

  /** The option's name as protoc's errors about its value give it: without the parentheses. */
  private get bare(): string {
    return this.option.slice(1, -1);
  }

  /** The extension field `(name)` names, looked up from the declaration outwards (a leading "." makes it absolute). */
  extension(key: string): protobuf.Field {
    const name = key.slice(1, -1);
    // protobufjs's lookup goes on to the enclosing namespaces itself
    const at = (this.scope instanceof protobuf.Namespace ? this.scope : this.scope.parent) as protobuf.Namespace | null;
    const found = at?.lookup(name, [protobuf.Field]) ?? null;
    if (!(found instanceof protobuf.Field) || found.extend === undefined) {
      throw this.error(`Option "(${excerpt(name)})" unknown. Ensure that your proto definition file imports the proto which defines the option.`);
    }
    found.resolve();
    return found;
  }

  /** Writes `value` (an array for repeated fields) as field `f`. */
  field(w: protobuf.Writer, f: protobuf.Field, value: unknown): void {
    if (Array.isArray(value)) {
      for (const v of value) this.field(w, f, v);
      return;
    }
    const type = f.resolvedType;
    const isObject = typeof value === "object" && value !== null;
    if (f instanceof protobuf.MapField) {
      if (!isObject) throw this.error(`Option "${excerpt(this.option)}": map field ${f.name} takes { key: ... value: ... }.`);
      const entry = value as { key?: unknown; value?: unknown };
      const e = protobuf.Writer.create();
      this.scalar(e, 1, f.keyType, entry.key);
      if (type instanceof protobuf.Type) this.message(e, 2, type, entry.value, false);
      else if (type instanceof protobuf.Enum) e.uint32(2 << 3).int32(this.enumNumber(type, entry.value));
      else this.scalar(e, 2, f.type, entry.value);
      w.uint32((f.id << 3) | 2).bytes(e.finish());
    } else if (type instanceof protobuf.Type) {
      if (!isObject) {
        const o = excerpt(this.bare);
        throw this.error(`Option "${o}" is a message. To set the entire message, use syntax like "${o} = { <proto text format> }". To set fields within it, use syntax like "${o}.foo = value".`, true);
      }
      this.message(w, f.id, type, value, f.delimited);
    } else if (isObject) {
      throw this.error(`Option "${excerpt(this.option)}" is an atomic type, not a message.`);
    } else if (type instanceof protobuf.Enum) {
      w.uint32(f.id << 3).int32(this.enumNumber(type, value));
    } else this.scalar(w, f.id, f.type, value);
  }

  private message(w: protobuf.Writer, id: number, type: protobuf.Type, value: unknown, delimited: boolean): void {
    const body = protobuf.Writer.create();
    for (const [key, v] of Object.entries((value ?? {}) as Record<string, unknown>)) {
      this.field(body, key.startsWith("(") ? this.extension(key) : this.fieldNamed(type, key), v);
    }
    if (delimited) w.uint32((id << 3) | 3).raw(body.finish()).uint32((id << 3) | 4);
    else w.uint32((id << 3) | 2).bytes(body.finish());
  }

  /** A field of an aggregate by its .proto name (a group's by its lower-cased type name, as protoc takes it). */
  private fieldNamed(type: protobuf.Type, key: string): protobuf.Field {
    const f = type.fields[key] ?? type.fieldsArray.find((x) => x.name.toLowerCase() === key.toLowerCase());
    if (f === undefined) throw this.error(`Error while parsing option value for "${excerpt(this.bare)}": Message type "${realName(type.fullName.slice(1))}" has no field named "${excerpt(key)}".`, true);
    f.resolve();
    return f;
  }

  private enumNumber(e: protobuf.Enum, value: unknown): number {
    if (typeof value === "number" && Number.isInteger(value)) return value;
    const n = typeof value === "string" ? e.values[value] : undefined;
    if (n === undefined) throw this.error(`Enum type "${realName(e.fullName.slice(1))}" has no value named "${excerpt(String(value))}" for option "${excerpt(this.bare)}".`, true);
    return n;
  }

  private scalar(w: protobuf.Writer, id: number, type: string, value: unknown): void {
    const expected = type === "string" || type === "bytes" ? "string" : type === "bool" ? "boolean" : "number";
    const ok = typeof value === expected && (!integers.has(type) || Number.isInteger(value));
    if (!ok) {
      const kind = integers.has(type) ? "integer" : expected === "boolean" ? "identifier" : expected === "string" ? "quoted string" : "number";
      throw this.error(`Value must be ${kind} for ${type === "bool" ? "boolean" : type} option "${excerpt(this.bare)}".`, true);
    }
    w.uint32((id << 3) | wireTypes[type]!);
    if (type.endsWith("64") && type !== "double") {
      w.raw(int64Bytes(type, this.exact(value as number)));
    } else if (type === "bytes") {
      // a .proto string literal, escapes already read: one byte per char, UTF-8 beyond Latin-1
      const s = value as string;
      w.bytes([...s].every((c) => c.charCodeAt(0) < 0x100) ? bytesOfChars(s) : new TextEncoder().encode(s));
    } else if (type === "string") w.string(value as string);
    else if (type === "bool") w.bool(value as boolean);
    else (w as unknown as Record<string, (v: unknown) => void>)[type]!.call(w, value);
  }
}

/** A 64-bit integer field's value bytes (after the tag): a varint (zigzag for sint64) or 8 bytes little-endian. */
function int64Bytes(type: string, value: bigint): Uint8Array {
  const signed = type === "sint64" ? (value << 1n) ^ (value >> 63n) : value;
  let v = BigInt.asUintN(64, signed);
  if (type === "fixed64" || type === "sfixed64") {
    const out = new Uint8Array(8);
    new DataView(out.buffer).setBigUint64(0, v, true);
    return out;
  }
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}
