// The plain object decode() gives for an empty record, as a template: readers that build plain
// objects from other sources (ProtoJSON) start each object as a copy, so that every object of a
// type has the same properties in the same order (one hidden class) whatever it was read from.
import { defaultsPrototype, hasDefault } from "../defaults.js";
import { FieldFlag, FieldType, Label, type MessageInfo, type SchemaDef } from "../schema.js";
import { zeroOf } from "./values.js";

type Plain = Record<string, unknown>;

export interface PlainTemplate {
  /** Every property: zeros of implicit fields, undefined for the rest (but fields with declared defaults, which an object sets only when given). */
  template: Plain;
  /** The prototype holding the declared defaults, which each copy is made on; undefined when the message has none. */
  proto: object | undefined;
  /** Properties whose value must be fresh per object (lists, maps, bytes), and how to make it. */
  fresh: [string, () => unknown][];
  /** Properties of required fields. */
  required: string[];
}

const templates = new WeakMap<MessageInfo, PlainTemplate>();

export function plainTemplate(def: SchemaDef, index: number): PlainTemplate {
  const info = def.messages[index]!;
  let t = templates.get(info);
  if (t !== undefined) return t;
  const template: Plain = {};
  const fresh: [string, () => unknown][] = [];
  const define = (prop: string, value: unknown) => Object.defineProperty(template, prop, { value, enumerable: true, writable: true, configurable: true });
  for (const f of info.fields) {
    if (f.oneof >= 0 || hasDefault(f)) continue;
    define(f.prop, f.label === Label.Implicit && f.type !== FieldType.Bytes ? zeroOf(f) : undefined);
    if (f.label === Label.Map) fresh.push([f.prop, () => ({})]);
    else if (f.label === Label.Repeated) fresh.push([f.prop, () => []]);
    else if (f.label === Label.Implicit && f.type === FieldType.Bytes) fresh.push([f.prop, () => new Uint8Array(0)]);
  }
  for (const o of info.oneofs) define(o.prop, undefined);
  t = { template, proto: defaultsPrototype(def, index), fresh, required: info.fields.filter((f) => f.flags & FieldFlag.Required).map((f) => f.prop) };
  templates.set(info, t);
  return t;
}
