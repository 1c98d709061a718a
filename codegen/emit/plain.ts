// Plain objects: the interface of each message, and the reader that copies a record into one.
import { FieldType, Label, type NumberKind } from "../../ts/schema.js";
import { plainWeight } from "../../ts/layout.js";
import { isMessage, numberKinds, sourceDefault, type FieldModel, type MessageModel } from "../model.js";
import { literal } from "../names.js";
import { impl, nonNull, ts } from "../syntax.js";
import { docComment, propertyKey, propertyAccess, hasbit, exportedFunction, functionExpression, moduleFunction } from "./code.js";
import type { FileContext } from "./context.js";

export function interfaceDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  // holding 64-bit integers: their form, undefined for the generated one (see Int64 in ts/int64.ts)
  const form = c.holds64(m) ? "$F" : undefined;
  const params = form === undefined ? "" : `<${form} extends "bigint" | "string" | "number" | undefined = undefined>`;
  const lines = [`${docComment(`${m.fullName} as a plain object.`, m.deprecated, "", m.comment)}export interface ${n.type}${params} {`];
  for (const f of m.fields) {
    if (f.oneof) continue;
    // "| undefined" spelled out: decode() makes absent fields own properties (exactOptionalPropertyTypes)
    const optional = f.label === Label.Explicit;
    lines.push(`${docComment(undefined, f.deprecated, "  ", f.comment)}  ${f.prop}${optional ? "?" : ""}: ${plainType(c, f, form)}${optional ? " | undefined" : ""};`);
  }
  for (const o of m.oneofs) {
    const cases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: ${c.valueType(f, form)} }`);
    lines.push(`  ${o.prop}?: ${cases.join(" | ")} | undefined;`);
  }
  lines.push("  /** Fields this schema does not know, as wire bytes, kept for re-encoding. */");
  lines.push("  $unknown?: Uint8Array | undefined;");
  lines.push("}\n");
  return ts(lines.join("\n"));
}

/** The TS type of f in plain objects; `form`: see FileContext.valueType. */
export function plainType(c: FileContext, f: FieldModel, form?: string): string {
  if (f.label === Label.Map) {
    return `{ [key: string]: ${c.valueType(f.mapEntry!.fields[1]!, form)} }`;
  }
  const t = c.valueType(f, form);
  return f.label === Label.Repeated ? `${t}[]` : t;
}

/**
 * Expression reading one value of f's type from the slot at address `a` (plain form); `raw`
 * leaves 64-bit integers as bigint (for map keys, which plain objects hold as strings).
 */
export function plainValue(c: FileContext, f: FieldModel, a: string, raw = false): string {
  if (isMessage(f)) return `${c.value(f.message!, "reader")}(m, m.u32[(${a}) >>> 2]${nonNull} || rt.zeroRecord, rt)`;
  switch (f.type) {
    case FieldType.String: return `m.strAt(${a})`;
    case FieldType.Bytes: return `m.bytesAt(${a})`;
    case FieldType.Bool: return `m.u8[${a}] !== 0`;
    default: {
      const k = numberKinds[f.type]!;
      const read = `m.${k.read}[(${a}) >>> ${k.shift}]${nonNull}`;
      switch (raw ? undefined : c.int64As(f)) {
        case "string": return `String(${read})`;
        case "number": return `$plainSafeNumber(${read}, ${literal(c.fieldPath(f))})`;
        default: return read;
      }
    }
  }
}

/** The runtime's reader of a repeated number field, by its kind (ts/plain.ts). */
const numberLists: Record<NumberKind, string> = { i32: "$plainI32s", u32: "$plainU32s", f32: "$plainF32s", f64: "$plainF64s", i64: "$plainI64s", u64: "$plainU64s" };

function plainField(c: FileContext, f: FieldModel): string {
  const at = `p + ${f.offset}`;
  switch (f.label) {
    case Label.Map: {
      const [key, value] = f.mapEntry!.fields as [FieldModel, FieldModel];
      const k = `(m, e) => ${key.type === FieldType.String ? `m.strAt(e + ${key.offset})` : `String(${plainValue(c, key, `e + ${key.offset}`, true)})`}`;
      const v = `(m, e) => ${plainValue(c, value, `e + ${value.offset}`)}`;
      return `$plainMap(m, ${at}, ${k}, ${v})`;
    }
    case Label.Repeated: {
      if (isMessage(f)) return `${c.value(f.message!, "readAll")}(m, ${at}, rt)`;
      if (f.type === FieldType.String) return `$plainStrings(m, ${at})`;
      if (f.type === FieldType.Bytes) return `$plainBytesList(m, ${at})`;
      if (f.type === FieldType.Bool) return `$plainBools(m, ${at})`;
      const k = numberKinds[f.type]!;
      switch (c.int64As(f)) {
        case "string": return `$plainInt64Strings(m, ${at}, m.${k.read})`;
        case "number": return `$plainInt64Numbers(m, ${at}, m.${k.read}, ${literal(c.fieldPath(f))})`;
        default: return `${numberLists[k.read]}(m, ${at})`;
      }
    }
    case Label.Explicit: {
      if (isMessage(f)) return `$plainSub(m, ${at}, ${c.value(f.message!, "reader")}, rt)`;
      return `${hasbit("m.u8", "p", f.presence)} ? ${plainValue(c, f, at)} : undefined`;
    }
    default:
      return plainValue(c, f, at);
  }
}

export function readerDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  const oneofReader = (prop: string) => `${n.reader}$${prop}`;
  const params: [string, string][] = [["m", "$Memory"], ["p", "number"], ["rt", "$Runtime"]];
  const out: string[] = [];
  // one function per oneof: a switch on the case slot, no closure per decode
  for (const o of m.oneofs) {
    const cases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: ${c.valueType(f)} }`).join(" | ");
    const body = [`  switch (m.u32[(p + ${o.caseOffset}) >>> 2]) {`];
    for (const f of o.fields) {
      body.push(`    case ${f.number}: return { case: ${literal(f.prop)}, value: ${plainValue(c, f, `p + ${f.offset}`)} };`);
    }
    body.push("    default: return undefined;", "  }");
    out.push(moduleFunction(oneofReader(o.prop), params, `${cases} | undefined`, body));
  }
  // the object charged to the read-out's budget first (ts/plain.ts charge)
  const charge = `  $plainCharge(rt, ${plainWeight(m.fields.map((f) => ({ type: f.type, label: f.label, inOneof: f.oneof !== undefined })), m.oneofs.length)});`;
  if (m.fields.some(hasDefault)) {
    out.push(defaultsConstructor(c, m, params, oneofReader), exportedFunction(undefined, n.reader, params, n.type, [charge, `  return new ${makeName(c, m)}(m, p, rt);`]));
    return out.join("\n");
  }
  const body = [charge, "  const o" + ts(`: ${n.type}`) + " = {"];
  for (const f of m.fields) if (!f.oneof) body.push(`    ${propertyKey(f.prop)}: ${plainField(c, f)},`);
  for (const o of m.oneofs) body.push(`    ${propertyKey(o.prop)}: ${oneofReader(o.prop)}(m, p, rt),`);
  // only a message with unknown fields carries them, so that equal messages compare equal
  body.push("  };", "  if ($plainHasUnknown(m, p)) o.$unknown = $plainUnknown(m, p);", "  return o;");
  out.push(exportedFunction(undefined, n.reader, params, n.type, body));
  return out.join("\n");
}

/** Whether f reads a declared default while unset (see ts/defaults.ts): its message's plain objects then have a prototype holding them. */
export const hasDefault = (f: FieldModel): boolean => sourceDefault(f) !== undefined;

/** The constructor of the plain objects of a message with declared defaults ("make$" is no other name's prefix). */
const makeName = (c: FileContext, m: MessageModel) => `make$${c.names.get(m)!.type}`;

/**
 * A message with declared defaults: its reader constructs objects on the prototype holding them
 * ($plainWithDefaults), each field set in the constructor but for a field with a default while
 * unset, which stays off the object so that it reads the default and counts as unset.
 */
function defaultsConstructor(c: FileContext, m: MessageModel, params: [string, string][], oneofReader: (prop: string) => string): string {
  const n = c.names.get(m)!;
  const body: string[] = [];
  for (const f of m.fields) {
    if (f.oneof) continue;
    const to = `this${propertyAccess(f.prop)}`;
    if (hasDefault(f)) body.push(`  if (${hasbit("m.u8", "p", f.presence)}) ${to} = ${plainValue(c, f, `p + ${f.offset}`)};`);
    else body.push(`  ${to} = ${plainField(c, f)};`);
  }
  for (const o of m.oneofs) body.push(`  this${propertyAccess(o.prop)} = ${oneofReader(o.prop)}(m, p, rt);`);
  body.push("  if ($plainHasUnknown(m, p)) this.$unknown = $plainUnknown(m, p);");
  const make = functionExpression(n.type, params, "void", body);
  return impl(`${docComment(`${m.fullName}'s plain objects, on the prototype of its declared defaults.`, false)}const ${makeName(c, m)} = /* @__PURE__ */ $plainWithDefaults(${c.schemaOf(m)}, ${make});\n`);
}

/** Reads repeated m fields into arrays, named `name` in this module: a loop of its own per message type (one shared loop would call every type's reader and go megamorphic). */
export function readAllDecl(c: FileContext, m: MessageModel, name: string): string {
  const type = c.ref(m, "type");
  return moduleFunction(name, [["m", "$Memory"], ["addr", "number"], ["rt", "$Runtime"]], `${type}[]`, [
    `  const w = addr >>> 2, p = m.u32[w]${nonNull} >>> 2, n = m.u32[w + 1]${nonNull};`,
    `  const out = new Array${ts(`<${type}>`)}(n);`,
    `  for (let i = 0; i < n; i++) out[i] = ${c.ref(m, "reader")}(m, m.u32[p + i]${nonNull}, rt);`,
    "  return out;",
  ]);
}
