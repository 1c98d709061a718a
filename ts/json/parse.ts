// ProtoJSON text to JSON values. JSON.parse is fast, but rounds integers beyond 2^53 (int64 values
// written as numbers must be exact) and keeps only the last of duplicate keys (which ProtoJSON
// rejects): its value is taken when a check over it proves neither happened (parseFast), and
// otherwise the text is read by the strict parser here, which keeps numbers as their text.
import { MAX_JSON_DEPTH } from "../abi.js";
import { quote, SHOWN } from "../excerpt.js";

/** A JSON number, kept as its source text until the field's type says how to read it. */
export class JsonNumber {
  constructor(readonly text: string) {}
  get value(): number {
    return Number(this.text);
  }
}

/** A JSON object: own keys only ("__proto__" is a key like any other). */
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

export type JsonValue = null | boolean | string | number | JsonNumber | JsonValue[] | JsonObject;

export const isJsonObject = (v: JsonValue): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);

/** An object's keys and values. */
export const members = (o: JsonObject): [string, JsonValue][] => Object.entries(o);

/**
 * JSON.parse's value of the text when it says exactly what the text says, else undefined. Every
 * ":" of the text separates a key from its value or lies in a string, so the text's count of ":"
 * is the keys plus the ":" its strings show. The parsed value has fewer keys for each duplicate
 * dropped, and its strings have one ":" more for each escaped one (\u003a): with those escapes
 * added to the text's count, the counts agree only when no key was dropped (an escape-like run
 * that is no escape, as in "\\u003a", only adds to the text's side: the strict parser reads
 * such text). An integer beyond 2^53 may have been rounded.
 */
export function parseFast(text: string): JsonValue | undefined {
  let v: JsonValue;
  try {
    v = JSON.parse(text) as JsonValue;
  } catch {
    return undefined; // the strict parser says what is wrong
  }
  stringColons = 0;
  const keys = keysIn(v, 0);
  let colons = count(text, ":");
  // the text's own escapes are looked for only when a parsed string holds a ":" (rarely)
  if (stringColons > 0) colons += escapedColons(text);
  return keys + stringColons === colons ? v : undefined;
}

function count(s: string, c: string): number {
  let n = 0;
  for (let i = s.indexOf(c); i >= 0; i = s.indexOf(c, i + 1)) n++;
  return n;
}

/** The \u003a and \u003A in the text: every way JSON escapes ":". */
function escapedColons(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\\u003"); i >= 0; i = text.indexOf("\\u003", i + 5)) {
    const hex = text.charCodeAt(i + 5);
    if (hex === 0x61 || hex === 0x41) n++;
  }
  return n;
}

/** The ":" in the keys and strings keysIn() went through. */
let stringColons = 0;

/** The keys of the value (their ":" and its strings' counted in stringColons); NaN for a rounded integer or nesting past MAX_JSON_DEPTH. */
function keysIn(v: JsonValue, depth: number): number {
  if (typeof v !== "object") {
    if (typeof v === "string") {
      if (v.indexOf(":") >= 0) stringColons += count(v, ":");
      return 0;
    }
    return typeof v === "number" && (v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER) ? NaN : 0;
  }
  if (v === null) return 0;
  if (depth >= MAX_JSON_DEPTH) return NaN;
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) n += keysIn(v[i]!, depth + 1);
    return n;
  }
  const keys = Object.keys(v);
  n = keys.length;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (k.indexOf(":") >= 0) stringColons += count(k, ":");
    n += keysIn((v as JsonObject)[k]!, depth + 1);
  }
  return n;
}

/** A JSON key in an error's path: `.key`, or `["key"]` (excerpted) when it is long or not a name. */
export const jsonKeySegment = (key: string): string => (key.length <= SHOWN && /^[\w@$.[\]]+$/.test(key) ? `.${key}` : `[${quote(key)}]`);

export class JsonSyntaxError extends Error {
  override readonly name = "JsonSyntaxError";
  constructor(
    reason: string,
    readonly offset: number,
    /** Where, in the value: ".key[2]" (keys as jsonKeySegment writes them), built on the way out. */
    public path = "",
  ) {
    super(`invalid JSON at offset ${offset}: ${reason}`);
  }
}

/** Levels of nesting an error's path names, the outermost (as the codec's paths); deeper ones are "…". */
const PATH_LEVELS = 64;

/** The error, its path prefixed with the segment of a value at `depth` when it is a JsonSyntaxError. */
function inside(e: unknown, segment: string, depth: number): unknown {
  if (e instanceof JsonSyntaxError) e.path = depth < PATH_LEVELS ? segment + e.path : ".…";
  return e;
}

const plainRun = /[^"\\\x00-\x1f]*/y;

export function parseJson(text: string): JsonValue {
  let i = 0;
  const fail = (reason: string): never => {
    throw new JsonSyntaxError(reason, i);
  };
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };
  const literal = (word: string, v: JsonValue): JsonValue => {
    if (text.startsWith(word, i)) {
      i += word.length;
      return v;
    }
    return fail(`unexpected ${JSON.stringify(text.charAt(i))}`);
  };
  const string = (): string => {
    i++; // opening quote
    let out = "";
    for (;;) {
      // the run up to the next quote, backslash or control character in one regex step
      plainRun.lastIndex = i;
      plainRun.test(text);
      const end = plainRun.lastIndex;
      out += text.slice(i, end);
      i = end;
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return out;
      }
      if (i >= text.length) fail("unterminated string");
      if (c < 0x20) fail("control character in string");
      const e = text.charAt(i + 1); // c is a backslash
      i += 2;
      switch (e) {
        case '"': out += '"'; break;
        case "\\": out += "\\"; break;
        case "/": out += "/"; break;
        case "b": out += "\b"; break;
        case "f": out += "\f"; break;
        case "n": out += "\n"; break;
        case "r": out += "\r"; break;
        case "t": out += "\t"; break;
        case "u": {
          const hex = text.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad \\u escape");
          out += String.fromCharCode(parseInt(hex, 16));
          i += 4;
          break;
        }
        default: fail("bad escape");
      }
    }
  };
  const numberToken = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const number = (): JsonNumber => {
    numberToken.lastIndex = i;
    const m = numberToken.exec(text);
    if (!m) return fail("bad number");
    i += m[0].length;
    return new JsonNumber(m[0]);
  };
  // depth: the objects and arrays around the value; one more may open (MAX_JSON_DEPTH counts the top-level one)
  const value = (depth: number): JsonValue => {
    ws();
    const c = text.charAt(i);
    if ((c === "{" || c === "[") && depth >= MAX_JSON_DEPTH) fail(`nested deeper than ${MAX_JSON_DEPTH}`);
    switch (c) {
      case "{": {
        i++;
        // no prototype: a "__proto__" key is an own property like any other
        const obj = Object.create(null) as Record<string, JsonValue>;
        ws();
        if (text.charAt(i) === "}") {
          i++;
          return obj;
        }
        for (;;) {
          ws();
          if (text.charAt(i) !== '"') fail("expected a key");
          const at = i;
          const key = string();
          if (key in obj) throw new JsonSyntaxError(`duplicate key ${quote(key)}`, at, jsonKeySegment(key));
          ws();
          if (text.charAt(i++) !== ":") fail("expected ':'");
          try {
            obj[key] = value(depth + 1);
          } catch (e) {
            throw inside(e, jsonKeySegment(key), depth);
          }
          ws();
          const sep = text.charAt(i++);
          if (sep === "}") return obj;
          if (sep !== ",") fail("expected ',' or '}'");
        }
      }
      case "[": {
        i++;
        const arr: JsonValue[] = [];
        ws();
        if (text.charAt(i) === "]") {
          i++;
          return arr;
        }
        for (;;) {
          try {
            arr.push(value(depth + 1));
          } catch (e) {
            throw inside(e, `[${arr.length}]`, depth);
          }
          ws();
          const sep = text.charAt(i++);
          if (sep === "]") return arr;
          if (sep !== ",") fail("expected ',' or ']'");
        }
      }
      case '"': return string();
      case "t": return literal("true", true);
      case "f": return literal("false", false);
      case "n": return literal("null", null);
      default:
        if (c === "-" || (c >= "0" && c <= "9")) return number();
        return fail(i >= text.length ? "unexpected end" : `unexpected ${JSON.stringify(c)}`);
    }
  };
  const v = value(0);
  ws();
  if (i < text.length) fail("text after the value");
  return v;
}

/** A JS value (what JSON.parse or a literal gives) as a JsonValue; as deep as parseJson allows. */
export function fromJs(v: unknown, depth = 0): JsonValue {
  // (NaN and Infinity stay numbers: a double field takes them, a Value refuses them; text never
  // gives one, as parseFast leaves 1e400 to the strict parser)
  if (v === null || typeof v === "boolean" || typeof v === "string" || typeof v === "number") return v;
  if (typeof v === "bigint") return new JsonNumber(String(v));
  if (typeof v === "object" && depth >= MAX_JSON_DEPTH) throw new TypeError(`nested deeper than ${MAX_JSON_DEPTH} (or a cycle)`);
  if (Array.isArray(v)) return v.map((e) => fromJs(e, depth + 1));
  if (typeof v === "object") {
    // an ordinary object, as JSON.parse makes (one without a prototype is a dictionary in V8, whose
    // entries the reader took 3.5x as long to list); readers look keys up with Object.hasOwn
    const o: Record<string, JsonValue> = {};
    for (const k of Object.keys(v as object)) {
      const x = fromJs((v as Record<string, unknown>)[k], depth + 1);
      // an own property like any other ("__proto__" assigned would set the prototype)
      if (k === "__proto__") Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
      else o[k] = x;
    }
    return o;
  }
  throw new TypeError(`not a JSON value: ${typeof v}`);
}
