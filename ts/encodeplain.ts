// encode() of a plain object: generated code writes it straight to wire bytes (encoder.ts). A free
// function of the message's schema and generated encode function, so that a program calling only a
// generated encodeX() carries neither its message type nor views, readers or ProtoJSON.
import { EncodeError, STACK_EXHAUSTED, stackOverflow } from "./errors.js";
import { ownedCopy } from "./copy.js";
import { PlainEncoder, type Encode } from "./encoder.js";
import { describe } from "./input.js";
import type { Init } from "./message.js";
import { assertInitialized, takePartial } from "./limits.js";
import { encodeLevel, enterEncode, leaveEncode, sealIfNested } from "./scratch.js";
import type { SchemaDef } from "./schema.js";
import { isView } from "./viewmark.js";

/** A message's encode() of plain objects as a function of its own (generated code's encodeX): T its plain objects. */
export type EncodePlain<T> = (message: Init<T>) => Uint8Array;

/** A TypeError for what is no message object (`what`: "a message object", or "a message object or a view"). */
export function checkObject(typeName: string, message: unknown, what: string): asserts message is object {
  if (typeof message !== "object" || message === null) throw new TypeError(`${typeName}: expected ${what} to encode, got ${describe(message)}`);
}

/** Encoders of plain objects, one per level of encodes started inside one another (scratch.ts encodeLevel). */
const plainEncoders: PlainEncoder[] = [];

/**
 * @internal The plain object (or, given `list`, a length-delimited run of them) of message `index`
 * of `def` written by `encode`: the encoder of this nesting level, its bytes in its buffer up to its
 * length (for the caller to copy at once: the next encode at this level reuses it).
 */
export function runPlain<T>(def: SchemaDef, index: number, encode: Encode<T>, message: T | undefined, list?: readonly T[]): PlainEncoder {
  const typeName = def.messages[index]!.name;
  assertInitialized();
  const e = (plainEncoders[encodeLevel(typeName)] ??= new PlainEncoder());
  enterEncode(); // (counted once nothing before the try can fail)
  try {
    if (list === undefined) e.run(def, index, encode, message as T, takePartial());
    else e.runDelimited(def, index, encode, list, takePartial());
    return e;
  } catch (err) {
    // its path starts with the type's name; the JS stack running out is DEPTH_LIMIT, as in the codec
    if (err instanceof EncodeError) err.prefix(typeName);
    throw sealIfNested(stackOverflow(err) ? new EncodeError("DEPTH_LIMIT", typeName, STACK_EXHAUSTED) : err);
  } finally {
    leaveEncode();
  }
}

/** @internal a plain object of message `index` of `def` as wire bytes, written by `encode` */
export function encodePlain<T>(def: SchemaDef, index: number, encode: Encode<Init<T>>, message: Init<T>): Uint8Array {
  const typeName = def.messages[index]!.name;
  checkObject(typeName, message, "a message object");
  // (a view's getters read out lossily for some fields: floats, 64-bit integers as numbers, strings that need not be text)
  if (isView(message)) throw new TypeError(`${typeName}: views and builders are encoded by the message type's encode(), not this function of plain objects`);
  const e = runPlain(def, index, encode, message);
  return ownedCopy(e.buffer, 0, e.length);
}

/** What generated code's encodeX is: encodePlain() of one message (generated code's, not an API). */
export function encodeFunction<T>(def: SchemaDef, index: number, encode: Encode<Init<T>>): EncodePlain<T> {
  return (message) => encodePlain(def, index, encode, message);
}
