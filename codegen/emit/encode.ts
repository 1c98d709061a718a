// Encoding plain objects: the encode function that writes a plain object's fields straight to wire
// bytes (ts/encoder.ts), in field-number order with each tag a constant.
import { FieldFlag, FieldType, isInt64, Label } from "../../ts/schema.js";
import { numberKinds, Wire, wireType, type FieldModel, type MessageModel } from "../model.js";
import { literal } from "../names.js";
import { ts } from "../syntax.js";
import { exportedFunction, propertyAccess } from "./code.js";
import type { FileContext } from "./context.js";
import { hasDefault } from "./plain.js";

/** The runtime's writer of a value by its encoder method's name (ts/encoder.ts: writeInt32, ...). */
const writer = (method: string) => `$write${method[0]!.toUpperCase()}${method.slice(1)}`;

const tag = (number: number, wire: Wire) => String(((number << 3) | wire) >>> 0);

/** The encoder writer (its name without "write") of one value of a scalar type, and its trailing argument ("" for none). */
function scalarMethod(c: FileContext, f: FieldModel, implicit: boolean): [string, string] {
  const z = implicit ? "1" : "0";
  switch (f.type) {
    case FieldType.Int32: return ["int32", ""];
    case FieldType.Uint32: return ["uint32", ""];
    case FieldType.Sint32: return ["sint32", ""];
    case FieldType.Fixed32: return ["fixed32", ""];
    case FieldType.Sfixed32: return ["sfixed32", ""];
    case FieldType.Bool: return ["bool", ""];
    case FieldType.Double: return ["double", ""];
    case FieldType.Float: return ["float", z];
    case FieldType.Int64: return ["int64", z];
    case FieldType.Uint64: return ["uint64", z];
    case FieldType.Sint64: return ["sint64", z];
    case FieldType.Fixed64: return ["fixed64", z];
    case FieldType.Sfixed64: return ["sfixed64", z];
    case FieldType.String: return ["string", ""];
    case FieldType.Bytes: return ["bytes", z];
    case FieldType.Enum: return ["enumValue", String(c.enumIndex(f.enum!))];
    default: throw new Error(`no scalar method for field type ${f.type}`);
  }
}

/** Statement writing one value `v` of f (its tag first); `field` names it in errors ("" for a map key or value). */
function writeValue(c: FileContext, f: FieldModel, v: string, field: string, implicit = false): string {
  if (f.type === FieldType.Group) return `$writeMessage(w, ${tag(f.number, Wire.Group)}, ${v}, ${c.value(f.message!, "encode")}, ${c.schemaOf(f.message!)}, ${field}, ${tag(f.number, Wire.EndGroup)})`;
  if (f.type === FieldType.Message) return `$writeMessage(w, ${tag(f.number, Wire.Len)}, ${v}, ${c.value(f.message!, "encode")}, ${c.schemaOf(f.message!)}, ${field})`;
  const [method, extra] = scalarMethod(c, f, implicit);
  return `${writer(method)}(w, ${tag(f.number, wireType(f.type))}, ${v}, ${field}${extra === "" ? "" : `, ${extra}`})`;
}

/** The test an implicit-presence value passes to be written, where it is cheaper than the method's own ("" for none). */
function nonZero(f: FieldModel, v: string): string {
  switch (f.type) {
    case FieldType.String: return ` && ${v} !== ""`;
    case FieldType.Bool: return ` && ${v} !== false`;
    case FieldType.Double: return ` && (${v} !== 0 || 1 / (${v}${ts(" as number")}) < 0)`; // by bits, as the codec: -0 is written
    case FieldType.Int32: case FieldType.Uint32: case FieldType.Sint32: case FieldType.Fixed32: case FieldType.Sfixed32: case FieldType.Enum:
      return ` && ${v} !== 0`;
    case FieldType.Int64: case FieldType.Uint64: case FieldType.Sint64: case FieldType.Fixed64: case FieldType.Sfixed64:
      return ` && ${v} !== 0n && ${v} !== 0`; // (other forms of zero, such as "0", the method tells)
    default: return ""; // float, bytes: the method tells, once it has the value's bits
  }
}

/** Statement writing a packed repeated field. */
function packed(c: FileContext, f: FieldModel, v: string, field: string): string {
  const t = tag(f.number, Wire.Len);
  switch (f.type) {
    case FieldType.Int32: return `$writePackedInt32(w, ${t}, ${v}, ${field});`;
    case FieldType.Uint32: return `$writePackedUint32(w, ${t}, ${v}, ${field});`;
    case FieldType.Sint32: return `$writePackedSint32(w, ${t}, ${v}, ${field});`;
    case FieldType.Bool: return `$writePackedBool(w, ${t}, ${v}, ${field});`;
    case FieldType.Enum: return `$writePackedEnum(w, ${t}, ${v}, ${field}, ${c.enumIndex(f.enum!)});`;
    case FieldType.Double: return `$writePackedDouble(w, ${t}, ${v}, ${field});`;
    case FieldType.Float: return `$writePackedFloat(w, ${t}, ${v}, ${field});`;
    case FieldType.Fixed32: return `$writePackedFixed32(w, ${t}, ${v}, ${field}, 0);`;
    case FieldType.Sfixed32: return `$writePackedFixed32(w, ${t}, ${v}, ${field}, 1);`;
    case FieldType.Int64: return `$writePacked64(w, ${t}, ${v}, ${field}, 1, 0);`;
    case FieldType.Uint64: return `$writePacked64(w, ${t}, ${v}, ${field}, 0, 0);`;
    case FieldType.Sint64: return `$writePacked64(w, ${t}, ${v}, ${field}, 1, 1);`;
    case FieldType.Fixed64: return `$writePacked64(w, ${t}, ${v}, ${field}, 0, 2);`;
    case FieldType.Sfixed64: return `$writePacked64(w, ${t}, ${v}, ${field}, 1, 2);`;
    default: throw new Error(`field type ${f.type} is not packed`);
  }
}

/** Bytes of the zero value a map entry's absent value is written as. */
function zeroWidth(f: FieldModel): number {
  const wire = wireType(f.type);
  return wire === Wire.Fixed32 ? 4 : wire === Wire.Fixed64 ? 8 : 1;
}

/** Statement writing field f (number `index` of m's fields, not a oneof member) from `v`, known not to be null. */
function fieldStatement(c: FileContext, m: MessageModel, f: FieldModel, index: number, v: string): string {
  const name = String(index);
  if (m.messageSet) return `$writeSetItem(w, ${f.number}, ${v}, ${c.value(f.message!, "encode")}, ${c.schemaOf(f.message!)}, ${name});`;
  switch (f.label) {
    case Label.Map: {
      const [key, value] = f.mapEntry!.fields as [FieldModel, FieldModel];
      const k = key.type === FieldType.String ? "k" : `$mapKey(k, ${literal(key.type === FieldType.Bool ? "bool" : numberKinds[key.type]!.read)})`;
      const entry = `(w, k, x) => { ${writeValue(c, key, k, '""')}; if (x != null) ${writeValue(c, value, "x", '""')}; else $writeAbsent(w, ${tag(value.number, wireType(value.type))}, ${zeroWidth(value)}); }`;
      return `$writeMap(w, ${tag(f.number, Wire.Len)}, ${v}, ${name}, ${entry});`;
    }
    case Label.Repeated: {
      if (f.type === FieldType.Group) return `$writeMessages(w, ${tag(f.number, Wire.Group)}, ${v}, ${c.value(f.message!, "encode")}, ${c.schemaOf(f.message!)}, ${name}, ${tag(f.number, Wire.EndGroup)});`;
      if (f.type === FieldType.Message) return `$writeMessages(w, ${tag(f.number, Wire.Len)}, ${v}, ${c.value(f.message!, "encode")}, ${c.schemaOf(f.message!)}, ${name});`;
      if (f.type === FieldType.String) return `$writeStrings(w, ${tag(f.number, Wire.Len)}, ${v}, ${name});`;
      if (f.flags & FieldFlag.Packed && f.type !== FieldType.Bytes) return packed(c, f, v, name);
      const [method, extra] = scalarMethod(c, f, false);
      return `$writeEach(w, ${tag(f.number, wireType(f.type))}, ${v}, ${name}, ${writer(method)}${extra === "" || extra === "0" ? "" : `, ${extra}`});`;
    }
    case Label.Implicit:
      return `${writeValue(c, f, v, name, true)};`;
    default:
      return `${writeValue(c, f, v, name)};`;
  }
}

/**
 * Whether m's plain objects can be encoded by generated code: it and every message it holds have
 * generated code (CODE_SIZE files have none), and a message set holds single messages only.
 * Others are written into records and encoded by the codec.
 */
export function encodable(c: FileContext, m: MessageModel, seen = new Set<MessageModel>()): boolean {
  if (seen.has(m)) return true;
  seen.add(m);
  if (c.interpreted(m.file)) return false;
  if (m.messageSet && m.fields.some((f) => f.type !== FieldType.Message || f.label === Label.Repeated)) return false;
  return m.fields.every((f) => {
    const held = f.mapEntry ? f.mapEntry.fields[1]!.message : f.message;
    return held === undefined || encodable(c, held, seen);
  });
}

/**
 * Whether m or a message it holds has a field that does not read out to a plain object encoding
 * back to the same bytes (a string whose UTF-8 is not validated, a float, a 64-bit integer as a
 * number): only the codec encodes its views and builders without loss (ts/schema.ts
 * readsOutLossily, which the runtime asks).
 */
export function readsOutLossily(c: FileContext, m: MessageModel, seen = new Set<MessageModel>()): boolean {
  if (seen.has(m)) return false;
  seen.add(m);
  return m.fields.some((f) => (f.type === FieldType.String && (f.flags & FieldFlag.ValidateUtf8) === 0) || f.type === FieldType.Float ||
    (isInt64(f.type) && (f.jsType ?? c.options.int64) === "number") || (f.message !== undefined && readsOutLossily(c, f.message, seen)));
}

export function encodeDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  const body: string[] = [];
  // required fields first, as the codec checks them before a message's fields (the encoder reports
  // the first absent one only if no value is bad)
  m.fields.forEach((f, i) => {
    if (!(f.flags & FieldFlag.Required)) return;
    const absent = `o${propertyAccess(f.prop)} == null`;
    body.push(`  if (${hasDefault(f) ? `!Object.hasOwn(o, ${literal(f.prop)}) || ` : ""}${absent}) $missingRequired(w, ${i});`);
  });
  body.push(`  let v${ts(": unknown")};`);
  if (m.oneofs.length > 0) body.push(`  let c${ts(": { case?: unknown; value?: unknown } | null | undefined")};`);
  m.fields.forEach((f, i) => {
    if (f.oneof) {
      const o = f.oneof;
      body.push(`  if ((c = o${propertyAccess(o.prop)}) != null && c.case === ${literal(f.prop)}) ${writeValue(c, f, "c.value", String(i))};`);
      return;
    }
    // a declared default the object inherits (see ts/defaults.ts) is not set and not written
    const set = hasDefault(f) ? `Object.hasOwn(o, ${literal(f.prop)}) && ` : "";
    const test = f.label === Label.Implicit ? nonZero(f, "v") : "";
    body.push(`  if (${set}(v = o${propertyAccess(f.prop)}) != null${test}) ${fieldStatement(c, m, f, i, "v")}`);
  });
  for (const o of m.oneofs) {
    const cases = o.fields.map((f) => `case ${literal(f.prop)}: `).join("");
    body.push(`  if ((c = o${propertyAccess(o.prop)}) != null) switch (c.case) { ${cases}case undefined: break; default: $badOneofCase(w, ${literal(o.name)}, c.case); }`);
  }
  // (read here, where the object's shape is known: in the encoder one load site sees every message type)
  body.push("  if ((v = o.$unknown) != null) $writeUnknown(w, v);");
  return exportedFunction(undefined, n.encode, [["w", "$PlainEncoder"], ["o", `$Init<${n.type}>`]], "void", body);
}
