// Encoding from plain objects: the fill function that writes a plain object into a record.
import { FieldType, Label } from "../../ts/schema.js";
import { isMessage, numberKinds, type FieldModel, type MessageModel, type OneofModel } from "../model.js";
import { literal } from "../names.js";
import { ts } from "../syntax.js";
import { presenceBit, elementWidth, propertyAccess, exportedFunction, moduleFunction } from "./code.js";
import type { FileContext } from "./context.js";

/** Statement writing one value `v` of f's type into the slot at address `a`. */
export function fillValue(c: FileContext, f: FieldModel, a: string, v: string, name: string): string {
  if (isMessage(f)) return `w.msg(${a}, ${v}, ${c.value(f.message!, "fill")}, ${f.message!.recordSize}, ${literal(name)})`;
  switch (f.type) {
    case FieldType.String: return `w.str(${a}, ${v}, ${literal(name)})`;
    case FieldType.Bytes: return `w.bytes(${a}, ${v}, ${literal(name)})`;
    case FieldType.Bool: return `w.bool(${a}, ${v}, ${literal(name)})`;
    case FieldType.Enum: return `w.enumValue(${a}, ${v}, ${literal(name)}, ${literal(f.enum!.fullName)})`;
    default: return `w.${numberKinds[f.type]!.read}(${a}, ${v}, ${literal(name)})`;
  }
}

/** Statement writing field f (not a oneof member) from the value `v`, known not to be null; p is the record. */
export function fillStatement(c: FileContext, f: FieldModel, v: string): string {
  const at = `p + ${f.offset}`;
  const name = literal(f.name); // error paths use .proto names, as decode errors do
  switch (f.label) {
    case Label.Map: {
      const [key, value] = f.mapEntry!.fields as [FieldModel, FieldModel];
      const k = key.type === FieldType.String ? "k"
        : `$mapKey(k, ${literal(key.type === FieldType.Bool ? "bool" : numberKinds[key.type]!.read)})`;
      const entry = `(e, k, x) => { ${fillValue(c, key, `e + ${key.offset}`, k, "")}; if (x != null) ${fillValue(c, value, `e + ${value.offset}`, "x", "")}; }`;
      return `w.map(${at}, ${v}, ${f.mapEntry!.recordSize}, ${entry}, ${name});`;
    }
    case Label.Repeated: {
      if (isMessage(f)) return `w.msgs(${at}, ${v}, ${c.value(f.message!, "fill")}, ${f.message!.recordSize}, ${name});`;
      if (f.type === FieldType.String || f.type === FieldType.Bytes || f.type === FieldType.Bool || f.type === FieldType.Enum) {
        return `w.each(${at}, ${v}, ${elementWidth(f)}, (a, e) => ${fillValue(c, f, "a", "e", "")}, ${name});`;
      }
      return `w.${numberKinds[f.type]!.read}s(${at}, ${v}, ${name});`;
    }
    case Label.Explicit: {
      const [byte, mask] = presenceBit(f);
      return `{ ${fillValue(c, f, at, v, f.name)}; w.bit(p + ${byte}, ${mask}); }`;
    }
    default:
      return `${fillValue(c, f, at, v, f.name)};`;
  }
}

function fillField(c: FileContext, f: FieldModel): string {
  return `  if ((v = o${propertyAccess(f.prop)}) != null) ${fillStatement(c, f, "v")}`;
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
      body.push(`    case ${literal(f.prop)}: w.m.u32[(p + ${o.caseOffset}) >>> 2] = ${f.number}; ${fillValue(c, f, `p + ${f.offset}`, "c.value", f.name)}; break;`);
    }
    body.push("    case undefined: break;");
    body.push(`    default: w.badCase(${literal(o.name)}, (c${ts(" as { case: unknown }")}).case);`, "  }");
    out.push(moduleFunction(oneofFillName(c, m, o), [["w", "$RecordWriter"], ["c", cases], ["p", "number"]], "void", body));
  }
  const body = [`  let v${ts(": unknown")};`];
  for (const f of m.fields) if (!f.oneof) body.push(fillField(c, f));
  for (const o of m.oneofs) body.push(`  if (o${propertyAccess(o.prop)} != null) ${oneofFillName(c, m, o)}(w, o${propertyAccess(o.prop)}, p);`);
  body.push("  w.unknown(p, o.$unknown);");
  out.push(exportedFunction(undefined, n.fill, [["w", "$RecordWriter"], ["o", `$Init<${n.type}>`], ["p", "number"]], "void", body));
  return out.join("\n");
}
