// `npm run bench:sizes`: what each library adds to a browser bundle for the smallest useful program,
// decoding one GoogleMessage1 (proto3) from bytes. esbuild --bundle --minify of that entry, raw and
// gzip -9; hppproto's browser entry carries its WASM module inside the JS (gzip + base64). Writes bench/results/sizes.json and the README table.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { generate } from "./prepare.mjs";

const bench = dirname(fileURLToPath(import.meta.url));
const root = join(bench, "..");
const out = join(bench, "gen", "sizes");

const entries = {
  // the whole runtime without generated code: what the 16 KB budget is about
  "hppproto runtime": `export * from "hppproto";`,
  hppproto: `import { init } from "hppproto";
import { GoogleMessage1 } from "./hppproto/benchmark_messages_proto3_pb.js";
await init();
export const decode = (bytes) => GoogleMessage1.decode(bytes);`,
  // the same program generated with only what it uses: no views, builders or ProtoJSON
  "hppproto --facades plain": `import { init } from "hppproto";
import { GoogleMessage1 } from "./hppproto-plain/benchmark_messages_proto3_pb.js";
await init();
export const decode = (bytes) => GoogleMessage1.decode(bytes);`,
  // tree shaking: one message of test_messages_proto3's 22 (ForeignMessage, one int32), against
  // the same message generated alone; what remains between them is the run's shared schema table
  "hppproto, 1 message of 22": `import { init } from "hppproto";
import { ForeignMessage } from "./hppproto-tm3/google/protobuf/test_messages_proto3_pb.js";
await init();
export const decode = (bytes) => ForeignMessage.decode(bytes);`,
  "hppproto, that message alone": `import { init } from "hppproto";
import { ForeignMessage } from "./hppproto-alone/foreign_pb.js";
await init();
export const decode = (bytes) => ForeignMessage.decode(bytes);`,
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
  const conformance = join(root, "testdata", "protos", "conformance");
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
  mkdirSync(join(bench, "results"), { recursive: true });
  writeFileSync(join(bench, "results", "sizes.json"), JSON.stringify({ date: new Date().toISOString(), rows }, null, 1) + "\n");
  const kb = (n) => (n / 1024).toFixed(1) + " KB";
  const table = [
    "| library | minified | gzip |",
    "|---|---:|---:|",
    ...rows.map((r) => `| ${r.library} | ${kb(r.js)} | ${kb(r.js_gzip)} |`),
  ].join("\n");
  const readme = join(root, "README.md");
  const text = readFileSync(readme, "utf8");
  const start = "<!-- bench:sizes:start -->", end = "<!-- bench:sizes:end -->";
  const [a, b] = [text.indexOf(start), text.indexOf(end)];
  if (a < 0 || b < a) throw new Error(`README.md has no ${start} ... ${end} section`);
  writeFileSync(readme, text.slice(0, a) + `${start}\n${table}\n` + text.slice(b));
  console.log(table);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await sizes();
