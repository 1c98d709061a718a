// What generated toJsonString functions call: values as ProtoJSON text, written straight into the
// message's text (no JSON value in between, no JSON.stringify of a whole object), and the error
// path, built on the way out of nested messages. The writers get this module as an argument
// (toJsonString() passes it), so programs that write no JSON carry none of it.
import type { MessageInfo, SchemaDef } from "../schema.js";
import { base64Encode, inside, mayOpen, within, writing } from "./common.js";
import { hasRuntime, runtime } from "../runtime.js";
import { isWellFormed, nodeText } from "../utf16.js";
import { messageToJson, shortestFloat32, stringify, type JsonWriteOptions } from "./print.js";
import * as self from "./write.js";

export { nonEmpty, nonZero64 } from "./out.js";

/** What generated writers are given: this module. */
export type JsonWrite = typeof self;

/** A generated writer (or the schema-driven one in its place). */
export type Write<T> = (o: T, opts: JsonWriteOptions, j: JsonWrite) => string;

/** A message's keys as text by field index: `"name":` for the first field written, `,"name":` after it. */
export interface KeyTexts {
  readonly key: readonly string[];
  readonly commaKey: readonly string[];
}

/**
 * Key texts are kept on the message's info, under a symbol and not enumerable: a WeakMap lookup for
 * each message written was a tenth of writing small nested messages (OpenTelemetry traces).
 */
const KEY_TEXTS = Symbol("hppproto.keyTexts");
type WithKeyTexts = MessageInfo & { [KEY_TEXTS]?: readonly [json: KeyTexts, proto: KeyTexts] };

/**
 * A message's key texts: json names, or .proto names under useProtoNames. The comma comes with the
 * key, one concatenation per field fewer (measured: GoogleMessage1's writer 13% faster).
 */
export function keys(def: SchemaDef, index: number, opts: JsonWriteOptions): KeyTexts {
  mayOpen(1); // (every generated writer starts here: its object)
  const info = def.messages[index]! as WithKeyTexts;
  return (info[KEY_TEXTS] ?? keyTextsOf(info))[opts.useProtoNames === true ? 1 : 0];
}

function keyTextsOf(info: WithKeyTexts): readonly [KeyTexts, KeyTexts] {
  const of = (names: string[]): KeyTexts => {
    const key = names.map((name) => `${JSON.stringify(name)}:`);
    return { key, commaKey: key.map((k) => `,${k}`) };
  };
  const texts = [of(info.fields.map((f) => f.jsonName)), of(info.fields.map((f) => f.name))] as const;
  if (Object.isExtensible(info)) Object.defineProperty(info, KEY_TEXTS, { value: texts }); // else made each time
  return texts;
}

/** The name in a key's text, for error paths. */
const keyName = (key: string): string => JSON.parse(key.slice(0, -1)) as string;

/** A message field; errors get the field's key in front of their path. */
export function sub<T>(write: Write<T>, v: T, opts: JsonWriteOptions, key: string): string {
  writing.enclosing++; // the object of the message it is a field of
  try {
    return write(v, opts, self);
  } catch (e) {
    throw within(e, `.${keyName(key)}`);
  } finally {
    writing.enclosing--;
  }
}

/** A map entry's message value, with the entry's key in the error path. */
export function entry<T>(write: Write<T>, v: T, opts: JsonWriteOptions, key: string, mapKey: string): string {
  try {
    return write(v, opts, self);
  } catch (e) {
    throw within(e, `.${keyName(key)}[${JSON.stringify(mapKey)}]`);
  }
}

/** A double as JSON: -0 keeps its sign (as protobuf prints it), NaN and the infinities are strings. */
export function double(v: number): string {
  if (Number.isFinite(v)) return v === 0 && 1 / v < 0 ? "-0" : String(v);
  return Number.isNaN(v) ? '"NaN"' : v > 0 ? '"Infinity"' : '"-Infinity"';
}

/** A float as the shortest decimal that reads back as the same float. */
export const float = (v: number): string => double(shortestFloat32(v));

export const bytes = (v: Uint8Array): string => `"${base64Encode(v)}"`;

/**
 * Characters from which the codec escapes a string faster than JSON.stringify. Node: from about 512
 * (Node 24: 1.3x at 512 ASCII characters, 2x at 2,048; below, and for non-ASCII text, JSON.stringify
 * is as fast or faster). Browsers: never (Chromium 156: JSON.stringify 1.5-5x faster at 128 to
 * 2,048 characters, since staging the text there costs a TextEncoder and a TextDecoder call that
 * Node makes through Buffer). `npm run bench:browser` and `npm run bench` show it in gm1-big's json out.
 */
const CODEC_STRING = nodeText ? 512 : Infinity;

/**
 * A string as JSON text. Short ones mostly need no escape: a scan of their char codes and two
 * concatenations beat JSON.stringify's call (measured, best of 30 interleaved: 25% less time per
 * string field in a message's text); long ones the codec escapes, as UTF-8 there and back. Lone
 * surrogates, which have no UTF-8 form, are JSON.stringify's to escape.
 */
export function string(v: string): string {
  if (v.length > 32) {
    const quoted = v.length >= CODEC_STRING && hasRuntime() && isWellFormed(v) ? runtime().full?.jsonQuote(v) : undefined;
    return quoted ?? JSON.stringify(v);
  }
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    // quote, backslash, control characters, and surrogates (lone ones are escaped)
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(v);
  }
  return `"${v}"`;
}

const enumNames = new WeakMap<object, Map<number, string>>();

/** An enum value's quoted name; a number the enum does not declare stays a number. */
export function enumName(def: SchemaDef, index: number, v: number): string {
  const info = def.enums[index]!;
  let names = enumNames.get(info);
  if (names === undefined) enumNames.set(info, (names = new Map(info.values.map(([n, name]) => [n, `"${name}"`] as const).reverse())));
  return names.get(v) ?? String(v);
}

/** The schema-driven writer of a message, as text: for well-known types with a JSON form of their own, and CODE_SIZE messages. */
export function bySchema(def: SchemaDef, index: number): Write<unknown> {
  return (v, opts) => stringify(() => messageToJson(def, index, (v ?? {}) as Record<string, unknown>, opts, ""));
}

/** A repeated field, each element through `each` (or as it is, for numbers and bools). */
export function list<T>(v: readonly T[], each?: (x: T) => string): string {
  mayOpen(2); // the message's object, and the array
  return `[${(each === undefined ? v : v.map((x) => each(x))).join(",")}]`;
}

/** A repeated message field. */
export function messages<T>(v: readonly T[], write: Write<T>, opts: JsonWriteOptions, key: string): string {
  let i = -1; // the element being written (none yet: the array may not open)
  try {
    return inside(2, () => { // the message's object, and the array
      if (v.length === 0) return "[]";
      let s = "[" + write(v[(i = 0)]!, opts, self);
      for (i = 1; i < v.length; i++) s += "," + write(v[i]!, opts, self);
      return s + "]";
    });
  } catch (e) {
    throw within(e, `.${keyName(key)}${i < 0 ? "" : `[${i}]`}`);
  }
}

/** A map field: keys as they are (plain objects key maps by strings), values through `each`. */
export function map<T>(v: { readonly [key: string]: T }, each: (x: T, key: string) => string): string {
  return inside(2, () => { // the message's object, and the map's
    let s = "{";
    for (const k of Object.keys(v)) s += (s.length === 1 ? "" : ",") + string(k) + ":" + each(v[k]!, k);
    return `${s}}`;
  });
}
