// Generates every library's code for the benchmark schemas into bench/gen/, each with its own
// generator as its users would run it, then bundles the suite for Node and for the browser.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const bench = dirname(fileURLToPath(import.meta.url));
const root = join(bench, "..");
const gen = join(bench, "gen");
const bin = join(root, "node_modules", ".bin");
const testdata = join(root, "testdata", "protos");

const files = ["benchmark_messages_proto2.proto", "benchmark_messages_proto3.proto", "tick.proto", "arrays.proto", "tile.proto", "span.proto"];

function run(cmd, args, cwd = root) {
  execFileSync(cmd, args, { cwd, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
}

/** Copies the .proto files into OUT/protos and runs every library's generator on them. */
export function generate(out, names = files) {
  const protos = join(out, "protos");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(protos, { recursive: true });
  for (const f of names) cpSync(join(f.startsWith("benchmark_") ? testdata : join(bench, "protos"), f), join(protos, f));
  const paths = names.map((f) => join(protos, f));

  // hppproto
  run("node", [join(root, "bin", "hppproto-gen.mjs"), "--out", join(out, "hppproto"), "-I", protos, ...paths]);
  // the same with optimize_for = CODE_SIZE: what interpreting the schema costs in speed
  run("node", [join(root, "bin", "hppproto-gen.mjs"), "--out", join(out, "hppproto-code-size"), "--optimize_for", "code_size", "-I", protos, ...paths]);

  // protobufjs: static code, as `pbjs -t static-module -w es6` users ship it
  mkdirSync(join(out, "protobufjs"));
  run(join(bin, "pbjs"), ["-t", "static-module", "-w", "es6", "--no-comments", "--es6", "-o", join(out, "protobufjs", "messages.js"), ...paths]);

  // ts-proto and protobuf-es through buf (its compiler ships in the npm package), both with 64-bit
  // integers as bigint so no library loses precision on GoogleMessage1's field21
  writeFileSync(join(out, "buf.gen.yaml"), [
    "version: v2",
    "plugins:",
    "  - local: protoc-gen-ts_proto",
    "    out: ts-proto",
    "    opt: [forceLong=bigint, esModuleInterop=true, importSuffix=.js]",
    "  - local: protoc-gen-es",
    "    out: protobuf-es",
    "    opt: [target=ts, import_extension=js]",
    "",
  ].join("\n"));
  run(join(bin, "buf"), ["generate", "protos", "--template", "buf.gen.yaml"], out);

  // pbf: its compiler, one module per file. Its parser has no groups, so it gets the proto2 file
  // without GoogleMessage2 (which has them and is not benchmarked).
  mkdirSync(join(out, "pbf", "protos"), { recursive: true });
  for (const f of names) {
    const text = readFileSync(join(protos, f), "utf8");
    writeFileSync(join(out, "pbf", "protos", f), text.replace(/^message GoogleMessage2 \{[^]*/m, ""));
    const js = execFileSync(join(bin, "pbf"), [join(out, "pbf", "protos", f)], { encoding: "utf8" });
    writeFileSync(join(out, "pbf", f.replace(/\.proto$/, ".js")), js);
  }
}

export async function prepare() {
  generate(gen);

  // The suite, bundled once per platform so Node and Chromium run the same code.
  const common = { bundle: true, format: "esm", target: "es2022", logLevel: "warning", entryPoints: [join(bench, "suite", "index.ts")] };
  await esbuild.build({ ...common, platform: "node", outfile: join(gen, "suite.node.mjs"), external: ["node:*"] });
  await esbuild.build({ ...common, platform: "browser", outfile: join(gen, "suite.browser.js"), external: ["node:*"] });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await prepare();
