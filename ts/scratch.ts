// What the runtime keeps for calls made without an arena: the arenas decode() and view() reuse, and
// one encoder per level of encodes started inside one another (by a getter or toJSON of the object
// being encoded).
import { Arena } from "./arena.js";
import { EncodeError } from "./errors.js";
import type { RecordWriter } from "./fill.js";
import type { Runtime } from "./runtime.js";

/** @internal A scratch arena for the records of plain objects the codec encodes, and its writer (fullruntime.ts). */
export interface Encoder {
  arena: Arena;
  writer: RecordWriter;
}

/**
 * @internal
 * Arenas the runtime keeps for calls without one: reset by the next such call. Encodes nest (a
 * getter or toJSON of the object being encoded may encode another message), so each level of
 * nesting has an encoder of its own, and an inner encode never writes into an outer one's records.
 */
export interface Scratch {
  views: Arena;
  plain: Arena;
  /** The codec's encoders, one per level of nesting (encodeLevel()). */
  encoders: Encoder[];
  /**
   * Arenas of forEachDelimited() calls, one per level of nesting: a callback may decode anything,
   * another batch included, without touching the records and input its own batch still reads.
   */
  batches: Arena[];
  /** forEachDelimited() calls in progress. */
  batching: number;
}

/** Encodes nested deeper than this (a getter that encodes its own object, say) are an error. */
const MAX_NESTED_ENCODES = 32;

const scratch = new WeakMap<Runtime, Scratch>();

let lastRuntime: Runtime | undefined;
let lastScratch: Scratch | undefined;

/** @internal the runtime's scratch arenas and encoders */
export function scratchArenas(rt: Runtime): Scratch {
  if (rt === lastRuntime) return lastScratch!; // a WeakMap lookup per call costs ~10 ns
  let s = scratch.get(rt);
  if (s === undefined) {
    s = { views: new Arena(), plain: new Arena(), encoders: [], batches: [], batching: 0 };
    scratch.set(rt, s);
  }
  lastRuntime = rt;
  lastScratch = s;
  return s;
}

/** @internal the arena decode() reads into, emptied by each call (its records are read out at once) */
export const scratchPlainArena = (rt: Runtime): Arena => scratchArenas(rt).plain;

// Encodes in progress, of plain objects and through the codec alike: a property of the JS stack,
// not of a runtime (an encode of plain objects needs none).
let encoding = 0;

/**
 * @internal The level the next encode runs at, which indexes the encoders of each kind (an error if
 * it cannot start inside those in progress). Not counted until enterEncode(): whatever fails while
 * the level's encoder is made leaves the count as it was.
 */
export function encodeLevel(typeName: string): number {
  if (encoding >= MAX_NESTED_ENCODES) {
    throw new EncodeError("DEPTH_LIMIT", typeName, `more than ${MAX_NESTED_ENCODES} encodes started inside one another (from getters or toJSON)`);
  }
  return encoding;
}

/** @internal Counts the encode whose level encodeLevel() gave as in progress: just before the try whose finally calls leaveEncode(). */
export function enterEncode(): void {
  encoding++;
}

/** @internal Ends the innermost encode enterEncode() started. */
export function leaveEncode(): void {
  encoding--;
}

/** @internal e, thrown by an encode started inside another (by a getter), as it leaves: the one around it adds nothing to its path. */
export function sealIfNested(e: unknown): unknown {
  if (e instanceof EncodeError && encoding > 1) e.sealed = true;
  return e;
}
