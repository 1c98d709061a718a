// The limits every decode, encode and reader applies, kept in JS: generated decoders of plain
// objects (reader.ts) read them here, so a program that calls only those carries no runtime; a
// runtime, when one starts, writes them into the codec's Limits struct (runtime.ts), and again on
// every change. Also whether init() has run, which every operation asks first.
import { BUDGET_ALLOWANCE } from "./abi.js";
import { NotInitializedError } from "./errors.js";

export interface Limits {
  /** Deepest nesting of messages and groups. Default 100, at most 1,000. */
  maxDepth: number;
  /** Largest input accepted by one decode, in bytes. Default 2 GiB - 1. */
  maxMessageSize: number;
  /** Most elements in one repeated field. Default 2^31 - 1. */
  maxElements: number;
  /**
   * Arena bytes a decode may use per input byte, beyond 1 MiB: a bound on what hostile input can
   * make of itself (1 MB of empty sub-messages would otherwise be a 1 GB arena). Default 256.
   */
  maxAmplification: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = { maxDepth: 100, maxMessageSize: 0x7fffffff, maxElements: 0x7fffffff, maxAmplification: 256 };

/** Deeper nesting would overflow the WASM stack; the limit is capped here. */
const MAX_DEPTH_CAP = 1_000; // about 330 KB of the engine's ~1 MB native stack when encoding (measured: 3,000 overflowed)

/** Largest block the C++ arena hands out (arena.hpp max_block_size, less its header): sizes stay below 2^31, where 32-bit size arithmetic is exact. */
export const MAX_BLOCK = 0x7fffffc0;

/** Largest input one decode takes (with room for the alignment shift). */
export const MAX_INPUT = MAX_BLOCK - 8;

/** @internal the limits in force (changed in place by setLimits(): read, never kept) */
export const limits: Readonly<Limits> = { ...DEFAULT_LIMITS };

let written: ((limits: Readonly<Limits>) => void) | undefined;

/** @internal `write` is called with the limits now and on every change (the runtime's copy in linear memory) */
export function writeLimitsTo(write: ((limits: Readonly<Limits>) => void) | undefined): void {
  written = write;
  write?.(limits);
}

/** The limits decodes, encodes and the JSON and text readers apply. */
export function getLimits(): Limits {
  return { ...limits };
}

/** Changes some of the limits (the others keep their values). */
export function setLimits(change: Partial<Limits>): void {
  for (const k of Object.keys(change)) {
    // (a misspelt limit would be left at its default without a word)
    if (!Object.hasOwn(limits, k)) throw new TypeError(`hppproto: setLimits() has no limit ${JSON.stringify(k)}; the limits are ${Object.keys(limits).join(", ")}`);
  }
  const next = { ...limits, ...change };
  for (const [k, v] of Object.entries(next)) {
    if (!Number.isInteger(v) || v < 1 || v > 0x7fffffff) throw new RangeError(`hppproto: ${k} must be an integer in 1..2^31-1`);
  }
  if (next.maxDepth > MAX_DEPTH_CAP) throw new RangeError(`hppproto: maxDepth is at most ${MAX_DEPTH_CAP}`);
  Object.assign(limits, next);
  written?.(limits);
}

let partialNext = false;

/**
 * @internal fn's result, with proto2 required fields allowed to be absent in what it decodes or
 * encodes: an extension's bytes read or written alone, without the fields of the message it
 * extends. Only the operation fn starts is partial, not those started inside it by getters of the
 * value being encoded (a global flag let them skip their own required fields).
 */
export function partially<R>(fn: () => R): R {
  const before = partialNext;
  partialNext = true;
  try {
    return fn();
  } finally {
    partialNext = before;
  }
}

/** @internal whether partially() is waiting for an operation to start */
export function partialPending(): boolean {
  return partialNext;
}

/** @internal whether the operation starting now may leave its top message's required fields absent: asked once, at its start */
export function takePartial(): boolean {
  const partial = partialNext;
  partialNext = false;
  return partial;
}

let initialized = false;

/** @internal init() has run: operations may start (loader.ts) */
export function markInitialized(): void {
  initialized = true;
}

/** @internal whether init() has run */
export function isInitialized(): boolean {
  return initialized;
}

/** decoder.hpp's budget_cap on wasm32 (size_t of 32 bits): every sum saturating at 2^32 - 1. */
export function budgetCap(reserved: number, maxAmplification: number, inputSize: number): number {
  const SIZE_MAX = 0xffffffff;
  const scaled = Math.min(inputSize * (maxAmplification || 1), SIZE_MAX);
  const budget = scaled > SIZE_MAX - BUDGET_ALLOWANCE ? SIZE_MAX : scaled + BUDGET_ALLOWANCE;
  return budget > SIZE_MAX - reserved ? SIZE_MAX : reserved + budget;
}

/** @internal throws before init(): what every operation asks first */
export function assertInitialized(): void {
  if (!initialized) throw new NotInitializedError();
}
