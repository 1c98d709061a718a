// Errors of the protobuf text format: what went wrong, where in the text (line:column, 1-based),
// and which field (the path from the top-level message, .proto names).
/** Messages nested deeper than this are refused by the reader and the printer alike (as protoc's parser). */
export const MAX_DEPTH = 100;

export type TextErrorCode =
  | "INVALID_TEXT" | "INVALID_VALUE" | "VALUE_OUT_OF_RANGE" | "UNKNOWN_FIELD" | "DUPLICATE_FIELD" | "UNKNOWN_TYPE" | "MISSING_REQUIRED" | "MEMORY_BUDGET";

/** Text that does not fit the message, or a message that cannot be printed. */
export class TextError extends Error {
  override readonly name = "TextError";
  constructor(
    readonly code: TextErrorCode,
    /** Where, from the top-level message: "pkg.Msg.field[2].sub". */
    readonly path: string,
    readonly reason: string,
    /** 1-based; 0 when the error is not about a place in the text (printing). */
    readonly line = 0,
    readonly column = 0,
  ) {
    super(`${line > 0 ? `${line}:${column}: ` : ""}${reason}${path ? ` (${path})` : ""} [${code}]`);
  }
}
