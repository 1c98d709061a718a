// Binary input as users hold it: a Uint8Array (Node's Buffer is one), another typed array or
// DataView, or a whole ArrayBuffer / SharedArrayBuffer (fetch, WebSocket frames, FileReader).
import { quote } from "./excerpt.js";

/** What decoding accepts. */
export type BinaryInput = ArrayBufferView | ArrayBuffer | SharedArrayBuffer;

const tag = (v: unknown) => Object.prototype.toString.call(v);
// by tag, so that buffers from another realm (a worker, an iframe, a vm context) pass too
const isBuffer = (v: unknown) => {
  const t = tag(v);
  return t === "[object ArrayBuffer]" || t === "[object SharedArrayBuffer]";
};

/** Whether v is binary input (not, say, a message object). */
export const isBinaryInput = (v: unknown): v is BinaryInput => ArrayBuffer.isView(v) || isBuffer(v);

/**
 * The bytes of `input`, without copying; anything else is a TypeError naming `typeName.method`
 * (passed apart, so that the message is only built when it is thrown) and what was given.
 */
export function bytesOf(input: BinaryInput, typeName: string, method: string): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (isBuffer(input)) return new Uint8Array(input as ArrayBuffer);
  throw new TypeError(`${typeName}.${method}: expected a Uint8Array, ArrayBuffer, SharedArrayBuffer or other ArrayBufferView (a Node Buffer is one), got ${describe(input)}`);
}

/**
 * Text input (ProtoJSON, the text format), checked to be a string: bytes are not read as UTF-8,
 * as @bufbuild/protobuf's fromJsonString takes a string too; the TypeError says how to make one.
 */
export function textOf(text: string, typeName: string, method: string): string {
  if (typeof text === "string") return text;
  const bytes = isBinaryInput(text) ? " (bytes of UTF-8 text: new TextDecoder().decode(bytes) gives the string)" : "";
  throw new TypeError(`${typeName}.${method}: expected a string, got ${describe(text)}${bytes}`);
}

/** A short description of a value for error messages. */
export function describe(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "string") return `a string (${quote(v)})`;
  if (typeof v === "object") {
    const name = tag(v).slice(8, -1);
    return name === "Object" ? "a plain object" : `${/^[AEIO]/.test(name) ? "an" : "a"} ${name}`; // (a Uint8Array)
  }
  return `${typeof v} ${String(v)}`;
}
