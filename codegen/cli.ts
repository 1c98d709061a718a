// hppproto-gen: .proto files in, TypeScript modules out.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync, existsSync, readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import { emit } from "./emit.js";
import { loadProtos, ProtoLoadError } from "./load.js";
import { buildModel } from "./model.js";

const usage = `Usage: hppproto-gen --out DIR [--proto_path DIR ...] FILE.proto ...

Generates one TypeScript module per .proto file (plus hppproto_schema.ts) with, per message,
a plain-object interface, a zero-copy view class and a message type with view()/decode().

Options:
  --out DIR, -o DIR           output folder (created if missing)
  --proto_path DIR, -I DIR    where imports are looked up; repeatable. Files named on the command
                              line are found through the include path that contains them.
  --runtime_import SPEC       module specifier of the runtime (default: hppproto)
  --help, -h                  this text

The well-known types (google/protobuf/*.proto) are built in.`;

export interface GenerateOptions {
  files: string[];
  out: string;
  protoPaths: string[];
  runtimeImport: string;
}

export function parseArgs(argv: string[]): GenerateOptions | "help" {
  const opts: GenerateOptions = { files: [], out: "", protoPaths: [], runtimeImport: "hppproto" };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.startsWith("--") && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === "-h" || flag === "--help") return "help";
    else if (flag === "--out" || flag === "-o") opts.out = value();
    else if (flag === "--proto_path" || flag === "-I") opts.protoPaths.push(value());
    else if (a.startsWith("-I") && a.length > 2) opts.protoPaths.push(a.slice(2));
    else if (flag === "--runtime_import") opts.runtimeImport = value();
    else if (a.startsWith("-")) throw new UsageError(`unknown option ${a}`);
    else opts.files.push(a);
  }
  if (!opts.out) throw new UsageError("--out is required");
  if (opts.files.length === 0) throw new UsageError("no .proto files given");
  return opts;
}

export class UsageError extends Error {}

/** Generates into opts.out. Output is written to a temporary folder first, so a failure leaves nothing half-written. */
export function generate(opts: GenerateOptions): { files: number; messages: number } {
  const { root, importNames } = loadProtos(opts.files, opts.protoPaths);
  const model = buildModel(root, importNames);
  const outputs = emit(model, { runtimeImport: opts.runtimeImport });
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
  return { files: outputs.length, messages: model.messages.filter((m) => !m.isMapEntry).length };
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

export function main(argv: string[]): number {
  try {
    const opts = parseArgs(argv);
    if (opts === "help") {
      console.log(usage);
      return 0;
    }
    const t0 = performance.now();
    const r = generate(opts);
    console.error(`hppproto-gen: ${r.files} modules, ${r.messages} messages in ${Math.round(performance.now() - t0)} ms -> ${opts.out}`);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`hppproto-gen: ${e.message}\n\n${usage}`);
      return 2;
    }
    if (e instanceof ProtoLoadError || e instanceof Error) {
      console.error(`hppproto-gen: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
