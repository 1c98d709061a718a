// hppproto-gen: .proto files in, TypeScript modules out; decode/encode payloads with a schema built at run time.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { init } from "../ts/loader.js";
import type { JsonWriteOptions } from "../ts/json/print.js";
import { fromText, toText } from "../ts/text/index.js";
import { decodeToJsonString } from "../ts/json/tojson.js";
import { encodeFromJsonString } from "../ts/json/fromjson.js";
import { loadSchema } from "./dynamic.js";
import { defaultEmitOptions, emit, facades, type EmitOptions, type OutputFile } from "./emit/index.js";
import { loadProtos } from "./load.js";
import { decodeRaw } from "./raw.js";
import { buildModel } from "./model.js";
import { describeFiles } from "./describe.js";
import { OptimizeMode, type FileDescriptorProto } from "./descriptor.js";
import { validateDescriptors, validateOutputFileNames } from "./validate.js";

const usage = `Usage: hppproto-gen --out DIR [--proto_path DIR ...] [OUTPUT OPTIONS] FILE.proto ...
       hppproto-gen decode --type NAME [--proto_path DIR ...] [JSON OPTIONS] FILE.proto ... < payload.bin
       hppproto-gen decode --raw < payload.bin
       hppproto-gen encode --type NAME [--proto_path DIR ...] [--ignore_unknown_fields] FILE.proto ... < message.json
       hppproto-gen decode|encode --text --type NAME [--proto_path DIR ...] FILE.proto ...

Generates one TypeScript module per .proto file (and per file it imports) with its schema and,
per message, a plain-object interface, a zero-copy view class, a builder and a message type with
view()/decode()/encode() and ProtoJSON. Each module stands alone with the modules of the files it
imports: files may be generated together or one at a time into one --out.

decode reads one binary message of type NAME from stdin and prints it as ProtoJSON; encode reads
ProtoJSON from stdin and writes the binary message to stdout. With --text, both use the protobuf
text format instead (as protoc --decode and --encode do). Both build the schema at run time
from the .proto files, with the same result as generated code. decode --raw prints the fields of
any payload without a schema, as protoc --decode_raw does.

Options:
  --out DIR, -o DIR           output folder (created if missing)
  --proto_path DIR, -I DIR    where imports are looked up; repeatable (default: the working
                              directory, as with protoc). Files named on the command
                              line are found through the include path that contains them.
  --runtime_import SPEC       the module generated code imports (default: hppproto/generated;
                              files that need the codec import its codec beside it)

Output options:
  --target ts|js              ts: TypeScript modules (default); js: JavaScript modules with .d.ts
                              declarations (written by the generator; no TypeScript needed)
  --import_extension js|ts|none
                              extension of imports between generated modules: js (default, Node
                              ESM and TypeScript's NodeNext), ts (Deno, Bun,
                              allowImportingTsExtensions; --target ts only), none (bundlers)
  --int64 bigint|string|number
                              the JS type of int64, uint64, sint64, fixed64 and sfixed64 fields in
                              plain objects, view getters and builders (default bigint). A field's
                              [jstype = JS_STRING] or [jstype = JS_NUMBER] option overrides it.
                              number throws a RangeError on decode for values beyond 2^53 - 1
                              rather than round them. Views keep packed 64-bit lists as
                              BigInt64Array / BigUint64Array (zero-copy).
  --optimize_for speed|code_size
                              every file as if it said option optimize_for = SPEED or CODE_SIZE
                              (default: each file's own option). CODE_SIZE files get types and
                              one line per message; the runtime interprets their facades from
                              the schema (slower, and no code per field)
  --facades LIST              what to generate, comma-separated (default views,plain,builders,json):
                                views     view classes, Type.view() / viewDelimited()
                                plain     interfaces, Type.decode() / decodeDelimited(), encode()
                                          of plain objects, view.$toObject()
                                builders  builder classes, builder(Type) (brings view classes)
                                json      ProtoJSON writers of plain objects, for toJson() and
                                          toJsonString() (needs plain; without them those
                                          functions write from the schema)
                              What is left out is not in your bundle.
  --type NAME                 decode/encode: the message's full name, e.g. pkg.Message
  --raw                       decode: no schema, print field numbers and wire values
  --text                      decode/encode: the protobuf text format instead of ProtoJSON
  --emit_defaults             decode: print fields without presence even when they hold defaults
  --enums_as_ints             decode: enum values as numbers
  --proto_names               decode: .proto field names instead of lowerCamelCase json names
  --indent N                  decode: indent the JSON by N spaces (default: one line)
  --ignore_unknown_fields     encode: skip JSON fields and enum names the schema does not know
  --help, -h                  this text
  --version, -V               the version of hppproto-gen

The well-known types (google/protobuf/*.proto) are built in.

As a protoc plugin (protoc-gen-hppproto, installed with the package), for builds that run protoc or buf:
  protoc --plugin=protoc-gen-hppproto=node_modules/.bin/protoc-gen-hppproto --hppproto_out=DIR \\
         [--hppproto_opt=target=js,int64=string,facades=views+plain] FILE.proto ...
The output options go in as key=value pairs (lists joined with +); the output is what hppproto-gen
writes for the same files.`;

/** What to generate; unset options take the defaults. */
export interface OutputOptions extends Partial<Omit<EmitOptions, "codeSize">> {
  /** "ts": TypeScript modules; "js": JavaScript modules with .d.ts declarations. */
  target?: "ts" | "js";
  /** Every file as if it said option optimize_for = SPEED or CODE_SIZE; unset, each file's option decides. */
  optimizeFor?: "speed" | "code_size";
}

export interface GenerateOptions extends OutputOptions {
  files: string[];
  out: string;
  protoPaths: string[];
}

/**
 * Walks argv: `handle` gets each argument's flag (for --x=y, the part before "="), the argument,
 * and a reader of its value; returning false stops the walk.
 */
function eachArg(argv: string[], handle: (flag: string, arg: string, value: () => string) => boolean | void): void {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const value = () => {
      const v = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (handle(flag, arg, value) === false) return;
  }
}

/** --proto_path DIR, -I DIR and -IDIR: true when the argument was one. */
function protoPathArg(flag: string, arg: string, value: () => string, paths: string[]): boolean {
  if (flag === "--proto_path" || flag === "-I") paths.push(value());
  else if (arg.startsWith("-I") && arg.length > 2) paths.push(arg.slice(2));
  else return false;
  return true;
}

export function parseArgs(argv: string[]): GenerateOptions | "help" {
  const opts: GenerateOptions = { files: [], out: "", protoPaths: [] };
  let help = false;
  eachArg(argv, (flag, a, value) => {
    if (flag === "-h" || flag === "--help") {
      help = true;
      return false;
    }
    if (flag === "--out" || flag === "-o") opts.out = value();
    else if (protoPathArg(flag, a, value, opts.protoPaths)) return;
    else if (outputFlags.includes(flag)) parseOutputOption(opts, flag, value());
    else if (a.startsWith("-")) throw new UsageError(`unknown option ${a}`);
    else opts.files.push(a);
  });
  if (help) return "help";
  if (!opts.out) throw new UsageError("--out is required");
  if (opts.files.length === 0) throw new UsageError("no .proto files given");
  return opts;
}

const importExtensions = { js: ".js", ts: ".ts", none: "" } as const;
const outputFlags = ["--runtime_import", "--target", "--import_extension", "--int64", "--facades", "--optimize_for"];

/** One output option (the CLI's --flag, or the protoc plugin's key=value) into opts. */
export function parseOutputOption(opts: OutputOptions, flag: string, value: string): void {
  switch (flag) {
    case "--runtime_import": opts.runtimeImport = value; break;
    case "--target": opts.target = oneOf(flag, value, ["ts", "js"]); break;
    case "--import_extension": opts.importExtension = importExtensions[oneOf(flag, value, ["js", "ts", "none"])]; break;
    case "--int64": opts.int64 = oneOf(flag, value, ["bigint", "string", "number"]); break;
    case "--facades": opts.facades = new Set(value.split(",").map((f) => oneOf(flag, f.trim(), facades))); break;
    case "--optimize_for": opts.optimizeFor = oneOf(flag, value, ["speed", "code_size"]); break;
    default: throw new UsageError(`unknown option ${flag.replace(/^--/, "")}`);
  }
}

function oneOf<const T extends string>(flag: string, v: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`${flag} takes ${allowed.join(", ")}, not ${JSON.stringify(v)}`);
  return v as T;
}

/** Combinations that cannot work, refused before anything is written. */
function checkOutputOptions(opts: OutputOptions): void {
  if (opts.target === "js" && opts.importExtension === ".ts") throw new UsageError("JavaScript output cannot import .ts files: use --import_extension js or none");
  if (opts.facades?.size === 0) throw new UsageError("--facades names none");
  if (opts.facades?.has("json") && !opts.facades.has("plain")) throw new UsageError("the json facade needs plain (ProtoJSON reads and writes plain objects)");
}

export class UsageError extends Error {}

/** Generates into opts.out. Output is written to a temporary folder first, so a failure leaves nothing half-written. */
export function generate(opts: GenerateOptions): { files: number; messages: number } {
  const loaded = loadProtos(opts.files, opts.protoPaths);
  const described = describeFiles(loaded);
  const { outputs, modules, messages } = buildOutputs(described, opts);
  mkdirSync(opts.out, { recursive: true });
  const tmp = mkdtempSync(path.join(opts.out, ".hppproto-gen-"));
  try {
    for (const f of outputs) {
      const target = path.join(tmp, f.name);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, f.content);
    }
    moveInto(tmp, opts.out);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  removeFormerSchemaModule(opts.out);
  return { files: modules, messages };
}

/**
 * Earlier versions wrote one schema module per run, hppproto_schema, which nothing imports now
 * and which no longer type-checks: removed when this generator wrote it (its first line says so).
 */
function removeFormerSchemaModule(out: string): void {
  for (const name of ["hppproto_schema.ts", "hppproto_schema.js", "hppproto_schema.d.ts"]) {
    const file = path.join(out, name);
    if (existsSync(file) && readFileSync(file, "utf8").startsWith("// Generated by hppproto-gen. Do not edit.\n")) rmSync(file);
  }
}

/**
 * The files to write for a parsed schema: one module per .proto file, or per file of `only` when
 * given (each module stands alone with the modules of the files it imports, generated by this run
 * or another).
 */
export function buildOutputs(files: readonly FileDescriptorProto[], opts: OutputOptions, only?: ReadonlySet<string>): { outputs: OutputFile[]; modules: number; messages: number } {
  checkOutputOptions(opts);
  validateOutputFileNames(files);
  validateDescriptors(files);
  const model = buildModel(files, "file");
  // the files that say option optimize_for = CODE_SIZE
  const codeSize = new Set(files.filter((f) => f.options?.optimizeFor === OptimizeMode.CodeSize).map((f) => f.name));
  const d = defaultEmitOptions;
  const modules = emit(model, opts.target ?? "ts", {
    runtimeImport: opts.runtimeImport ?? d.runtimeImport,
    importExtension: opts.importExtension ?? d.importExtension,
    int64: opts.int64 ?? d.int64,
    facades: opts.facades ?? d.facades,
    codeSize: opts.optimizeFor === "code_size" ? "all" : opts.optimizeFor === "speed" ? new Set() : codeSize,
  }, only);
  const written = (m: { file: string; isMapEntry: boolean; extensionHolder?: unknown }) => !m.isMapEntry && !m.extensionHolder && (only === undefined || only.has(m.file));
  return { outputs: modules, modules: modules.filter((f) => !f.name.endsWith(".d.ts")).length, messages: model.messages.filter(written).length };
}

function moveInto(from: string, to: string): void {
  for (const name of readdirSync(from)) {
    const src = path.join(from, name);
    const dst = path.join(to, name);
    if (statSync(src).isDirectory()) {
      mkdirSync(dst, { recursive: true });
      moveInto(src, dst);
    } else {
      if (existsSync(dst)) rmSync(dst);
      renameSync(src, dst);
    }
  }
}

export function main(argv: string[]): number | Promise<number> {
  try {
    if (argv[0] === "decode" || argv[0] === "encode") return convert(argv[0], argv.slice(1)).catch(report);
    if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
      console.log(version());
      return 0;
    }
    const opts = parseArgs(argv);
    if (opts === "help") {
      console.log(usage);
      return 0;
    }
    const t0 = performance.now();
    const r = generate(opts);
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
    console.error(`hppproto-gen: ${count(r.files, "module")}, ${count(r.messages, "message")} in ${Math.round(performance.now() - t0)} ms -> ${opts.out}`);
    return 0;
  } catch (e) {
    return report(e);
  }
}

/** The package's version, from its package.json (two folders up from dist/codegen/cli.js). */
function version(): string {
  return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
}

function report(e: unknown): number {
  if (e instanceof UsageError) {
    console.error(`hppproto-gen: ${e.message}\n\n${usage}`);
    return 2;
  }
  if (e instanceof Error) {
    console.error(`hppproto-gen: ${e.message}`);
    return 1;
  }
  throw e;
}

export interface ConvertOptions {
  type: string;
  raw: boolean;
  files: string[];
  protoPaths: string[];
  json: JsonWriteOptions & { indent?: number };
  ignoreUnknownFields: boolean;
  /** The protobuf text format instead of ProtoJSON. */
  text: boolean;
}

export function parseConvertArgs(command: "decode" | "encode", argv: string[]): ConvertOptions {
  const opts: ConvertOptions = { type: "", raw: false, files: [], protoPaths: [], json: {}, ignoreUnknownFields: false, text: false };
  const decodeOnly = (flag: string) => {
    if (command !== "decode") throw new UsageError(`${flag} is an option of decode`);
  };
  eachArg(argv, (flag, a, value) => {
    if (flag === "--type") opts.type = value();
    else if (protoPathArg(flag, a, value, opts.protoPaths)) return;
    else if (flag === "--raw") (decodeOnly(flag), (opts.raw = true));
    else if (flag === "--text") opts.text = true;
    else if (flag === "--emit_defaults") (decodeOnly(flag), (opts.json.emitDefaults = true));
    else if (flag === "--enums_as_ints") (decodeOnly(flag), (opts.json.enumsAsInts = true));
    else if (flag === "--proto_names") (decodeOnly(flag), (opts.json.useProtoNames = true));
    else if (flag === "--indent") {
      decodeOnly(flag);
      const n = Number(value());
      if (!Number.isInteger(n) || n < 0 || n > 10) throw new UsageError("--indent takes a number of spaces from 0 to 10");
      opts.json.indent = n;
    } else if (flag === "--ignore_unknown_fields") {
      if (command !== "encode") throw new UsageError(`${flag} is an option of encode`);
      opts.ignoreUnknownFields = true;
    } else if (a.startsWith("-")) throw new UsageError(`unknown option ${a}`);
    else opts.files.push(a);
  });
  if (opts.raw) {
    if (opts.type || opts.files.length > 0 || opts.text) throw new UsageError("decode --raw takes no --type, --text or .proto files");
    return opts;
  }
  if (opts.text && (Object.keys(opts.json).length > 0 || opts.ignoreUnknownFields)) throw new UsageError("--text takes none of the JSON options");
  if (!opts.type) throw new UsageError("--type is required");
  if (opts.files.length === 0) throw new UsageError("no .proto files given");
  return opts;
}

/** decode/encode between stdin and stdout with a schema built from the .proto files. */
async function convert(command: "decode" | "encode", argv: string[]): Promise<number> {
  const opts = parseConvertArgs(command, argv);
  // a stream, not readFileSync(0), which fails with EAGAIN on a non-blocking pipe
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const input = Buffer.concat(chunks);
  if (opts.raw) {
    process.stdout.write(decodeRaw(input));
    return 0;
  }
  const { types } = loadSchema(opts.files, opts.protoPaths);
  const type = types.get(opts.type.replace(/^\./, ""));
  if (type === undefined) {
    const near = [...types.keys()].filter((name) => name.endsWith(`.${opts.type}`));
    const hint = near.length > 0 ? ` (did you mean ${near.join(" or ")}? --type takes the full name, package included)` : "";
    throw new Error(`no message type ${opts.type} in ${opts.files.join(", ")}${hint}`);
  }
  await init();
  if (command === "decode") {
    // ProtoJSON straight from the decoded record (no JS object in between)
    process.stdout.write(opts.text ? toText(type, type.decode(input)) : decodeToJsonString(type, input, opts.json) + "\n");
  } else {
    const text = input.toString("utf8");
    process.stdout.write(opts.text ? type.encode(fromText(type, text)) : encodeFromJsonString(type, text, { ignoreUnknownFields: opts.ignoreUnknownFields }));
  }
  return 0;
}
