// Decoders of plain objects straight from wire bytes (ts/reader.ts runs them): one function per
// message, a switch on whole tags with each field's tag, property and conversion as constants. They
// make the objects the readers of records (plain.ts) make, and fail as the compiled decoders
// (codegen/wasm/decoder.ts) fail: the same error codes, offsets and field paths.
import { FieldFlag, FieldType, isInt64, Label } from "../../ts/schema.js";
import { plainWeight } from "../../ts/layout.js";
import { hasDefault } from "./plain.js";
import { Wire, wireType, type FieldModel, type MessageModel, type OneofModel } from "../model.js";
import { literal } from "../names.js";
import { impl, ts } from "../syntax.js";
import { exportedFunction, propertyAccess, propertyKey, uses } from "./code.js";
import type { FileContext } from "./context.js";

const tagOf = (number: number, wt: Wire) => ((number << 3) | wt) >>> 0;
const packable = (f: FieldModel) => f.label === Label.Repeated && wireType(f.type) !== Wire.Len && f.type !== FieldType.Group;

/**
 * What one element of a repeated field adds to the plain objects' memory budget: a slot, and a
 * BigInt or a string of its own for 64-bit values, strings and bytes (messages charge their own).
 */
function elementWeight(c: FileContext, f: FieldModel): number {
  if (f.type === FieldType.Message) return 8;
  if (f.type === FieldType.String || f.type === FieldType.Bytes || c.int64As(f) === "bigint" || c.int64As(f) === "string") return 32;
  return 8;
}
/** A map entry's weight: a property of a dictionary-mode object. */
const ENTRY_WEIGHT = 64;

const isClosedEnum = (f: FieldModel) => (f.flags & FieldFlag.ClosedEnum) !== 0;
const isRequired = (f: FieldModel) => (f.flags & FieldFlag.Required) !== 0;
const isSubMessage = (f: FieldModel) => f.type === FieldType.Message || f.type === FieldType.Group;

/**
 * Whether m's plain objects are decoded by a generated decoder: everything it holds is what one
 * reads, in files generated for speed. Not read (those messages decode through records): message
 * sets, map values of closed enums (a value outside the enum makes the entry an unknown field) and
 * of messages with required fields.
 */
export function decodable(c: FileContext, m: MessageModel, seen = new Set<MessageModel>()): boolean {
  if (seen.has(m)) return true;
  seen.add(m);
  if (m.messageSet || c.interpreted(m.file)) return false;
  return m.fields.every((f) => {
    if (f.label === Label.Map) {
      const value = f.mapEntry!.fields[1]!;
      if (isClosedEnum(value) || (value.type === FieldType.Message && value.message!.fields.some(isRequired))) return false;
      return decodable(c, f.mapEntry!, seen);
    }
    return !isSubMessage(f) || decodable(c, f.message!, seen);
  });
}

/**
 * Whether a decode of m may be left to the records (WireReader.reread()): it holds, itself or in
 * what it holds, a repeated closed enum, whose packed run with a value outside the enum the codec
 * writes into the unknown fields as a varint field of its own, in arena memory: when its bytes fill
 * their 8-byte allocation exactly the next such run extends it, which only the arena knows.
 */
export function rereads(m: MessageModel, seen = new Set<MessageModel>()): boolean {
  if (seen.has(m)) return false;
  seen.add(m);
  return m.fields.some((f) => (isClosedEnum(f) && f.label === Label.Repeated) || (f.label === Label.Map ? rereads(f.mapEntry!, seen) : isSubMessage(f) && rereads(f.message!, seen)));
}

/** An expression: whether the int32 `x` is not a value of f's closed enum. */
function outsideEnum(f: FieldModel, x: string): string {
  const values = [...new Set(f.enum!.values.map((v) => v.number))].sort((a, b) => a - b);
  const lo = values[0]!, hi = values[values.length - 1]!;
  if (hi - lo === values.length - 1) return lo === 0 ? `${x} >>> 0 > ${hi}` : `(${x} ${lo < 0 ? "+" : "-"} ${Math.abs(lo)}) >>> 0 > ${hi - lo}`;
  return values.map((v) => `${x} !== ${v}`).join(" && ");
}

/** A 32-bit varint field's value (or a bool's) from the varint's low half `lo`, the whole varint when `oneByte`. */
function fromVarint(f: FieldModel, lo: string, oneByte: boolean): string {
  switch (f.type) {
    case FieldType.Int32: case FieldType.Enum: return `${lo} | 0`;
    case FieldType.Uint32: return `${lo} >>> 0`;
    case FieldType.Sint32: return `(${lo} >>> 1) ^ -(${lo} & 1)`;
    case FieldType.Bool: return oneByte ? `${lo} !== 0` : `r.bool(${lo})`;
    default: throw new Error(`fromVarint: field type ${f.type}`);
  }
}

/** A 64-bit value (a bigint expression) in f's form: as the readers of records give it (plain.ts plainValue). */
function int64Form(c: FileContext, f: FieldModel, v: string, raw = false): string {
  switch (raw ? undefined : c.int64As(f)) {
    case "string": return `String(${v})`;
    case "number": return `r.safe64(${v}, ${literal(c.fieldPath(f))})`;
    default: return v;
  }
}

/** An expression reading one value of f's scalar type at r.p, before `end`. */
function scalar(c: FileContext, f: FieldModel, end: string, raw = false): string {
  switch (f.type) {
    case FieldType.Double: return `r.double(${end})`;
    case FieldType.Float: return `r.float(${end})`;
    case FieldType.Fixed32: return `r.fixed32(${end})`;
    case FieldType.Sfixed32: return `r.sfixed32(${end})`;
    case FieldType.Fixed64: return int64Form(c, f, `r.fixed64(${end})`, raw);
    case FieldType.Sfixed64: return int64Form(c, f, `r.sfixed64(${end})`, raw);
    case FieldType.String: return `r.string(${end}, ${(f.flags & FieldFlag.ValidateUtf8) !== 0})`;
    case FieldType.Bytes: return `r.bytes(${end})`;
    case FieldType.Int64: return int64Form(c, f, `r.int64(r.varint(${end}))`, raw);
    case FieldType.Uint64: return int64Form(c, f, `r.uint64(r.varint(${end}))`, raw);
    case FieldType.Sint64: return int64Form(c, f, `r.sint64(r.varint(${end}))`, raw);
    default:
      // 32-bit varints and bools: one byte inline
      return `((v = b[r.p]${ts("!")}) < 0x80 && r.p < ${end} ? (r.p++, ${fromVarint(f, "v", true)}) : (v = r.varint(${end}), ${fromVarint(f, "v", false)}))`;
  }
}

/** The value an absent field has in a new plain object (as the readers of records give it). */
function initial(c: FileContext, f: FieldModel): string {
  if (f.label === Label.Repeated) return "[]";
  if (f.label === Label.Map) return "{}";
  if (f.label === Label.Explicit || f.type === FieldType.Message) return "undefined";
  switch (f.type) {
    case FieldType.String: return '""';
    case FieldType.Bytes: return "$plainEmptyBytes";
    case FieldType.Bool: return "false";
    default: {
      const as = c.int64As(f);
      return as === "string" ? '"0"' : as === "bigint" ? "0n" : "0";
    }
  }
}

/** The key of a map's plain object, from the key field's value (plain.ts: strings as they are, the others by String()). */
function mapKey(c: FileContext, key: FieldModel, end: string): string {
  if (key.type === FieldType.String) return scalar(c, key, end);
  return `String(${scalar(c, key, end, isInt64(key.type))})`;
}

/** The initial key of a map entry without one. */
function initialKey(key: FieldModel): string {
  if (key.type === FieldType.String) return '""';
  return key.type === FieldType.Bool ? '"false"' : '"0"';
}

/** Reads one map entry of field f (its length read: the body up to `stop`) into the map `to`. */
function mapEntry(c: FileContext, f: FieldModel, to: string): string[] {
  const dup = `d$${f.number}`;
  const [key, value] = f.mapEntry!.fields as [FieldModel, FieldModel];
  const sub = value.type === FieldType.Message ? c.ref(value.message!, "decoder") : undefined;
  const lines = [
    `        let k = ${initialKey(key)}, x${ts(": any")} = undefined, ef = 0;`,
    "        try {",
    "          while (r.p < stop) {",
    "            ef = 0;",
    "            const eat = r.p;",
    `            let t = b[r.p++]${ts("!")};`,
    "            if (t >= 0x80) t = r.tag(stop);",
    `            if (t === ${tagOf(1, wireType(key.type))}) { ef = 1; k = ${mapKey(c, key, "stop")}; }`,
  ];
  if (sub !== undefined) {
    lines.push(`            else if (t === ${tagOf(2, Wire.Len)}) { ef = 2; const vn = r.len(stop); if (depth === 1) r.fail("DEPTH_LIMIT", r.p); x = ${sub}(r, r.p + vn, depth - 2, x, -1); }`);
  } else {
    lines.push(`            else if (t === ${tagOf(2, wireType(value.type))}) { ef = 2; x = ${scalar(c, value, "stop")}; }`);
  }
  lines.push(
    "            else r.skipField(t, eat, stop, depth - 1);",
    "          }",
    `        } catch (e) { throw ef === 0 ? e : r.frame(e, ef === 1 ? "key" : "value", -1); }`,
    // an entry without its value: the value's default (a message: an empty one)
    `        if (x === undefined) x = ${sub !== undefined ? `${sub}(r, r.p, depth - 2, undefined, -1)` : initialValue(c, value)};`,
    // (a key again: the entries counted, the error paths' places among them, outnumber the keys)
    `        if (Object.hasOwn(${to}, k)) ${dup} = true;`,
    `        if (k === "__proto__") Object.defineProperty(${to}, k, { value: x, enumerable: true, writable: true, configurable: true });`,
    `        else ${to}[k] = x;`,
  );
  return lines;
}

const initialValue = (c: FileContext, f: FieldModel) => initial(c, { ...f, label: Label.Implicit });

/** The statements of one field's case, its tag read (at `at`); `fld` names the field for error paths (negative: an array, whose element is `el`). */
function fieldCase(c: FileContext, f: FieldModel, wt: Wire): string[] {
  const to = local(f);
  const set = (v: string) => (f.oneof ? `${to} = { case: ${literal(f.prop)}, value: ${v} };` : `${to} = ${v};`);
  if (f.label === Label.Map) {
    return [
      `        fld = ${-f.number}; el = m$${f.number}++;`,
      "        const n = r.len(end), stop = r.p + n;",
      `        r.room(el, at, ${ENTRY_WEIGHT});`,
      `        if (depth === 0) r.fail("DEPTH_LIMIT", r.p);`,
      ...mapEntry(c, f, to),
    ];
  }
  if (isSubMessage(f)) {
    const sub = c.ref(f.message!, "decoder");
    // a group's fields run to its end tag, from right after its start tag; a message's are its body
    const group = f.type === FieldType.Group;
    const read = (into: string) => group ? `${sub}(r, end, depth - 1, ${into}, ${tagOf(f.number, Wire.EndGroup)})` : `${sub}(r, r.p + n, depth - 1, ${into}, -1)`;
    const body = group ? [] : ["        const n = r.len(end);"];
    if (f.label === Label.Repeated) {
      return [
        `        fld = ${-f.number}; el = ${to}.length;`,
        ...body,
        `        r.room(el, at, ${elementWeight(c, f)});`,
        `        if (depth === 0) r.fail("DEPTH_LIMIT", r.p);`,
        `        ${to}.push(${read("undefined")});`,
      ];
    }
    // a message again merges into the one there (a oneof's, if it is this member)
    const into = f.oneof ? `(${to}?.case === ${literal(f.prop)} ? ${to}.value : undefined)` : to;
    return [
      `        fld = ${f.number};`,
      ...body,
      `        if (depth === 0) r.fail("DEPTH_LIMIT", r.p);`,
      `        ${set(read(into))}`,
    ];
  }
  if (f.label === Label.Repeated) {
    if (wt === Wire.Len && packable(f) && smallVarint(f)) return packedVarints(c, f);
    if (wt === Wire.Len && packable(f)) {
      const width = wireType(f.type) === Wire.Fixed64 ? 8 : wireType(f.type) === Wire.Fixed32 ? 4 : 0;
      const head = [`        fld = ${-f.number}; el = ${to}.length;`, `        const stop = r.packed(end, ${width}, el, ${elementWeight(c, f)});`];
      if (f.type === FieldType.Double || f.type === FieldType.Float) return [...head, `        ${to} = r.floats(stop, ${to}, ${width});`];
      // a long run: the array made at its length first, the values stored by index (r.extend)
      const count = width === 0 ? "r.count(r.p, stop)" : `(stop - r.p) / ${width}`;
      if (!isClosedEnum(f)) {
        return [...head, `        let k = el;`, `        if (stop - r.p > 64) ${to} = r.extend(${to}, ${count});`, `        while (r.p < stop) ${to}[k++] = ${scalar(c, f, "stop")};`];
      }
      // a value outside the enum: the records decode it (see rereads())
      return [
        ...head,
        "        while (r.p < stop) {",
        `          const x = ${scalar(c, f, "stop")};`,
        `          if (${outsideEnum(f, "x")}) r.reread();`,
        `          ${to}.push(x);`,
        "        }",
      ];
    }
    if (isClosedEnum(f)) {
      // a value outside the enum: the field kept as an unknown one, no element added
      return [
        `        fld = ${-f.number}; el = ${to}.length;`,
        `        const x = ${scalar(c, f, "end")};`,
        `        if (${outsideEnum(f, "x")}) unknown = r.keep(at, unknown);`,
        "        else {",
        `          r.room(el, at, ${elementWeight(c, f)});`,
        `          ${to}.push(x);`,
        "        }",
      ];
    }
    return [
      `        fld = ${-f.number}; el = ${to}.length;`,
      `        const x = ${scalar(c, f, "end")};`,
      `        r.room(el, at, ${elementWeight(c, f)});`,
      `        ${to}.push(x);`,
    ];
  }
  if (isClosedEnum(f)) {
    // a value outside the enum: the field kept as an unknown one, the value there left as it was
    return [
      `        fld = ${f.number};`,
      `        const x = ${scalar(c, f, "end")};`,
      `        if (${outsideEnum(f, "x")}) unknown = r.keep(at, unknown);`,
      `        else ${set("x")}`,
    ];
  }
  return [`        fld = ${f.number};`, `        ${set(scalar(c, f, "end"))}`];
}

/** Whether f's values are 32-bit varints whose low bits alone make them (not bools: a bool's is all of its bits). */
const smallVarint = (f: FieldModel) => f.type === FieldType.Int32 || f.type === FieldType.Uint32 || f.type === FieldType.Sint32 || f.type === FieldType.Enum;

/**
 * A packed run of 32-bit varints: read with the position in a local and values of one and two bytes
 * inline (through the reader's position each time, a vector tile decoded in 2.4x the time of the
 * records; `node bench/run.mjs map-tile`), the budget charged for what was added.
 */
function packedVarints(c: FileContext, f: FieldModel): string[] {
  const to = local(f);
  return [
    `        fld = ${-f.number}; el = ${to}.length;`,
    "        const stop = r.packedVarints(end, el);",
    "        let p = r.p, k = el;",
    // a long run: the array made at its length first, the values stored by index (r.extend)
    `        if (stop - p > 64) ${to} = r.extend(${to}, r.count(p, stop));`,
    "        while (p < stop) {",
    `          let x = b[p++]${ts("!")};`,
    "          if (x >= 0x80) {",
    `            const y = b[p]${ts("!")};`,
    // (the run ends on a terminator: a byte that goes on has one after it inside the run)
    "            if (y < 0x80) {",
    "              x = (x & 0x7f) | (y << 7);",
    "              p++;",
    "            } else {",
    "              r.p = p - 1;",
    "              x = r.varint(stop);",
    "              p = r.p;",
    "            }",
    "          }",
    ...(isClosedEnum(f)
      ? ["          x |= 0;", `          if (${outsideEnum(f, "x")}) r.reread();`, `          ${to}[k++] = x;`]
      : [`          ${to}[k++] = ${fromVarint(f, "x", true)};`]),
    "        }",
    "        r.p = p;",
    `        r.charge((k - el) * ${elementWeight(c, f)});`,
  ];
}

/** The local variable a field's value is read into ("$" and its number, a oneof's "$o_" and its name: no property or name of the code). */
const local = (f: FieldModel) => (f.oneof ? oneofLocal(f.oneof) : `$${f.number}`);
const oneofLocal = (o: OneofModel) => `$o_${o.name}`;

/**
 * The decoder of m's plain objects (see decodable()): exported, as other files' decoders call it.
 * Fields are read into locals and the object made at the end from their values (a literal of
 * defaults stored into field by field changed field representations: tick frames took 1.7x the
 * time, `npm run bench -- tick-stream`); a merge starts from the object's values and stores back.
 */
export function decoderDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  const weight = plainWeight(m.fields.map((f) => ({ type: f.type, label: f.label, inOneof: f.oneof !== undefined })), m.oneofs.length);
  const plainFields = m.fields.filter((f) => !f.oneof);
  const typeOf = (f: FieldModel) => ts(`: ${n.type}[${literal(f.prop)}]`);
  const body = [`  const b = r.b;`];
  for (const f of plainFields) body.push(`  let ${local(f)}${typeOf(f)} = ${initial(c, f)};`);
  for (const o of m.oneofs) body.push(`  let ${oneofLocal(o)}${ts(`: ${n.type}[${literal(o.prop)}]`)} = undefined;`);
  body.push("  if (into === undefined) {", `    r.charge(${weight});`, "  } else {");
  // (a field with a declared default reads it from the prototype while unset: only an own value counts)
  for (const f of plainFields) body.push(`    ${local(f)} = ${hasDefault(f) ? `Object.hasOwn(into, ${literal(f.prop)}) ? into${propertyAccess(f.prop)} : undefined` : `into${propertyAccess(f.prop)}`};`);
  for (const o of m.oneofs) body.push(`    ${oneofLocal(o)} = into${propertyAccess(o.prop)};`);
  body.push("  }");
  const maps = m.fields.filter((f) => f.label === Label.Map);
  // a map's entries so far (an error names the entry by its place among them): its keys, unless a
  // key came again (then the reader keeps the count, for a merge into it)
  for (const f of maps) body.push(`  let m$${f.number} = into === undefined ? 0 : r.entries(${local(f)}), d$${f.number} = false;`);
  const cases: string[] = [];
  for (const f of m.fields) {
    const natural = wireType(f.type);
    cases.push(`      case ${tagOf(f.number, natural)}: {`, ...fieldCase(c, f, natural), "        continue;", "      }");
    if (packable(f)) cases.push(`      case ${tagOf(f.number, Wire.Len)}: {`, ...fieldCase(c, f, Wire.Len), "        continue;", "      }");
  }
  body.push(
    // (v: what the one-byte varints read inline go through; open: a group's end tag still to come)
    `  let unknown = into === undefined ? undefined : r.unknownOf(into), fld = 0, el = -1, open = group !== -1${uses(cases, "v") ? ", v = 0" : ""};`,
    "  try {",
    "    fields: while (r.p < end) {",
    "      fld = 0;",
    "      const at = r.p;",
    `      let tag = b[r.p++]${ts("!")};`,
    "      if (tag >= 0x80) tag = r.tag(end);",
    "      switch (tag) {",
    ...cases,
    "      default:",
    "        if (tag === group) {",
    "          open = false;",
    "          break fields;",
    "        }",
    "        unknown = r.unknown(tag, at, end, depth, unknown);",
    "      }",
    "    }",
    "  } catch (e) {",
    `    if (fld === 0) throw e;`,
    `    const names${ts(": Record<number, string>")} = ${fieldNames(m)};`,
    `    throw r.frame(e, names[fld < 0 ? -fld : fld]${ts("!")}, fld < 0 ? el : -1);`,
    "  }",
    '  if (open) r.fail("UNTERMINATED_GROUP", r.p);',
    // required fields absent at the end (the top message's allowed by partially())
    ...m.fields.filter(isRequired).map((f) => `  if (${local(f)} === undefined && depth !== r.partial) r.missing(${literal(f.name)});`),
    // (and after a merge: a count kept before is out of date)
    ...maps.map((f) => `  if (d$${f.number} || into !== undefined) r.counted(${local(f)}, m$${f.number});`),
    ...objectOf(c, m, plainFields),
    // a merge stores the values back into the object it started from (its properties stay in their
    // order); with declared defaults it is a new object (a field set only now, added to the old one,
    // would come after all the others), which takes over the old one's unknown fields
    ...(m.fields.some(hasDefault)
      ? ["  if (unknown !== undefined) r.unknownFields(o, unknown, into);"]
      : ["  if (into !== undefined) o = Object.assign(into, o);", "  if (unknown !== undefined) r.unknownFields(o, unknown);"]),
    // (only a message with unknown fields carries them, so that equal messages compare equal)
    "  return o;",
  );
  const decoder = exportedFunction(undefined, n.decoder, [["r", "$WireReader"], ["end", "number"], ["depth", "number"], ["into", `${n.type} | undefined`], ["group", "number"]], n.type, body);
  if (!m.fields.some(hasDefault)) return decoder;
  return impl(`/** ${m.fullName}'s declared defaults: the prototype of its plain objects. */\nconst ${defaultsName(c, m)} = /* @__PURE__ */ $plainDefaults(${c.schemaOf(m)});\n`) + decoder;
}

const defaultsName = (c: FileContext, m: MessageModel) => `defaults$${c.names.get(m)!.type}`;

/**
 * The statements making the plain object `o` from the locals: a literal, or for a message with
 * declared defaults an object on their prototype (plain.ts withDefaults) where a field with one is
 * set only when present, so that while unset it reads the default and counts as unset.
 */
function objectOf(c: FileContext, m: MessageModel, plainFields: readonly FieldModel[]): string[] {
  const n = c.names.get(m)!;
  if (!m.fields.some(hasDefault)) {
    return [
      `  let o${ts(`: ${n.type}`)} = {`,
      ...plainFields.map((f) => `    ${propertyKey(f.prop)}: ${local(f)},`),
      ...m.oneofs.map((o) => `    ${propertyKey(o.prop)}: ${oneofLocal(o)},`),
      "  };",
    ];
  }
  return [
    `  let o${ts(`: ${n.type}`)} = Object.create(${defaultsName(c, m)});`,
    ...plainFields.map((f) => hasDefault(f) ? `  if (${local(f)} !== undefined) o${propertyAccess(f.prop)} = ${local(f)};` : `  o${propertyAccess(f.prop)} = ${local(f)};`),
    ...m.oneofs.map((o) => `  o${propertyAccess(o.prop)} = ${oneofLocal(o)};`),
  ];
}

/** The .proto names of m's fields by number, for error paths. */
function fieldNames(m: MessageModel): string {
  return `{ ${m.fields.map((f) => `${f.number}: ${literal(f.name)}`).join(", ")} }`;
}
