// Emits one TypeScript module per .proto file, each declaring its file's schema (linked to the
// schemas of the files it refers to) and, for files generated for speed, its compiled decoders.
// Each facade's code is written by a module of its own (views, plain, fill, builders, json: the text
// writer of plain objects, enums); this one puts a file's module together.
import * as path from "node:path";
import { fileScope, localIndexes, schemaSource, type EnumModel, type ExtensionModel, type FileOptionsModel, type MessageModel, type SchemaModel, type ServiceModel } from "../model.js";
import { charsOfBytes } from "../../ts/schema.js";
import * as encoder from "../../ts/encoder.js";
import * as plainRuntime from "../../ts/plain.js";
import { compileDecoders } from "../wasm/decoder.js";
import { comment, literal, topLevelName } from "../names.js";
import { decl, impl, render, ts } from "../syntax.js";
import { builderDecl } from "./builders.js";
import { decodable, decoderDecl, rereads } from "./decode.js";
import { docComment, uses } from "./code.js";
import { FileContext, type EmitOptions, type Named, type Names } from "./context.js";
import { enumDecl } from "./enums.js";
import { encodable, encodeDecl, readsOutLossily } from "./encode.js";
import { fillDecl } from "./fill.js";
import { interfaceDecl, plainType, readAllDecl, readerDecl } from "./plain.js";
import { interpretedDecl } from "./interpreted.js";
import { toJsonDecl } from "./json.js";
import { serviceDecl } from "./services.js";
import { listDecl, viewDecl } from "./views.js";

export { defaultEmitOptions, facades, type EmitOptions, type Facade } from "./context.js";

export interface OutputFile {
  name: string;
  content: string;
}

export function outputName(protoFile: string): string {
  return protoFile.replace(/\.proto$/, "") + "_pb.ts";
}

/** TypeScript modules, or JavaScript modules each with its .d.ts: the same text, rendered per target. */
export function emit(model: SchemaModel, target: "ts" | "js", options: EmitOptions, only?: ReadonlySet<string>): OutputFile[] {
  const names = assignNames(model);
  const local = localIndexes(model);
  const modules: OutputFile[] = [];
  for (const file of model.files) {
    if (only !== undefined && !only.has(file)) continue;
    const messages = model.messages.filter((m) => m.file === file && !m.isMapEntry && !m.extensionHolder);
    const enums = model.enums.filter((e) => e.file === file);
    const extensions = model.extensions.filter((x) => x.file === file);
    const services = model.services.filter((s) => s.file === file);
    if (messages.length === 0 && enums.length === 0 && extensions.length === 0 && services.length === 0 && !model.fileOptions.has(file)) continue;
    const c = new FileContext(file, model, names, options, fileScope(model, file, local));
    modules.push({ name: outputName(file), content: fileModule(c, messages, enums, extensions, services) });
  }
  if (target === "ts") return modules.map(({ name, content }) => ({ name, content: render(content, "ts") }));
  return modules.flatMap(({ name, content }) => {
    const base = name.replace(/\.ts$/, "");
    return [{ name: `${base}.js`, content: render(content, "js") }, { name: `${base}.d.ts`, content: render(content, "dts") }];
  });
}

function assignNames(model: SchemaModel): Map<Named, Names> {
  const names = new Map<Named, Names>();
  const taken = new Map<string, Set<string>>();
  const unique = (file: string, want: string) => {
    let set = taken.get(file);
    if (!set) taken.set(file, (set = new Set()));
    let n = topLevelName(want);
    while (set.has(n)) n += "$";
    set.add(n);
    return n;
  };
  const alike = (name: string): Names => ({
    type: name, view: name, reader: name, fill: name, encode: name, builder: name, toJsonString: name, decoder: name, decodeFunction: name, viewFunction: name, encodeFunction: name,
  });
  for (const [file, options] of model.fileOptions) names.set(options, alike(unique(file, `file_${file.replace(/\.proto$/, "").replace(/[^\w$]/g, "_")}`)));
  for (const e of model.enums) names.set(e, alike(unique(e.file, e.localName)));
  const messages = model.messages.filter((m) => !m.isMapEntry && !m.extensionHolder);
  for (const m of messages) {
    const type = unique(m.file, m.localName);
    const base = type.replace(/\$+$/, "");
    names.set(m, {
      type, view: unique(m.file, base + "View"), reader: `read$${type}`, fill: `fill$${type}`, encode: `encode$${type}`, builder: unique(m.file, base + "Builder"),
      toJsonString: `toJsonString$${type}`, decoder: `decode$${type}`, decodeFunction: "", viewFunction: "", encodeFunction: "",
    });
  }
  for (const x of [...model.extensions, ...model.services]) names.set(x, alike(unique(x.file, x.localName)));
  // after every declaration's name: a function's name never changes a type's
  for (const m of messages) {
    const n = names.get(m)!;
    const base = n.type.replace(/\$+$/, "");
    n.decodeFunction = unique(m.file, `decode${base}`);
    n.viewFunction = unique(m.file, `view${base}`);
    n.encodeFunction = unique(m.file, `encode${base}`);
  }
  return names;
}

/** The file, for reading its custom options: `file_` and its path, as protoc-gen-es names it. */
function fileDecl(c: FileContext, options: FileOptionsModel): string {
  const name = c.names.get(options)!.type;
  return docComment(`${c.file}: its custom options (getOption).`, false, "", undefined) +
    `export ${decl("declare ")}const ${name}${ts(": $FileReflection")}${impl(` = /* @__PURE__ */ $file(${literal(c.file)}, ${literal(options.package)}, ${literal(charsOfBytes(options.customOptions))})`)};\n`;
}

/** An extension as a value: what getExtension() and its kin take. */
function extensionDecl(c: FileContext, x: ExtensionModel): string {
  const name = c.names.get(x)!.type;
  const extendee = c.ref(x.extendee, "type");
  const value = c.parts.plain || c.parts.builders ? plainType(c, x.field) : "unknown";
  const type = `$Extension<${c.parts.plain || c.parts.builders ? extendee : "unknown"}, ${value}>`;
  // an extension of another file's message: its values are read and written by its file's holder
  const carrier = x.carrier ? `, () => $interpretedType(${c.decodersOf(x.carrier)})` : "";
  return docComment(`[${x.fullName}], extending ${x.extendee.fullName}.`, x.field.deprecated, "", x.field.comment) +
    `export ${decl("declare ")}const ${name}${ts(`: ${type}`)}${impl(` = /* @__PURE__ */ $extension(() => ${extendee}, ${x.field.number}${carrier})`)};\n`;
}

/**
 * The file's schema: its enums and messages (names, field numbers, types and presence, from which
 * the runtime lays out records and builds the codec's table; see SchemaSource in hppproto's
 * schema.ts), linked to the schemas of the files holding the others its fields refer to; then for
 * a file generated for speed, the decoders compiled for its messages (compiled.ts), attached to it
 * by a declaration of their own that only what decodes names: a program that only encodes carries
 * none of them.
 */
function schemaDecl(c: FileContext): string {
  const value = (v: string | number | boolean) => (typeof v === "string" ? literal(v) : Number.isNaN(v) ? "NaN" : Object.is(v, -0) ? "-0" : v === Infinity ? "Infinity" : v === -Infinity ? "-Infinity" : String(v));
  const lines = schemaSource(c.model, c.options.int64, c.scope).map((part) => `  ${part.map(value).join(", ")},`);
  const { messages, links } = c.scope;
  const exported = (m: MessageModel) => m.file === c.file && !m.isMapEntry && !m.extensionHolder;
  // another file's message is decoded by its own file's module, unless that file is CODE_SIZE (it has none)
  const linkOf = (m: MessageModel) => (m.file === c.file || c.interpreted(m.file) ? undefined : [links.indexOf(m.file), c.scope.local.get(m)!] as const);
  const args = [`[\n${lines.join("\n")}\n]`];
  if (links.length > 0) args.push(`[${links.map((f) => `${c.module(f)}.$schema`).join(", ")}]`);
  let out = docComment(`${c.file}'s schema (generated code's, not an API).`, false) +
    `export ${decl("declare ")}const $schema${ts(": $SchemaDef")}${impl(` = /* @__PURE__ */ $defineFileSchema(${args.join(", ")})`)};\n`;
  if (!c.hasDecoders(c.file)) return out;
  const compiled = Buffer.from(compileDecoders(messages, exported, linkOf)).toString("base64");
  // (the linked files' decoders, which these call: named so that a bundle keeps them too)
  const linked = links.filter((f) => c.hasDecoders(f)).map((f) => `${c.module(f)}.$decoders`);
  out += docComment(`${c.file}'s schema with its compiled decoders (generated code's, not an API).`, false) +
    `export ${decl("declare ")}const $decoders${ts(": $SchemaDef")}${impl(` = /* @__PURE__ */ $compiledDecoders($schema, ${literal(compiled)}, $compiledCore${linked.length > 0 ? `, [${linked.join(", ")}]` : ""})`)};\n`;
  return out;
}

/** A file's module: its imports, then every facade's code for its enums and messages. */
function fileModule(c: FileContext, messages: MessageModel[], enums: EnumModel[], extensions: ExtensionModel[], services: ServiceModel[]): string {
  const { views, plain, builders, json } = c.parts;
  const body: string[] = [];
  const { enums: scopeEnums, messages: scopeMessages } = c.scope;
  const interpreted = c.interpreted(c.file);
  // the messages whose plain objects generated code encodes (the others go through records and the codec)
  const encoded = new Set(plain && !interpreted ? messages.filter((m) => encodable(c, m)) : []);
  // only the codec encodes this type's plain objects (no encode function), or its views and
  // builders without loss (they hold what does not read out exactly)
  const needsCodec = (m: MessageModel) => !encoded.has(m) || ((views || builders) && readsOutLossily(c, m));
  const fills = plain || builders ? filled(c, plain) : new Set<MessageModel>();
  if (scopeEnums.length > 0 || scopeMessages.length > 0) body.push(schemaDecl(c));
  const fileOptions = c.model.fileOptions.get(c.file);
  if (fileOptions) body.push(fileDecl(c, fileOptions));
  for (const e of enums) body.push(enumDecl(c, e));
  const does = [views && "views", plain && "plain objects", builders && "builders", json && "ProtoJSON"].filter(Boolean).join(", ");
  // each message's code together, its message type last: that evaluates the classes it names
  for (const m of messages) {
    if (interpreted) {
      body.push(interpretedDecl(c, m));
      continue;
    }
    if (plain || builders) body.push(interfaceDecl(c, m));
    if (views) body.push(viewDecl(c, m));
    if (plain) body.push(readerDecl(c, m));
    const decodes = plain && decodable(c, m);
    if (decodes) body.push(decoderDecl(c, m));
    if (fills.has(m)) body.push(fillDecl(c, m));
    const encodes = encoded.has(m);
    if (encodes) body.push(encodeDecl(c, m));
    if (builders) body.push(builderDecl(c, m));
    if (json) body.push(toJsonDecl(c, m));
    const n = c.names.get(m)!;
    const params = c.typeParams(m) + c.formsParam(m);
    const parts = [views && `view: ${n.view}`, plain && `read: ${n.reader}`, decodes && `decode: /* @__PURE__ */ $readerOf(${literal(m.fullName)}, ${n.decoder})`, fills.has(m) && `fill: ${n.fill}`, encodes && `encode: ${n.encode}`, builders && "builder: true", json && `toJsonString: ${n.toJsonString}`,
      needsCodec(m) && "codec: $codec"].filter(Boolean);
    body.push(
      docComment(`${m.fullName}: ${does}.`, m.deprecated, "", m.comment) +
        `export ${decl("declare ")}const ${n.type}${ts(`: $MessageType<${params}>`)}${impl(` = /* @__PURE__ */ new $MessageType${ts(`<${params}>`)}(${c.decodersOf(m)}, { ${parts.join(", ")} })`)};\n`,
    );
    body.push(functionDecls(c, m, decodes, encodes));
  }
  for (const x of extensions) body.push(extensionDecl(c, x));
  for (const s of services) body.push(serviceDecl(c, s, c.names.get(s)!.type));
  // (a CODE_SIZE module's builder types name them too, but its classes are the runtime's)
  if (!interpreted) for (const [name, [m, which]] of c.repeatedParts) body.push(which === "list" ? listDecl(c, m, name) : readAllDecl(c, m, name));
  const ext = c.options.importExtension;
  // every runtime name a module may use (a CODE_SIZE module's classes are the runtime's, so it
  // names them as types only); it imports those its code names (noUnusedLocals)
  const runtimeNames = [
    ...(interpreted ? [
      "interpretedType as $interpretedType",
      "type MessageType as $MessageType", "type MessageView as $MessageView", "type ListView as $ListView", "type MapView as $MapView",
      "type Init as $Init",
    ] : [
      "MessageType as $MessageType", "interpretedParts as $interpretedParts", "MessageView as $MessageView", "ListView as $ListView",
      "MessageList as $MessageList", "MapView as $MapView", ...plainHelpers, "interpretedBuilder as $interpretedBuilder", "mapKey as $mapKey",
      "type JsonWrite as $JsonWrite", "type Memory as $Memory", "type Runtime as $Runtime", "type JsonWriteOptions as $JsonWriteOptions",
      "type RecordWriter as $RecordWriter", ...encoderWriters, "type Init as $Init", "type ViewClass as $ViewClass",
      "decodeFunction as $decodeFunction", "viewFunction as $viewFunction", "encodeFunction as $encodeFunction", "readFunction as $readFunction", "readerOf as $readerOf", "type WireReader as $WireReader",
      "type Decode as $Decode", "type DecodeView as $DecodeView", "type EncodePlain as $EncodePlain",
    ]),
    "type Int64 as $Int64", "type Int64Forms as $Int64Forms", "extension as $extension", "type Extension as $Extension",
    "service as $service", "type ServiceType as $ServiceType", "type Method as $Method", "file as $file", "type FileReflection as $FileReflection",
    "defineFileSchema as $defineFileSchema", "compiledDecoders as $compiledDecoders", "codec as $codec", "compiledCore as $compiledCore", "type SchemaDef as $SchemaDef", ...(interpreted ? [] : ["interpretedType as $interpretedType"]),
  ];
  const head = [`// Generated by hppproto-gen from ${comment(c.file)}. Do not edit.`, "/* eslint-disable */"];
  const named = runtimeNames.filter((r) => uses(body, r.slice(r.indexOf(" as ") + 4)));
  if (named.length > 0) {
    // type-only names last, each with its comma, so that JavaScript drops them whole
    const values = named.filter((r) => !r.startsWith("type ")), types = named.filter((r) => r.startsWith("type "));
    const from = literal(c.options.runtimeImport);
    if (values.length > 0) head.push(`import { ${values.join(", ")}${types.map((r) => ts(`, ${r}`)).join("")} } from ${from};`);
    else head.push(ts(`import type { ${types.map((r) => r.slice(5)).join(", ")} } from ${from};`));
  }
  // messages that only the codec decodes (CODE_SIZE): loading this module makes init() load it;
  // a message type that only it encodes names it (needsCodec), loaded when the type is made
  if (interpreted) {
    head.push(`import ${literal(codecImport(c.options.runtimeImport))}; // init() loads the codec: only it decodes or encodes some of these messages`);
  }
  for (const [file, alias] of c.deps) {
    let rel = path.posix.relative(path.posix.dirname(c.file), outputName(file).replace(/\.ts$/, ext));
    if (!rel.startsWith(".")) rel = "./" + rel;
    head.push(`import * as ${alias} from ${literal(rel)};`);
  }
  return [...head, "", ...body].join("\n");
}

/**
 * A message type's decode(), view() and encode() of plain objects as functions of their own, for
 * programs that call one of them and nothing else of the type: a bundler cannot drop a method, so
 * through the type a decode carries views, encoders and ProtoJSON writers too.
 */
function functionDecls(c: FileContext, m: MessageModel, decodes: boolean, encodes: boolean): string {
  const n = c.names.get(m)!;
  const type = c.ref(m, "type");
  const fn = (name: string, what: string, without: string, annotation: string, value: string) =>
    `/** ${n.type}.${what} as a function: a program that calls only it carries no ${without} or ProtoJSON of ${n.type}. */\n` +
    `export ${decl("declare ")}const ${name}${ts(`: ${annotation}`)}${impl(` = /* @__PURE__ */ ${value}`)};\n`;
  let out = "";
  if (c.parts.plain) {
    // read straight from the bytes by its generated decoder where it has one, else from the record the compiled decoders make
    const records = `$decodeFunction(${c.decodersOf(m)}, ${n.reader})`;
    // (and from the record where it leaves a decode to them: see rereads())
    const value = decodes ? `$readFunction(${literal(m.fullName)}, ${n.decoder}${rereads(m) ? `, ${records}` : ""})` : records;
    out += fn(n.decodeFunction, "decode()", "views, encoders", `$Decode<${type}>`, value);
  }
  if (c.parts.views) out += fn(n.viewFunction, "view()", "plain-object readers, encoders", `$DecodeView<${c.ref(m, "view")}>`, `$viewFunction(${c.decodersOf(m)}, ${n.view})`);
  if (encodes) out += fn(n.encodeFunction, "encode() of plain objects", "views, readers", `$EncodePlain<${type}>`, `$encodeFunction(${c.schemaOf(m)}, ${n.encode})`);
  return out;
}

/**
 * What generated code imports to have init() load the codec: the runtime's "codec" beside its
 * "generated" (hppproto/codec, or .../dist/ts/codec.js beside .../dist/ts/generated.js).
 */
const codecImport = (runtimeImport: string) => {
  const at = runtimeImport.match(/(^|\/)generated(\.[cm]?js)?$/);
  return at === null ? "hppproto/codec" : `${runtimeImport.slice(0, at.index! + at[1]!.length)}codec${at[2] ?? ""}`;
};

/**
 * The runtime's helpers generated code calls one by one, named after their modules' exports:
 * the encoder and its field writers as they are ($PlainEncoder, $writeInt32, ...), the plain-object
 * readers' helpers after "plain" ($plainSub, $plainStrings, ...).
 */
const encoderWriters = Object.keys(encoder).map((n) => `${n} as $${n}`);
const plainHelpers = Object.keys(plainRuntime).map((n) => `${n} as $plain${n[0]!.toUpperCase()}${n.slice(1)}`);

/**
 * The messages that get fillers (plain objects written into records): those the codec encodes,
 * which have no encode function (encodable(); every message without the plain facade), and what
 * they hold, whose fillers theirs call. Builders fill with them, else with fillers interpreted from
 * the schema (interpreted/), which only programs that make builders from plain objects carry.
 */
function filled(c: FileContext, plain: boolean): Set<MessageModel> {
  const out = new Set<MessageModel>();
  const add = (m: MessageModel): void => {
    if (out.has(m)) return;
    out.add(m);
    for (const f of m.fields) if (f.message !== undefined) add(f.message);
  };
  for (const m of c.model.messages) if (!plain || !encodable(c, m)) add(m);
  return out;
}
