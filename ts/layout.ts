// Record layouts: where each field of a message lives in its record. Decided here only, when
// defineSchema reads a schema: the runtime hands the result to the codec (which checks it) and
// interpreted types read it, and the code generator bakes into generated code what it reads back
// from defineSchema of the schema it emits.
import { ARRAY_SLOT_SIZE, BYTES_SLOT_SIZE, UNKNOWN_FIELDS } from "./abi.js";
import { FieldType, isInt64, Label } from "./schema.js";

/** What the layout of a field depends on. oneof: the index of its oneof, for Label.Oneof fields. */
export interface LayoutField {
  readonly type: FieldType;
  readonly label: Label;
  readonly oneof: number;
}

export interface RecordLayout {
  /** Per field, in the order given: its slot's offset. */
  readonly offsets: number[];
  /** Per field: the hasbit position for Label.Explicit, the case slot offset for Label.Oneof, else 0. */
  readonly presence: number[];
  /** Per oneof: the offset of the u32 holding the set member's number, and of the shared value slot. */
  readonly oneofs: { caseOffset: number; valueOffset: number }[];
  readonly recordSize: number;
}

/** The sizes that depend on the pointer width: a record pointer, a BytesSlot, an ArraySlot. */
export interface SlotSizes {
  readonly pointer: number;
  readonly bytesSlot: number;
  readonly arraySlot: number;
}

/** wasm32, the only target of the package; the C++ tests also lay out records for their native 64-bit build. */
export const wasm32: SlotSizes = { pointer: 4, bytesSlot: BYTES_SLOT_SIZE, arraySlot: ARRAY_SLOT_SIZE };

/** The size of one value of type t: a scalar, a string/bytes slot, or a record pointer. */
export function valueSize(t: FieldType, sizes: SlotSizes = wasm32): number {
  switch (t) {
    case FieldType.Double: case FieldType.Int64: case FieldType.Uint64: case FieldType.Fixed64:
    case FieldType.Sfixed64: case FieldType.Sint64:
      return 8;
    case FieldType.Bool:
      return 1;
    case FieldType.String: case FieldType.Bytes:
      return sizes.bytesSlot;
    case FieldType.Message: case FieldType.Group:
      return sizes.pointer;
    default:
      return 4;
  }
}

const isArray = (f: LayoutField) => f.label === Label.Repeated || f.label === Label.Map;
/** The bytes a field's slot takes: an ArraySlot for repeated and map fields, else one value. */
export const slotSize = (f: LayoutField, sizes: SlotSizes = wasm32): number => (isArray(f) ? sizes.arraySlot : valueSize(f.type, sizes));
const slotAlign = (f: LayoutField, sizes: SlotSizes): number => {
  if (isArray(f)) return sizes.pointer;
  switch (f.type) {
    case FieldType.String: case FieldType.Bytes: case FieldType.Message: case FieldType.Group:
      return sizes.pointer; // pointer-sized members
    default:
      return valueSize(f.type, sizes);
  }
};
const alignUp = (v: number, a: number) => Math.ceil(v / a) * a;

/** Header, hasbits, oneof case slots, oneof value slots, then slots by falling alignment: the record stays compact. */
export function layoutRecord(fields: readonly LayoutField[], oneofCount: number, sizes: SlotSizes = wasm32): RecordLayout {
  const offsets = fields.map(() => 0);
  const presence = fields.map(() => 0);
  // every record starts with its unknown fields' ArraySlot
  let pos = UNKNOWN_FIELDS + sizes.arraySlot;
  let bits = 0;
  fields.forEach((f, i) => {
    if (f.label === Label.Explicit) presence[i] = pos * 8 + bits++;
  });
  pos += Math.ceil(bits / 8);
  const oneofs: { caseOffset: number; valueOffset: number }[] = [];
  for (let o = 0; o < oneofCount; o++) {
    pos = alignUp(pos, 4);
    oneofs.push({ caseOffset: pos, valueOffset: 0 });
    pos += 4;
  }
  for (let o = 0; o < oneofCount; o++) {
    const members = fields.map((f, i) => [f, i] as const).filter(([f]) => f.label === Label.Oneof && f.oneof === o);
    if (members.length === 0) continue;
    pos = alignUp(pos, Math.max(...members.map(([f]) => slotAlign(f, sizes))));
    oneofs[o]!.valueOffset = pos;
    for (const [, i] of members) {
      offsets[i] = pos;
      presence[i] = oneofs[o]!.caseOffset;
    }
    pos += Math.max(...members.map(([f]) => slotSize(f, sizes)));
  }
  for (const align of [8, 4, 1]) {
    fields.forEach((f, i) => {
      if (f.label === Label.Oneof || slotAlign(f, sizes) !== align) return;
      pos = alignUp(pos, align);
      offsets[i] = pos;
      pos += slotSize(f, sizes);
    });
  }
  return { offsets, presence, oneofs, recordSize: alignUp(pos, 8) };
}

/**
 * The bytes a plain object of a message is taken to cost in a JS heap, charged to a decode's
 * read-out budget (plain.ts charge()): a header, a property per field or oneof, an empty array or
 * object per repeated field or map, a heap value per 64-bit integer, a case object per oneof. An
 * estimate of V8's sizes, not a measurement: it only has to keep hostile input from making plain
 * objects far larger than the input (an empty message in 2 bytes made ~6 KB of them).
 */
export function plainWeight(fields: readonly { type: FieldType; label: Label; inOneof: boolean }[], oneofCount: number): number {
  let w = 32 + 40 * oneofCount;
  for (const f of fields) {
    if (f.inOneof) continue;
    w += 8;
    if (f.label === Label.Repeated || f.label === Label.Map) w += 32;
    else if (isInt64(f.type)) w += 16;
  }
  return w;
}
