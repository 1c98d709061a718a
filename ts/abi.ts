// Byte offsets and sizes of the C++ structures the runtime reads and writes in place, without a
// call into WASM. wasm/exports.cpp's hp_abi() gives the compiler's own values (offsetof, sizeof) in
// the order of ABI below; the runtime compares the two when it loads a module.

/** hppproto::Arena on wasm32: the bump pointer, the end of the current block, the newest block. */
export const ARENA_CUR = 0;
export const ARENA_END = 4;
export const ARENA_HEAD = 8;

/** hppproto::Status: the error, where it happened, and the field path (PathEntry records). */
export const STATUS_CODE = 0;
export const STATUS_OFFSET = 4;
export const STATUS_PATH_SIZE = 8;
export const STATUS_TRUNCATED = 12;
export const STATUS_DETAIL = 16;
export const STATUS_PATH = 20;
export const PATH_ENTRY_SIZE = 12;
export const PATH_ENTRY_MESSAGE = 0;
export const PATH_ENTRY_FIELD = 4;
export const PATH_ENTRY_INDEX = 8;
/** Status::max_path: the deepest path kept (the outermost frames; the status says it was cut). */
export const STATUS_MAX_PATH = 64;

/** hppproto::Limits. */
export const LIMITS_MAX_DEPTH = 0;
export const LIMITS_MAX_MESSAGE_SIZE = 4;
export const LIMITS_MAX_ELEMENTS = 8;
export const LIMITS_MAX_AMPLIFICATION = 12;
export const LIMITS_ALLOW_PARTIAL = 16;

/**
 * hppproto::Limits' constants: the memory any decode may take beyond maxAmplification per input byte
 * (JSON and text readers keep the same budget: ts/budget.ts), and how deeply ProtoJSON's objects and
 * arrays may nest, the top-level one included (readers refuse more, writers write no more).
 */
export const BUDGET_ALLOWANCE = 1 << 20;
export const MAX_JSON_DEPTH = 200;

/** Record slots: BytesSlot (data, size), ArraySlot (data, size, capacity), and where every record keeps its unknown fields (an ArraySlot of BytesSlots). */
export const BYTES_SLOT_SIZE = 8;
export const ARRAY_SLOT_SIZE = 12;
export const UNKNOWN_FIELDS = 0;

/** Every value above, in hp_abi()'s order. */
export const ABI: readonly number[] = [
  ARENA_CUR, ARENA_END, ARENA_HEAD,
  STATUS_CODE, STATUS_OFFSET, STATUS_PATH_SIZE, STATUS_TRUNCATED, STATUS_DETAIL, STATUS_PATH,
  PATH_ENTRY_SIZE, PATH_ENTRY_MESSAGE, PATH_ENTRY_FIELD, PATH_ENTRY_INDEX,
  LIMITS_MAX_DEPTH, LIMITS_MAX_MESSAGE_SIZE, LIMITS_MAX_ELEMENTS, LIMITS_MAX_AMPLIFICATION, LIMITS_ALLOW_PARTIAL,
  BYTES_SLOT_SIZE, ARRAY_SLOT_SIZE, UNKNOWN_FIELDS,
  BUDGET_ALLOWANCE, MAX_JSON_DEPTH,
];
