// Errors the runtime throws. Decode errors carry the codec's code, the byte offset and the field path.

/** Codes of the C++ codec (cpp/include/hppproto/status.hpp), by number. */
export const errorCodes = [
  "OK",
  "TRUNCATED",
  "VARINT_OVERLONG",
  "INVALID_FIELD_NUMBER",
  "INVALID_WIRE_TYPE",
  "WIRE_TYPE_MISMATCH",
  "LENGTH_OUT_OF_BOUNDS",
  "INVALID_UTF8",
  "UNTERMINATED_GROUP",
  "UNMATCHED_END_GROUP",
  "DEPTH_LIMIT",
  "MISSING_REQUIRED",
  "OUT_OF_MEMORY",
  "MESSAGE_TOO_LARGE",
  "PACKED_LENGTH",
  "INVALID_SCHEMA",
  "TOO_MANY_ELEMENTS",
  "MEMORY_BUDGET",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

const descriptions: Record<ErrorCode, string> = {
  OK: "no error",
  TRUNCATED: "input ends inside a value",
  VARINT_OVERLONG: "malformed varint (more than 10 bytes or bits past 64)",
  INVALID_FIELD_NUMBER: "invalid field number 0",
  INVALID_WIRE_TYPE: "invalid wire type 6 or 7",
  WIRE_TYPE_MISMATCH: "wire type does not match the field's type",
  LENGTH_OUT_OF_BOUNDS: "length runs past the end of the enclosing message",
  INVALID_UTF8: "string field is not valid UTF-8",
  UNTERMINATED_GROUP: "group is not closed before the end of input",
  UNMATCHED_END_GROUP: "end-group tag without a matching start",
  DEPTH_LIMIT: "messages nested deeper than the limit",
  MISSING_REQUIRED: "required field is missing",
  OUT_OF_MEMORY: "arena limit reached or memory could not grow",
  MESSAGE_TOO_LARGE: "message is larger than the limit",
  PACKED_LENGTH: "packed field length is not a multiple of the element size",
  INVALID_SCHEMA: "invalid schema table",
  TOO_MANY_ELEMENTS: "repeated field has more elements than the limit",
  MEMORY_BUDGET: "the decoded form would take more memory than the input allows (maxAmplification)",
};

/** What an error code means, as DecodeError's message says it. */
export const describeCode = (code: ErrorCode): string => descriptions[code];

export function codeName(code: number): ErrorCode {
  return errorCodes[code] ?? "INVALID_SCHEMA";
}

/** Malformed input. The runtime stays usable: the next decode works normally. */
export class DecodeError extends Error {
  override readonly name = "DecodeError";
  constructor(
    /** What went wrong, e.g. "INVALID_UTF8". */
    readonly code: ErrorCode,
    /** Byte offset in the input where it was found. */
    readonly offset: number,
    /** Field path from the top-level message, e.g. "Person.phones[1].number". */
    readonly path: string,
  ) {
    super(`${describeCode(code)} at byte ${offset}${path ? ` (${path})` : ""} [${code}]`);
  }
}

/** What can be wrong with a value given to encode(), a builder or a writer. */
export type EncodeErrorCode =
  | "INVALID_VALUE" // the wrong JS type for the field
  | "VALUE_OUT_OF_RANGE" // an integer outside the field type's range
  | "INVALID_UTF16" // a string with a lone surrogate, which has no UTF-8 form
  | "MISSING_REQUIRED"
  | "DEPTH_LIMIT"
  | "MESSAGE_TOO_LARGE"
  | "OUT_OF_MEMORY"
  | "BUFFER_TOO_SMALL" // encodeInto(): the target has no room; nothing was written
  | "UNBALANCED"; // a writer's fork()/join() do not pair up

/** @internal The reason of a DEPTH_LIMIT an encode gets when the stack left to it ran out (in JS or in WASM). */
export const STACK_EXHAUSTED = "messages nested too deep for the stack left to this call";

/** Whether e is the engine's stack running out (V8 and JavaScriptCore: RangeError; SpiderMonkey: InternalError). */
export function stackOverflow(e: unknown): boolean {
  return e instanceof Error && (e instanceof RangeError || e.name === "InternalError") && /stack|recursion/i.test(e.message);
}

/** A value that cannot be encoded. Nothing was written to the caller's buffer. */
export class EncodeError extends Error {
  override readonly name = "EncodeError";
  constructor(
    readonly code: EncodeErrorCode,
    /** Field path from the top-level message, e.g. "Person.phones[1].number". */
    public path: string,
    /** What is wrong, without the path. */
    readonly reason: string = code.toLowerCase().replace(/_/g, " "),
  ) {
    super("");
    this.message = this.describe();
  }

  /**
   * @internal Set when the encode that threw it was started inside another (by a getter): its path
   * is its own encode's, and the encode around it, which it passes through, adds nothing to it.
   */
  sealed = false;

  /** @internal Puts an enclosing field (or `name[i]`) in front of the path while unwinding. */
  prefix(segment: string): void {
    if (this.sealed) return;
    // "[1]", "[#1]" and "[\"key\"]" follow their field; an extension's "[pkg.name]" is a field itself
    this.path = this.path === "" ? segment : segment + (/^\[[\d#"-]/.test(this.path) ? "" : ".") + this.path;
    this.message = this.describe();
  }

  private describe(): string {
    return `${this.reason}${this.path ? ` (${this.path})` : ""} [${this.code}]`;
  }
}

/** A schema table that failed validation, or a message index it does not have. */
export class SchemaError extends Error {
  override readonly name = "SchemaError";
  constructor(message: string, readonly offset = 0) {
    super(message);
  }
}

/**
 * A view or builder used after its arena was reset or released. Typed arrays a view handed out
 * are plain aliases of linear memory and cannot throw it (see view.ts): they are valid only as long
 * as the view is.
 */
export class StaleViewError extends Error {
  override readonly name = "StaleViewError";
  constructor(reason: "reset" | "released", subject: "view" | "builder" = "view") {
    super(
      subject === "builder"
        ? `hppproto: builder used after ${reason === "released" ? "$release()" : "its arena was reset"}`
        : reason === "released"
          ? "hppproto: view used after its arena was released"
          : "hppproto: view used after its arena was reset; views on the default arena last until the " +
            "next view() call: pass your own Arena to keep them longer, or decode() to plain objects",
    );
  }
}

/** A codec call before init() or initSync() has loaded the WASM module. */
export class NotInitializedError extends Error {
  override readonly name = "NotInitializedError";
  readonly code = "NOT_INITIALIZED";
  constructor() {
    super("hppproto: the codec is not loaded yet: call `await init()` (or `initSync()`) once before decoding, encoding, building or converting messages [NOT_INITIALIZED]");
  }
}
