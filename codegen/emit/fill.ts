// Encoding from plain objects: the fill function that writes a plain object into a record.
import { FieldType, Label } from "../../ts/schema.js";
import { isMessage, numberKinds, type FieldModel, type MessageModel, type OneofModel } from "../model.js";
import { literal } from "../names.js";
import { ts } from "../syntax.js";
import { presenceBit, elementWidth, propertyAccess, exportedFunction, moduleFunction } from "./code.js";
import type { FileContext } from "./context.js";
import { hasDefault } from "./plain.js";

/**
 * Statement writing one value `v` of f's type into the slot at address `a`. `field` names it in
 * errors (a FieldRef of ts/fill.ts): the field's index in its message, or "" for a map key or value
 * or a list element, whose path the map or list writes.
 */
function fillValue(c: FileContext, f: FieldModel, a: string, v: string, field: string): string {
  if (isMessage(f)) return `w.msg(${a}, ${v}, ${c.value(f.message!, "fill")}, ${c.schemaOf(f.message!)}, ${field})`;
  switch (f.type) {
    case FieldType.String: return `w.str(${a}, ${v}, ${field})`;
    case FieldType.Bytes: return `w.bytes(${a}, ${v}, ${field})`;
    case FieldType.Bool: return `w.bool(${a}, ${v}, ${field})`;
    case FieldType.Enum: return `w.enumValue(${a}, ${v}, ${field}, ${c.enumIndex(f.enum!)})`;
    default: return `w.${numberKinds[f.type]!.read}(${a}, ${v}, ${field})`;
  }
}

/** Statement writing field f (number `index` of m's fields, not a oneof member) from the value `v`, known not to be null; p is the record. */
function fillStatement(c: FileContext, f: FieldModel, index: number, v: string): string {
  const at = `p + ${f.offset}`;
  const name = String(index); // error paths use .proto names, as decode errors do: the writer looks them up
  switch (f.label) {
    case Label.Map: {
      const [key, value] = f.mapEntry!.fields as [FieldModel, FieldModel];
      const k = key.type === FieldType.String ? "k"
        : `$mapKey(k, ${literal(key.type === FieldType.Bool ? "bool" : numberKinds[key.type]!.read)})`;
      const entry = `(e, k, x) => { ${fillValue(c, key, `e + ${key.offset}`, k, '""')}; if (x != null) ${fillValue(c, value, `e + ${value.offset}`, "x", '""')}; }`;
      return `w.map(${at}, ${v}, ${f.mapEntry!.recordSize}, ${entry}, ${name});`;
    }
    case Label.Repeated: {
      if (isMessage(f)) return `w.msgs(${at}, ${v}, ${c.value(f.message!, "fill")}, ${c.schemaOf(f.message!)}, ${name});`;
      if (f.type === FieldType.String || f.type === FieldType.Bytes || f.type === FieldType.Bool || f.type === FieldType.Enum) {
        return `w.each(${at}, ${v}, ${elementWidth(f)}, (a, e) => ${fillValue(c, f, "a", "e", '""')}, ${name});`;
      }
      return `w.${numberKinds[f.type]!.read}s(${at}, ${v}, ${name});`;
    }
    case Label.Explicit: {
      const [byte, mask] = presenceBit(f);
      return `{ ${fillValue(c, f, at, v, name)}; w.bit(p + ${byte}, ${mask}); }`;
    }
    default:
      return `${fillValue(c, f, at, v, name)};`;
  }
}

export function oneofFillName(c: FileContext, m: MessageModel, o: OneofModel): string {
  return `${c.names.get(m)!.fill}$${o.prop}`;
}

export function fillDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  const out: string[] = [];
  for (const o of m.oneofs) {
    const cases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: $Init<${c.valueType(f)}> }`).join(" | ");
    const body = ["  switch (c.case) {"];
    for (const f of o.fields) {
      body.push(`    case ${literal(f.prop)}: w.m.u32[(p + ${o.caseOffset}) >>> 2] = ${f.number}; ${fillValue(c, f, `p + ${f.offset}`, "c.value", String(m.fields.indexOf(f)))}; break;`);
    }
    body.push("    case undefined: break;");
    body.push(`    default: w.badCase(${literal(o.name)}, (c${ts(" as { case: unknown }")}).case);`, "  }");
    out.push(moduleFunction(oneofFillName(c, m, o), [["w", "$RecordWriter"], ["c", cases], ["p", "number"]], "void", body));
  }
  const body = m.fields.some((f) => !f.oneof) ? [`  let v${ts(": unknown")};`] : [];
  m.fields.forEach((f, i) => {
    if (f.oneof) return;
    // a declared default the object inherits (see ts/defaults.ts) is not set, not written, and not
    // read (a 64-bit one in a form that cannot hold it throws when read)
    const set = hasDefault(f) ? `Object.hasOwn(o, ${literal(f.prop)}) && ` : "";
    body.push(`  if (${set}(v = o${propertyAccess(f.prop)}) != null) ${fillStatement(c, f, i, "v")}`);
  });
  for (const o of m.oneofs) body.push(`  if (o${propertyAccess(o.prop)} != null) ${oneofFillName(c, m, o)}(w, o${propertyAccess(o.prop)}, p);`);
  out.push(exportedFunction(undefined, n.fill, [["w", "$RecordWriter"], ["o", `$Init<${n.type}>`], ["p", "number"]], "void", body));
  return out.join("\n");
}
