// Emits one TypeScript module per .proto file (enums, plain-object interfaces, view classes,
// materializers, message types) and one module holding the run's schema table.
import * as path from "node:path";
import { FieldType, Label } from "../ts/schema.js";
import { encodeTable, isMessage, numberKinds, schemaInfo, type EnumModel, type FieldModel, type MessageModel, type OneofModel, type SchemaModel } from "./model.js";
import { comment, literal, topLevelName } from "./names.js";
import { hasSpecialJson } from "../ts/json/common.js";
import { decl, impl, nonNull, render, signature, ts } from "./syntax.js";

/** What generated code offers per message; see hppproto-gen --help. */
export type Facade = "views" | "plain" | "builders" | "json";
export const facades: readonly Facade[] = ["views", "plain", "builders", "json"];

/** The JS type of 64-bit integer fields. */
export type Int64As = "bigint" | "string" | "number";

export interface EmitOptions {
  /** Module specifier of the runtime. */
  runtimeImport: string;
  /** Extension in imports between generated modules: ".js" (Node ESM), ".ts" (Deno, Bun, allowImportingTsExtensions) or "" (bundlers). */
  importExtension: ".js" | ".ts" | "";
  /** 64-bit integers, unless a field's jstype option says JS_STRING or JS_NUMBER. */
  int64: Int64As;
  facades: ReadonlySet<Facade>;
}

export const defaultEmitOptions: EmitOptions = {
  runtimeImport: "hppproto",
  importExtension: ".js",
  int64: "bigint",
  facades: new Set(facades),
};

export interface OutputFile {
  name: string;
  content: string;
}

export const SCHEMA_MODULE = "hppproto_schema.ts";

export function outputName(protoFile: string): string {
  return protoFile.replace(/\.proto$/, "") + "_pb.ts";
}

/** Names a message or enum has in its file's module. */
interface Names {
  type: string;
  view: string;
  /** The class of a repeated field of this message in views. */
  list: string;
  reader: string;
  /** Reads a repeated field of this message into an array of plain objects. */
  readAll: string;
  fill: string;
  builder: string;
  toJson: string;
  fromJson: string;
}

/** TypeScript modules, or JavaScript modules each with its .d.ts: the same text, rendered per target. */
export function emit(model: SchemaModel, target: "ts" | "js", options: EmitOptions): OutputFile[] {
  const names = assignNames(model);
  const modules: OutputFile[] = [{ name: SCHEMA_MODULE, content: emitSchemaModule(model, options) }];
  for (const file of model.files) {
    const messages = model.messages.filter((m) => m.file === file && !m.isMapEntry);
    const enums = model.enums.filter((e) => e.file === file);
    if (messages.length === 0 && enums.length === 0) continue;
    modules.push({ name: outputName(file), content: new FileEmitter(file, model, names, options).emit(messages, enums) });
  }
  if (target === "ts") return modules.map(({ name, content }) => ({ name, content: render(content, "ts") }));
  return modules.flatMap(({ name, content }) => {
    const base = name.replace(/\.ts$/, "");
    return [{ name: `${base}.js`, content: render(content, "js") }, { name: `${base}.d.ts`, content: render(content, "dts") }];
  });
}

function assignNames(model: SchemaModel): Map<MessageModel | EnumModel, Names> {
  const names = new Map<MessageModel | EnumModel, Names>();
  const taken = new Map<string, Set<string>>();
  const unique = (file: string, want: string) => {
    let set = taken.get(file);
    if (!set) taken.set(file, (set = new Set()));
    let n = topLevelName(want);
    while (set.has(n)) n += "$";
    set.add(n);
    return n;
  };
  for (const e of model.enums) {
    const type = unique(e.file, e.localName);
    names.set(e, { type, view: type, list: type, reader: type, readAll: type, fill: type, builder: type, toJson: type, fromJson: type });
  }
  for (const m of model.messages) {
    if (m.isMapEntry) continue;
    const type = unique(m.file, m.localName);
    const base = type.replace(/\$+$/, "");
    names.set(m, { type, view: unique(m.file, base + "View"), list: `list$${type}`, reader: `read$${type}`, readAll: `readAll$${type}`, fill: `fill$${type}`, builder: unique(m.file, base + "Builder"), toJson: `toJson$${type}`, fromJson: `fromJson$${type}` });
  }
  return names;
}

function emitSchemaModule(model: SchemaModel, options: EmitOptions): string {
  const table = Buffer.from(encodeTable(model)).toString("base64");
  const info = schemaInfo(model);
  const json = options.facades.has("json");
  const infos = info.messages.map((m) => {
    const fields = Object.entries(m.fields).map(([number, name]) => `${number}: ${literal(name)}`).join(", ");
    if (!json) return `  { name: ${literal(m.name)}, fields: { ${fields} } },`;
    // ProtoJSON: [number, name, jsonName, prop, type, label, message or enum index (-1), oneof prop]
    const rows = m.json!.map((row) => `[${row.map((v) => (typeof v === "string" ? literal(v) : v)).join(", ")}]`);
    return `  { name: ${literal(m.name)}, fields: { ${fields} }, json: [${rows.join(", ")}] },`;
  });
  const enums = info.enums.map((e) => `  { name: ${literal(e.name)}, values: [${e.values.map(([n, name]) => `[${n}, ${literal(name)}]`).join(", ")}] },`);
  const call = [`/* @__PURE__ */ defineSchema(${literal(table)}, [`, ...infos, ...(json ? ["], [", ...enums, "])"] : ["])"])].join("\n");
  return [
    "// Generated by hppproto-gen. Do not edit.",
    "// The schema table of every message below (field numbers, types, presence and record layout),",
    json ? "// with the names ProtoJSON needs." : "// with field names for error paths.",
    `import { ${impl("defineSchema")}${ts(`${impl(", ")}type SchemaDef`)} } from ${literal(options.runtimeImport)};`,
    "",
    `export ${decl("declare ")}const schema${ts(": SchemaDef")}${impl(` = ${call}`)};`,
    "",
  ].join("\n");
}


class FileEmitter {
  private readonly deps = new Map<string, string>(); // file -> import alias
  private readonly owners = new Map<FieldModel, MessageModel>();

  constructor(
    private readonly file: string,
    private readonly model: SchemaModel,
    private readonly names: Map<MessageModel | EnumModel, Names>,
    private readonly options: EmitOptions,
  ) {}

  /** A reference to a message's or enum's type, view or reader from this file. */
  private ref(target: MessageModel | EnumModel, which: keyof Names): string {
    const n = this.names.get(target)![which];
    if (target.file === this.file) return n;
    let alias = this.deps.get(target.file);
    if (!alias) this.deps.set(target.file, (alias = `$dep${this.deps.size}`));
    return `${alias}.${n}`;
  }

  emit(messages: MessageModel[], enums: EnumModel[]): string {
    const { views, plain, builders, json } = this.parts;
    const body: string[] = [];
    for (const e of enums) body.push(this.enumDecl(e));
    if (plain || builders) for (const m of messages) body.push(this.interfaceDecl(m));
    if (views) for (const m of messages) body.push(this.viewDecl(m));
    if (plain) for (const m of messages) body.push(this.readerDecl(m));
    if (plain || builders) for (const m of messages) body.push(this.fillDecl(m));
    if (builders) for (const m of messages) body.push(this.builderDecl(m));
    if (json) for (const m of messages) body.push(this.toJsonDecl(m), this.fromJsonDecl(m));
    const typeClass = json ? "$JsonMessageType" : "$MessageType";
    const does = [views && "views", plain && "plain objects", builders && "builders", json && "ProtoJSON"].filter(Boolean).join(", ");
    for (const m of messages) {
      const n = this.names.get(m)!;
      const params = `${plain || builders ? n.type : "never"}, ${views ? n.view : "never"}, ${builders ? n.builder : views ? n.view : "never"}`;
      const parts = [views && `view: ${n.view}`, plain && `read: ${n.reader}`, (plain || builders) && `fill: ${n.fill}`, builders && `builder: ${n.builder}`, json && `toJson: ${n.toJson}`, json && `fromJson: ${n.fromJson}`].filter(Boolean);
      body.push(
        `/** ${comment(m.fullName)}: ${does}. */\n` +
          `export ${decl("declare ")}const ${n.type}${ts(`: ${typeClass}<${params}>`)}${impl(` = /* @__PURE__ */ new ${typeClass}${ts(`<${params}>`)}(${literal(m.fullName)}, $schema, ${m.index}, ${m.recordSize}, { ${parts.join(", ")} })`)};\n`,
      );
    }
    const toRoot = path.posix.relative(path.posix.dirname(this.file), ".") || ".";
    const ext = this.options.importExtension;
    const runtimeNames = [
      messages.length > 0 && `${typeClass.slice(1)} as ${typeClass}`,
      views && "MessageView as $MessageView", views && "ListView as $ListView", views && "MessageList as $MessageList", views && "MapView as $MapView",
      (plain || views) && "plain as $plain", builders && "builder as $builder", (plain || builders) && "mapKey as $mapKey",
      (plain || views) && "type Memory as $Memory", plain && "type Runtime as $Runtime",
      (plain || builders) && "type RecordWriter as $RecordWriter", (plain || builders) && "type Init as $Init",
      json && "jsonOut as $jsonOut", json && "type JsonWriteOptions as $JsonWriteOptions",
      json && "jsonIn as $jsonIn", json && "type JsonReadOptions as $JsonReadOptions", json && "type JsonValue as $JsonValue",
    ].filter(Boolean);
    const head = [`// Generated by hppproto-gen from ${comment(this.file)}. Do not edit.`, "/* eslint-disable */"];
    if (messages.length > 0) {
      // type-only names last, each with its comma, so that JavaScript drops them whole
      const values = runtimeNames.filter((r) => !(r as string).startsWith("type "));
      const types = runtimeNames.filter((r) => (r as string).startsWith("type ")).map((r) => ts(`, ${r}`));
      head.push(`import { ${values.join(", ")}${types.join("")} } from ${literal(this.options.runtimeImport)};`);
      head.push(`import { schema as $schema } from ${literal(`${toRoot}/${SCHEMA_MODULE.replace(/\.ts$/, ext)}`)};`);
    }
    for (const [file, alias] of this.deps) {
      let rel = path.posix.relative(path.posix.dirname(this.file), outputName(file).replace(/\.ts$/, ext));
      if (!rel.startsWith(".")) rel = "./" + rel;
      head.push(`import * as ${alias} from ${literal(rel)};`);
    }
    return [...head, "", ...body].join("\n");
  }

  /** What this run emits; builders need the view classes they extend and the fillers they write with. */
  private get parts() {
    const f = this.options.facades;
    return { views: f.has("views") || f.has("builders"), plain: f.has("plain"), builders: f.has("builders"), json: f.has("json") };
  }

  /** An enum as erasable syntax: a const object of its values and a union type of the same name. */
  private enumDecl(e: EnumModel): string {
    const name = this.names.get(e)!.type;
    // "__proto__" as a key would set the object's prototype
    const keys = e.values.map((v) => (v.name === "__proto__" ? "__proto__$" : propertyKey(v.name)));
    const object = keys.map((k, i) => `  ${k}: ${e.values[i]!.number},`).join("\n");
    const type = keys.map((k, i) => `  readonly ${k}: ${e.values[i]!.number};`).join("\n");
    return `/** ${comment(e.fullName)} (${e.closed ? "closed" : "open"}) */\n` +
      `export ${decl("declare ")}const ${name}${decl(`: {\n${type}\n}`)}${impl(` = {\n${object}\n}${ts(" as const")}`)};\n` +
      // any number too: open enums keep values the schema does not declare, and `number & {}` keeps the named values in editors
      ts(`export type ${name} = (typeof ${name})[keyof typeof ${name}] | (number & {});\n`);
  }

  // ---- plain objects ----

  private valueType(f: FieldModel): string {
    if (isMessage(f)) return this.ref(f.message!, "type");
    if (f.type === FieldType.Enum) return this.ref(f.enum!, "type");
    if (f.type === FieldType.String) return "string";
    if (f.type === FieldType.Bytes) return "Uint8Array";
    if (f.type === FieldType.Bool) return "boolean";
    return this.int64As(f) ?? numberKinds[f.type]!.ts;
  }

  /** pkg.Message.field, for errors raised by generated code. */
  private fieldPath(f: FieldModel): string {
    if (this.owners.size === 0) for (const m of this.model.messages) for (const g of m.fields) this.owners.set(g, m);
    const owner = this.owners.get(f)!;
    if (owner.isMapEntry) {
      const mapField = [...this.owners.keys()].find((g) => g.mapEntry === owner)!;
      return `${this.fieldPath(mapField)} (map ${f.name})`;
    }
    return `${owner.fullName}.${f.name}`;
  }

  /** For 64-bit integer fields, their JS type: the field's jstype option, else --int64. */
  private int64As(f: FieldModel): Int64As | undefined {
    if (numberKinds[f.type]?.ts !== "bigint") return undefined;
    return f.jsType ?? this.options.int64;
  }

  private interfaceDecl(m: MessageModel): string {
    const n = this.names.get(m)!;
    const lines = [`/** ${comment(m.fullName)} as a plain object. */`, `export interface ${n.type} {`];
    for (const f of m.fields) {
      if (f.oneof) continue;
      lines.push(`  ${f.prop}${f.label === Label.Explicit ? "?" : ""}: ${this.plainType(f)};`);
    }
    for (const o of m.oneofs) {
      const cases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: ${this.valueType(f)} }`);
      lines.push(`  ${o.prop}?: ${cases.join(" | ")};`);
    }
    lines.push("  /** Fields this schema does not know, as wire bytes, kept for re-encoding. */");
    lines.push("  $unknown?: Uint8Array;");
    lines.push("}\n");
    return ts(lines.join("\n"));
  }

  private plainType(f: FieldModel): string {
    if (f.label === Label.Map) {
      return `{ [key: string]: ${this.valueType(f.mapEntry!.fields[1]!)} }`;
    }
    const t = this.valueType(f);
    return f.label === Label.Repeated ? `${t}[]` : t;
  }

  /**
   * Expression reading one value of f's type from the slot at address `a` (plain form); `raw`
   * leaves 64-bit integers as bigint (for map keys, which plain objects hold as strings).
   */
  private plainValue(f: FieldModel, a: string, raw = false): string {
    if (isMessage(f)) return `${this.ref(f.message!, "reader")}(m, m.u32[(${a}) >>> 2]${nonNull} || rt.zeroRecord, rt)`;
    switch (f.type) {
      case FieldType.String: return `m.strAt(${a})`;
      case FieldType.Bytes: return `m.bytesAt(${a})`;
      case FieldType.Bool: return `m.u8[${a}] !== 0`;
      default: {
        const k = numberKinds[f.type]!;
        const read = `m.${k.read}[(${a}) >>> ${k.shift}]${nonNull}`;
        switch (raw ? undefined : this.int64As(f)) {
          case "string": return `String(${read})`;
          case "number": return `$plain.safeNumber(${read}, ${literal(this.fieldPath(f))})`;
          default: return read;
        }
      }
    }
  }

  private plainField(f: FieldModel): string {
    const at = `p + ${f.offset}`;
    switch (f.label) {
      case Label.Map: {
        const [key, value] = f.mapEntry!.fields as [FieldModel, FieldModel];
        const k = `(m, e) => ${key.type === FieldType.String ? `m.strAt(e + ${key.offset})` : `String(${this.plainValue(key, `e + ${key.offset}`, true)})`}`;
        const v = `(m, e) => ${this.plainValue(value, `e + ${value.offset}`)}`;
        return `$plain.map(m, ${at}, ${k}, ${v})`;
      }
      case Label.Repeated: {
        if (isMessage(f)) return `${this.ref(f.message!, "readAll")}(m, ${at}, rt)`;
        if (f.type === FieldType.String) return `$plain.strings(m, ${at})`;
        if (f.type === FieldType.Bytes) return `$plain.bytesList(m, ${at})`;
        if (f.type === FieldType.Bool) return `$plain.bools(m, ${at})`;
        const k = numberKinds[f.type]!;
        switch (this.int64As(f)) {
          case "string": return `$plain.int64Strings(m, ${at}, m.${k.read})`;
          case "number": return `$plain.int64Numbers(m, ${at}, m.${k.read}, ${literal(this.fieldPath(f))})`;
          default: return `$plain.${k.read}s(m, ${at})`;
        }
      }
      case Label.Explicit: {
        if (isMessage(f)) return `$plain.sub(m, ${at}, ${this.ref(f.message!, "reader")}, rt)`;
        return `${hasbit("m.u8", "p", f.presence)} ? ${this.plainValue(f, at)} : undefined`;
      }
      default:
        return this.plainValue(f, at);
    }
  }

  private readerDecl(m: MessageModel): string {
    const n = this.names.get(m)!;
    const oneofReader = (prop: string) => `${n.reader}$${prop}`;
    const params: [string, string][] = [["m", "$Memory"], ["p", "number"], ["rt", "$Runtime"]];
    const out: string[] = [];
    // one function per oneof: a switch on the case slot, no closure per decode
    for (const o of m.oneofs) {
      const cases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: ${this.valueType(f)} }`).join(" | ");
      const body = [`  switch (m.u32[(p + ${o.caseOffset}) >>> 2]) {`];
      for (const f of o.fields) {
        body.push(`    case ${f.number}: return { case: ${literal(f.prop)}, value: ${this.plainValue(f, `p + ${f.offset}`)} };`);
      }
      body.push("    default: return undefined;", "  }");
      out.push(moduleFunction(oneofReader(o.prop), params, `${cases} | undefined`, body));
    }
    const body = ["  const o" + ts(`: ${n.type}`) + " = {"];
    for (const f of m.fields) if (!f.oneof) body.push(`    ${propertyKey(f.prop)}: ${this.plainField(f)},`);
    for (const o of m.oneofs) body.push(`    ${propertyKey(o.prop)}: ${oneofReader(o.prop)}(m, p, rt),`);
    // only a message with unknown fields carries them, so that equal messages compare equal
    body.push("  };", "  if ($plain.hasUnknown(m, p)) o.$unknown = $plain.unknown(m, p);", "  return o;");
    out.push(exportedFunction(undefined, n.reader, params, n.type, body));
    // a loop of its own per message type: one shared loop would call every type's reader and go megamorphic
    out.push(exportedFunction(undefined, n.readAll, [["m", "$Memory"], ["addr", "number"], ["rt", "$Runtime"]], `${n.type}[]`, [
      `  const w = addr >>> 2, p = m.u32[w]${nonNull} >>> 2, n = m.u32[w + 1]${nonNull};`,
      `  const out = new Array${ts(`<${n.type}>`)}(n);`,
      `  for (let i = 0; i < n; i++) out[i] = ${n.reader}(m, m.u32[p + i]${nonNull}, rt);`,
      "  return out;",
    ]));
    return out.join("\n");
  }

  // ---- encoding: plain object -> record ----

  /** Statement writing one value `v` of f's type into the slot at address `a`. */
  private fillValue(f: FieldModel, a: string, v: string, name: string): string {
    if (isMessage(f)) return `w.msg(${a}, ${v}, ${this.ref(f.message!, "fill")}, ${f.message!.recordSize}, ${literal(name)})`;
    switch (f.type) {
      case FieldType.String: return `w.str(${a}, ${v}, ${literal(name)})`;
      case FieldType.Bytes: return `w.bytes(${a}, ${v}, ${literal(name)})`;
      case FieldType.Bool: return `w.bool(${a}, ${v}, ${literal(name)})`;
      case FieldType.Enum: return `w.enumValue(${a}, ${v}, ${literal(name)}, ${literal(f.enum!.fullName)})`;
      default: return `w.${numberKinds[f.type]!.read}(${a}, ${v}, ${literal(name)})`;
    }
  }

  /** Statement writing field f (not a oneof member) from the value `v`, known not to be null; p is the record. */
  private fillStatement(f: FieldModel, v: string): string {
    const at = `p + ${f.offset}`;
    const name = literal(f.name); // error paths use .proto names, as decode errors do
    switch (f.label) {
      case Label.Map: {
        const [key, value] = f.mapEntry!.fields as [FieldModel, FieldModel];
        const k = key.type === FieldType.String ? "k"
          : `$mapKey(k, ${literal(key.type === FieldType.Bool ? "bool" : numberKinds[key.type]!.read)})`;
        const entry = `(e, k, x) => { ${this.fillValue(key, `e + ${key.offset}`, k, "")}; if (x != null) ${this.fillValue(value, `e + ${value.offset}`, "x", "")}; }`;
        return `w.map(${at}, ${v}, ${f.mapEntry!.recordSize}, ${entry}, ${name});`;
      }
      case Label.Repeated: {
        if (isMessage(f)) return `w.msgs(${at}, ${v}, ${this.ref(f.message!, "fill")}, ${f.message!.recordSize}, ${name});`;
        if (f.type === FieldType.String || f.type === FieldType.Bytes || f.type === FieldType.Bool || f.type === FieldType.Enum) {
          return `w.each(${at}, ${v}, ${elementWidth(f)}, (a, e) => ${this.fillValue(f, "a", "e", "")}, ${name});`;
        }
        return `w.${numberKinds[f.type]!.read}s(${at}, ${v}, ${name});`;
      }
      case Label.Explicit: {
        const [byte, mask] = presenceBit(f);
        return `{ ${this.fillValue(f, at, v, f.name)}; w.bit(p + ${byte}, ${mask}); }`;
      }
      default:
        return `${this.fillValue(f, at, v, f.name)};`;
    }
  }

  private fillField(f: FieldModel): string {
    return `  if ((v = o${propertyAccess(f.prop)}) != null) ${this.fillStatement(f, "v")}`;
  }

  private oneofFillName(m: MessageModel, o: OneofModel): string {
    return `${this.names.get(m)!.fill}$${o.prop}`;
  }

  private fillDecl(m: MessageModel): string {
    const n = this.names.get(m)!;
    const out: string[] = [];
    for (const o of m.oneofs) {
      const cases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: $Init<${this.valueType(f)}> }`).join(" | ");
      const body = ["  switch (c.case) {"];
      for (const f of o.fields) {
        body.push(`    case ${literal(f.prop)}: w.m.u32[(p + ${o.caseOffset}) >>> 2] = ${f.number}; ${this.fillValue(f, `p + ${f.offset}`, "c.value", f.name)}; break;`);
      }
      body.push("    case undefined: break;");
      body.push(`    default: w.badCase(${literal(o.name)}, (c${ts(" as { case: unknown }")}).case);`, "  }");
      out.push(moduleFunction(this.oneofFillName(m, o), [["w", "$RecordWriter"], ["c", cases], ["p", "number"]], "void", body));
    }
    const body = [`  let v${ts(": unknown")};`];
    for (const f of m.fields) if (!f.oneof) body.push(this.fillField(f));
    for (const o of m.oneofs) body.push(`  if (o${propertyAccess(o.prop)} != null) ${this.oneofFillName(m, o)}(w, o${propertyAccess(o.prop)}, p);`);
    body.push("  w.unknown(p, o.$unknown);");
    out.push(exportedFunction(undefined, n.fill, [["w", "$RecordWriter"], ["o", `$Init<${n.type}>`], ["p", "number"]], "void", body));
    return out.join("\n");
  }

  // ---- ProtoJSON out ----

  /** Expression: value `x` of f's type as JSON (`key` is the field's key expression, for error paths). */
  private jsonValue(f: FieldModel, x: string, key: string): string {
    if (isMessage(f)) return `$jsonOut.sub(${this.ref(f.message!, "toJson")}, ${x}, opts, ${key})`;
    switch (f.type) {
      case FieldType.Enum:
        if (f.enum!.fullName === "google.protobuf.NullValue") return "null";
        return `(opts.enumsAsInts ? ${x} : $jsonOut.enumName($schema, ${this.model.enums.indexOf(f.enum!)}, ${x}))`;
      case FieldType.Double: return `$jsonOut.double(${x})`;
      case FieldType.Float: return `$jsonOut.float(${x})`;
      case FieldType.Bytes: return `$jsonOut.bytes(${x})`;
      default: return numberKinds[f.type]?.ts === "bigint" ? `String(${x})` : x;
    }
  }

  /** Condition: an implicit-presence value `v` differs from its type's default. */
  private jsonNonDefault(f: FieldModel): string {
    switch (f.type) {
      case FieldType.String: return `v != null && v !== ""`;
      case FieldType.Bytes: return `v != null && v.length !== 0`;
      case FieldType.Bool: return `v != null && v !== false`;
      default: return numberKinds[f.type]?.ts === "bigint" ? "v != null && $jsonOut.nonZero64(v)" : "v != null && !Object.is(v, 0)";
    }
  }

  private toJsonDecl(m: MessageModel): string {
    const n = this.names.get(m)!;
    if (hasSpecialJson(m.fullName)) {
      const type = `(o: ${n.type}, opts: $JsonWriteOptions) => unknown`;
      return `/** ${comment(m.fullName)} has its own JSON form. */\nexport ${decl("declare ")}const ${n.toJson}${ts(`: ${type}`)}${impl(` = $jsonOut.wellKnownOf($schema, ${m.index})`)};\n`;
    }
    const lines = [`  const j${ts(": Record<string, unknown>")} = {};`];
    if (m.fields.some((f) => f.name !== f.jsonName)) lines.push("  const protoNames = opts.useProtoNames === true;");
    for (const f of m.fields) {
      const key = f.name === f.jsonName ? literal(f.name) : `protoNames ? ${literal(f.name)} : ${literal(f.jsonName)}`;
      // "__proto__" as a computed key would set the object's prototype; other Object.prototype
      // members (toString, ...) are typed as methods unless the key is a plain string
      const inherited = f.name in Object.prototype || f.jsonName in Object.prototype;
      const set = (value: string) =>
        f.name === "__proto__" || f.jsonName === "__proto__" ? `$jsonOut.define(j, ${key}, ${value});`
          : inherited ? `j[(${key})${ts(" as string")}] = ${value};`
          : f.name === f.jsonName ? `j${propertyAccess(f.name)} = ${value};` : `j[${key}] = ${value};`;
      if (f.oneof) {
        lines.push(`  { const c = o${propertyAccess(f.oneof.prop)}; if (c?.case === ${literal(f.prop)} && c.value != null) ${set(this.jsonValue(f, "c.value", key))} }`);
        continue;
      }
      const v = `const v = o${propertyAccess(f.prop)};`;
      switch (f.label) {
        case Label.Repeated: {
          let list: string;
          if (isMessage(f)) list = `$jsonOut.messages(v ?? [], ${this.ref(f.message!, "toJson")}, opts, ${key})`;
          else {
            const each = this.jsonValue(f, "x", key);
            list = each === "x" ? "$jsonOut.list(v ?? [])" : `$jsonOut.list(v ?? [], (x) => ${each})`;
          }
          lines.push(`  { ${v} if ((v != null && v.length !== 0) || opts.emitDefaults) ${set(list)} }`);
          break;
        }
        case Label.Map: {
          const value = f.mapEntry!.fields[1]!;
          let each: string;
          if (isMessage(value)) each = `(x, k) => $jsonOut.entry(${this.ref(value.message!, "toJson")}, x, opts, ${key}, k)`;
          else {
            const conv = this.jsonValue(value, "x", key);
            each = conv === "x" ? "" : `(x) => ${conv}`;
          }
          lines.push(`  { ${v} if ((v != null && $jsonOut.nonEmpty(v)) || opts.emitDefaults) ${set(`$jsonOut.map(v ?? {}${each ? `, ${each}` : ""})`)} }`);
          break;
        }
        case Label.Implicit: {
          lines.push(`  { ${v} if (opts.emitDefaults || (${this.jsonNonDefault(f)})) ${set(this.jsonValue(f, `(v ?? ${this.emptyValue(f)})`, key))} }`);
          break;
        }
        default:
          lines.push(`  { ${v} if (v != null) ${set(this.jsonValue(f, "v", key))} }`);
      }
    }
    lines.push("  return j;");
    return exportedFunction(`${m.fullName} as a ProtoJSON value.`, n.toJson, [["o", n.type], ["opts", "$JsonWriteOptions"]], "Record<string, unknown>", lines);
  }

  // ---- ProtoJSON in ----

  /** Expression: the JSON value `x` as f's type, in the plain object's form (SKIP possible for enums). */
  private jsonIn(f: FieldModel, x: string): string {
    if (isMessage(f)) {
      const type = this.ref(f.message!, "type");
      if (hasSpecialJson(f.message!.fullName)) return `$jsonIn.wellKnown($schema, ${f.message!.index}, ${x}, opts)${ts(` as ${type}`)}`;
      return `${this.ref(f.message!, "fromJson")}(${x}, opts, depth + 1)`;
    }
    if (f.type === FieldType.Enum) {
      const index = this.model.enums.indexOf(f.enum!);
      const read = `$jsonIn.${f.enum!.closed ? "closedEnumValue" : "enumValue"}($schema, ${index}, ${x}, opts)`;
      return f.enum!.fullName === "google.protobuf.NullValue" ? `(${x} === null ? 0 : ${read})` : read;
    }
    const value = `$jsonIn.scalar(${f.type}, ${x}, "")`;
    if (f.type === FieldType.Float) return `Math.fround(${value}${ts(" as number")})`;
    switch (this.int64As(f)) {
      case "bigint": return `${value}${ts(" as bigint")}`;
      case "string": return `String(${value})`;
      case "number": return `$plain.safeNumber(${value}${ts(" as bigint")}, ${literal(this.fieldPath(f))})`;
    }
    return `${value}${ts(` as ${this.valueType(f)}`)}`;
  }

  /** google.protobuf.Value takes null as its null_value; NullValue fields take null as 0. */
  private acceptsNull(f: FieldModel): boolean {
    return (isMessage(f) && f.message!.fullName === "google.protobuf.Value") || (f.type === FieldType.Enum && f.enum!.fullName === "google.protobuf.NullValue");
  }

  /** The plain object's value of an absent field, as the reader gives it for an empty record. */
  private emptyValue(f: FieldModel): string {
    if (f.label === Label.Map) return "{}";
    if (f.label === Label.Repeated) return "[]";
    if (f.label !== Label.Implicit) return "undefined";
    switch (f.type) {
      case FieldType.String: return '""';
      case FieldType.Bytes: return "new Uint8Array(0)";
      case FieldType.Bool: return "false";
      default:
        switch (this.int64As(f)) {
          case "bigint": return "0n";
          case "string": return '"0"';
          default: return "0";
        }
    }
  }

  private fromJsonDecl(m: MessageModel): string {
    const n = this.names.get(m)!;
    if (hasSpecialJson(m.fullName)) {
      const type = `(json: $JsonValue, opts: $JsonReadOptions, depth: number) => ${n.type}`;
      return `export ${decl("declare ")}const ${n.fromJson}${ts(`: ${type}`)}${impl(` = (json, opts) => $jsonIn.wellKnown($schema, ${m.index}, json, opts)${ts(` as ${n.type}`)}`)};\n`;
    }
    // keys as the schema-driven reader matches them: json_name, then .proto name, a later field's winning
    const byKey = new Map<string, FieldModel>();
    for (const f of m.fields) byKey.set(f.jsonName, f).set(f.name, f);
    const keys = new Map<FieldModel, string[]>(); // each field's keys, in byKey's order
    for (const [k, g] of byKey) keys.set(g, [...(keys.get(g) ?? []), k]);
    const keysOf = (f: FieldModel) => keys.get(f) ?? [];
    const twoNames = m.fields.filter((f) => keysOf(f).length > 1);
    const lines = ["  if (depth > $jsonIn.MAX_DEPTH) $jsonIn.fallback();"];
    const empty = [...m.fields.filter((f) => !f.oneof).map((f) => `${propertyKey(f.prop)}: ${this.emptyValue(f)}`), ...m.oneofs.map((o) => `${propertyKey(o.prop)}: undefined`)];
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
        body.push(`${acc} = $jsonIn.map(v, ${key.type}, (x) => ${this.jsonIn(value, "x")}${this.acceptsNull(value) ? ", true" : ""});`);
      } else if (f.label === Label.Repeated) {
        body.push(`${acc} = $jsonIn.list(v, (x) => ${this.jsonIn(f, "x")}${this.acceptsNull(f) ? ", true" : ""});`);
      } else if (f.oneof) {
        const oneof = `o${propertyAccess(f.oneof.prop)}`;
        const assign = `{ if (${oneof} !== undefined) $jsonIn.secondOneofMember(${literal(f.oneof.name)}); ${oneof} = { case: ${literal(f.prop)}, value: x }; }`;
        body.push(`const x = ${this.jsonIn(f, "v")};`, f.type === FieldType.Enum ? `if (x !== $jsonIn.SKIP) ${assign}` : assign);
      } else if (f.type === FieldType.Enum) {
        body.push(`const x = ${this.jsonIn(f, "v")};`, `if (x !== $jsonIn.SKIP) ${acc} = x;`);
      } else {
        body.push(`${acc} = ${this.jsonIn(f, "v")};`);
      }
      // null means absent (but for the types that take it); a field given twice is an error even so
      const cases = keys.map((k) => `case ${literal(k)}:`).join(" ");
      const statements = body.length === 1 ? body[0]! : `{ ${body.join(" ")} }`;
      const read = this.acceptsNull(f) ? statements : `if (v !== null) ${statements}`;
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

  // ---- builders ----

  private builderDecl(m: MessageModel): string {
    const n = this.names.get(m)!;
    const lines = [
      `/** ${comment(m.fullName)} as a mutable record in linear memory: set fields in place, encode with ${n.type}.encode(builder). */`,
      `export ${decl("declare ")}class ${n.builder} extends ${n.view} {`,
    ];
    const members = new Set<string>([...m.fields.filter((f) => !f.oneof).map((f) => f.prop), ...m.oneofs.map((o) => o.prop)]);
    const method = (want: string) => {
      let name = want;
      while (members.has(name)) name += "$";
      members.add(name);
      return name;
    };
    const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
    const override = ts("override ");
    const w = "const w = $builder.writer(this);";
    // builders extend views: each accessor pair overrides the view's getter
    for (const f of m.fields) {
      if (f.oneof) continue;
      const [getType] = this.viewGetter(f);
      const at = `this.$ptr + ${f.offset}`;
      const acc = propertyAccess(f.prop);
      lines.push(member(undefined, `${override}get ${f.prop}`, [], getType, [`return super${acc};`]));
      const setter = (type: string, body: string[]) => lines.push(member(undefined, `${override}set ${f.prop}`, [["v", `${type} | null | undefined`]], undefined, body));
      switch (f.label) {
        case Label.Map:
          setter(`$Init<${this.plainType(f)}>`, [w, "const p = this.$ptr;", this.fillStatement(f, "v ?? {}")]);
          break;
        case Label.Repeated: {
          const elem = isMessage(f) ? `$Init<${this.valueType(f)}>` : this.valueType(f);
          setter(numberKinds[f.type] && !isMessage(f) ? `ArrayLike<${elem}>` : `readonly ${elem}[]`, [w, "const p = this.$ptr;", this.fillStatement(f, "v ?? []")]);
          if (isMessage(f)) {
            const sub = this.ref(f.message!, "builder");
            lines.push(member("Appends an element and returns its builder.", method(`add${cap(f.prop)}`), [], sub, [`return $builder.add(this, ${f.offset}, ${f.message!.recordSize}, ${sub});`]));
          } else {
            lines.push(member(undefined, method(`add${cap(f.prop)}`), [["v", elem]], "void", [w, `${this.fillValue(f, `w.push(${at}, ${elementWidth(f)})`, "v", f.name)};`]));
          }
          break;
        }
        default: {
          const type = isMessage(f) ? `$Init<${this.valueType(f)}>` : this.valueType(f);
          const [byte, mask] = f.label === Label.Explicit ? presenceBit(f) : [0, 0];
          const clear = `w.zero(p + ${f.offset}, ${elementWidth(f)});${mask ? ` w.unbit(p + ${byte}, ${mask});` : ""}`;
          setter(type, [w, "const p = this.$ptr;", `if (v == null) { ${clear} }`, `else ${this.fillStatement(f, "v")}`]);
          if (isMessage(f)) {
            const sub = this.ref(f.message!, "builder");
            lines.push(member("The builder of this field, creating the message if it is absent.", method(`mutable${cap(f.prop)}`), [], sub,
              [`return $builder.mutable(this, ${f.offset}, ${f.message!.recordSize}, ${sub}, ${byte}, ${mask});`]));
          }
        }
      }
    }
    for (const o of m.oneofs) {
      const getCases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: ${this.viewValueType(f)} }`).join(" | ");
      const setCases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: $Init<${this.valueType(f)}> }`).join(" | ");
      lines.push(member(undefined, `${override}get ${o.prop}`, [], `${getCases} | undefined`, [`return super${propertyAccess(o.prop)};`]));
      lines.push(member(undefined, `${override}set ${o.prop}`, [["v", `${setCases} | null | undefined`]], undefined, [
        w, `w.zero(this.$ptr + ${o.caseOffset}, 4);`, `w.zero(this.$ptr + ${o.valueOffset}, ${Math.max(...o.fields.map(elementWidth))});`,
        `if (v != null) ${this.oneofFillName(m, o)}(w, v, this.$ptr);`,
      ]));
    }
    lines.push(member("Empties the builder for reuse; earlier sub-builders are re-pointed by the next add/mutable call.", "$clear", [], "void", [`$builder.clear(this, ${m.recordSize});`]));
    lines.push(member("Frees the builder's memory; it cannot be used afterwards.", "$release", [], "void", ["this.$arena.release();"]));
    lines.push("}\n");
    return lines.join("\n");
  }

  // ---- views ----

  private viewValueType(f: FieldModel): string {
    if (isMessage(f)) return this.ref(f.message!, "view");
    return this.valueType(f);
  }

  /** Expression reading one value from the slot at address `a` inside a view (m, arena in scope). */
  private viewValue(f: FieldModel, a: string): string {
    if (isMessage(f)) return `new ${this.ref(f.message!, "view")}(arena, m.u32[(${a}) >>> 2]${nonNull} || arena.rt.zeroRecord)`;
    if (f.type === FieldType.Bytes) return `$plain.bytesView(m, ${a})`;
    return this.plainValue(f, a);
  }

  private viewGetter(f: FieldModel): [string, string] {
    const o = f.offset;
    switch (f.label) {
      case Label.Map: {
        const [key, value] = f.mapEntry!.fields as [FieldModel, FieldModel];
        const keyType = key.type === FieldType.String ? "string" : this.valueType(key);
        const needsArena = isMessage(value);
        const body = `${needsArena ? "const arena = this.$arena; " : ""}return this.$map(${o}, (m, e) => ${this.plainValue(key, `e + ${key.offset}`)}, (m, e) => ${this.viewValue(value, `e + ${value.offset}`)});`;
        return [`$MapView<${keyType}, ${this.viewValueType(value)}>`, body];
      }
      case Label.Repeated: {
        if (isMessage(f)) {
          return [`$ListView<${this.ref(f.message!, "view")}>`,
            `const m = this.$mem(), w = (this.$ptr + ${o}) >>> 2; return new ${this.ref(f.message!, "list")}(this, m.u32[w]${nonNull}, m.u32[w + 1]${nonNull});`];
        }
        if (f.type === FieldType.String) return ["$ListView<string>", `return this.$strings(${o});`];
        if (f.type === FieldType.Bytes) return ["$ListView<Uint8Array>", `return this.$bytesList(${o});`];
        if (f.type === FieldType.Bool) return ["boolean[]", `return this.$bools(${o});`];
        const k = numberKinds[f.type]!;
        return [k.array, `return this.$${k.read}s(${o});`];
      }
      default: {
        if (isMessage(f)) return [`${this.ref(f.message!, "view")} | undefined`, `return this.$msg(${o}, ${this.ref(f.message!, "view")});`];
        // One small function per getter, reading memory directly, so that V8 inlines it whole.
        const read = this.viewValue(f, `this.$ptr + ${o}`);
        const def = f.label === Label.Explicit ? this.defaultLiteral(f) : undefined;
        const bit = f.presence;
        const body = def === undefined ? `return ${read};`
          : `return (m.u8[this.$ptr + ${bit >>> 3}]${nonNull} & ${1 << (bit & 7)}) !== 0 ? ${read} : ${def};`;
        return [this.valueType(f), `const m = this.$mem(); ${body}`];
      }
    }
  }

  /** The declared default where it differs from the zero a record holds, else undefined. */
  private defaultLiteral(f: FieldModel): string | undefined {
    let d = f.defaultValue;
    if (f.type === FieldType.Enum) {
      const values = f.enum!.values;
      const n = typeof d === "string" ? values.find((v) => v.name === d)?.number : typeof d === "number" ? d : f.enum!.closed ? values[0]?.number : 0;
      return n ? String(n) : undefined;
    }
    if (d === undefined) return undefined;
    switch (f.type) {
      case FieldType.String: return d === "" ? undefined : literal(String(d));
      case FieldType.Bytes: {
        const s = String(d);
        return s === "" ? undefined : `new Uint8Array([${[...s].map((c) => c.charCodeAt(0) & 0xff).join(", ")}])`;
      }
      case FieldType.Bool: return d === true || d === "true" ? "true" : undefined;
      default: {
        const k = numberKinds[f.type]!;
        if (k.ts === "bigint") {
          let v = BigInt.asUintN(64, BigInt(typeof d === "number" ? Math.trunc(d) : String(d)));
          if (v === 0n) return undefined;
          if (k.read === "i64") v = BigInt.asIntN(64, v);
          switch (this.int64As(f)) {
            case "string": return literal(String(v));
            case "number":
              if (!Number.isSafeInteger(Number(v))) throw new Error(`${f.name}: default ${v} is not exact as a JS number; use int64 bigint or string for it`);
              return String(v);
            default: return `${v}n`;
          }
        }
        let v = typeof d === "number" ? d : d === "inf" ? Infinity : d === "-inf" ? -Infinity : d === "nan" ? NaN : Number(d);
        if (f.type === FieldType.Float) v = Math.fround(v); // what the field reads when set to it
        if (Object.is(v, 0)) return undefined;
        return Number.isNaN(v) ? "NaN" : v === Infinity ? "Infinity" : v === -Infinity ? "-Infinity" : String(v);
      }
    }
  }

  private viewDecl(m: MessageModel): string {
    const n = this.names.get(m)!;
    const lines = [
      `/** ${comment(m.fullName)}: a zero-copy view; valid until its arena is reset or released. */`,
      `export ${decl("declare ")}class ${n.view} extends $MessageView {`,
    ];
    for (const f of m.fields) {
      if (f.oneof) continue;
      const [type, body] = this.viewGetter(f);
      lines.push(member(undefined, `get ${f.prop}`, [], type, [body]));
    }
    for (const o of m.oneofs) {
      const cases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: ${this.viewValueType(f)} }`);
      const body = [`const m = this.$mem();${o.fields.some(isMessage) ? " const arena = this.$arena;" : ""} const p = this.$ptr;`];
      body.push(`switch (m.u32[(p + ${o.caseOffset}) >>> 2]) {`);
      for (const f of o.fields) {
        body.push(`  case ${f.number}: return { case: ${literal(f.prop)}, value: ${this.viewValue(f, `p + ${f.offset}`)} };`);
      }
      body.push("  default: return undefined;", "}");
      lines.push(member(undefined, `get ${o.prop}`, [], `${cases.join(" | ")} | undefined`, body));
    }
    const explicit = m.fields.filter((f) => f.label === Label.Explicit);
    if (explicit.length > 0) {
      const body = ["switch (field) {", ...explicit.map((f) => `  case ${literal(f.prop)}: return this.$bit(${f.presence});`), "}"];
      lines.push(member("Whether a field with explicit presence is set.", "$has", [["field", explicit.map((f) => literal(f.prop)).join(" | ")]], "boolean", body));
    }
    if (this.parts.plain) {
      lines.push(member("A plain-object copy that outlives the view.", "$toObject", [], n.type, [`return ${n.reader}(this.$mem(), this.$ptr, this.$arena.rt);`]));
    }
    lines.push("}\n");
    lines.push(this.listDecl(m));
    return lines.join("\n");
  }

  /** The list class of a repeated field of m: a get() of its own, so each one's call sites stay monomorphic. */
  private listDecl(m: MessageModel): string {
    const n = this.names.get(m)!;
    return [
      `/** Repeated ${comment(m.fullName)} fields of views. */`,
      `export ${decl("declare ")}class ${n.list} extends $MessageList${ts(`<${n.view}>`)} {`,
      member(undefined, "get", [["i", "number"]], n.view, [
        "const o = this.owner;",
        "if (!(i >= 0 && i < this.length) || o.$gen !== o.$arena.generation) this.$invalid(i);",
        `return new ${n.view}(o.$arena, o.$m.u32[(this.data >>> 2) + i]${nonNull});`,
      ]),
      "}\n",
    ].join("\n");
  }
}

/** [byte offset in the record, bit mask] of an explicit-presence field's hasbit. */
function presenceBit(f: FieldModel): [number, number] {
  return [f.presence >>> 3, 1 << (f.presence & 7)];
}

/** Bytes of one value of f's type in a record slot or array. */
function elementWidth(f: FieldModel): number {
  if (isMessage(f)) return 4;
  if (f.type === FieldType.String || f.type === FieldType.Bytes) return 8;
  if (f.type === FieldType.Bool) return 1;
  return 1 << numberKinds[f.type]!.shift;
}

/** A key in an object literal: the name, or a string literal when it is not an identifier. */
function propertyKey(prop: string): string {
  if (prop === "__proto__") return '["__proto__"]'; // a plain "__proto__" key would set the prototype
  return /^[A-Za-z_$][\w$]*$/.test(prop) ? prop : literal(prop);
}

/** `.prop`, or `["prop"]` when prop is not an identifier. */
function propertyAccess(prop: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(prop) ? `.${prop}` : `[${literal(prop)}]`;
}

function hasbit(u8: string, p: string, bit: number): string {
  return `(${u8}[${p} + ${bit >>> 3}]${nonNull} & ${1 << (bit & 7)}) !== 0`;
}

/** An exported function: the declaration file keeps its signature. */
function exportedFunction(doc: string | undefined, name: string, params: [string, string][], returns: string, body: string[]): string {
  const head = doc === undefined ? "" : `/** ${comment(doc)} */\n`;
  return `${head}export ${decl("declare ")}function ${name}${signature(params, returns)}${impl(` {\n${body.join("\n")}\n}`)}${decl(";")}\n`;
}

/** A function of the module's own, absent from the declaration file. */
function moduleFunction(name: string, params: [string, string][], returns: string, body: string[]): string {
  return impl(`function ${name}${signature(params, returns)} {\n${body.join("\n")}\n}\n`);
}

/** A class member (`get x`, `set x`, a method) with its body indented, or `;` in a declaration file. */
function member(doc: string | undefined, head: string, params: [string, string][], returns: string | undefined, body: string[]): string {
  const docComment = doc === undefined ? "" : `  /** ${comment(doc)} */\n`;
  return `${docComment}  ${head}${signature(params, returns)}${impl(` {\n${body.map((l) => `    ${l}`).join("\n")}\n  }`)}${decl(";")}`;
}
