// The names the codec's ProtoJSON reader finds fields and enum values by
// (cpp/include/hppproto/json_names.hpp has the format), built from the schema the first time one of
// its messages is read from JSON: programs that never read JSON never build or send them.
import { FieldType, type SchemaDef } from "../schema.js";
import { hasSpecialJson } from "./common.js";

const OWN_FORM = 1;

export function jsonNamesTable(def: SchemaDef): Uint8Array {
  const pool: number[] = [];
  const refs = new Map<string, [number, number]>();
  const encoder = new TextEncoder();
  // each distinct name once: offset and length in the pool
  const name = (s: string): [number, number] => {
    let ref = refs.get(s);
    if (ref === undefined) {
      const bytes = encoder.encode(s);
      refs.set(s, (ref = [pool.length, bytes.length]));
      for (const b of bytes) pool.push(b);
    }
    return ref;
  };
  const words: number[] = [0x4a505048 /* "HPPJ" */, def.messages.length, def.enums.length, 0];
  for (const e of def.enums) {
    words.push(e.name === "google.protobuf.NullValue" ? OWN_FORM : 0, e.values.length);
    for (const [number, valueName] of e.values) words.push(number, ...name(valueName));
  }
  for (const m of def.messages) {
    words.push(hasSpecialJson(m.name) ? OWN_FORM : 0, m.fields.length);
    for (const f of m.fields) words.push(...name(f.jsonName), ...name(f.name), f.type === FieldType.Enum ? f.ref : 0xffffffff);
  }
  words[3] = words.length * 4;
  const out = new Uint8Array(words.length * 4 + pool.length);
  const dv = new DataView(out.buffer);
  words.forEach((w, i) => dv.setUint32(i * 4, w >>> 0, true));
  out.set(pool, words.length * 4);
  return out;
}
