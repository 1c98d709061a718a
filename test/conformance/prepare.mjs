// Generates the conformance schemas (the runner's protocol plus the test messages) as JavaScript
// with hppproto-gen --target js, so the testee runs under plain Node. Needs `npm run build` first
// (dist/codegen). The testee starts often (the runner restarts it after a crash), so the code is
// generated again only when the generator or the schemas are newer than the last generation.
import { readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "../../dist/codegen/cli.js";

const here = path.dirname(fileURLToPath(import.meta.url));
// HPPPROTO_OPTIMIZE_FOR=code_size runs the suite on code generated with --optimize_for code_size
const optimizeFor = process.env.HPPPROTO_OPTIMIZE_FOR === "code_size" ? "code_size" : undefined;
export const genDir = path.join(here, optimizeFor ? "gen-code_size" : "gen");
const stamp = path.join(genDir, ".generated");
const codegenDir = path.join(here, "../../dist/codegen");
const protoPath = path.join(here, "../../testdata/protos/conformance");
export const protoFiles = [
  "conformance/conformance.proto",
  "google/protobuf/test_messages_proto2.proto",
  "google/protobuf/test_messages_proto3.proto",
  "conformance/test_protos/test_messages_edition2023.proto",
  "conformance/test_protos/test_messages_edition_unstable.proto",
  "editions/golden/test_messages_proto2_editions.proto",
  "editions/golden/test_messages_proto3_editions.proto",
];

const mtime = (file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? -1;

function upToDate() {
  const generated = mtime(stamp);
  const inputs = [...readdirSync(codegenDir).map((f) => path.join(codegenDir, f)), ...protoFiles.map((f) => path.join(protoPath, f))];
  return inputs.every((f) => mtime(f) < generated);
}

/** Generates the modules unless they are up to date; `force` generates them anyway. */
export function prepare(force = false) {
  if (!force && upToDate()) return;
  generate({
    files: protoFiles.map((f) => path.join(protoPath, f)),
    out: genDir,
    protoPaths: [protoPath],
    target: "js", // plain Node runs it as it is
    optimizeFor,
  });
  writeFileSync(stamp, "");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) prepare(true);
