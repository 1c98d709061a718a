// ProtoJSON out of plain objects: the generated text writer, each field's key and value appended
// to one string (views and wire bytes are written by the codec, and JSON is read by the codec).
import { FieldType, isExtension, Label } from "../../ts/schema.js";
import { hasSpecialJson } from "../../ts/json/common.js";
import { isMessage, numberKinds, type FieldModel, type MessageModel } from "../model.js";
import { comment, literal } from "../names.js";
import { nonNull } from "../syntax.js";
import { propertyAccess, exportedFunction, uses } from "./code.js";
import type { FileContext } from "./context.js";
import { hasDefault } from "./plain.js";

/** Expression: value `x` of f's type as JSON text (`key` is the field's quoted key, for error paths). */
function jsonText(c: FileContext, f: FieldModel, x: string, key: string): string {
  if (isMessage(f)) return `j.sub(${c.value(f.message!, "toJsonString")}, ${x}, opts, ${key})`;
  switch (f.type) {
    case FieldType.Enum:
      if (f.enum!.fullName === "google.protobuf.NullValue") return '"null"';
      return `(opts.enumsAsInts ? "" + ${x} : j.enumName($schema, ${c.enumIndex(f.enum!)}, ${x}))`;
    case FieldType.Double: return `j.double(${x})`;
    case FieldType.Float: return `j.float(${x})`;
    case FieldType.Bytes: return `j.bytes(${x})`;
    case FieldType.String: return `j.string(${x})`;
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
    // -0 is a value of its own only for floating point (protobuf writes it); an integer field's -0 is 0
    case FieldType.Double: case FieldType.Float: return "v != null && !Object.is(v, 0)";
    default: return numberKinds[f.type]?.ts === "bigint" ? "v != null && j.nonZero64(v)" : "v != null && v !== 0";
  }
}

/**
 * A writer's parameters: the JSON writer's helpers come as an argument, not an import, so that a
 * program that never writes JSON carries the generated writers but not the runtime behind them.
 */
const writerParams = (type: string): [string, string][] => [["o", type], ["opts", "$JsonWriteOptions"], ["j", "$JsonWrite"]];

export function toJsonDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  // two fields with one json_name (proto2 allows it): a JSON object keeps the key once, with the later value
  const sharedKeys = new Set(m.fields.map((f) => f.jsonName)).size < m.fields.length;
  if (hasSpecialJson(m.fullName) || sharedKeys) {
    const why = sharedKeys ? "has fields that share a json_name: it is written the schema-driven way" : "has its own JSON form";
    return exportedFunction(`${m.fullName} as ProtoJSON text: it ${why}.`, n.toJsonString, writerParams(n.type), "string", [`  return j.bySchema(${c.schemaOf(m)})(o, opts, j);`]);
  }
  // keys come quoted from the schema's names (jsonWrite.keys), so each name is in the bundle once
  const lines: string[] = [];
  m.fields.forEach((f, i) => {
    const key = `key[${i}]${nonNull}`;
    // a comma before every field but the first (a rope's length is known without flattening it)
    const add = (value: string) => `s += (s.length > 1 ? commaKey : key)[${i}]${nonNull} + ${value};`;
    if (f.oneof) {
      lines.push(`  { const c = o${propertyAccess(f.oneof.prop)}; if (c?.case === ${literal(f.prop)} && c.value != null) ${add(jsonText(c, f, "c.value", key))} }`);
      return;
    }
    const v = `const v = o${propertyAccess(f.prop)};`;
    switch (f.label) {
      case Label.Repeated: {
        let list: string;
        if (isMessage(f)) list = `j.messages(v ?? [], ${c.value(f.message!, "toJsonString")}, opts, ${key})`;
        else {
          const each = jsonText(c, f, "x", key);
          // numbers and bools are written as Array.join writes them
          list = each === '"" + x' || f.type === FieldType.Bool ? "j.list(v ?? [])" : `j.list(v ?? [], (x) => ${each})`;
        }
        // an empty repeated extension is unset, left out even with emitDefaults
        lines.push(`  { ${v} if ((v != null && v.length !== 0)${isExtension(f) ? "" : " || d"}) ${add(list)} }`);
        break;
      }
      case Label.Map: {
        const value = f.mapEntry!.fields[1]!;
        const each = isMessage(value) ? `(x, mapKey) => j.entry(${c.value(value.message!, "toJsonString")}, x, opts, ${key}, mapKey)` : `(x) => ${jsonText(c, value, "x", key)}`;
        lines.push(`  { ${v} if ((v != null && j.nonEmpty(v)) || d) ${add(`j.map(v ?? {}, ${each})`)} }`);
        break;
      }
      case Label.Implicit: {
        lines.push(`  { ${v} if (d || (${jsonNonDefault(c, f)})) ${add(jsonText(c, f, `(v ?? ${emptyValue(c, f)})`, key))} }`);
        break;
      }
      default: {
        // a declared default the object inherits (see ts/defaults.ts) is not set, not written, and not read
        const own = hasDefault(f) ? `const v = Object.hasOwn(o, ${literal(f.prop)}) ? o${propertyAccess(f.prop)} : undefined;` : v;
        lines.push(`  { ${own} if (v != null) ${add(jsonText(c, f, "v", key))} }`);
      }
    }
  });
  // what the fields' lines use of the keys and options, declared before them
  const keys = ["key", "commaKey"].filter((k) => uses(lines, k)), head = [...(keys.length > 0 ? [`{ ${keys.join(", ")} } = j.keys(${c.schemaOf(m)}, opts)`] : []), ...(uses(lines, "d") ? ["d = opts.emitDefaults"] : [])];
  lines.unshift(...(head.length > 0 ? [`  const ${head.join(", ")};`] : []), `  let s = "{";`);
  lines.push('  return s + "}";');
  return exportedFunction(`${m.fullName} as ProtoJSON text.`, n.toJsonString, writerParams(n.type), "string", lines);
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
