// ProtoJSON: the generated printer (plain object -> JSON value) and reader (JSON value -> plain object).
import { FieldType, Label } from "../../ts/schema.js";
import { hasSpecialJson } from "../../ts/json/common.js";
import { isMessage, numberKinds, type FieldModel, type MessageModel } from "../model.js";
import { comment, literal } from "../names.js";
import { decl, impl, ts } from "../syntax.js";
import { propertyKey, propertyAccess, exportedFunction } from "./code.js";
import type { FileContext } from "./context.js";

/** Expression: value `x` of f's type as JSON text (`key` is the field's key expression, for error paths). */
function jsonText(c: FileContext, f: FieldModel, x: string, key: string): string {
  if (isMessage(f)) return `$jsonWrite.sub(${c.value(f.message!, "toJsonString")}, ${x}, opts, ${key})`;
  switch (f.type) {
    case FieldType.Enum:
      if (f.enum!.fullName === "google.protobuf.NullValue") return '"null"';
      return `(opts.enumsAsInts ? "" + ${x} : $jsonWrite.enumName($schema, ${c.model.enums.indexOf(f.enum!)}, ${x}))`;
    case FieldType.Double: return `$jsonWrite.double(${x})`;
    case FieldType.Float: return `$jsonWrite.float(${x})`;
    case FieldType.Bytes: return `$jsonWrite.bytes(${x})`;
    case FieldType.String: return `JSON.stringify(${x})`;
    case FieldType.Bool: return `(${x} ? "true" : "false")`;
    default: return numberKinds[f.type]?.ts === "bigint" ? `'"' + ${x} + '"'` : `"" + ${x}`; // a number: its text is JSON's
  }
}

/** Condition: an implicit-presence value `v` differs from its type's default. */
function jsonNonDefault(c: FileContext, f: FieldModel): string {
  switch (f.type) {
    case FieldType.String: return `v != null && v !== ""`;
    case FieldType.Bytes: return `v != null && v.length !== 0`;
    case FieldType.Bool: return `v != null && v !== false`;
    default: return numberKinds[f.type]?.ts === "bigint" ? "v != null && $jsonWrite.nonZero64(v)" : "v != null && !Object.is(v, 0)";
  }
}

export function toJsonDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  // two fields with one json_name (proto2 allows it): a JSON object keeps the key once, with the later value
  const sharedKeys = new Set(m.fields.map((f) => f.jsonName)).size < m.fields.length;
  if (hasSpecialJson(m.fullName) || sharedKeys) {
    const type = `(o: ${n.type}, opts: $JsonWriteOptions) => string`;
    const why = sharedKeys ? "has fields that share a json_name: it is written the schema-driven way" : "has its own JSON form";
    return `/** ${comment(m.fullName)} ${why}. */\nexport ${decl("declare ")}const ${n.toJsonString}${ts(`: ${type}`)}${impl(` = $jsonWrite.bySchema($schema, ${m.index})`)};\n`;
  }
  const lines = [`  let s = "{";`];
  if (m.fields.some((f) => f.name !== f.jsonName)) lines.push("  const protoNames = opts.useProtoNames === true;");
  for (const f of m.fields) {
    const text = (name: string) => literal(`${JSON.stringify(name)}:`);
    const key = f.name === f.jsonName ? literal(f.name) : `(protoNames ? ${literal(f.name)} : ${literal(f.jsonName)})`;
    const keyText = f.name === f.jsonName ? text(f.name) : `(protoNames ? ${text(f.name)} : ${text(f.jsonName)})`;
    // a comma before every field but the first (a rope's length is known without flattening it)
    const add = (value: string) => `s += (s.length > 1 ? "," : "") + ${keyText} + ${value};`;
    if (f.oneof) {
      lines.push(`  { const c = o${propertyAccess(f.oneof.prop)}; if (c?.case === ${literal(f.prop)} && c.value != null) ${add(jsonText(c, f, "c.value", key))} }`);
      continue;
    }
    const v = `const v = o${propertyAccess(f.prop)};`;
    switch (f.label) {
      case Label.Repeated: {
        let list: string;
        if (isMessage(f)) list = `$jsonWrite.messages(v ?? [], ${c.value(f.message!, "toJsonString")}, opts, ${key})`;
        else {
          const each = jsonText(c, f, "x", key);
          // numbers and bools are written as Array.join writes them
          list = each === '"" + x' || f.type === FieldType.Bool ? "$jsonWrite.list(v ?? [])" : `$jsonWrite.list(v ?? [], (x) => ${each})`;
        }
        lines.push(`  { ${v} if ((v != null && v.length !== 0) || opts.emitDefaults) ${add(list)} }`);
        break;
      }
      case Label.Map: {
        const value = f.mapEntry!.fields[1]!;
        const each = isMessage(value) ? `(x, k) => $jsonWrite.entry(${c.value(value.message!, "toJsonString")}, x, opts, ${key}, k)` : `(x) => ${jsonText(c, value, "x", key)}`;
        lines.push(`  { ${v} if ((v != null && $jsonWrite.nonEmpty(v)) || opts.emitDefaults) ${add(`$jsonWrite.map(v ?? {}, ${each})`)} }`);
        break;
      }
      case Label.Implicit: {
        lines.push(`  { ${v} if (opts.emitDefaults || (${jsonNonDefault(c, f)})) ${add(jsonText(c, f, `(v ?? ${emptyValue(c, f)})`, key))} }`);
        break;
      }
      default:
        lines.push(`  { ${v} if (v != null) ${add(jsonText(c, f, "v", key))} }`);
    }
  }
  lines.push('  return s + "}";');
  return exportedFunction(`${m.fullName} as ProtoJSON text.`, n.toJsonString, [["o", n.type], ["opts", "$JsonWriteOptions"]], "string", lines);
}

/** Expression: the JSON value `x` as f's type, in the plain object's form (SKIP possible for enums). */
function jsonIn(c: FileContext, f: FieldModel, x: string): string {
  if (isMessage(f)) {
    const type = c.ref(f.message!, "type");
    // the message type itself, not its index: a bundler keeps what the code names, and drops the rest
    if (hasSpecialJson(f.message!.fullName) || c.interpreted(f.message!.file)) return `$jsonIn.bySchema(${type}, ${x}, opts)${ts(` as ${type}`)}`;
    return `${c.ref(f.message!, "fromJson")}(${x}, opts, depth + 1)`;
  }
  if (f.type === FieldType.Enum) {
    const index = c.model.enums.indexOf(f.enum!);
    const read = `$jsonIn.${f.enum!.closed ? "closedEnumValue" : "enumValue"}($schema, ${index}, ${x}, opts)`;
    return f.enum!.fullName === "google.protobuf.NullValue" ? `(${x} === null ? 0 : ${read})` : read;
  }
  const value = `$jsonIn.scalar(${f.type}, ${x}, "")`;
  if (f.type === FieldType.Float) return `Math.fround(${value}${ts(" as number")})`;
  switch (c.int64As(f)) {
    case "bigint": return `${value}${ts(" as bigint")}`;
    case "string": return `String(${value})`;
    case "number": return `$plain.safeNumber(${value}${ts(" as bigint")}, ${literal(c.fieldPath(f))})`;
  }
  return `${value}${ts(` as ${c.valueType(f)}`)}`;
}

/** google.protobuf.Value takes null as its null_value; NullValue fields take null as 0. */
function acceptsNull(c: FileContext, f: FieldModel): boolean {
  return (isMessage(f) && f.message!.fullName === "google.protobuf.Value") || (f.type === FieldType.Enum && f.enum!.fullName === "google.protobuf.NullValue");
}

/** The plain object's value of an absent field, as the reader gives it for an empty record. */
function emptyValue(c: FileContext, f: FieldModel): string {
  if (f.label === Label.Map) return "{}";
  if (f.label === Label.Repeated) return "[]";
  if (f.label !== Label.Implicit) return "undefined";
  switch (f.type) {
    case FieldType.String: return '""';
    case FieldType.Bytes: return "new Uint8Array(0)";
    case FieldType.Bool: return "false";
    default:
      switch (c.int64As(f)) {
        case "bigint": return "0n";
        case "string": return '"0"';
        default: return "0";
      }
  }
}

export function fromJsonDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  if (hasSpecialJson(m.fullName)) {
    const type = `(json: $JsonValue, opts: $JsonReadOptions, depth: number) => ${n.type}`;
    return `export ${decl("declare ")}const ${n.fromJson}${ts(`: ${type}`)}${impl(` = (json, opts) => $jsonIn.bySchema(${n.type}, json, opts)${ts(` as ${n.type}`)}`)};\n`;
  }
  // keys as the schema-driven reader matches them: json_name, then .proto name, a later field's winning
  const byKey = new Map<string, FieldModel>();
  for (const f of m.fields) byKey.set(f.jsonName, f).set(f.name, f);
  const keys = new Map<FieldModel, string[]>(); // each field's keys, in byKey's order
  for (const [k, g] of byKey) keys.set(g, [...(keys.get(g) ?? []), k]);
  const keysOf = (f: FieldModel) => keys.get(f) ?? [];
  const twoNames = m.fields.filter((f) => keysOf(f).length > 1);
  const lines = ["  if (depth > $jsonIn.MAX_DEPTH) $jsonIn.fallback();"];
  const empty = [...m.fields.filter((f) => !f.oneof).map((f) => `${propertyKey(f.prop)}: ${emptyValue(c, f)}`), ...m.oneofs.map((o) => `${propertyKey(o.prop)}: undefined`)];
  lines.push(`  const o${ts(`: ${n.type}`)} = { ${empty.join(", ")} };`);
  if (twoNames.length > 0) lines.push(`  const seen = new Set${ts("<number>")}(); // a field given by both its names`);
  lines.push(`  let key${ts(": string | undefined")}; // for the error path`, "  try {", "    for (const [k, v] of $jsonIn.object(json)) {", "      key = k;", "      switch (k) {");
  for (const f of m.fields) {
    const keys = keysOf(f);
    if (keys.length === 0) continue;
    const body: string[] = [];
    const acc = `o${propertyAccess(f.prop)}`;
    if (f.label === Label.Map) {
      const [key, value] = f.mapEntry!.fields as [FieldModel, FieldModel];
      body.push(`${acc} = $jsonIn.map(v, ${key.type}, (x) => ${jsonIn(c, value, "x")}${acceptsNull(c, value) ? ", true" : ""});`);
    } else if (f.label === Label.Repeated) {
      body.push(`${acc} = $jsonIn.list(v, (x) => ${jsonIn(c, f, "x")}${acceptsNull(c, f) ? ", true" : ""});`);
    } else if (f.oneof) {
      const oneof = `o${propertyAccess(f.oneof.prop)}`;
      const assign = `{ if (${oneof} !== undefined) $jsonIn.secondOneofMember(${literal(f.oneof.name)}); ${oneof} = { case: ${literal(f.prop)}, value: x }; }`;
      body.push(`const x = ${jsonIn(c, f, "v")};`, f.type === FieldType.Enum ? `if (x !== $jsonIn.SKIP) ${assign}` : assign);
    } else if (f.type === FieldType.Enum) {
      body.push(`const x = ${jsonIn(c, f, "v")};`, `if (x !== $jsonIn.SKIP) ${acc} = x;`);
    } else {
      body.push(`${acc} = ${jsonIn(c, f, "v")};`);
    }
    // null means absent (but for the types that take it); a field given twice is an error even so
    const cases = keys.map((k) => `case ${literal(k)}:`).join(" ");
    const statements = body.length === 1 ? body[0]! : `{ ${body.join(" ")} }`;
    const read = acceptsNull(c, f) ? statements : `if (v !== null) ${statements}`;
    if (keys.length > 1) lines.push(`        ${cases} if (seen.has(${f.number})) $jsonIn.duplicate(); seen.add(${f.number}); ${read} break;`);
    else lines.push(`        ${cases} ${read} break;`);
  }
  lines.push(`        default: $jsonIn.unknownField(${literal(m.fullName)}, k, opts);`);
  lines.push("      }", "    }", "  } catch (e) {", "    throw key === undefined ? e : $jsonIn.at(e, `.${key}`);", "  }");
  const required = m.fields.filter((f) => f.flags & 4);
  if (required.length > 0) {
    // the codec reports a missing required field, with its path: the schema-driven reader's way
    lines.push(`  if (${required.map((f) => `o${propertyAccess(f.prop)} === undefined`).join(" || ")}) $jsonIn.fallback();`);
  }
  lines.push("  return o;");
  const doc = `${m.fullName} from a parsed ProtoJSON value: the plain object decode() would give.`;
  return exportedFunction(doc, n.fromJson, [["json", "$JsonValue"], ["opts", "$JsonReadOptions"], ["depth", "number"]], n.type, lines);
}
