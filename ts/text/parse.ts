// The protobuf text format read into plain objects, interpreted from the schema, as the spec
// (protobuf.dev/reference/protobuf/textformat-spec) and protoc's parser have it: `#` comments,
// `,`/`;` after fields, `{}` or `<>` around messages, `[a, b]` lists, adjacent strings joined,
// integers in decimal, hex and octal, extensions and expanded Any as `[name]`, group fields by
// their type's name. A non-repeated field given twice, a second oneof member, an unknown field or
// enum name, a number out of its type's range and invalid UTF-8 in a string field are errors.
import { JsonError, resolveAny, type TypeRef, type Types } from "../json/common.js";
import { isMessage, zeroOf } from "../interpreted/values.js";
import { safeNumber } from "../plain.js";
import { FieldFlag, FieldType, isInt64, Label, type FieldInfo, type MessageInfo, type SchemaDef } from "../schema.js";
import { MAX_DEPTH, TextError, type TextErrorCode } from "./error.js";
import { concatBytes } from "../copy.js";
import { excerpt, quote } from "../excerpt.js";
import { EncodeError } from "../errors.js";
import type { Extension } from "../extension.js";
import type { Registry } from "../registry.js";
import { MEMORY_BUDGET_REASON, ReadBudget, utf8Size } from "../budget.js";
import { valueSize } from "../layout.js";

export interface TextReadOptions {
  /** Message types an `Any` may hold, besides those of the same generated code. */
  registry?: Types;
}

type Plain = Record<string, unknown>;

type Kind = "ident" | "number" | "string" | "symbol" | "end";

/** Splits text into tokens, one ahead; whitespace and `#` comments between them are skipped. */
class Tokens {
  kind: Kind = "end";
  text = "";
  /** Where the current token starts. */
  start = 0;
  private pos = 0;

  constructor(readonly src: string, readonly path: () => string) {
    this.next();
  }

  next(): void {
    const src = this.src;
    this.skipSpace();
    this.start = this.pos;
    if (this.pos >= src.length) {
      this.kind = "end";
      this.text = "";
      return;
    }
    const c = src.charCodeAt(this.pos);
    if (isLetter(c)) {
      let end = this.pos + 1;
      while (end < src.length && (isLetter(src.charCodeAt(end)) || isDigit(src.charCodeAt(end)))) end++;
      this.take("ident", end);
    } else if (isDigit(c) || (c === 0x2e && isDigit(src.charCodeAt(this.pos + 1)))) {
      numberToken.lastIndex = this.pos;
      const end = numberToken.test(src) ? numberToken.lastIndex : this.pos + 1;
      if (end < src.length && isLetter(src.charCodeAt(end))) this.fail("INVALID_TEXT", "a number runs into a name: put a space between them", end);
      this.take("number", end);
    } else if (c === 0x22 || c === 0x27) {
      let end = this.pos + 1;
      for (;;) {
        if (end >= src.length || src[end] === "\n") this.fail("INVALID_TEXT", "string literal not closed on its line");
        const d = src.charCodeAt(end);
        if (d === c) break;
        end += d === 0x5c ? 2 : 1;
      }
      this.take("string", end + 1);
    } else this.take("symbol", this.pos + 1);
  }

  private take(kind: Kind, end: number): void {
    this.kind = kind;
    this.text = this.src.slice(this.pos, end);
    this.pos = end;
  }

  private skipSpace(): void {
    const src = this.src;
    while (this.pos < src.length) {
      const c = src.charCodeAt(this.pos);
      if (c === 0x23) {
        const eol = src.indexOf("\n", this.pos);
        this.pos = eol < 0 ? src.length : eol + 1;
      } else if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) this.pos++;
      else break;
    }
  }

  is(symbol: string): boolean {
    return this.kind === "symbol" && this.text === symbol;
  }

  /** Skips the symbol if it is next. */
  eat(symbol: string): boolean {
    if (!this.is(symbol)) return false;
    this.next();
    return true;
  }

  expect(symbol: string): void {
    if (!this.eat(symbol)) this.fail("INVALID_TEXT", `expected "${symbol}", found ${this.describe()}`);
  }

  describe(): string {
    return this.kind === "end" ? "the end of the text" : quote(this.text);
  }

  /**
   * The text of a `[...]` name (extension or Any type URL) up to the "]", with the whitespace
   * and comments inside it left out, as protoc reads it. The current token is the "[".
   */
  bracketName(): string {
    const src = this.src;
    let name = "";
    for (let i = this.pos; i < src.length; i++) {
      const c = src[i]!;
      if (c === "]") {
        this.pos = i + 1;
        this.next();
        return name;
      }
      if (c === "#") {
        const eol = src.indexOf("\n", i);
        i = eol < 0 ? src.length : eol;
      } else if (!/\s/.test(c)) name += c;
    }
    return this.fail("INVALID_TEXT", 'expected "]"');
  }

  fail(code: TextErrorCode, reason: string, at = this.start): never {
    const { line, column } = lineAndColumn(this.src, at);
    throw new TextError(code, this.path(), reason, line, column);
  }
}

/** The 1-based line and column of offset `at` of the text. */
function lineAndColumn(src: string, at: number): { line: number; column: number } {
  const before = src.slice(0, at);
  return { line: before.split("\n").length, column: at - before.lastIndexOf("\n") };
}

const isLetter = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
// integers (hex, octal, decimal) and floats, with a float's optional f suffix
const numberToken = /0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fF]?/y;

const utf8 = new TextEncoder();

/** Bytes appended in order into one buffer. */
interface Sink {
  buf: Uint8Array;
  n: number;
}
// (ignoreBOM: a leading U+FEFF is text, which TextDecoder would drop by default)
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder("utf-8", { ignoreBOM: true });
const simpleEscapes: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, "\\": 92, "'": 39, '"': 34, "?": 63 };

const int32Range = [-(2n ** 31n), 2n ** 31n - 1n] as const;
const uint32Range = [0n, 2n ** 32n - 1n] as const;
const int64Range = [-(2n ** 63n), 2n ** 63n - 1n] as const;
const uint64Range = [0n, 2n ** 64n - 1n] as const;
function rangeOf(t: FieldType): readonly [bigint, bigint] {
  switch (t) {
    case FieldType.Uint32: case FieldType.Fixed32: return uint32Range;
    case FieldType.Uint64: case FieldType.Fixed64: return uint64Range;
    case FieldType.Int64: case FieldType.Sint64: case FieldType.Sfixed64: return int64Range;
    default: return int32Range;
  }
}

const shortName = (full: string) => full.slice(full.lastIndexOf(".") + 1);

/** Per message: its fields by every name the text format knows them by. */
const namesOf = new WeakMap<MessageInfo, Map<string, FieldInfo>>();
function fieldsByName(def: SchemaDef, info: MessageInfo): Map<string, FieldInfo> {
  let names = namesOf.get(info);
  if (names === undefined) {
    names = new Map();
    for (const f of info.fields) {
      names.set(f.name, f);
      // a group-like field (a delimited message field named after its type) also goes by the type's name
      if (f.type === FieldType.Group && f.label !== Label.Map) {
        const type = shortName(def.messages[f.ref]!.name);
        if (type.toLowerCase() === f.name && !names.has(type)) names.set(type, f);
      }
    }
    namesOf.set(info, names);
  }
  return names;
}

/** Reads one message of a schema from text. */
export function messageFromText(def: SchemaDef, index: number, text: string, opts: TextReadOptions, typeName: string): Plain {
  return reader(text, opts, typeName).message(def, index, null, 0);
}

function reader(text: string, opts: TextReadOptions, typeName: string, target?: string): TextReader {
  const path: string[] = [];
  const where = () => typeName + path.join("");
  return new TextReader(new Tokens(text, where), opts, path, where, new ReadBudget(() => utf8Size(text)), target);
}

/**
 * Where in the text (text messageFromText read without error) the field at `path` is, as
 * "pkg.Msg.a[2].b" names it; or the deepest field on the way there that the text has (a map
 * entry, a path cut short). For what only the codec finds in what the text made (a memory budget).
 */
export function textPosition(def: SchemaDef, index: number, text: string, opts: TextReadOptions, typeName: string, path: string): { line: number; column: number } {
  const r = reader(text, opts, typeName, path);
  try {
    r.message(def, index, null, 0);
  } catch (e) {
    if (e !== r) throw e;
  }
  return lineAndColumn(text, r.reached);
}

class TextReader {
  constructor(
    private readonly t: Tokens,
    private readonly opts: TextReadOptions,
    /** The fields being read, from the top-level message: ".a", ".b". */
    private readonly path: string[],
    private readonly where: () => string,
    /** What the read may build: the binary decode's budget (ts/budget.ts). */
    private readonly budget: ReadBudget,
    /** A path to find (textPosition): the reader throws itself when it reaches it. */
    private readonly target?: string,
  ) {}

  /** Takes bytes from the budget; past it, MEMORY_BUDGET at `at` (the value's start). */
  private spend(bytes: number, at = this.t.start): void {
    if (!this.budget.take(bytes)) this.fail("MEMORY_BUDGET", MEMORY_BUDGET_REASON, at);
  }

  /** Where the deepest field on the way to the target starts. */
  reached = 0;

  /** At the start (`at`) of the field (or element) the path names now: is it on the way to the target? */
  private visit(at: number): void {
    if (this.target === undefined) return;
    const here = this.where();
    if (!this.target.startsWith(here)) return;
    const next = this.target.charAt(here.length);
    if (next !== "" && next !== "." && next !== "[") return;
    this.reached = at;
    if (next === "") throw this; // found: no need to read on
  }

  private fail(code: TextErrorCode, reason: string, at = this.t.start): never {
    return this.t.fail(code, reason, at);
  }

  /** A message's fields up to `end` ("}" or ">"; null: the end of the text); `at`: where its field starts. */
  message(def: SchemaDef, index: number, end: string | null, depth: number, at = this.t.start): Plain {
    if (depth > MAX_DEPTH) this.fail("INVALID_TEXT", `messages nested deeper than ${MAX_DEPTH}`);
    const t = this.t;
    const info = def.messages[index]!;
    this.spend(info.recordSize, at);
    const o: Plain = {};
    const seen = new Set<FieldInfo>();
    for (;;) {
      if (end === null ? t.kind === "end" : t.eat(end)) break;
      if (t.kind === "end") this.fail("INVALID_TEXT", `expected "${end}", found the end of the text`);
      this.field(def, index, info, o, seen, depth);
      if (!t.eat(",")) t.eat(";");
    }
    for (const f of info.fields) {
      if (f.flags & FieldFlag.Required && !seen.has(f)) this.fail("MISSING_REQUIRED", `required field ${f.name} is not set`);
    }
    const extensions = this.extensionBytes.get(o);
    if (extensions !== undefined) {
      this.extensionBytes.delete(o);
      o["$unknown"] = concatBytes(extensions);
    }
    return o;
  }

  private field(def: SchemaDef, index: number, info: MessageInfo, o: Plain, seen: Set<FieldInfo>, depth: number): void {
    const t = this.t;
    const at = t.start;
    let f: FieldInfo | undefined;
    if (t.is("[")) {
      const name = t.bracketName();
      if (name.includes("/") && info.name === "google.protobuf.Any") return this.expandedAny(def, index, name, o, seen, at, depth);
      f = info.fields.find((x) => x.name === `[${name}]`);
      if (f === undefined) {
        const ext = (this.opts.registry as Registry | undefined)?.extension?.(name);
        if (ext === undefined || ext.extendee.typeName !== info.name) this.fail("UNKNOWN_FIELD", `${info.name} has no extension [${excerpt(name)}] in this schema`, at);
        return this.extension(ext, o, seen, at, depth);
      }
    } else if (t.kind === "ident") {
      f = fieldsByName(def, info).get(t.text);
      if (f === undefined) {
        if (info.reserved.includes(t.text)) {
          t.next();
          return this.skipValue();
        }
        this.fail("UNKNOWN_FIELD", `${info.name} has no field ${quote(t.text)}`);
      }
      t.next();
    } else this.fail("INVALID_TEXT", `expected a field name, found ${t.describe()}`);
    this.fieldValue(def, info, f, o, seen, at, depth);
  }

  /**
   * An extension the message's schema does not hold as a field (a registry's), its name read: read
   * by the extension's carrier, kept as its wire bytes in $unknown, as decode() keeps them.
   */
  private extension(ext: Extension<unknown, unknown>, o: Plain, seen: Set<FieldInfo>, at: number, depth: number): void {
    const { carrier, field } = ext;
    const alone: Plain = {};
    this.fieldValue(carrier.schemaDef, carrier.schemaDef.messages[carrier.index]!, field, alone, seen, at, depth);
    let bytes: Uint8Array;
    try {
      bytes = ext.bytesOf(alone[field.prop]);
    } catch (e) {
      if (e instanceof EncodeError) this.fail("INVALID_VALUE", e.message, at);
      throw e;
    }
    // joined once the message ends: appended one by one, each occurrence of a repeated extension
    // copied all those before it (320,000 of them took 17 s)
    let parts = this.extensionBytes.get(o);
    if (parts === undefined) this.extensionBytes.set(o, (parts = []));
    parts.push(bytes);
  }

  /** Wire bytes of registry extensions read into each message not yet ended. */
  private readonly extensionBytes = new Map<Plain, Uint8Array[]>();

  /** The value of field f of the message o, its name read. */
  private fieldValue(def: SchemaDef, info: MessageInfo, f: FieldInfo, o: Plain, seen: Set<FieldInfo>, at: number, depth: number): void {
    const t = this.t;
    this.path.push(`.${f.name}`);
    this.visit(at);
    try {
      if (f.label === Label.Repeated || f.label === Label.Map) {
        const list = (o[f.prop] ??= f.label === Label.Map ? {} : []) as unknown[] | Plain;
        // one element: its index in the path while it is read; its slot from the budget (a map
        // entry's record is its message's)
        const add = () => {
          const start = t.start;
          this.spend(valueSize(f.type), start);
          if (f.label === Label.Map) return this.putEntry(def, f, list as Plain, this.value(def, f, depth, start) as Plain);
          this.path.push(`[${(list as unknown[]).length}]`);
          this.visit(start);
          (list as unknown[]).push(this.value(def, f, depth, start));
          this.path.pop();
        };
        const colon = t.eat(":");
        if (t.eat("[")) {
          if (!t.eat("]")) {
            do add(); while (t.eat(","));
            t.expect("]");
          }
        } else {
          if (!colon && !isMessage(f) && f.label !== Label.Map) t.expect(":");
          add();
        }
      } else {
        if (!t.eat(":") && !isMessage(f)) t.expect(":");
        const v = this.value(def, f, depth, at);
        if (f.oneof >= 0) {
          const oneof = info.oneofs[f.oneof]!;
          const other = o[oneof.prop] as { case: string } | undefined;
          if (other !== undefined) {
            const name = oneof.fields.find((x) => x.prop === other.case)!.name;
            this.fail("DUPLICATE_FIELD", `${f.name} and ${name} are both members of oneof ${oneof.name}`, at);
          }
          o[oneof.prop] = { case: f.prop, value: v };
        } else {
          if (seen.has(f)) this.fail("DUPLICATE_FIELD", `non-repeated field ${f.name} is given more than once`, at);
          o[f.prop] = v;
        }
      }
      seen.add(f);
    } finally {
      this.path.pop();
    }
  }

  /** One value of f's type (a map field's: one entry); `field`: where its field or element starts. */
  private value(def: SchemaDef, f: FieldInfo, depth: number, field: number): unknown {
    const t = this.t;
    if (isMessage(f) || f.label === Label.Map) {
      const end = t.eat("{") ? "}" : t.eat("<") ? ">" : this.fail("INVALID_TEXT", `expected "{" or "<", found ${t.describe()}`);
      return this.message(def, f.ref, end, depth + 1, field);
    }
    if (t.kind === "string") {
      if (f.type !== FieldType.String && f.type !== FieldType.Bytes) this.fail("INVALID_VALUE", `a string is not a valid ${FieldType[f.type]!.toLowerCase()} value`);
      return this.string(f);
    }
    const at = t.start;
    const negative = t.eat("-");
    if (t.kind !== "number" && t.kind !== "ident") this.fail("INVALID_TEXT", `expected a value, found ${t.describe()}`);
    const text = t.text;
    const kind = t.kind;
    t.next();
    switch (f.type) {
      case FieldType.Float: case FieldType.Double: {
        const n = kind === "ident" ? specialFloat(text) : decimalFloat(text);
        if (n === undefined) this.fail("INVALID_VALUE", `${excerpt(text)} is not a valid ${FieldType[f.type]!.toLowerCase()} value`, at);
        const v = negative ? -n : n;
        return f.type === FieldType.Float ? Math.fround(v) : v;
      }
      case FieldType.Bool: {
        if (!negative) {
          if (text === "true" || text === "True" || text === "t" || text === "1") return true;
          if (text === "false" || text === "False" || text === "f" || text === "0") return false;
        }
        return this.fail("INVALID_VALUE", `${negative ? "-" : ""}${excerpt(text)} is not a valid bool value`, at);
      }
      case FieldType.Enum: {
        const e = def.enums[f.ref]!;
        if (kind === "ident" && !negative) {
          const value = e.values.find(([, name]) => name === text);
          if (value === undefined) this.fail("INVALID_VALUE", `${e.name} has no value named ${excerpt(text)}`, at);
          return value[0];
        }
        const n = Number(this.integer(text, negative, int32Range, "enum", at));
        if (e.closed && !e.values.some(([number]) => number === n)) this.fail("INVALID_VALUE", `${e.name} has no value ${n}`, at);
        return n;
      }
    }
    if (kind !== "number") this.fail("INVALID_VALUE", `${excerpt(text)} is not a valid ${FieldType[f.type]!.toLowerCase()} value`, at);
    const v = this.integer(text, negative, rangeOf(f.type), FieldType[f.type]!.toLowerCase(), at);
    if (!isInt64(f.type)) return Number(v);
    return f.int64 === "string" ? String(v) : f.int64 === "number" ? safeNumber(v, this.where()) : v;
  }

  /** An integer literal in decimal, hex or octal, within range. */
  private integer(text: string, negative: boolean, [min, max]: readonly [bigint, bigint], type: string, at: number): bigint {
    let magnitude: bigint;
    if (/^0[xX][0-9a-fA-F]+$/.test(text) || /^(?:0|[1-9]\d*)$/.test(text)) magnitude = BigInt(text);
    else if (/^0[0-7]+$/.test(text)) magnitude = BigInt(`0o${text.slice(1)}`);
    else return this.fail("INVALID_VALUE", `${negative ? "-" : ""}${excerpt(text)} is not a valid ${type} value`, at);
    const v = negative ? -magnitude : magnitude;
    if (v < min || v > max) this.fail("VALUE_OUT_OF_RANGE", `${negative ? "-" : ""}${excerpt(text)} is out of range for ${type}`, at);
    return v;
  }

  /** Adjacent string literals as one value: bytes, or a string (valid UTF-8 where the field checks it). */
  private string(f: FieldInfo): string | Uint8Array {
    const t = this.t;
    const at = t.start;
    // one buffer for all of them (an array per literal made 2 MB of "" "" "" ... take 400 MB)
    const sink: Sink = { buf: new Uint8Array(0), n: 0 };
    while (t.kind === "string") {
      this.literal(t.text.slice(1, -1), t.start + 1, sink);
      t.next();
    }
    const bytes = sink.buf.subarray(0, sink.n);
    if (f.type === FieldType.Bytes) return bytes.slice();
    if (!(f.flags & FieldFlag.ValidateUtf8)) return lenientUtf8.decode(bytes);
    try {
      return strictUtf8.decode(bytes);
    } catch {
      return this.fail("INVALID_VALUE", "string field holds invalid UTF-8", at);
    }
  }

  /**
   * The bytes of a string literal's body (between the quotes), escapes resolved, appended to `sink`:
   * the text between escapes encoded a run at a time (a character at a time took a second per MB).
   */
  private literal(body: string, at: number, sink: Sink): void {
    // room for the most bytes a body can make: 3 per UTF-16 unit of text, fewer for an escape
    const most = sink.n + 3 * body.length;
    if (most > sink.buf.length) {
      const grown = new Uint8Array(Math.max(most, 2 * sink.buf.length));
      grown.set(sink.buf.subarray(0, sink.n));
      sink.buf = grown;
    }
    const out = sink.buf;
    const put = (text: string) => (sink.n += utf8.encodeInto(text, out.subarray(sink.n)).written);
    for (let i = 0; i < body.length; ) {
      const j = body.indexOf("\\", i);
      if (j < 0) {
        put(i === 0 ? body : body.slice(i));
        return;
      }
      if (j > i) put(body.slice(i, j));
      i = j;
      const e = body[i + 1] ?? "";
      let m: RegExpExecArray | null;
      if (e in simpleEscapes) {
        out[sink.n++] = simpleEscapes[e]!;
        i += 2;
      } else if ((m = /^[0-7]{1,3}/.exec(body.slice(i + 1, i + 4)))) {
        out[sink.n++] = parseInt(m[0], 8) & 0xff;
        i += 1 + m[0].length;
      } else if (e === "x" && (m = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 2, i + 4)))) {
        out[sink.n++] = parseInt(m[0], 16);
        i += 2 + m[0].length;
      } else if ((e === "u" || e === "U") && (m = (e === "u" ? /^[0-9a-fA-F]{4}/ : /^[0-9a-fA-F]{8}/).exec(body.slice(i + 2, i + (e === "u" ? 6 : 10))))) {
        const cp = parseInt(m[0], 16);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) this.fail("INVALID_VALUE", `\\${e}${m[0]} is not a Unicode scalar value`, at + i);
        put(String.fromCodePoint(cp));
        i += 2 + m[0].length;
      } else this.fail("INVALID_TEXT", `invalid escape \\${e}`, at + i);
    }
  }

  /** A map entry's key and value, stored under the key's plain-object form (a later entry replaces an earlier one). */
  private putEntry(def: SchemaDef, f: FieldInfo, map: Plain, entry: Plain): void {
    const [key, value] = def.messages[f.ref]!.fields as [FieldInfo, FieldInfo];
    const k = entry["key"] ?? (key.type === FieldType.String ? "" : key.type === FieldType.Bool ? false : 0);
    const v = entry["value"] ?? (isMessage(value) ? {} : zeroOf(value));
    Object.defineProperty(map, String(k), { value: v, enumerable: true, writable: true, configurable: true });
  }

  /** An Any written as `[type.url/pkg.Type] { fields of pkg.Type }`: stored as its type URL and bytes. */
  private expandedAny(def: SchemaDef, index: number, url: string, o: Plain, seen: Set<FieldInfo>, at: number, depth: number): void {
    const t = this.t;
    if (/%(?![0-9a-fA-F]{2})/.test(url)) this.fail("INVALID_VALUE", `invalid percent escape in type URL ${excerpt(url)}`, at);
    const fields = def.messages[index]!.fields;
    if (fields.some((f) => seen.has(f))) this.fail("DUPLICATE_FIELD", "an Any is given both expanded and by its fields", at);
    let target;
    try {
      target = resolveAny(def, url, this.opts.registry, "");
    } catch (e) {
      if (e instanceof JsonError) this.fail("UNKNOWN_TYPE", e.reason, at);
      throw e;
    }
    t.eat(":");
    const end = t.eat("{") ? "}" : t.eat("<") ? ">" : this.fail("INVALID_TEXT", `expected "{" or "<", found ${t.describe()}`);
    const inner = this.message(target.def, target.index, end, depth + 1);
    o["typeUrl"] = url;
    o["value"] = target.type.encode(inner as never);
    for (const f of fields) seen.add(f);
  }

  /** Skips the value of a reserved field name, whatever its shape. */
  private skipValue(): void {
    const t = this.t;
    const colon = t.eat(":");
    if (t.is("{") || t.is("<") || t.is("[")) return this.skipBalanced();
    if (!colon) t.expect(":");
    t.eat("-");
    if (t.kind === "string") while (t.kind === "string") t.next();
    else if (t.kind === "number" || t.kind === "ident") t.next();
    else this.fail("INVALID_TEXT", `expected a value, found ${t.describe()}`);
  }

  private skipBalanced(): void {
    const t = this.t;
    const stack: string[] = [];
    do {
      if (t.kind === "end") this.fail("INVALID_TEXT", "unbalanced brackets");
      if (t.kind === "symbol") {
        const close = { "{": "}", "<": ">", "[": "]" }[t.text];
        if (close) stack.push(close);
        else if (t.text === stack[stack.length - 1]) stack.pop();
      }
      t.next();
    } while (stack.length > 0);
  }
}

/** inf, infinity and nan, in any case. */
function specialFloat(text: string): number | undefined {
  const lower = text.toLowerCase();
  return lower === "inf" || lower === "infinity" ? Infinity : lower === "nan" ? NaN : undefined;
}

/** A float literal, or a decimal integer (hex and octal are integers only). */
function decimalFloat(text: string): number | undefined {
  if (/^0[xX]/.test(text) || /^0\d/.test(text)) return undefined;
  return Number(text.replace(/[fF]$/, ""));
}


