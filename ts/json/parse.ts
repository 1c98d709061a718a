// A strict JSON parser for ProtoJSON input. JSON.parse cannot be used: it rounds large integers
// (int64 values written as numbers must be exact), keeps only the last of duplicate keys (which
// ProtoJSON rejects), and builds plain objects (a "__proto__" key must stay data).

/** A JSON number, kept as its source text until the field's type says how to read it. */
export class JsonNumber {
  constructor(readonly text: string) {}
  get value(): number {
    return Number(this.text);
  }
}

export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | Map<string, JsonValue>;

export class JsonSyntaxError extends Error {
  override readonly name = "JsonSyntaxError";
  constructor(reason: string, readonly offset: number) {
    super(`invalid JSON at offset ${offset}: ${reason}`);
  }
}

const MAX_DEPTH = 200;

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
  const value = (depth: number): JsonValue => {
    if (depth > MAX_DEPTH) fail(`nested deeper than ${MAX_DEPTH}`);
    ws();
    const c = text.charAt(i);
    switch (c) {
      case "{": {
        i++;
        const obj = new Map<string, JsonValue>();
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
          if (obj.has(key)) {
            i = at;
            fail(`duplicate key ${JSON.stringify(key)}`);
          }
          ws();
          if (text.charAt(i++) !== ":") fail("expected ':'");
          obj.set(key, value(depth + 1));
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
          arr.push(value(depth + 1));
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
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  // String(-0) is "0": the sign is kept as JSON text has it. NaN, Infinity: their JSON strings
  if (typeof v === "number") return Number.isFinite(v) ? new JsonNumber(Object.is(v, -0) ? "-0" : String(v)) : String(v);
  if (typeof v === "bigint") return new JsonNumber(String(v));
  if (typeof v === "object" && depth > MAX_DEPTH) throw new TypeError(`nested deeper than ${MAX_DEPTH} (or a cycle)`);
  if (Array.isArray(v)) return v.map((e) => fromJs(e, depth + 1));
  if (typeof v === "object") {
    const m = new Map<string, JsonValue>();
    for (const k of Object.keys(v as object)) m.set(k, fromJs((v as Record<string, unknown>)[k], depth + 1));
    return m;
  }
  throw new TypeError(`not a JSON value: ${typeof v}`);
}
