// Plain objects printed in the protobuf text format, interpreted from the schema, the way protoc's
// printer writes it: one field per line, two spaces per level, fields by number, map entries by
// key, group-like fields by their type's name, extensions and known Any contents as `[name]`.
import { memberValue } from "../defaults.js";
import { JsonError, resolveAny, type TypeRef, type Types } from "../json/common.js";
import { isMessage, isZero } from "../interpreted/values.js";
import type { Registry } from "../registry.js";
import { FieldType, isInt64, Label, type FieldInfo, type SchemaDef } from "../schema.js";
import { MAX_DEPTH, TextError } from "./error.js";

export interface TextWriteOptions {
  /** Print the unknown fields a decoded message kept, by number, as protoc does (default: left out). */
  unknownFields?: boolean;
  /** Message types an `Any` may hold, besides those of the same generated code. */
  registry?: Types;
}

type Plain = Record<string, unknown>;

export function messageToText(def: SchemaDef, index: number, o: Plain, opts: TextWriteOptions, typeName: string): string {
  const out: string[] = [];
  new TextWriter(out, opts, typeName).message(def, index, o, "", 0);
  return out.join("");
}

class TextWriter {
  private readonly path: string[] = [];

  constructor(private readonly out: string[], private readonly opts: TextWriteOptions, private readonly typeName: string) {}

  message(def: SchemaDef, index: number, o: Plain, indent: string, depth: number): void {
    if (depth > MAX_DEPTH) throw new TextError("INVALID_VALUE", this.typeName + this.path.join(""), `messages nested deeper than ${MAX_DEPTH}`);
    const info = def.messages[index]!;
    if (info.name === "google.protobuf.Any" && this.expandedAny(def, o, indent, depth)) return;
    let unknown = o["$unknown"];
    // extensions the registry knows among the unknown fields: printed among the fields by number
    const registered = unknown instanceof Uint8Array ? (this.opts.registry as Registry | undefined)?.unknownExtensions?.(info.name, unknown) : undefined;
    const pending = registered?.found ?? [];
    if (registered !== undefined) unknown = registered.rest;
    const printExtensions = (below: number) => {
      while (pending.length > 0 && pending[0]![0].number < below) {
        const [ext, value] = pending.shift()!;
        this.field(ext.carrier.schemaDef, ext.field, value, indent, depth);
      }
    };
    for (const f of info.fields) {
      printExtensions(f.number);
      this.field(def, f, memberValue(info, f, o), indent, depth);
    }
    printExtensions(Infinity);
    if (this.opts.unknownFields && unknown instanceof Uint8Array) this.out.push(printUnknown(unknown, 0, unknown.length, indent, 10) ?? "");
  }

  /** Field f with value v (every element of a repeated one), when set (not null or undefined). */
  private field(def: SchemaDef, f: FieldInfo, v: unknown, indent: string, depth: number): void {
    const name = textName(def, f);
    if (v === undefined || v === null) return;
    this.path.push(`.${f.name}`);
    if (f.label === Label.Map) {
      const [key, value] = def.messages[f.ref]!.fields as [FieldInfo, FieldInfo];
      for (const k of sortedKeys(v as Plain, key)) {
        this.out.push(indent, name, " {\n", indent, "  key: ", scalar(def, key, mapKey(key, k)), "\n");
        this.value(def, value, "value", (v as Plain)[k], `${indent}  `, depth + 1);
        this.out.push(indent, "}\n");
      }
    } else if (f.label === Label.Repeated) {
      for (const x of v as Iterable<unknown>) this.value(def, f, name, x, indent, depth);
    } else if (f.label !== Label.Implicit || !isZero(f.type, v)) this.value(def, f, name, v, indent, depth);
    this.path.pop();
  }

  private value(def: SchemaDef, f: FieldInfo, name: string, v: unknown, indent: string, depth: number): void {
    if (isMessage(f)) {
      this.out.push(indent, name, " {\n");
      this.message(def, f.ref, v as Plain, `${indent}  `, depth + 1);
      this.out.push(indent, "}\n");
    } else this.out.push(indent, name, ": ", scalar(def, f, v), "\n");
  }

  /** An Any whose type is known, as `[type.url] { fields }`; false when it is printed by its fields. */
  private expandedAny(def: SchemaDef, o: Plain, indent: string, depth: number): boolean {
    const url = o["typeUrl"], value = o["value"];
    if (typeof url !== "string" || url === "" || !(value instanceof Uint8Array)) return false;
    let target;
    try {
      target = resolveAny(def, url, this.opts.registry, "");
    } catch (e) {
      if (e instanceof JsonError) return false;
      throw e;
    }
    let inner: Plain;
    try {
      inner = target.type.decode(value) as Plain;
    } catch {
      return false; // bytes that are not the type they claim: printed as they are
    }
    this.out.push(indent, "[", url, "] {\n");
    this.message(target.def, target.index, inner, `${indent}  `, depth + 1);
    this.out.push(indent, "}\n");
    return true;
  }
}

/** A field's name in text: an extension's "[full.name]", a group-like field's type name, else its name. */
function textName(def: SchemaDef, f: FieldInfo): string {
  if (f.type !== FieldType.Group || f.name.startsWith("[")) return f.name;
  const full = def.messages[f.ref]!.name;
  const type = full.slice(full.lastIndexOf(".") + 1);
  return type.toLowerCase() === f.name ? type : f.name;
}

/** Map keys in the order protoc prints them: numbers by value, false before true, strings by code unit. */
function sortedKeys(map: Plain, key: FieldInfo): string[] {
  const keys = Object.keys(map);
  if (key.type === FieldType.String || key.type === FieldType.Bool) return keys.sort();
  return keys.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
}

/** A map key (plain objects hold them as strings) as its field's value. */
function mapKey(key: FieldInfo, k: string): unknown {
  if (key.type === FieldType.String) return k;
  if (key.type === FieldType.Bool) return k === "true";
  return isInt64(key.type) ? BigInt(k) : Number(k);
}

function scalar(def: SchemaDef, f: FieldInfo, v: unknown): string {
  switch (f.type) {
    case FieldType.String: return quote(new TextEncoder().encode(v as string), true);
    case FieldType.Bytes: return quote(v as Uint8Array, false);
    case FieldType.Bool: return v ? "true" : "false";
    case FieldType.Double: return double(v as number);
    case FieldType.Float: return float(v as number);
    case FieldType.Enum: return def.enums[f.ref]!.values.find(([n]) => n === v)?.[1] ?? String(v);
  }
  return String(v);
}

function double(v: number): string {
  if (Number.isNaN(v)) return "nan";
  if (!Number.isFinite(v)) return v > 0 ? "inf" : "-inf";
  return Object.is(v, -0) ? "-0" : String(v);
}

/** The shortest decimal that reads back as the same float. */
function float(v: number): string {
  if (!Number.isFinite(v) || Object.is(v, -0)) return double(v);
  for (let digits = 1; digits < 17; digits++) {
    const text = v.toPrecision(digits);
    if (Math.fround(Number(text)) === v) return String(Number(text));
  }
  return String(v);
}

const shortEscapes: Record<number, string> = { 0x0a: "\\n", 0x0d: "\\r", 0x09: "\\t", 0x22: '\\"', 0x27: "\\'", 0x5c: "\\\\" };

/**
 * A quoted string literal. Bytes outside printable ASCII are octal escapes; a string field's
 * UTF-8 is kept as its characters (valid UTF-8 reads back as the same bytes).
 */
/** One UTF-8 sequence at a time (ignoreBOM: U+FEFF is text, which TextDecoder would drop by default). */
const utf8Text = new TextDecoder("utf-8", { ignoreBOM: true });

function quote(bytes: Uint8Array, utf8: boolean): string {
  let s = '"';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const e = shortEscapes[b];
    if (e !== undefined) s += e;
    else if (b >= 0x20 && b < 0x7f) s += String.fromCharCode(b);
    else if (utf8 && b >= 0x80) {
      let end = i + 1;
      while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end++;
      s += utf8Text.decode(bytes.subarray(i, end));
      i = end - 1;
    } else s += `\\${b.toString(8).padStart(3, "0")}`;
  }
  return `${s}"`;
}

/**
 * Unknown fields from their wire bytes, as protoc prints them: `number: value` with fixed-width
 * values in hex, length-delimited values as a nested message when they parse as one, else as bytes.
 * Undefined when the bytes are not a well-formed run of fields. (Pieces are joined, never spread
 * into a push(): 50,000 fields would be more arguments than a call takes.)
 */
function printUnknown(b: Uint8Array, from: number, to: number, indent: string, budget: number, depth = 0): string | undefined {
  const lines: string[] = [];
  return unknownFields(b, { p: from }, to, indent, budget, lines, 0n, depth) ? lines.join("") : undefined;
}

/** Groups nested deeper are printed no further (the decoder's own default depth limit). */
const MAX_UNKNOWN_DEPTH = 100;

/** Fields up to `to`, or up to the end tag of group number `group` (when not 0n). */
function unknownFields(b: Uint8Array, at: { p: number }, to: number, indent: string, budget: number, lines: string[], group: bigint, depth: number): boolean {
  while (at.p < to) {
    const tag = varint(b, at, to);
    if (tag === undefined || tag >> 3n === 0n) return false;
    const number = String(tag >> 3n);
    switch (Number(tag & 7n)) {
      case 0: {
        const v = varint(b, at, to);
        if (v === undefined) return false;
        lines.push(indent, number, ": ", String(v), "\n");
        break;
      }
      case 1: case 5: {
        const n = Number(tag & 7n) === 1 ? 8 : 4;
        if (at.p + n > to) return false;
        let hex = "";
        for (let i = n - 1; i >= 0; i--) hex += b[at.p + i]!.toString(16).padStart(2, "0");
        at.p += n;
        lines.push(indent, number, ": 0x", hex, "\n");
        break;
      }
      case 2: {
        const len = varint(b, at, to);
        if (len === undefined || BigInt(to - at.p) < len) return false;
        const end = at.p + Number(len);
        const nested = end > at.p && budget > 0 && depth < MAX_UNKNOWN_DEPTH ? printUnknown(b, at.p, end, `${indent}  `, budget - 1, depth + 1) : undefined;
        if (nested !== undefined) lines.push(indent, number, " {\n", nested, indent, "}\n");
        else lines.push(indent, number, ": ", quote(b.subarray(at.p, end), false), "\n");
        at.p = end;
        break;
      }
      case 3: {
        const nested: string[] = [];
        // (a group's structure is in its tags: only bytes tried as a message spend the budget)
        if (depth >= MAX_UNKNOWN_DEPTH || !unknownFields(b, at, to, `${indent}  `, budget, nested, tag >> 3n, depth + 1)) return false;
        lines.push(indent, number, " {\n", nested.join(""), indent, "}\n");
        break;
      }
      case 4:
        return group === tag >> 3n;
      default:
        return false;
    }
  }
  return group === 0n;
}

function varint(b: Uint8Array, at: { p: number }, to: number): bigint | undefined {
  let v = 0n;
  for (let shift = 0n; shift < 70n && at.p < to; shift += 7n) {
    const c = b[at.p++]!;
    v |= BigInt(c & 0x7f) << shift;
    if (c < 0x80) return BigInt.asUintN(64, v);
  }
  return undefined;
}
