// What protobufjs's parser leaves out of a .proto file or cannot read, found in one pass over its
// tokens (linear in the text, whatever it holds): the syntax statement, each field's `default = ...`
// literal as written (protobufjs parses numbers into JS numbers, which round 64-bit values, and
// string escapes into characters), `extensions` statements in group bodies (which protobufjs cannot
// parse), and nesting deeper than protoc reads (protobufjs fails it with an error naming no place).
import { MAX_FIELD_NUMBER } from "./descriptor.js";

/** protoc's limit on message (and group) declarations inside one another. */
export const MAX_MESSAGE_NESTING = 31;
/** protobufjs's parser reads option values (`{ a { b: 1 } }`) nested this deep. */
export const MAX_OPTION_NESTING = 100;

export interface ScannedFile {
  /** The `syntax` or `edition` statement: its keyword, its string's value and the string token's offset. */
  syntax?: { keyword: "syntax" | "edition"; value: string; offset: number };
  /** Default literals by declarationKey(): numbers as written (a leading "-" kept), strings as one `"…"` literal of their bodies. */
  defaults: Map<string, string>;
  /** `extensions ...;` statements inside group bodies: [start, end) offsets, the group's full name and the ranges (inclusive) the statement declares. */
  groupExtensions: { at: [number, number]; group: string; ranges: [number, number][] }[];
  /** The first declaration nested deeper than the limits, by character offset. */
  tooDeep?: { offset: number; message: string };
}

/** A field's key among the defaults: the package and messages around it (dotted), its name, its number. */
export const declarationKey = (scope: string, name: string, number: number): string => `${scope}/${name}/${number}`;

// strings (one left open runs to the end of its line), identifiers, numbers (1.5e+10, 0x1F), any other single character
const tokenPattern = /"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?|[A-Za-z_]\w*|\.?\d(?:[eE][+-]|[\w.])*|\S/g;
/** A name as protoc's grammar has it. */
export const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** An integer literal's token. */
export const integer = /^(?:0[xX][0-9a-fA-F]+|\d+)$/;
const isString = (t: string | undefined) => t !== undefined && (t[0] === '"' || t[0] === "'");

/** An open brace: a message or group body, a body that declares fields without a name of its own (oneof, extend), another body, or an option value. */
type Block = "message" | "group" | "fields" | "other" | "value";

/** The tokens of a .proto text whose comments are blanked (located.ts's withoutComments), with their offsets. */
export function tokensOf(code: string): { tokens: string[]; offsets: number[] } {
  const tokens: string[] = [];
  const offsets: number[] = [];
  for (const m of code.matchAll(tokenPattern)) {
    tokens.push(m[0]);
    offsets.push(m.index);
  }
  return { tokens, offsets };
}

/** Scans a .proto text whose comments are blanked. */
export function scanDeclarations(code: string): ScannedFile {
  const { tokens, offsets } = tokensOf(code);
  const out: ScannedFile = { defaults: new Map(), groupExtensions: [] };
  const blocks: Block[] = [];
  const messages: string[] = [];
  let pkg = "";
  let start = 0; // the current statement's first token
  let values = 0; // option value braces open
  let options: { key: string; depth: number } | undefined; // a field's [...] being read
  const tooDeep = (offset: number, message: string) => {
    out.tooDeep = { offset, message };
    return out;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === "{") {
      const block: Block = values > 0 || tokens[i - 1] === "=" || tokens[i - 1] === ":" ? "value" : blockAt(tokens, start);
      blocks.push(block);
      if (block === "value") {
        if (++values > MAX_OPTION_NESTING) return tooDeep(offsets[i]!, `option value nested more than ${MAX_OPTION_NESTING} deep`);
        continue;
      }
      if (block === "message" || block === "group") {
        messages.push(tokens[tokens[start] === "message" || tokens[start] === "group" ? start + 1 : start + 2] ?? "");
        if (messages.length > MAX_MESSAGE_NESTING) return tooDeep(offsets[start]!, `message declarations nested more than ${MAX_MESSAGE_NESTING} deep (protoc's limit)`);
      }
      start = i + 1;
    } else if (t === "}") {
      const block = blocks.pop();
      if (block === "value") values--;
      else {
        if (block === "message" || block === "group") messages.pop();
        start = i + 1;
      }
    } else if (values > 0) {
      continue; // inside an option value: text format, no declarations
    } else if (t === ";") {
      const first = tokens[start];
      if (blocks.length === 0 && first === "package") pkg = tokens.slice(start + 1, i).join("");
      else if (blocks.length === 0 && (first === "syntax" || first === "edition") && out.syntax === undefined && isString(tokens[start + 2])) {
        out.syntax = { keyword: first, value: tokens[start + 2]!.slice(1, -1), offset: offsets[start + 2]! };
      } else if (first === "extensions" && blocks[blocks.length - 1] === "group") {
        out.groupExtensions.push({ at: [offsets[start]!, offsets[i]! + 1], group: scopeOf(pkg, messages), ranges: rangesOf(tokens.slice(start + 1, i)) });
      }
      start = i + 1;
      options = undefined;
    } else if (options !== undefined) {
      if (t === "[") options.depth++;
      else if (t === "]" && --options.depth === 0) options = undefined;
      else if (t === "default" && options.depth === 1 && (tokens[i - 1] === "[" || tokens[i - 1] === ",") && tokens[i + 1] === "=") {
        const literal = literalAt(tokens, i + 2);
        if (literal !== undefined && !out.defaults.has(options.key)) out.defaults.set(options.key, literal);
      }
    } else if (t === "[" && i >= 3 && tokens[i - 2] === "=" && integer.test(tokens[i - 1]!) && identifier.test(tokens[i - 3]!)) {
      const block = blocks[blocks.length - 1];
      if (block === "message" || block === "group" || block === "fields") {
        options = { key: declarationKey(scopeOf(pkg, messages), tokens[i - 3]!, Number(integerLiteral(tokens[i - 1]!))), depth: 1 };
      }
    }
  }
  return out;
}

/** The full name of the messages around a declaration. */
const scopeOf = (pkg: string, messages: readonly string[]) => (pkg && messages.length > 0 ? `${pkg}.${messages.join(".")}` : pkg || messages.join("."));

/** The ranges of an `extensions` statement's tokens (`1, 5 to 9, 100 to max [options]`), inclusive; what is not a range is left out. */
function rangesOf(tokens: readonly string[]): [number, number][] {
  const end = tokens.indexOf("[");
  const ranges: [number, number][] = [];
  for (const part of (end < 0 ? tokens : tokens.slice(0, end)).join(" ").split(",")) {
    const [from, to, last, ...rest] = part.trim().split(" ");
    if (from === undefined || !integer.test(from) || rest.length > 0) continue;
    if (to === undefined) ranges.push([Number(integerLiteral(from)), Number(integerLiteral(from))]);
    else if (to === "to" && (last === "max" || (last !== undefined && integer.test(last)))) ranges.push([Number(integerLiteral(from)), last === "max" ? MAX_FIELD_NUMBER : Number(integerLiteral(last))]);
  }
  return ranges;
}

/** What the statement starting at `start` opens with its brace. */
function blockAt(tokens: readonly string[], start: number): Block {
  const first = tokens[start];
  if (first === "message") return "message";
  if (first === "group" || tokens[start + 1] === "group") return "group"; // `optional group G = 1 {`
  return first === "oneof" || first === "extend" ? "fields" : "other";
}

/** The literal at tokens[i]: a number (after an optional "-") or adjacent strings (one literal, as protoc and protobufjs join them); undefined for identifiers (inf, nan, enum values). */
function literalAt(tokens: readonly string[], i: number): string | undefined {
  const negative = tokens[i] === "-";
  const first = tokens[negative ? i + 1 : i];
  if (first === undefined) return undefined;
  if (!isString(first)) return /^\.?\d/.test(first) ? (negative ? "-" : "") + first : undefined;
  let body = "";
  for (let j = i; isString(tokens[j]); j++) body += tokens[j]!.slice(1, -1);
  return `"${body}"`;
}

/** A .proto integer literal's value (`-0x10`, `017` octal, `- 5`), exactly. */
export function integerLiteral(text: string): bigint {
  const t = text.replace(/\s/g, "");
  const negative = t.startsWith("-");
  const magnitude = BigInt((negative ? t.slice(1) : t).replace(/^0(?=\d)/, "0o")); // a leading 0 is octal in .proto
  return negative ? -magnitude : magnitude;
}
