// What a JS value must be to be written as a field of each type, and the errors that say it is
// not: shared by what writes plain objects into records (fill.ts) and into wire bytes (encoder.ts).
import { EncodeError } from "./errors.js";
import { quote } from "./excerpt.js";

const I64_MIN = -(1n << 63n);
const U64_MAX = (1n << 64n) - 1n;

/** A map key as its field type wants it: map keys of plain objects are strings. */
export function mapKey(k: string, kind: "i32" | "u32" | "i64" | "u64" | "bool"): number | bigint | boolean {
  switch (kind) {
    case "bool":
      if (k === "true" || k === "false") return k === "true";
      break;
    case "i64":
    case "u64":
      if (/^-?\d+$/.test(k)) return BigInt(k);
      break;
    default:
      if (/^-?\d+$/.test(k)) return Number(k);
  }
  throw new EncodeError("INVALID_VALUE", "", `map key ${quote(k)} is not a ${kind === "bool" ? "boolean" : "integer"}`);
}

/** Errors have no path: callers put the field's in front. */
export function toInt64(v: unknown): bigint {
  if (typeof v === "bigint" && BigInt.asIntN(64, v) === v) return v;
  const b = toBigInt(v);
  if (b < I64_MIN || b > -(I64_MIN + 1n)) throw new EncodeError("VALUE_OUT_OF_RANGE", "", `${b} is out of range for a signed 64-bit integer`);
  return b;
}

export function toUint64(v: unknown): bigint {
  if (typeof v === "bigint" && BigInt.asUintN(64, v) === v) return v;
  const b = toBigInt(v);
  if (b < 0n || b > U64_MAX) throw new EncodeError("VALUE_OUT_OF_RANGE", "", `${b} is out of range for an unsigned 64-bit integer`);
  return b;
}

/** 64-bit values: bigint, an integral number, or a decimal string. */
function toBigInt(v: unknown): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "number" && Number.isInteger(v)) return BigInt(v);
  if (typeof v === "string" && /^-?\d+$/.test(v)) return BigInt(v);
  throw invalid(v, "a 64-bit integer (bigint, integral number or decimal string)", "");
}

export function describe(v: unknown): string {
  if (typeof v === "string") return quote(v);
  if (typeof v === "bigint") return `${v}n`;
  if (v === null || typeof v !== "object") return String(v);
  return Array.isArray(v) ? "an array" : v instanceof Uint8Array ? "a Uint8Array" : "an object";
}

export function invalid(v: unknown, want: string, name: string): EncodeError {
  const range = typeof v === "number" && want.includes("integer") && Number.isFinite(v) && Number.isInteger(v);
  return new EncodeError(range ? "VALUE_OUT_OF_RANGE" : "INVALID_VALUE", name, `${describe(v)} is not ${want}`);
}

/** An error from inside a field, with the field's name put in front of its path. */
export function within(e: unknown, segment: string): unknown {
  if (e instanceof EncodeError && segment !== "") e.prefix(segment);
  return e;
}
