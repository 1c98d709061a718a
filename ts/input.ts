// Binary input as users hold it: a Uint8Array (Node's Buffer is one), another typed array or
// DataView, or a whole ArrayBuffer / SharedArrayBuffer (fetch, WebSocket frames, FileReader).

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

/** A short description of a value for error messages. */
export function describe(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "string") return `a string (${JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v)})`;
  if (typeof v === "object") {
    const name = tag(v).slice(8, -1);
    return name === "Object" ? "a plain object" : `${/^[AEIOU]/.test(name) ? "an" : "a"} ${name}`;
  }
  return `${typeof v} ${String(v)}`;
}
