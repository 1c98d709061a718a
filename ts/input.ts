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
  if (input instanceof Uint8Array) return input; // (detached: see detachedInput)
  if (ArrayBuffer.isView(input)) {
    if (isDetached(input.buffer)) throw detached();
    return bytesOfView(input);
  }
  if (isBuffer(input)) {
    if (isDetached(input as ArrayBufferLike)) throw detached();
    return new Uint8Array(input as ArrayBuffer);
  }
  throw new TypeError(`${typeName}.${method}: expected a Uint8Array, ArrayBuffer, SharedArrayBuffer or other ArrayBufferView (a Node Buffer is one), got ${describe(input)}`);
}

// A typed array's or DataView's length, byteOffset and buffer can lie (own properties, a subclass's
// getters) while set() and copyWithin() copy what it really holds: whatever is copied into linear
// memory, or read over it, is sized and found with the engine's own getters, or a lie would size a
// copy short of what set() writes, or make a view over other memory.
const getterOf = (proto: object, name: string) => Object.getOwnPropertyDescriptor(proto, name)!.get!;
const typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype) as object;
const typedLength = getterOf(typedArrayProto, "length"), typedOffset = getterOf(typedArrayProto, "byteOffset");
const typedByteLength = getterOf(typedArrayProto, "byteLength"), typedBuffer = getterOf(typedArrayProto, "buffer");
const dataViewOffset = getterOf(DataView.prototype, "byteOffset"), dataViewLength = getterOf(DataView.prototype, "byteLength");
const dataViewBuffer = getterOf(DataView.prototype, "buffer");
/** The elements a typed array holds, whatever its `length` property says. */
export const lengthOf = (v: ArrayBufferView): number => typedLength.call(v) as number;
/** A typed array's offset in its buffer, whatever its `byteOffset` property says. */
export const byteOffsetOf = (v: ArrayBufferView): number => typedOffset.call(v) as number;
/** A typed array's buffer, whatever its `buffer` property says. */
export const bufferOf = (v: ArrayBufferView): ArrayBufferLike => typedBuffer.call(v) as ArrayBufferLike;

/** The bytes of a typed array or DataView: a Uint8Array over exactly them. */
export function bytesOfView(v: ArrayBufferView): Uint8Array {
  return v instanceof DataView
    ? new Uint8Array(dataViewBuffer.call(v) as ArrayBufferLike, dataViewOffset.call(v) as number, dataViewLength.call(v) as number)
    : new Uint8Array(bufferOf(v), byteOffsetOf(v), typedByteLength.call(v) as number);
}

const detachedGetter = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "detached")?.get; // (ES2024: Node 22, Chrome 114)

/**
 * The error of a decode of `input`, `n` (its lengthOf) bytes, if its buffer was detached, or is a
 * resizable one shrunk below the view's end (either reads as empty, which would decode as an empty
 * message; asked only of empty inputs: it is not free).
 */
export function detachedInput(input: Uint8Array, n: number): TypeError | undefined {
  if (n !== 0) return undefined;
  const buffer = bufferOf(input);
  if (isDetached(buffer)) return detached();
  if (pastShrunkEnd(input, buffer)) return new TypeError(`hppproto: the input is ${SHRUNK}: make the view again`);
  return undefined;
}

/** An empty array that every empty field shares: it holds nothing, so nothing can change it. */
export const EMPTY_BYTES = /* @__PURE__ */ Object.freeze(new Uint8Array(0)) as Uint8Array;

/** What an alias of memory (a view's typed array or bytes) is once growth has detached it, or an array transferred away. */
export const DETACHED_ALIAS =
  "a detached array: over WASM memory that grew since it was taken from a view (take it from the view again, or slice() it first), or transferred";

const SHRUNK = "a view past the end of its resizable ArrayBuffer, which was shrunk since the view was made";

/**
 * Why v, a typed array to encode, lost its contents, if it did: it reads as empty because its
 * buffer was detached (WASM memory that grew since v was taken from a view, or a buffer transferred
 * away) or because it is a view past the end of a resizable buffer shrunk since. Asked only of
 * empty arrays: reading a small array's buffer makes V8 move its data off-heap.
 */
export function lostContents(v: ArrayBufferView): string | undefined {
  if (lengthOf(v) !== 0 || v === EMPTY_BYTES) return undefined;
  const buffer = bufferOf(v);
  if (isDetached(buffer)) return DETACHED_ALIAS;
  return pastShrunkEnd(v, buffer) ? SHRUNK : undefined;
}

const detached = () =>
  new TypeError("hppproto: the input's ArrayBuffer is detached: transferred (postMessage, structuredClone), or WASM memory that grew since the array was taken from a view (take it again, or slice() it first)");

/** Whether a buffer was detached: its arrays read as empty. Any realm's (no instanceof); a SharedArrayBuffer never is. */
function isDetached(buffer: ArrayBufferLike): boolean {
  try {
    if (detachedGetter !== undefined) return detachedGetter.call(buffer) as boolean; // (a SharedArrayBuffer: a TypeError)
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return detachedGetter === undefined;
  }
}

/** Whether v is a view past the end of its buffer, a resizable one shrunk since v was made (it reads as empty). */
function pastShrunkEnd(v: ArrayBufferView, buffer: ArrayBufferLike): boolean {
  if ((buffer as { resizable?: boolean }).resizable !== true) return false;
  try {
    new Uint8Array(v as Uint8Array); // (a view out of its buffer's bounds is a TypeError to copy)
    return false;
  } catch {
    return true;
  }
}

/** A byte offset to write at: an integer from 0 (a fraction or a string would not index bytes, and wrote nothing, or at 10 for "1"). */
export function checkOffset(offset: number): void {
  if (!(Number.isInteger(offset) && offset >= 0)) throw new RangeError(`hppproto: offset ${describe(offset)} is not an integer from 0`);
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
