// The binary table the codec reads (cpp/include/hppproto/schema.hpp), built from a schema on its
// first use by a runtime with the codec: programs without the codec carry none of this.
import { FieldFlag, FieldType, type SchemaDef } from "./schema.js";

/** def's table, built once (a schema may hold one already: tests hand the codec damaged ones). */
export function schemaTable(def: SchemaDef): Uint8Array {
  return (def.table ??= encodeTable(def));
}

function encodeTable({ messages, enums }: SchemaDef): Uint8Array {
  const words: number[] = [0x54505048 /* "HPPT" */, 2];
  const closed = enums.filter((e) => e.closed);
  const closedIndex = new Map(closed.map((e, i) => [e, i]));
  words.push(closed.length, messages.length);
  for (const e of closed) {
    const values = [...new Set(e.values.map(([n]) => n))].sort((a, b) => a - b);
    words.push(values.length, ...values);
  }
  for (const m of messages) {
    words.push(m.recordSize, m.messageSet ? 1 : 0, m.fields.length);
    for (const f of m.fields) {
      const isMessageRef = f.ref >= 0 && f.type !== FieldType.Enum;
      const aux = isMessageRef ? f.ref : f.flags & FieldFlag.ClosedEnum ? closedIndex.get(enums[f.ref]!)! : 0xffffffff;
      words.push(f.number, f.type | (f.label << 8) | (f.flags << 16), f.offset, f.presence, aux);
    }
  }
  const out = new Uint8Array(words.length * 4);
  const dv = new DataView(out.buffer);
  words.forEach((w, i) => dv.setUint32(i * 4, w >>> 0, true));
  return out;
}
