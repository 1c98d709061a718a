// `npm run bench:sizes`: what each library adds to a browser bundle for the smallest useful program,
// decoding one GoogleMessage1 (proto3) from bytes. esbuild --bundle --minify of that entry, raw and
// gzip -9; hppproto's browser entry carries its WASM module inside the JS (gzip + base64). Then the
// generated code alone against protoc-gen-es's (issue 19's measure). Writes bench/results/sizes.json
// and the README tables.
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { generate } from "./prepare.mjs";

const bench = dirname(fileURLToPath(import.meta.url));
const root = join(bench, "..");
const out = join(bench, "gen", "sizes");

/** A program that starts hppproto from `entry`, imports `name` from `module` and calls `call` on its argument. */
const hppproto = (module, name, call = `${name}.decode(input)`, entry = "hppproto") => `import { init } from "${entry}";
import { ${name} } from "./${module}";
await init();
export const run = (input) => ${call};`;
const gm1 = "hppproto/benchmark_messages_proto3_pb.js";

const entries = {
  // the whole runtime without generated code: what the 16 KB budget is about
  "hppproto runtime": `export * from "hppproto"; export * from "hppproto/generated";`,
  hppproto: hppproto(gm1, "GoogleMessage1"),
  // the message type's decode() as a function of its own: the program carries no views, encoders,
  // ProtoJSON writers or message type
  "hppproto, decodeGoogleMessage1()": hppproto(gm1, "decodeGoogleMessage1", "decodeGoogleMessage1(input)"),
  "hppproto, viewGoogleMessage1()": hppproto(gm1, "viewGoogleMessage1", "viewGoogleMessage1(input)"),
  // encode() of plain objects alone: no compiled decoders either
  "hppproto, encodeGoogleMessage1()": hppproto(gm1, "encodeGoogleMessage1", "encodeGoogleMessage1(input)"),
  // the tick message of the streaming benchmarks (bench/protos/tick.proto), decoded alone
  "hppproto, decodeTick()": hppproto("hppproto-tick/tick_pb.js", "decodeTick", "decodeTick(input)"),
  // the same program generated with only what it uses: no views, builders or ProtoJSON
  "hppproto --facades plain": hppproto("hppproto-plain/benchmark_messages_proto3_pb.js", "GoogleMessage1"),
  // the same, started with the decode-only module (no encoder)
  "hppproto --facades plain, hppproto/decode": hppproto("hppproto-plain/benchmark_messages_proto3_pb.js", "GoogleMessage1", undefined, "hppproto/decode"),
  // the same program generated with optimize_for = CODE_SIZE: the facades come from the runtime
  "hppproto --optimize_for code_size": hppproto("hppproto-code-size/benchmark_messages_proto3_pb.js", "GoogleMessage1"),
  // tree shaking: one message of test_messages_proto3's 22 (ForeignMessage, one int32), against
  // the same message generated alone; what remains between them is the run's shared schema table
  "hppproto, 1 message of 22": hppproto("hppproto-tm3/google/protobuf/test_messages_proto3_pb.js", "ForeignMessage"),
  "hppproto, that message alone": hppproto("hppproto-alone/foreign_pb.js", "ForeignMessage"),
  protobufjs: `import { benchmarks } from "./protobufjs/messages.js";
export const decode = (bytes) => benchmarks.proto3.GoogleMessage1.decode(bytes);`,
  "ts-proto": `import { GoogleMessage1 } from "./ts-proto/benchmark_messages_proto3.js";
export const decode = (bytes) => GoogleMessage1.decode(bytes);`,
  "protobuf-es": `import { fromBinary } from "@bufbuild/protobuf";
import { GoogleMessage1Schema } from "./protobuf-es/benchmark_messages_proto3_pb.js";
export const decode = (bytes) => fromBinary(GoogleMessage1Schema, bytes);`,
  pbf: `import { PbfReader } from "pbf";
import { readGoogleMessage1 } from "./pbf/benchmark_messages_proto3.js";
export const decode = (bytes) => readGoogleMessage1(new PbfReader(bytes));`,
};

export async function sizes() {
  generate(out, ["benchmark_messages_proto3.proto"]);
  execFileSync(process.execPath, [join(root, "bin", "hppproto-gen.mjs"), "--out", join(out, "hppproto-plain"), "--facades", "plain", "-I", join(out, "protos"), join(out, "protos", "benchmark_messages_proto3.proto")], { stdio: "pipe" });
  execFileSync(process.execPath, [join(root, "bin", "hppproto-gen.mjs"), "--out", join(out, "hppproto-code-size"), "--optimize_for", "code_size", "-I", join(out, "protos"), join(out, "protos", "benchmark_messages_proto3.proto")], { stdio: "pipe" });
  const conformance = join(root, "testdata", "protos", "conformance");
  execFileSync(process.execPath, [join(root, "bin", "hppproto-gen.mjs"), "--out", join(out, "hppproto-tick"), "-I", join(bench, "protos"), join(bench, "protos", "tick.proto")], { stdio: "pipe" });
  execFileSync(process.execPath, [join(root, "bin", "hppproto-gen.mjs"), "--out", join(out, "hppproto-tm3"), "-I", conformance, join(conformance, "google", "protobuf", "test_messages_proto3.proto")], { stdio: "pipe" });
  mkdirSync(join(out, "alone"), { recursive: true });
  writeFileSync(join(out, "alone", "foreign.proto"), 'syntax = "proto3";\npackage protobuf_test_messages.proto3;\nmessage ForeignMessage { int32 c = 1; }\n');
  execFileSync(process.execPath, [join(root, "bin", "hppproto-gen.mjs"), "--out", join(out, "hppproto-alone"), "-I", join(out, "alone"), join(out, "alone", "foreign.proto")], { stdio: "pipe" });
  const rows = [];
  for (const [library, source] of Object.entries(entries)) {
    const result = await esbuild.build({
      stdin: { contents: source, resolveDir: out, sourcefile: `${library}-entry.js`, loader: "js" },
      bundle: true, minify: true, format: "esm", platform: "browser", target: "es2022", write: false, logLevel: "warning",
      external: ["node:*"],
    });
    const js = result.outputFiles[0].contents;
    const row = { library, js: js.length, js_gzip: gzipSync(js, { level: 9 }).length };
    rows.push(row);
  }
  const code = await generatedCode();
  mkdirSync(join(bench, "results"), { recursive: true });
  writeFileSync(join(bench, "results", "sizes.json"), JSON.stringify({ date: new Date().toISOString(), rows, generated: code }, null, 1) + "\n");
  const kb = (n) => (n / 1024).toFixed(1) + " KB";
  const table = [
    "| library | minified | gzip |",
    "|---|---:|---:|",
    ...rows.map((r) => `| ${r.library} | ${kb(r.js)} | ${kb(r.js_gzip)} |`),
  ].join("\n");
  const es = (schemas) => code.find((r) => r.generator === "protoc-gen-es" && r.schemas === schemas);
  const codeTable = [
    "| schemas | generator | minified | gzip | gzip vs protoc-gen-es |",
    "|---|---|---:|---:|---:|",
    ...code.map((r) => `| ${r.schemas} | ${r.generator} | ${kb(r.js)} | ${kb(r.js_gzip)} | ${(r.js_gzip / es(r.schemas).js_gzip).toFixed(2)}× |`),
  ].join("\n");
  replaceSection("bench:sizes", table);
  replaceSection("bench:codesize", codeTable);
  console.log(table + "\n\n" + codeTable);
}

function replaceSection(name, table) {
  const readme = join(root, "README.md");
  const text = readFileSync(readme, "utf8");
  const start = `<!-- ${name}:start -->`, end = `<!-- ${name}:end -->`;
  const [a, b] = [text.indexOf(start), text.indexOf(end)];
  if (a < 0 || b < a) throw new Error(`README.md has no ${start} ... ${end} section`);
  writeFileSync(readme, text.slice(0, a) + `${start}\n${table}\n` + text.slice(b));
}

/**
 * The generated code alone: every export of the generated modules bundled and minified with the
 * runtime packages left out, for hppproto (all facades, and plain objects only) and protoc-gen-es
 * (run by protoc, which Debian's protobuf-compiler provides) on the same schemas.
 */
async function generatedCode() {
  const conformance = join(root, "testdata", "protos", "conformance");
  const sets = {
    "test_messages_proto3": { include: conformance, files: ["google/protobuf/test_messages_proto3.proto"] },
    "benchmark schemas (6 files)": { include: join(out, "protos"), files: ["benchmark_messages_proto2.proto", "benchmark_messages_proto3.proto", "tick.proto", "tile.proto", "span.proto", "arrays.proto"] },
  };
  for (const f of sets["benchmark schemas (6 files)"].files) cpSync(join(f.startsWith("benchmark_") ? join(root, "testdata", "protos") : join(bench, "protos"), f), join(out, "protos", f));
  const rows = [];
  for (const [schemas, { include, files }] of Object.entries(sets)) {
    const dir = join(out, "code", schemas.replace(/\W+/g, "_"));
    const paths = files.map((f) => join(include, f));
    const gen = (name, args) => execFileSync(process.execPath, [join(root, "bin", "hppproto-gen.mjs"), "--out", join(dir, name), "--target", "js", ...args, "-I", include, ...paths], { stdio: "pipe" });
    gen("hppproto", []);
    gen("hppproto-plain", ["--facades", "plain"]);
    gen("hppproto-code-size", ["--optimize_for", "code_size"]);
    mkdirSync(join(dir, "es"), { recursive: true });
    execFileSync("protoc", [`--plugin=protoc-gen-es=${join(root, "node_modules", ".bin", "protoc-gen-es")}`, `--es_out=${join(dir, "es")}`, "--es_opt=target=js", "-I", include, ...paths], { stdio: "pipe" });
    for (const [generator, sub, suffix] of [["hppproto", "hppproto", "_pb.js"], ["hppproto --facades plain", "hppproto-plain", "_pb.js"], ["hppproto --optimize_for code_size", "hppproto-code-size", "_pb.js"], ["protoc-gen-es", "es", "_pb.js"]]) {
      const entry = files.map((f) => `export * from "./${sub}/${f.replace(/\.proto$/, suffix)}";`).join("\n");
      const result = await esbuild.build({
        stdin: { contents: entry, resolveDir: dir, sourcefile: "entry.js", loader: "js" },
        bundle: true, minify: true, format: "esm", platform: "browser", target: "es2022", write: false, logLevel: "warning",
        external: ["hppproto", "hppproto/generated", "@bufbuild/protobuf", "@bufbuild/protobuf/*"],
      });
      const js = result.outputFiles[0].contents;
      rows.push({ schemas, generator, js: js.length, js_gzip: gzipSync(js, { level: 9 }).length });
    }
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await sizes();
